"""`zerosum analyze` of a game no tree search can finish: what MCTS learned of each move.

A game without an evaluation whose end is out of reach (Go, Hex, most of OpenSpiel's) has no
depth to stop at, so the engine cannot analyse it; MCTS can, as it plays it. The position is
searched by the compiled MCTS where the game has compiled rules (else the Python one) for
`--iterations` or `--time`, and each root move is listed with its visits, its mean result and
win rate for the player to move, and the line the search expects after it (its principal line:
the most visited reply, then the most visited reply to that, while visited).
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from zerosum import notation
from zerosum.cli.common import print_json
from zerosum.compiled import choice
from zerosum.game import Bounded, Game
from zerosum.players import check_budget
from zerosum.registry import Setup
from zerosum.search.mcts import MCTSResult

DEFAULT_TIME = 2.0
"""Seconds MCTS searches when given neither `--iterations` nor `--time`."""

MOMENT = 1e-3
"""The least time a search is given (it runs one iteration at least)."""

DEFAULT_TOP = 5
"""How many moves are listed when `--top` does not say."""

REFUSED = {
    "depth": "MCTS has no depth to stop at",
    "nodes": "MCTS counts iterations, not nodes: --iterations N",
    "table_mb": "MCTS keeps a tree, not a transposition table",
    "syzygy": "MCTS reads no endgame tables",
}
"""The options of the engine's analysis that an MCTS analysis refuses, and why."""


def run_mcts(setup: Setup, args: argparse.Namespace) -> int:
    """Analyse `setup`'s position by MCTS; print the moves (or one JSON object) and return 0."""
    for option, reason in REFUSED.items():
        if getattr(args, option) is not None:
            flag = "--" + option.replace("_", "-")
            raise ValueError(f"{setup.entry.name} is analysed by MCTS: {reason} ({flag})")
    if args.iterations is not None:
        check_budget("iterations", args.iterations, "--iterations")
    count = DEFAULT_TOP if args.top is None else args.top
    if count < 1:
        raise ValueError(f"--top must be at least 1, got {count:,}")
    seconds = args.time
    if seconds is None and args.iterations is None:
        seconds = DEFAULT_TIME
    seed = 0 if args.seed is None else args.seed
    options: dict[str, Any] = {"iterations": args.iterations, "time": seconds, "seed": seed}
    if args.playouts is not None:
        options["playouts"] = args.playouts
    if args.rave is not None:
        check_budget("rave", args.rave, "--rave")
        options["rave"] = args.rave
    impl = choice.implementation(setup.game, args.engine)
    search = choice.mcts(setup.game, impl, **options)  # compiled (or read from the cache) here
    started = getattr(args, "started", None)  # when the command began, if it says
    if seconds is not None and started is not None:  # `--time` counts the loading
        search.time = max(seconds - (time.perf_counter() - started), MOMENT)
    result = search.search(setup.state)
    report = mcts_report(setup, result, search.principal_lines(), impl, count)
    if args.json:
        print_json(report)
        return 0
    print("\n".join(report_lines(setup, report)))
    return 0


def win_rate(game: Game, value: float) -> float | None:
    """`value` (a mean result, for the player to move) as a share of the game's range of
    results: for a game won +1, drawn 0 and lost -1 (Go), the wins plus half the draws. None
    when the game states no range (`Bounded`)."""
    if not isinstance(game, Bounded):
        return None
    low, high = game.value_bounds()
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return None
    return round((value - low) / (high - low), 6)


def mcts_report(
    setup: Setup,
    result: MCTSResult,
    lines: dict[Any, tuple[Any, ...]],
    impl: str,
    count: int,
) -> dict[str, Any]:
    """The JSON object of an MCTS analysis (docs/json.md): values and win rates for the player
    to move at the root; the `count` most visited moves, each with its principal line."""
    game, state = setup.game, setup.state
    moves = [
        {
            "move": notation.format_move(game, state, stats.move),
            "visits": stats.visits,
            "value": round(stats.value, 6),
            "win_rate": win_rate(game, stats.value),
            "proven": stats.proven,
            "pv": notation.line_text(game, state, lines.get(stats.move, (stats.move,))),
        }
        for stats in result.moves[:count]
    ]
    best = notation.format_move(game, state, result.best_move)
    return {
        "game": setup.name,
        "position": setup.position,
        "to_move": game.to_move(state),
        "algorithm": "mcts",
        "impl": impl,
        "value": round(result.value, 6),
        "win_rate": win_rate(game, result.value),
        "exact": result.proven,
        "best_move": best,
        "pv": notation.line_text(game, state, lines.get(result.best_move, (result.best_move,))),
        "moves": moves,
        "legal_moves": len(game.legal_moves(state)),
        "iterations": result.iterations,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }


def report_lines(setup: Setup, report: dict[str, Any]) -> list[str]:
    """The text of an MCTS analysis: the board, a line a listed move, the best move."""
    game, state = setup.game, setup.state
    player = notation.player_names(game)[report["to_move"]]
    width = max(len(move["move"]) for move in report["moves"])
    listed = [
        notation.render(game, state),
        f"MCTS ({report['impl']}), {report['iterations']:,} iterations,"
        f" {report['nodes']:,} nodes, {report['seconds']:.2f}s;"
        f" values and win rates for {player}, to move:",
    ]
    for rank, move in enumerate(report["moves"], start=1):
        listed.append(
            f"{rank:>3}. {move['move']:<{width}}  visits {move['visits']:>9,}"
            f"  value {_value_text(move['value'], move['proven'])}"
            f"  win {_rate_text(move['win_rate'])}  pv {' '.join(move['pv'])}"
        )
    moves = "move" if report["legal_moves"] == 1 else "moves"
    listed.append(f"{report['legal_moves']} legal {moves}, {len(report['moves'])} listed")
    listed.append(
        f"best move: {report['best_move']}  the position for {player}:"
        f" value {_value_text(report['value'], report['value'] if report['exact'] else None)}"
        f", win rate {_rate_text(report['win_rate']).strip()}"
    )
    return listed


def _value_text(value: float, proven: float | None) -> str:
    return f"{value:+.3f}" + (" (proven)" if proven is not None else "")


def _rate_text(rate: float | None) -> str:
    return "   -  " if rate is None else f"{100 * rate:5.1f}%"
