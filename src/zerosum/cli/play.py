"""`zerosum play GAME [POSITION]`: a game against the program in the terminal.

The game is played by the project's one game loop (`zerosum.match.play_game`); this face draws
the position (the game's `render`), reads the human's moves (its `parse_move`; a `ValueError`
message is shown and the move asked again), shows the program's moves and the dice, and
announces the result from `utility`. Any game the registry knows is playable, a user's own
included: without `render` a position is shown as `str(state)`, without `parse_move` a move is
typed as its `str`. The program is the game's default player, or `--ai SPEC`.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from contextlib import AbstractContextManager
from typing import Any

from zerosum import notation, players, registry
from zerosum.cli.common import add_book, add_game_argument, add_no_limit, game_setup
from zerosum.cli.play_hidden import run_hidden
from zerosum.cli.solve import watched
from zerosum.compiled.choice import IMPLEMENTATIONS
from zerosum.game import Chance, Game, InformationSets, Player
from zerosum.match import Chooser, play_game
from zerosum.players import Seat
from zerosum.solve import Table
from zerosum.solve.answer import ExactSolver
from zerosum.solve.compact import CompactTable
from zerosum.solve.compact import load as load_table
from zerosum.solve.connect4 import DEFAULT_TABLE_MB

QUIT_WORDS = {"q", "quit", "exit"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play against the program in the terminal (type q to leave). The program is the"
        " game's default player (zerosum games shows it), or the one --ai describes;"
        " --time and --depth make it search that long or that deep."
    )
    add_game_argument(parser)
    parser.add_argument("--first", choices=("human", "ai"), help="who moves first")
    parser.add_argument("--as", dest="mark", metavar="MARK", help="your side, e.g. X or O")
    parser.add_argument(
        "--ai", metavar="SPEC", help="the program's player, e.g. engine:time=1 or mcts:time=2"
    )
    parser.add_argument(
        "--time",
        type=float,
        help=f"the program's seconds per move (at most {players.MOST_SECONDS:,g})",
    )
    parser.add_argument("--depth", type=int, help=f"the program's search depth ({players.DEPTH})")
    parser.add_argument(
        "--perfect",
        action="store_true",
        help="the program plays perfectly, by the game's exact solver (the solver player)",
    )
    add_solver_options(parser)
    parser.add_argument("--table", help="a table file the program plays from")
    parser.add_argument(
        "--syzygy", metavar="PATH", help="endgame tables the program scores positions from"
    )
    parser.add_argument(
        "--strategy",
        metavar="FILE",
        help="a game of imperfect information: the program plays this strategy (zerosum cfr"
        " --save), not CFR+'s computed on the spot",
    )
    parser.add_argument(
        "--seed", type=int, help="seed for the dice and the cards of games with chance"
    )
    parser.add_argument(
        "--engine",
        choices=IMPLEMENTATIONS,
        help="the program's engine or MCTS: compiled (the default for a game with compiled"
        " rules) or python",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    setup = game_setup(args, hidden=True)
    game, entry = setup.game, setup.entry
    registry.unfinished(setup)
    names = notation.player_names(game)
    human = human_side(args.first, args.mark, names)
    if isinstance(game, InformationSets):
        return run_hidden(args, setup, human)
    if args.strategy is not None:
        raise ValueError(f"--strategy is for games of imperfect information, not {entry.name}")
    spec = players.parse_player(program_spec(args, setup))
    if args.engine is not None:
        if spec.kind not in ("engine", "mcts"):
            raise ValueError(f"--engine chooses the engine or MCTS, not the {spec.kind} player")
        if spec.options.get("impl", args.engine) != args.engine:
            raise ValueError(f"--engine {args.engine} and impl={spec.options['impl']} disagree")
        spec = dataclasses.replace(spec, options={**spec.options, "impl": args.engine})
    table = load_table(args.table, game) if args.table else None
    tablebase = endgame_tables(setup, args.syzygy) if args.syzygy else table
    seat = Seat(entry, tablebase=tablebase, **solver_seat(args, spec), thinking=thinking)
    program = players.make_player(spec, game, seat)
    if table is not None:
        program = table_player(table, program)
    print(f"You are {names[human]}, the program is {names[1 - human]}. Type q to leave.")
    seats = [program, program]
    seats[human] = lambda state: ask_move(game, state, names[human])
    return show_game(game, setup.state, seats, human, names, random.Random(args.seed))


def program_spec(args: argparse.Namespace, setup: registry.Setup) -> str:
    """The spec of the program's player: `--ai`, a search of `--time` or `--depth`, or the
    game's default player."""
    if args.perfect:
        given = [option for option in ("ai", "time", "depth") if getattr(args, option) is not None]
        if given:
            raise ValueError(f"--perfect is the program's player: give it or --{given[0]}")
        return "solver"
    if args.ai is not None:
        if args.time is not None or args.depth is not None:
            raise ValueError("give the program's budget in --ai, or --time/--depth, not both")
        return args.ai
    if args.time is not None:
        players.check_budget("time", args.time, "--time")
    if args.depth is not None:
        players.check_budget("depth", args.depth, "--depth")
    if args.time is not None or args.depth is not None:
        return players.searching_player(setup.entry, setup.game, args.time, args.depth)
    return registry.default_player(setup.entry, setup.game)


