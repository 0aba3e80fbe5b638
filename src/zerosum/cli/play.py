"""`zerosum play GAME`: a game against the program in the terminal.

The loop is the same for every game: draw the position (`render`), read the human's move
(`parse_move`; its `ValueError` message is shown and the move asked again), show the
program's move (`format_move`), roll the dice where the game has chance (`Chance`), and
announce the result from `utility`. A game becomes playable with one `Playable` entry.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.cli.analyze import syzygy_tables
from zerosum.game import Chance, Game, MoveText, Player, Rendering, require
from zerosum.games.backgammon import Backgammon
from zerosum.games.chess import Chess
from zerosum.games.connect4 import ConnectFour
from zerosum.games.nim import Nim, parse_heaps
from zerosum.games.pig import Pig
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta, by_priority, expectiminimax
from zerosum.search.engine import Engine
from zerosum.solve import Table
from zerosum.solve.pig import solve_pig

Chooser = Callable[[Any], Any]
"""The program's player: given a state where it is to move, the move it plays."""

QUIT_WORDS = {"q", "quit", "exit"}


@dataclass(frozen=True)
class Playable:
    """How to set up one game for `zerosum play`: the game, the program's player, the start."""

    make_game: Callable[[argparse.Namespace], Game]
    make_ai: Callable[[Game, argparse.Namespace], Chooser]
    start: Callable[[Game, argparse.Namespace], Any] | None = None
    marks: tuple[str, str] = ("X", "O")


def perfect_player(game: Game, order: list[Any] | None = None) -> Chooser:
    """A player that searches to the end: it takes the quickest win and delays a loss."""
    move_order = by_priority(order) if order else None
    return lambda state: alphabeta(game, state, order=move_order, distance=True).best_move


def engine_player(
    game: Game, args: argparse.Namespace, seconds: float = 2.0, tablebase: Any = None
) -> Chooser:
    """The engine with `--time` seconds a move (default `seconds`) or to `--depth` plies,
    scoring the positions `tablebase` holds from it."""
    if args.time is not None and not args.time > 0:
        raise ValueError(f"--time must be more than 0 seconds, got {args.time}")
    if args.depth is not None and args.depth < 1:
        raise ValueError(f"--depth must be at least 1, got {args.depth}")
    engine = Engine(game, tablebase=tablebase)
    budget = args.time if args.time is not None or args.depth is not None else seconds
    return lambda state: engine.search(state, depth=args.depth, time=budget).best_move


def table_player(table: Table, search: Chooser) -> Chooser:
    """A player that plays the table's best move where it holds the position, else searches."""
    return lambda state: table.probe(state).best_moves[0] if state in table else search(state)


