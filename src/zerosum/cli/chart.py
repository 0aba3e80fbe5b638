"""`zerosum chart ordering|growth|ablation -o FILE.png`: the textbook's experiments as charts."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import Any

from zerosum.cli.common import print_json
from zerosum.cli.output import write_atomically
from zerosum.experiments.ablation import ablation_experiment
from zerosum.experiments.growth import growth_experiment, minimal_tree_leaves
from zerosum.experiments.ordering import ordering_experiment

DEFAULT_DEPTH = {"growth": 8, "ablation": 6}
"""The deepest tree (growth) or search (ablation) drawn when `--max-depth` is not given."""

MAX_LEAVES = 200_000
"""The largest uniform tree `growth` will build (b^m leaves): beyond, minimax takes minutes."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "chart",
        help="draw one of the textbook's experiments as a chart (needs matplotlib)",
        description=(
            "ordering: finished games alpha-beta reaches on tic-tac-toe for the textbook's move"
            " orders and 20 random ones. growth: leaves reached against depth on uniform trees"
            " by minimax and alpha-beta in random and best-first order, with b^m, b^(3m/4) and"
            " Knuth and Moore's minimal tree. ablation: the engine's nodes per depth and effective"
            " branching factor on Connect Four with each enhancement switched on in turn. The"
            " file's suffix (.png, .svg, .pdf) sets its format."
        ),
    )
    parser.add_argument("chart", choices=("ordering", "growth", "ablation"))
    parser.add_argument("-o", "--output", metavar="FILE", required=True, help="the chart's file")
    parser.add_argument("--branching", type=int, default=3, help="growth: moves per node (3)")
    parser.add_argument(
        "--max-depth", type=int, help="growth: deepest tree (8); ablation: deepest search (6)"
    )
    parser.add_argument("--samples", type=int, default=5, help="growth: trees per depth (5)")
    parser.add_argument("--seed", type=int, default=0, help="growth: random seed (0)")
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.show import charts  # the numbers need no matplotlib, the drawing does

    suffix = Path(args.output).suffix.lstrip(".").lower()
    if suffix not in charts.FORMATS:
        raise ValueError(
            f"cannot tell the chart's format from {args.output!r}:"
            f" end the name with .{', .'.join(charts.FORMATS)}"
        )
    figure, report = CHARTS[args.chart](charts, args)
    write_atomically(args.output, charts.image(figure, suffix))
    report["output"] = args.output
    if args.json:
        print_json(report)
    else:
        print(f"wrote {args.output}")
    return 0


def _max_depth(args: argparse.Namespace) -> int:
    """`--max-depth`, else the chart's own default."""
    return DEFAULT_DEPTH[args.chart] if args.max_depth is None else args.max_depth


def _ordering(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    runs = ordering_experiment()
    return charts.ordering_figure(runs), {"chart": "ordering", "runs": [asdict(r) for r in runs]}


def _ablation(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    depth = _max_depth(args)
    if not 1 <= depth <= 8:
        raise ValueError(f"--max-depth for ablation must be from 1 to 8, got {depth}")
    points = ablation_experiment(range(1, depth + 1))
    report = {
        "chart": "ablation",
        "points": [{**asdict(p), "branching_factor": p.branching_factor} for p in points],
    }
    return charts.ablation_figure(points), report


def _growth(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    depth = _max_depth(args)
    _check_growth(args.branching, depth, args.samples)
    points = growth_experiment(args.branching, range(1, depth + 1), args.samples, args.seed)
    report = {
        "chart": "growth",
        "branching": args.branching,
        "points": [
            {**asdict(point), "minimal_tree": minimal_tree_leaves(args.branching, point.depth)}
            for point in points
        ],
    }
    return charts.growth_figure(points, args.branching), report


CHARTS = {"ordering": _ordering, "growth": _growth, "ablation": _ablation}
"""Each chart's numbers and figure, from the parsed options."""


def _check_growth(branching: int, depth: int, samples: int) -> None:
    if branching < 2:
        raise ValueError(f"--branching must be at least 2, got {branching}")
    if depth < 1:
        raise ValueError(f"--max-depth must be at least 1, got {depth}")
    if samples < 1:
        raise ValueError(f"--samples must be at least 1, got {samples}")
    if branching**depth > MAX_LEAVES:
        raise ValueError(
            f"a uniform tree with {branching} moves and {depth} plies has"
            f" {branching**depth:,} leaves: at most {MAX_LEAVES:,}, please"
        )
