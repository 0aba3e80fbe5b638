"""`zerosum analyze GAME POSITION`: the engine's iterations as they finish, then its best move.

Games with dice (backgammon, Pig, trees with chance nodes) are not the engine's: their
position's moves are ranked by expectiminimax to `--depth` plies and the best few listed with
their values, as a backgammon analysis lists the plays of a roll.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from zerosum.cli.common import game_and_position, line_text, move_number, print_json
from zerosum.game import Chance, Evaluating, Game, Rendering
from zerosum.games.backgammon import Backgammon, parse_dice
from zerosum.games.chess import Chess
from zerosum.games.chess.syzygy import Syzygy
from zerosum.games.tree import Tree
from zerosum.search import rank_moves
from zerosum.search.engine import Engine, EngineResult, Iteration
from zerosum.search.scores import decode
from zerosum.search.table import DEFAULT_MEGABYTES

DEFAULT_TIME = 2.0
"""Seconds an analysis of a game with an evaluation takes when given no depth and no time."""

DEFAULT_CHANCE_DEPTH = 2
"""Plies a game with dice and an evaluation is searched to when given no depth: the move, the
opponent's roll and reply (backgammon's usual depth for checker play)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="analyse a position with the engine",
        description=(
            "Search a position by iterative deepening and print each iteration (depth,"
            " score, nodes, speed, time, principal variation), then the best move. Games without"
            " an evaluation (tictactoe, tree) are searched to the end, unless --time or --nodes"
            " stops them (then the best root move solved so far answers). Games with dice"
            " (backgammon, pig) list their moves ranked by expectiminimax to --depth plies."
        ),
    )
    parser.add_argument("game", help="backgammon, chess, connect4, pig, tictactoe or tree")
    parser.add_argument(
        "position",
        nargs="?",
        default="",
        help='connect4: columns played, e.g. "4453"; tictactoe: "XO..X...."; tree: the tree;'
        ' chess: a FEN (or --fen); backgammon: "X 6-5: 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5";'
        ' pig: "SCORE0 SCORE1 TURN PLAYER"',
    )
    parser.add_argument("--fen", help="chess: the position as FEN (default the start)")
    parser.add_argument(
        "--syzygy", metavar="PATH", help="chess: folders of Syzygy tables to score endings from"
    )
    parser.add_argument("--dice", help="backgammon: the roll to play, e.g. 6-5")
    parser.add_argument(
        "--top", type=int, default=5, help="games with dice: how many moves to list (default 5)"
    )
    parser.add_argument("--time", type=float, help=f"seconds to think (default {DEFAULT_TIME})")
    parser.add_argument("--depth", type=int, help="plies to search at most")
    parser.add_argument("--nodes", type=int, help="nodes to search at most")
    parser.add_argument(
        "--table-mb", type=float, default=DEFAULT_MEGABYTES, help="transposition table size"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game, state = analysed_position(args.game, args.position, args.fen, args.dice)
    tablebase = syzygy_tables(args.syzygy, args.game)
    if has_dice(game):
        return run_ranking(game, state, args)
    engine = Engine(game, table_mb=args.table_mb, tablebase=tablebase)
    budget = args.time
    if budget is None and args.depth is None and args.nodes is None:
        budget = DEFAULT_TIME if isinstance(game, Evaluating) else None

    def show(iteration: Iteration) -> None:
        print(iteration_line(game, state, iteration), flush=True)

    result = engine.search(
        state,
        depth=args.depth,
        time=budget,
        nodes=args.nodes,
        on_iteration=None if args.json else show,
    )
    report = analysis_report(game, state, result)
    if tablebase is not None:
        report["tbhits"] = engine.tablebase_hits
        tablebase.close()
    if args.json:
        print_json(report)
    else:
        print(f"best move: {report['best_move']}  score: {describe_score(result)}")
        if result.stopped:
            last = result.iterations[-1] if result.iterations else None
            when = "during" if last is not None and not last.complete else "after"
            print(f"stopped by {result.stopped} {when} depth {result.depth}")
    return 0


def syzygy_tables(path: str | None, game: str) -> Syzygy | None:
    """The Syzygy tables of `--syzygy`, for chess only; ValueError with the reason."""
    if path is None:
        return None
    if game != "chess":
        raise ValueError("--syzygy is for chess")
    try:
        return Syzygy.open(path)
    except ValueError as error:
        raise ValueError(f"--syzygy {error}") from None


def run_ranking(game: Game, state: Any, args: argparse.Namespace) -> int:
    """Rank the moves of a game with dice by expectiminimax; print the best `--top` of them."""
    if args.time is not None or args.nodes is not None:
        raise ValueError("a game with dice is searched to --depth, not by --time or --nodes")
    if args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    depth = args.depth
    if depth is None and isinstance(game, Evaluating):
        depth = DEFAULT_CHANCE_DEPTH
    if game.is_chance(state):  # type: ignore[attr-defined]
        raise ValueError("the position waits for a roll: give the dice (backgammon: --dice 6-5)")
    start = time.perf_counter()
    ranked = rank_moves(game, state, depth=depth)
    seconds = time.perf_counter() - start
    listed = [(line_text(game, state, [entry.move])[0], entry.value) for entry in ranked]
    top = listed[: args.top]
    nodes = 1 + sum(entry.nodes for entry in ranked)
    if args.json:
        print_json(
            {
                "to_move": game.to_move(state),
                "depth": depth,
                "best_move": move_number(listed[0][0]),
                "score": listed[0][1],
                "moves": [{"move": move_number(text), "score": value} for text, value in top],
                "legal_moves": len(ranked),
                "nodes": nodes,
                "seconds": round(seconds, 6),
            }
        )
        return 0
    if isinstance(game, Rendering):
        print(game.render(state))
    plies = "to the end" if depth is None else f"{depth} pl{'y' if depth == 1 else 'ies'}"
    print(f"expectiminimax, {plies}; scores for the player to move:")
    width = max(len(text) for text, _ in top)
    for rank, (text, value) in enumerate(top, start=1):
        print(f"{rank:>3}. {text:<{width}}  {value:+.4f}")
    moves = "move" if len(ranked) == 1 else "moves"
    print(f"{len(ranked)} legal {moves}, {nodes:,} nodes, {seconds:.2f}s")
    print(f"best move: {listed[0][0]}  score: {listed[0][1]:+.4f}")
    return 0


def has_dice(game: Game) -> bool:
    """True for a game with chance nodes (a tree offers `Chance` whether it has them or not)."""
    if isinstance(game, Tree):
        return game.has_chance
    return isinstance(game, Chance)


def analysed_position(
    name: str, position: str, fen: str | None, dice: str | None
) -> tuple[Game, Any]:
    """The game `name` and the unfinished position to analyse; chess reads a FEN, backgammon
    takes the roll from `dice` when the position does not give it."""
    if dice is not None and name != "backgammon":
        raise ValueError("--dice is for backgammon")
    if name != "chess":
        if fen is not None:
            raise ValueError("--fen is for chess")
        game, state = game_and_position(name, position)
        if dice is not None:
            state = rolled(game, state, dice)  # type: ignore[arg-type]
        return game, state
    if fen is not None and position:
        raise ValueError("give the chess position once: as FEN or with --fen")
    game = Chess()
    state = game.parse_state(fen or position or "startpos")
    if game.is_terminal(state):
        raise ValueError(f"the game is already over in {state.board.fen()!r}: nothing to search")
    return game, state


def rolled(game: Backgammon, state: Any, dice: str) -> Any:
    """The backgammon position `state` once `dice` are rolled; ValueError if it has dice."""
    if not game.is_chance(state):
        roll = state[4]
        raise ValueError(f"the position already has the dice {roll[0]}-{roll[1]}: give them once")
    return game.result(state, parse_dice(dice))


def describe_score(result: EngineResult | Iteration) -> str:
    """A score as a person reads it: a proven win, loss or draw, or an estimate."""
    decoded = decode(result.score, result.exact)
    value = decoded.value
    if decoded.proven and value != 0 and decoded.plies is None:  # from an endgame table
        return f"{'win' if value > 0 else 'loss'} by the tables ({value:+g})"
    if decoded.plies is not None:
        outcome = "win" if value > 0 else "loss"
        proven = "" if result.exact or abs(value) == 1 else " at least"
        return f"{outcome}{proven} in {decoded.plies} plies ({value:+g})"
    if result.exact:
        return "draw (0)" if value == 0 else f"{value:+g} (exact)"
    return f"{value:+.3f}"


def iteration_line(game: Any, state: Any, iteration: Iteration) -> str:
    pv = " ".join(line_text(game, state, iteration.pv))
    return (
        f"depth {iteration.depth:>2}  score {describe_score(iteration):<22}"
        f"  nodes {iteration.nodes:>10,}  nps {iteration.nps:>8,}"
        f"  time {iteration.seconds:7.3f}s  pv {pv}"
        + ("" if iteration.complete else "  (cut short: the best root move searched so far)")
    )


def analysis_report(game: Any, state: Any, result: EngineResult) -> dict:
    """The JSON object of an analysis: the answer, then every iteration."""
    pv = line_text(game, state, result.pv)
    table = result.table
    return {
        "to_move": game.to_move(state),
        "score": result.value,
        "exact": result.exact,
        "plies": result.plies,
        "engine_score": result.score,
        "best_move": move_number(pv[0]) if pv else None,
        "pv": [move_number(move) for move in pv],
        "depth": result.depth,
        "nodes": result.stats.nodes,
        "seconds": round(result.seconds, 6),
        "stopped": result.stopped,
        "table": None
        if table is None
        else {"probes": table.probes, "hits": table.hits, "cutoffs": table.cutoffs},
        "iterations": [
            {
                "depth": it.depth,
                "score": it.value,
                "exact": it.exact,
                "complete": it.complete,
                "plies": it.plies,
                "pv": [move_number(move) for move in line_text(game, state, it.pv)],
                "nodes": it.nodes,
                "nps": it.nps,
                "seconds": round(it.seconds, 6),
            }
            for it in result.iterations
        ],
    }
