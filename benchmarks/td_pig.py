"""TD(λ) on Pig to 100: how close self-play comes to the optimal player, measured exactly.

Trains `zerosum.learn.td` for `--episodes` games, stopping every `--every` games to value the
TD policy so far (the same as expectiminimax at depth 1 over the learned evaluation, which the
tests check) against Neller and Presser's optimal player by exact policy evaluation
(`win_probability_against_optimal`); then the classic hold-at-20 and hold-at-25, and the
optimal policy itself (1/2 in mean). Prints one Markdown table: the mean over both seats,
first and second player, and the training time so far.

    python benchmarks/td_pig.py [--target 100] [--episodes 80000] [--every 20000] [--hidden 64]
                                [--lam 0.7] [--alpha 0.03] [--halving 20000]
                                [--exploration 0.05] [--seed 0] [--save DIR]
"""

from __future__ import annotations

import argparse
import time

from zerosum.learn.td import (
    ShouldRoll,
    TDSettings,
    hold_at,
    save,
    train_td,
    win_probability_against_optimal,
)
from zerosum.solve.pig import solved


def main() -> None:
    defaults = TDSettings()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=defaults.target)
    parser.add_argument("--episodes", type=int, default=80_000)
    parser.add_argument("--every", type=int, default=20_000)
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--lam", type=float, default=defaults.lam)
    parser.add_argument("--alpha", type=float, default=defaults.alpha)
    parser.add_argument("--halving", type=int, default=defaults.halving)
    parser.add_argument("--exploration", type=float, default=defaults.exploration)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--save", help="a directory to save the trained evaluation in")
    args = parser.parse_args()
    settings = TDSettings(
        args.target,
        args.hidden,
        args.lam,
        args.alpha,
        args.halving,
        args.exploration,
        args.seed,
    )
    solution = solved(args.target)
    print(settings)
    print("\n| policy against the optimal player | mean | first | second | training |")
    print("|---|---:|---:|---:|---:|")

    def row(name: str, policy: ShouldRoll, seconds: str = "") -> None:
        result = win_probability_against_optimal(args.target, policy, solution=solution)
        print(f"| {name} | {result.mean:.4f} | {result.first:.4f} | {result.second:.4f} |"
              f" {seconds} |", flush=True)  # fmt: skip

    evaluation, seconds = None, 0.0
    while evaluation is None or evaluation.episodes < args.episodes:
        start = time.perf_counter()
        games = min(args.every, args.episodes - (evaluation.episodes if evaluation else 0))
        evaluation = train_td(settings, games, start=evaluation)
        seconds += time.perf_counter() - start
        row(
            f"TD(λ) after {evaluation.episodes:,} games", evaluation.should_roll, f"{seconds:.0f} s"
        )
    if args.save:
        save(evaluation, args.save)
    row("hold at 20", hold_at(20))
    row("hold at 25", hold_at(25))
    row("optimal", solution.should_roll)


if __name__ == "__main__":
    main()
