"""`zerosum chart ordering|growth|ablation -o FILE.png`: the textbook's experiments as charts;
`zerosum chart cfr GAME -o FILE.png`: the CFR family's convergence on a game of imperfect
information; `zerosum chart learning DIR -o FILE.png`: a training run's strength and losses, from
its log."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import Any

from zerosum.cli.common import print_json
from zerosum.cli.progress import progress
from zerosum.experiments.ablation import POSITIONS, STEPS, ablation_experiment
from zerosum.experiments.convergence import convergence_experiment, stops
from zerosum.experiments.growth import growth_experiment, minimal_tree_leaves
from zerosum.experiments.ordering import ordering_experiment
from zerosum.files import write_atomically
from zerosum.imperfect.cfr import ALGORITHMS, SAMPLED, check_algorithm
from zerosum.limits import Limit, clipped_path, shown

DEFAULT_DEPTH = {"growth": 8, "ablation": 6}
"""The deepest tree (growth) or search (ablation) drawn when `--max-depth` is not given."""

GROWTH = {"branching": 3, "samples": 5, "seed": 0}
"""The growth chart's options when not given."""

MAX_LEAVES = Limit(
    "the leaves of a growth chart's deepest tree (branching^depth)",
    200_000,
    "a tree is built in memory and searched three times, about 10 seconds at 200,000 leaves",
    liftable=False,
)
"""The largest uniform tree `growth` builds: 3^11 = 177,147 leaves fit (12 seconds a tree)."""

MAX_WORK = Limit(
    "a growth chart's leaves in all (--samples times the leaves of every depth)",
    4_000_000,
    "about 50 microseconds a leaf: 4,000,000 take three or four minutes",
    liftable=False,
)
"""All the leaves `growth` builds and searches: the default chart has 16,400, branching 3 to
depth 11 with 5 samples 1.3 million (65 seconds measured)."""

ABLATION_DEPTH = Limit(
    "the --max-depth of the ablation chart",
    8,
    "every configuration searches every depth: depth 8 takes about 50 seconds, each more"
    " about three times as long",
    liftable=False,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "ordering: finished games alpha-beta reaches on tic-tac-toe for the textbook's move"
        " orders and 20 random ones. growth: leaves reached against depth on uniform trees"
        " by minimax and alpha-beta in random and best-first order, with b^m, b^(3m/4) and"
        " Knuth and Moore's minimal tree. ablation: the engine's nodes per depth and effective"
        " branching factor on Connect Four with each enhancement switched on in turn. The"
        " file's suffix (.png, .svg, .pdf) sets its format. Limits: growth's deepest tree has"
        f" at most {MAX_LEAVES.most:,} leaves and all its trees together"
        f" {MAX_WORK.most:,} (minutes of work); ablation searches to depth"
        f" {ABLATION_DEPTH.most} at most. cfr GAME: the exploitability of each CFR"
        " variant's average strategy against iterations and against time, on a game of"
        " imperfect information (kuhn, leduc, liars-dice). learning DIR: a training run's log"
        " (DIR/log.jsonl, written by zerosum train) as the network's Elo difference against"
        " each fixed opponent over training time and its losses over the optimizer's steps."
        " A bar on the terminal shows the work done."
    )
    parser.add_argument("chart", choices=("ordering", "growth", "ablation", "cfr", "learning"))
    parser.add_argument(
        "game",
        nargs="?",
        metavar="GAME|DIR",
        help="cfr: the game (e.g. kuhn); learning: the training directory",
    )
    parser.add_argument("-o", "--output", metavar="FILE", required=True, help="the chart's file")
    parser.add_argument(
        "--branching",
        type=int,
        help=f"growth: moves per node, at least 2 ({GROWTH['branching']})",
    )
    parser.add_argument(
        "--max-depth",
        type=int,
        help=f"growth: deepest tree, at least 1 ({DEFAULT_DEPTH['growth']}; branching^depth at"
        f" most {MAX_LEAVES.most:,}); ablation: deepest search, 1 to {ABLATION_DEPTH.most}"
        f" ({DEFAULT_DEPTH['ablation']})",
    )
    parser.add_argument(
        "--samples", type=int, help=f"growth: trees per depth, at least 1 ({GROWTH['samples']})"
    )
    parser.add_argument(
        "--seed",
        type=int,
        help=f"growth: random seed, any integer ({GROWTH['seed']}); cfr: Monte Carlo CFR's",
    )
    parser.add_argument(
        "--iterations", type=int, help=f"cfr: iterations of each algorithm ({CFR_ITERATIONS:,})"
    )
    parser.add_argument(
        "--sampled-iterations",
        type=int,
        help="cfr: iterations of the Monte Carlo variants (1,000 times --iterations)",
    )
    parser.add_argument(
        "--algorithms",
        help=f"cfr: the algorithms, comma-separated (default {','.join(ALGORITHMS)})",
    )
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from zerosum.show import charts  # the numbers need no matplotlib, the drawing does

    suffix = Path(args.output).suffix.lstrip(".").lower()
    if suffix not in charts.FORMATS:
        raise ValueError(
            f"cannot tell the chart's format from {clipped_path(args.output)}:"
            f" end the name with .{', .'.join(charts.FORMATS)}"
        )
    _refuse_others(args)
    figure, report = CHARTS[args.chart](charts, args)
    write_atomically(args.output, charts.image(figure, suffix))
    report["output"] = args.output
    if args.json:
        print_json(report)
    else:
        print(f"wrote {args.output}")
    return 0


