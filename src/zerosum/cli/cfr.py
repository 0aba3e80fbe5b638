"""`zerosum cfr GAME`: an approximate equilibrium of a game of imperfect information by
counterfactual regret minimization, its value and its exploitability.

The game is unrolled once (`zerosum.imperfect.tree`), the algorithm runs for `--iterations` or
`--time` seconds (on a terminal, a line shows the iterations, the exploitability now and then,
and the time), and the average strategy is reported: the value for the first player when both
play it, its exploitability (OpenSpiel's measure: the mean gain of the two best responses),
and, with `--json` or `--save FILE`, the strategy by information set.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

from zerosum import faults
from zerosum.cli.common import add_game_argument, add_no_limit, game_setup, print_json
from zerosum.cli.progress import progress
from zerosum.game import InformationSets
from zerosum.imperfect.best_response import measure
from zerosum.imperfect.cfr import ALGORITHMS, Solver
from zerosum.imperfect.strategy import Strategy
from zerosum.imperfect.tree import HISTORIES, GameTree, unroll
from zerosum.limits import Limit
from zerosum.stopping import stop_points

ITERATIONS = Limit(
    "CFR iterations",
    100_000_000,
    "an iteration of Leduc poker's CFR+ takes about a millisecond here, Liar's Dice's 30",
)
MOST_SECONDS = 86_400.0
"""The longest `--time` (a day)."""
DEFAULT_ITERATIONS = 1000
SHOWN_SETS = 24
"""The most information sets whose strategy the text report prints (Kuhn poker has 12)."""
STEP_SECONDS = 0.25
"""About how long the solver runs between two looks at the clock, Ctrl-C and the progress."""
MEASURE_EVERY = 2.0
"""The fewest seconds between two measures of the exploitability on the progress line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run counterfactual regret minimization on a game of imperfect information (kuhn,"
        " leduc, liars-dice, your own with information sets; a game of perfect information"
        " is seen as one whose sets hold one state) and report the average strategy's value"
        " for the first player and its exploitability. Algorithms: cfr, cfr+ (regret"
        " matching+ and a linear average), dcfr (discounted, 1.5, 0, 2), mccfr-es and"
        " mccfr-os (Monte Carlo: external and outcome sampling)."
    )
    add_game_argument(parser)
    parser.add_argument(
        "--algorithm", choices=ALGORITHMS, default="cfr+", help="the variant (default cfr+)"
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--iterations", type=int, help=f"iterations to run (default {DEFAULT_ITERATIONS:,})"
    )
    budget.add_argument("--time", type=float, metavar="SECONDS", help="run for this long")
    parser.add_argument("--seed", type=int, help="seed of the Monte Carlo variants' draws")
    parser.add_argument("--save", metavar="FILE", help="save the strategy to FILE (JSON)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_no_limit(parser, f"{HISTORIES}, {ITERATIONS}")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.iterations is not None:
        if args.iterations < 1:
            raise ValueError(f"--iterations must be at least 1, got {args.iterations}")
        ITERATIONS.check(args.iterations, lifted=args.no_limit)
    if args.time is not None and not (math.isfinite(args.time) and 0 < args.time <= MOST_SECONDS):
        raise ValueError(f"--time must be more than 0 and at most {MOST_SECONDS:,g} seconds")
    setup = game_setup(args, hidden=True)
    tree = unrolled(setup.game, setup.state, args.no_limit)
    with stop_points():  # Ctrl-C answered between steps and at the end, never while compiling
        solver = Solver(tree, args.algorithm, seed=args.seed)
        started = time.perf_counter()
        train(solver, args.iterations, args.time)
        seconds = time.perf_counter() - started
        average = solver.average()
        measured = measure(tree, average)
    strategy = Strategy.of(tree, average, setup.name)
    if args.save:
        strategy.save(args.save)
    report: dict[str, Any] = {
        "game": setup.name,
        "algorithm": args.algorithm,
        "iterations": solver.iterations,
        "seconds": round(seconds, 6),
        "value": measured.value,
        "exploitability": max(0.0, measured.exploitability),  # not rounding's -1e-17
        "histories": tree.nodes,
        "information_sets": len(tree.keys),
    }
    if args.seed is not None:
        report["seed"] = args.seed
    if args.save:
        report["saved"] = args.save
    if args.json:
        print_json({**report, "strategy": strategy.table})
        return 0
    print(
        f"{setup.name}: {args.algorithm}, {solver.iterations:,} iterations in {seconds:.3g} s"
        f" ({tree.nodes:,} histories, {len(tree.keys):,} information sets)"
    )
    print(f"value for the first player: {measured.value:.6g}")
    print(f"exploitability: {measured.exploitability:.3g}")
    print_strategy(strategy, lambda p: f"{p:.3f}")
    if args.save:
        print(f"strategy saved to {args.save}")
    return 0


def print_strategy(strategy: Strategy, number: Callable[[Any], str]) -> None:
    """The strategy by information set, each move's probability as `number` writes it, when
    the game has at most `SHOWN_SETS` sets (a larger one is for --json and --save)."""
    if len(strategy.table) > SHOWN_SETS:
        return
    print("strategy (each information set: what the player to move knows):")
    for key, row in strategy.table.items():
        moves = ", ".join(f"{move} {number(p)}" for move, p in row.items())
        print(f"  {key:<16} {moves}")


def refuse_tree_search(args: argparse.Namespace, options: tuple[str, ...], instead: str) -> None:
    """ValueError naming the first of `options` (argument names) that `args` gives: options of
    tree search, which a game of imperfect information does not take; `instead` says what
    the command does with it."""
    for name in options:
        if getattr(args, name, None) not in (None, False):
            raise ValueError(f"--{name.replace('_', '-')} is for tree search; {instead}")


def unrolled(game: Any, state: Any, no_limit: bool) -> GameTree:
    """The tree of `game`: itself when it has information sets, else seen as a game of
    perfect information whose sets hold one state each (from `state`)."""
    if isinstance(game, InformationSets):
        return unroll(game, lifted=no_limit)
    from zerosum.imperfect.views import PerfectInformation

    return unroll(PerfectInformation(game, state), lifted=no_limit)


def train(solver: Solver, iterations: int | None, seconds: float | None) -> None:
    """Run `solver` for `seconds` when given, else `iterations` (`DEFAULT_ITERATIONS` when
    neither is), in steps of about `STEP_SECONDS`, drawing progress on a terminal."""
    if seconds is not None:
        total, deadline = None, time.perf_counter() + seconds
    else:
        total, deadline = iterations or DEFAULT_ITERATIONS, math.inf
    step, measured_at, wait = 1, time.perf_counter(), MEASURE_EVERY
    with stop_points() as poll, progress("iterations", total=total, what="CFR") as bar:
        while time.perf_counter() < deadline:
            poll()  # Ctrl-C is answered here, never while numba compiles
            if total is not None:
                if solver.iterations >= total:
                    return
                step = min(step, total - solver.iterations)
            began = time.perf_counter()
            solver.run(step)
            faults.reached("iterations")
            bar.to(solver.iterations)
            took = time.perf_counter() - began
            step = max(1, min(2 * step, int(step * STEP_SECONDS / took) if took else 2 * step))
            if bar.drawn and time.perf_counter() - measured_at >= wait:
                began = time.perf_counter()
                found = measure(solver.tree, solver.average()).exploitability
                bar.note(f"exploitability {max(0.0, found):.3g}")
                measured_at = time.perf_counter()
                # A measure walks the whole tree: at most a fifth of the time goes to them.
                wait = max(MEASURE_EVERY, 4 * (measured_at - began))