def add_solver_options(parser: argparse.ArgumentParser) -> None:
    """The options of a command whose players may include the `solver` player: its table's size
    and the lifting of its stated limits."""
    parser.add_argument(
        "--table-mb",
        type=float,
        metavar="MB",
        help=f"the solver player's table (connect4's; default {DEFAULT_TABLE_MB:g} MB)",
    )
    add_no_limit(parser, "the nodes of the solver player's Connect Four solves")
    add_book(parser, "the solver player")


def solver_seat(args: argparse.Namespace, spec: players.PlayerSpec) -> dict[str, Any]:
    """What `--table-mb`, `--no-limit`, `--book` and `--no-book` give the `solver` player's
    seat; ValueError for a `--table-mb` or a `--book` no solver player reads."""
    if args.table_mb is not None and spec.kind != "solver":
        raise ValueError(f"--table-mb sizes the solver player's table, not the {spec.kind}'s")
    if args.book is not None and spec.kind != "solver":
        raise ValueError(f"--book is the solver player's opening book, not the {spec.kind}'s")
    return {
        "table_mb": args.table_mb,
        "no_limit": args.no_limit,
        "book": args.book,
        "no_book": args.no_book,
    }


def thinking(solver: ExactSolver, state: Any) -> AbstractContextManager[None]:
    """While the program's solver searches, a bar on a terminal: the nodes it has searched."""
    return watched(solver, state, "thinking")


def endgame_tables(setup: registry.Setup, path: str) -> Any:
    """The endgame tables at `path` the game reads (chess: Syzygy); ValueError with the reason."""
    if setup.entry.tables is None:
        raise ValueError(f"--syzygy: {setup.entry.name} reads no endgame tables")
    try:
        return setup.entry.tables(path)
    except ValueError as error:
        raise ValueError(f"--syzygy {error}") from None


def table_player(table: Table | CompactTable, search: Chooser) -> Chooser:
    """A player that plays the table's best move where it holds the position, else searches."""
    return lambda state: table.probe(state).best_moves[0] if state in table else search(state)


def human_side(first: str | None, mark: str | None, marks: tuple[str, str]) -> Player:
    """The human's player index from `--first` and `--as` (player 0 always moves first)."""
    by_first = None if first is None else (0 if first == "human" else 1)
    by_mark = None
    if mark is not None:
        upper = [m.upper() for m in marks]
        if mark.upper() not in upper:
            raise ValueError(f"--as {mark}: choose {' or '.join(marks)}")
        by_mark = upper.index(mark.upper())
    if by_first is not None and by_mark is not None and by_first != by_mark:
        raise ValueError(f"--first {first} contradicts --as {mark}: {marks[0]} moves first")
    return by_mark if by_mark is not None else by_first if by_first is not None else 0


def show_game(
    game: Game,
    state: Any,
    players: list[Chooser],
    human: Player,
    names: tuple[str, str],
    rng: random.Random,
) -> int:
    """Play one game in the terminal; return the exit code (0, also when the human leaves).

    The board is drawn once a turn, before each move and at the end; a position waiting for the
    dice is not drawn, its roll is shown and the board drawn with the dice on it.
    """

    def draw(state: Any) -> None:
        if not waits_for_dice(game, state):
            print("\n" + notation.render(game, state))

    def observe(state: Any, move: Any, player: Player | None, after: Any) -> None:
        text = notation.format_move(game, state, move)
        if player is None:
            print(f"Chance: {text}")
        elif player != human:
            print(f"The program ({names[player]}) plays {text}.")
        draw(after)

    if not waits_for_dice(game, state):
        print(notation.render(game, state))
    final = play_game(game, players, state, rng, observe)
    if final is None:
        print("\nGame left unfinished.")
        return 0
    outcome = game.utility(final, human)
    if outcome > 0:
        print(f"{names[human]} wins: you win!")
    elif outcome < 0:
        print(f"{names[1 - human]} wins: the program wins.")
    else:
        print("A draw.")
    return 0


def waits_for_dice(game: Game, state: Any) -> bool:
    """True where the dice are rolled in `state`: a chance node, where nobody moves."""
    return isinstance(game, Chance) and game.is_chance(state)


def ask_move(game: Game, state: Any, mark: str) -> Any | None:
    """The human's legal move, asked until one is given; None at end of input or on `q`."""
    while True:
        try:
            text = input(f"Your move ({mark}): ")
        except EOFError:
            return None
        if text.strip().lower() in QUIT_WORDS:
            return None
        try:
            return notation.parse_move(game, state, text)
        except ValueError as error:
            print(f"{error}. Try again.")
