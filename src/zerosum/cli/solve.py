"""`zerosum solve GAME`: the exact value of a position, its best move, its line and its cost."""

from __future__ import annotations

import argparse

from zerosum.cli.common import make_game, number, parse_int_list, print_json
from zerosum.search import alphabeta, by_priority, minimax, negamax
from zerosum.search.result import SearchResult

ALGORITHMS = {"minimax": minimax, "negamax": negamax, "alphabeta": alphabeta}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position exactly",
        description="Search a position to the end of the game and report its exact value.",
    )
    parser.add_argument("game", help="tictactoe or connect4")
    parser.add_argument("--algorithm", choices=sorted(ALGORITHMS), default="alphabeta")
    parser.add_argument(
        "--order", help="moves to examine first, comma-separated (e.g. 4,0,2,6,8,1,3,5,7)"
    )
    parser.add_argument(
        "--position", default="", help='the position, e.g. "XOX.O...." (default: the start)'
    )
    parser.add_argument(
        "--distance", action="store_true", help="prefer the quickest win and the slowest loss"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game)
    state = game.parse_state(args.position) if args.position else game.initial_state()
    order = by_priority(parse_int_list(args.order, "move order")) if args.order else None
    search = ALGORITHMS[args.algorithm]
    result = search(game, state, order=order, distance=args.distance)
    report = solve_report(game, state, result, args.algorithm)
    if args.json:
        print_json(report)
    else:
        print(game.render(state))
        print(describe(report, getattr(game, "player_names", ("player 0", "player 1"))))
    return 0


def solve_report(game, state, result: SearchResult, algorithm: str) -> dict:
    """The JSON object of a solve: value, moves as text, and the counts."""
    line, position = [], state
    for move in result.pv:
        line.append(game.format_move(position, move))
        position = game.result(position, move)
    best = line[0] if line else None
    return {
        "algorithm": algorithm,
        "to_move": game.to_move(state),
        "value": number(result.value),
        "best_move": int(best) if best is not None and best.isdigit() else best,
        "pv": line,
        "plies": result.plies,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
    }


def describe(report: dict, player_names: tuple[str, str]) -> str:
    """The text of a solve report; `player_names` name players 0 and 1."""
    value = report["value"]
    outcome = "a draw" if value == 0 else "a win" if value > 0 else "a loss"
    if report["plies"] is not None:
        outcome += f" in {report['plies']} plies"
    to_move = player_names[report["to_move"]]
    if report["best_move"] is None:
        return f"the game is over: value {value} for {to_move} ({outcome})"
    lines = [
        f"{to_move} to move: value {value} ({outcome} with best play)",
        f"best move: {report['best_move']}",
        f"principal variation: {' '.join(report['pv'])}",
        f"{report['algorithm']}: {report['nodes']:,} nodes, {report['leaves']:,} finished games"
        f" reached, {report['cutoffs']:,} cut-offs",
    ]
    return "\n".join(lines)