PLAYABLE: dict[str, Playable] = {
    "tictactoe": Playable(
        make_game=lambda args: TicTacToe(),
        make_ai=lambda game, args: perfect_player(game, [4, 0, 2, 6, 8, 1, 3, 5, 7]),
    ),
    "connect4": Playable(make_game=lambda args: ConnectFour(), make_ai=engine_player),
    "nim": Playable(
        make_game=lambda args: Nim(
            parse_heaps(" ".join(args.params or ["3", "5", "8"])), args.misere
        ),
        make_ai=lambda game, args: game.perfect_move,  # Bouton's move, no search needed
        marks=("first", "second"),
    ),
    # Pig (`zerosum play pig [TARGET]`): the solved optimal policy, or expectiminimax to --depth.
    "pig": Playable(
        make_game=lambda args: Pig.from_params(args.params),
        make_ai=lambda game, args: (
            solve_pig(game.target).best_move
            if args.depth is None
            else lambda state: expectiminimax(game, state, depth=args.depth).best_move
        ),
        marks=("P0", "P1"),
    ),
    # Backgammon without the cube: expectiminimax to --depth plies (default 1) with Star2.
    "backgammon": Playable(
        make_game=lambda args: Backgammon(),
        make_ai=lambda game, args: (
            lambda state: expectiminimax(game, state, depth=args.depth or 1).best_move
        ),
        marks=("X", "O"),
    ),
    # Chess from the start or --fen: the engine with --time seconds a move (default 5), with
    # the Syzygy tables of --syzygy in its search.
    "chess": Playable(
        make_game=lambda args: Chess(args.fen or "startpos"),
        make_ai=lambda game, args: engine_player(
            game, args, seconds=5.0, tablebase=syzygy_tables(args.syzygy, "chess")
        ),
        marks=("White", "Black"),
    ),
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game against the program",
        description="Play against the program in the terminal (type q to leave).",
    )
    parser.add_argument("game", help=", ".join(sorted(PLAYABLE)))
    parser.add_argument("params", nargs="*", help="the game's parameters (e.g. Nim's heaps)")
    parser.add_argument("--first", choices=("human", "ai"), help="who moves first")
    parser.add_argument("--as", dest="mark", metavar="MARK", help="your side, e.g. X or O")
    parser.add_argument("--time", type=float, help="the program's seconds per move")
    parser.add_argument("--depth", type=int, help="the program's search depth")
    parser.add_argument("--table", help="a table file the program plays from")
    parser.add_argument("--seed", type=int, help="seed for the dice of games with chance")
    parser.add_argument("--fen", help="chess: the starting position as FEN")
    parser.add_argument("--syzygy", metavar="PATH", help="chess: folders of Syzygy tables")
    parser.add_argument(
        "--misere", action="store_true", help="Nim: whoever takes the last object loses"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    playable = PLAYABLE.get(args.game)
    if playable is None:
        known = ", ".join(sorted(PLAYABLE))
        raise ValueError(f"unknown game {args.game!r}: choose one of {known}")
    game = playable.make_game(args)
    require(game, MoveText, "play")
    require(game, Rendering, "play")
    human = human_side(args.first, args.mark, playable.marks)
    ai = playable.make_ai(game, args)
    if args.table:
        ai = table_player(Table.load(args.table, game), ai)
    state = playable.start(game, args) if playable.start else game.initial_state()
    marks = playable.marks
    print(f"You are {marks[human]}, the program is {marks[1 - human]}. Type q to leave.")
    return play_game(game, state, human, ai, marks, random.Random(args.seed))


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


def play_game(
    game: Game,
    state: Any,
    human: Player,
    ai: Chooser,
    marks: tuple[str, str],
    rng: random.Random,
) -> int:
    """Play one game in the terminal; return the exit code (0, also when the human leaves).

    The board is drawn once a turn, before each move and at the end; a position waiting for the
    dice is not drawn, its roll is shown and the board drawn with the dice on it.
    """
    dice = isinstance(game, Chance)
    drawn = False
    while True:
        rolling = dice and game.is_chance(state)  # type: ignore[attr-defined]
        if not rolling:
            print(("\n" if drawn else "") + game.render(state))  # type: ignore[attr-defined]
            drawn = True
        if game.is_terminal(state):
            break
        if rolling:
            outcomes, weights = zip(*game.chance_outcomes(state), strict=True)  # type: ignore[attr-defined]
            move = rng.choices(outcomes, weights)[0]
            print(f"Chance: {game.format_move(state, move)}")  # type: ignore[attr-defined]
        elif game.to_move(state) == human:
            move = ask_move(game, state, marks[human])
            if move is None:
                print("\nGame left unfinished.")
                return 0
        else:
            move = ai(state)
            text = game.format_move(state, move)  # type: ignore[attr-defined]
            print(f"The program ({marks[1 - human]}) plays {text}.")
        state = game.result(state, move)
    outcome = game.utility(state, human)
    if outcome > 0:
        print(f"{marks[human]} wins: you win!")
    elif outcome < 0:
        print(f"{marks[1 - human]} wins: the program wins.")
    else:
        print("A draw.")
    return 0


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
            return game.parse_move(state, text)  # type: ignore[attr-defined]
        except ValueError as error:
            print(f"{error}. Try again.")