_OPTIONS = {"ordering": (), "growth": ("branching", "max_depth", "samples", "seed")}
_OPTIONS["ablation"] = ("max_depth",)
_OPTIONS["cfr"] = ("game", "iterations", "sampled_iterations", "algorithms", "seed")
_OPTIONS["learning"] = ("game",)


def _refuse_others(args: argparse.Namespace) -> None:
    """ValueError for an option given to a chart that does not take it (it would be ignored)."""
    if args.chart == "cfr" and args.game is None:
        raise ValueError("the cfr chart needs a game: zerosum chart cfr kuhn -o FILE.png")
    if args.chart == "learning" and args.game is None:
        raise ValueError(
            "the learning chart needs a training directory: zerosum chart learning DIR -o FILE.png"
        )
    if args.game is not None and args.chart not in ("cfr", "learning"):
        raise ValueError(
            f"the {args.chart} chart takes no game or directory (the cfr and learning charts do)"
        )
    for name in dict.fromkeys(name for names in _OPTIONS.values() for name in names):
        if name == "game":
            continue
        if getattr(args, name) is not None and name not in _OPTIONS[args.chart]:
            option = "--" + name.replace("_", "-")
            takes = [c for c, names in _OPTIONS.items() if name in names]
            which = " and ".join(takes) + (" charts" if len(takes) > 1 else " chart")
            raise ValueError(f"{option} is for the {which}, not {args.chart}")


def _max_depth(args: argparse.Namespace) -> int:
    """`--max-depth`, else the chart's own default."""
    return DEFAULT_DEPTH[args.chart] if args.max_depth is None else args.max_depth


