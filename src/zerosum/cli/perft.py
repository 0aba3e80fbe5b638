"""`zerosum perft GAME [POSITION] --depth N`: the positions N moves away, counted by the compiled
rules (the test of a move generator, and its speed)."""

from __future__ import annotations

import argparse

from zerosum.cli.common import add_game_argument, add_no_limit, game_setup, print_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Count the positions --depth moves from a position, every move played, with the"
        " game's compiled rules (tictactoe, connect4); a finished game counts for nothing."
        " Prints the count, the seconds and the speed."
    )
    add_game_argument(parser)
    parser.add_argument("--depth", type=int, required=True, help="moves to look ahead")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_no_limit(
        parser,
        "perft's bound on its positions: the most moves to the power --depth,"
        " or the positions one move less times the most moves",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.compiled.perft import perft  # numba: imported by the commands that compile

    setup = game_setup(args)
    result = perft(setup.game, setup.state, args.depth, lifted=args.no_limit)
    if args.json:
        print_json(
            {
                "game": setup.name,
                "position": setup.position,
                "depth": result.depth,
                "positions": result.nodes,
                "seconds": round(result.seconds, 6),
            }
        )
    else:
        print(
            f"depth {result.depth}  nodes {result.nodes:,}  time {result.seconds:.3f}s"
            f"  nps {result.nps:,}"
        )
    return 0
