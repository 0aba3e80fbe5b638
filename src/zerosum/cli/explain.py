"""`zerosum explain tictactoe --position "XOX.O...." --depth 2 --show svg -o search.svg`."""

from __future__ import annotations

import argparse

from zerosum.cli.common import make_game, number, parse_int_list, print_json
from zerosum.cli.output import add_show_options, show
from zerosum.cli.solve import ALGORITHMS
from zerosum.search.ordering import by_priority
from zerosum.show.searched import EXAMINED, PRUNED, searched_tree

GAMES = ("tictactoe",)
"""Games whose exact search from any position is quick enough to draw."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="draw the first plies of a search of a position",
        description=(
            "Search a position exactly and draw the first plies of what the search did: the"
            " window each node was entered with, the score it returned, the branches a cut-off"
            " pruned, and a note of how many nodes the search entered below the picture."
        ),
    )
    parser.add_argument("game", choices=GAMES)
    parser.add_argument(
        "--position", default="", help='the position, e.g. "XOX.O...." (default: the start)'
    )
    parser.add_argument(
        "--depth", type=int, default=2, help="plies of the search to draw (default 2)"
    )
    parser.add_argument("--algorithm", choices=sorted(ALGORITHMS), default="alphabeta")
    parser.add_argument(
        "--order", help="moves to examine first, comma-separated (e.g. 4,0,2,6,8,1,3,5,7)"
    )
    add_show_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run, show="text")


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise ValueError(f"--depth must be at least 0, got {args.depth}")
    game = make_game(args.game)
    state = game.parse_state(args.position) if args.position else game.initial_state()
    order = by_priority(parse_int_list(args.order, "move order")) if args.order else None
    searched = searched_tree(game, state, algorithm=args.algorithm, order=order, max_ply=args.depth)
    result = searched.result
    report = {
        "algorithm": args.algorithm,
        "value": number(result.value),
        "best_move": result.best_move,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
        "plies_drawn": args.depth,
        "nodes_drawn": searched.count(EXAMINED),
        "pruned_drawn": searched.count(PRUNED),
        "left_out": searched.left_out,
    }
    show(searched, args, report)
    if args.json:
        print_json(report)
    return 0