def _ordering(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    with progress("orders", what="alpha-beta on tic-tac-toe") as bar:
        runs = ordering_experiment(on_run=bar.advance)
    return charts.ordering_figure(runs), {"chart": "ordering", "runs": [asdict(r) for r in runs]}


def _ablation(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    depth = _max_depth(args)
    if not 1 <= depth <= ABLATION_DEPTH.most:
        raise ValueError(
            f"--max-depth for ablation is from 1 to {ABLATION_DEPTH.most}"
            f" ({ABLATION_DEPTH.cost}), not {shown(depth)}"
        )
    searches = len(STEPS) * depth * len(POSITIONS)
    with progress("searches", total=searches, what="the engine on Connect Four") as bar:
        points = ablation_experiment(range(1, depth + 1), on_search=bar.advance)
    report = {
        "chart": "ablation",
        "points": [{**asdict(p), "branching_factor": p.branching_factor} for p in points],
    }
    return charts.ablation_figure(points), report


def _growth(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    depth = _max_depth(args)
    branching, samples, seed = (
        GROWTH[name] if getattr(args, name) is None else getattr(args, name)
        for name in ("branching", "samples", "seed")
    )
    leaves = growth_leaves(branching, depth, samples)
    with progress("leaves", total=leaves, what="uniform trees") as bar:
        points = growth_experiment(
            branching, range(1, depth + 1), samples, seed, on_tree=bar.advance
        )
    report = {
        "chart": "growth",
        "branching": branching,
        "points": [
            {**asdict(point), "minimal_tree": minimal_tree_leaves(branching, point.depth)}
            for point in points
        ],
    }
    return charts.growth_figure(points, branching), report


CFR_ITERATIONS = 1000
"""The iterations of each algorithm on the cfr chart when not given."""
SAMPLED_PER_ITERATION = 1000
"""The Monte Carlo variants' iterations on the cfr chart, per iteration of the others, when not
given: each follows a few lines of play, not the whole tree (on Leduc poker a million take
about as long as a thousand of CFR+)."""


def _cfr(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    from zerosum.cli.cfr import ITERATIONS
    from zerosum.registry import setup

    iterations = CFR_ITERATIONS if args.iterations is None else args.iterations
    if iterations < 1:
        raise ValueError(f"--iterations must be at least 1, got {shown(iterations)}")
    ITERATIONS.check(iterations)
    sampled = SAMPLED_PER_ITERATION * iterations
    if args.sampled_iterations is not None:
        sampled = args.sampled_iterations
        if sampled < 1:
            raise ValueError(f"--sampled-iterations must be at least 1, got {shown(sampled)}")
    ITERATIONS.check(sampled)
    algorithms = ALGORITHMS if args.algorithms is None else args.algorithms.split(",")
    algorithms = [check_algorithm(name.strip()) for name in algorithms]
    game = setup(args.game, hidden=True).game
    from zerosum.cli.cfr import unrolled

    tree = unrolled(game, game.initial_state(), no_limit=False)
    total = sum(sampled if name in SAMPLED else iterations for name in algorithms)
    with progress("iterations", total=total, what=f"CFR on {args.game}") as bar:
        points = convergence_experiment(
            tree, algorithms, iterations, args.seed, bar.advance, sampled_iterations=sampled
        )
    report = {
        "chart": "cfr",
        "game": args.game,
        "stops": stops(iterations),
        "sampled_stops": stops(sampled),
        "points": [asdict(point) for point in points],
    }
    return charts.convergence_figure(points, args.game), report


def _learning(charts: Any, args: argparse.Namespace) -> tuple[Any, dict]:
    from zerosum.learn.log import read_log

    log = read_log(args.game)
    game = log.game or Path(args.game).resolve().name  # a log without a start: its folder
    report = {
        "chart": "learning",
        "directory": args.game,
        "game": log.game,
        "games": log.games,
        "positions": log.positions,
        "seconds": log.seconds,
        "cut_short": log.cut_short,
        "rounds": [asdict(r) for r in log.rounds],
        "gates": [asdict(g) for g in log.gates],
        "evaluations": [
            {
                **asdict(e),
                "mean_score": e.result.score,
                "elo": e.result.elo,
                "elo_error": e.result.elo_error,
            }
            for e in log.evaluations
        ],
    }
    return charts.learning_figure(log, game), report


CHARTS = {
    "ordering": _ordering,
    "growth": _growth,
    "ablation": _ablation,
    "cfr": _cfr,
    "learning": _learning,
}
"""Each chart's numbers and figure, from the parsed options."""


def growth_leaves(branching: int, depth: int, samples: int) -> int:
    """The leaves of all the trees a growth chart builds; ValueError for options out of range
    (checked before any power is taken: a depth of a billion is refused at once)."""
    if branching < 2:
        raise ValueError(f"--branching is the moves per node: at least 2, not {shown(branching)}")
    if depth < 1:
        raise ValueError(f"--max-depth is the deepest tree: at least 1, not {shown(depth)}")
    if samples < 1:
        raise ValueError(f"--samples is the trees per depth: at least 1, not {shown(samples)}")
    deepest, every = 1, 0
    for level in range(1, depth + 1):  # stops as soon as a tree is too large
        deepest *= branching
        if deepest > MAX_LEAVES.most:
            raise ValueError(
                f"--branching {shown(branching)} and --max-depth {shown(depth)} make a tree of"
                f" more than {MAX_LEAVES.most:,} leaves (from depth {level}): at most"
                f" {MAX_LEAVES.most:,} ({MAX_LEAVES.cost})"
            )
        every += deepest
    if every * samples > MAX_WORK.most:
        raise ValueError(
            f"--samples {shown(samples)} of trees with {every:,} leaves in all depths is"
            f" {shown(every * samples)} leaves to build and search: at most {MAX_WORK.most:,}"
            f" ({MAX_WORK.cost})"
        )
    return every * samples
