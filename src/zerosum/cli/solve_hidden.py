"""`zerosum solve GAME` for a game of imperfect information: an exact equilibrium from the
sequence form (`zerosum.imperfect.sequence_form`), in floats by HiGHS or, with `--exact`, in
fractions, with the check that neither player gains by a best response against it.

The text report gives the value for the first player, the check, and the strategy of a small
game by information set; `--json` the same in the matrix games' vocabulary (`value` and
`strategy` in floats, `exact` true when they are proven exact, and then `value_exact` and
`strategy_exact` repeating them as fractions' text, else null); `--save FILE`
writes the strategy for `zerosum play --strategy`.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from zerosum import registry
from zerosum.cli.cfr import print_strategy, refuse_tree_search, unrolled
from zerosum.cli.common import print_json
from zerosum.imperfect.best_response import measure
from zerosum.imperfect.strategy import Strategy

TREE_SEARCH_OPTIONS = ("algorithm", "order", "distance", "weak", "file", "all_moves", "table_mb")


def run_hidden(args: argparse.Namespace, setup: registry.Setup) -> int:
    """Solve `setup`'s game of imperfect information; the exit code (0)."""
    refuse_tree_search(
        args,
        TREE_SEARCH_OPTIONS,
        f"{setup.entry.name} is solved by its sequence form (--exact for fractions)",
    )
    from zerosum.imperfect.sequence_form import solve as solve_sequence_form  # SciPy: when used

    tree = unrolled(setup.game, setup.state, args.no_limit)
    started = time.perf_counter()
    solution = solve_sequence_form(tree, exact=args.exact, lifted=args.no_limit)
    seconds = time.perf_counter() - started
    measured = measure(tree, solution.profile)
    strategy = Strategy.of(tree, solution.profile, setup.name)
    if args.save:
        strategy.save(args.save)
    floats = {
        key: {move: float(p) for move, p in row.items()} for key, row in strategy.table.items()
    }
    sequences = [len(plan) for plan in solution.plans]  # the empty sequence and one a slot
    report: dict[str, Any] = {
        "game": setup.name,
        "algorithm": "sequence form",
        "method": solution.method,
        "value": float(solution.value),
        "exploitability": max(0.0, float(measured.exploitability)),  # not rounding's -1e-17
        "sequences": sequences,
        "histories": tree.nodes,
        "information_sets": len(tree.keys),
        "seconds": round(seconds, 6),
        "strategy": floats,
        "exact": bool(solution.exact),
        "value_exact": str(solution.value) if solution.exact else None,
        "strategy_exact": _exact_strategy(strategy) if solution.exact else None,
    }
    if args.save:
        report["saved"] = args.save
    if args.json:
        print_json(report)
        return 0
    how = "exactly (in fractions)" if solution.exact else "in floats (HiGHS)"
    print(
        f"{setup.name}: the sequence form ({sequences[0]:,} + {sequences[1]:,} sequences), solved"
        f" {how} in {seconds:.3g} s"
    )
    value = solution.value
    shown = f"{value} ({float(value):.6g})" if solution.exact else f"{value:.10g}"
    print(f"value for the first player: {shown}")
    gains = [measured.best_values[0] - value, measured.best_values[1] + value]
    print(
        f"check: a best response gains the first player {_number(gains[0])} and the second"
        f" player {_number(gains[1])}"
    )
    print_strategy(strategy, lambda p: _number(p, 3))
    if args.save:
        print(f"strategy saved to {args.save}")
    return 0


def _exact_strategy(strategy: Strategy) -> dict[str, dict[str, str]]:
    """Each information set's probabilities as fractions' text ("2/3")."""
    return {key: {move: str(p) for move, p in row.items()} for key, row in strategy.table.items()}


def _number(value: Any, digits: int = 6) -> str:
    """A fraction as itself ("1/3"), a float to `digits` significant digits (0 for rounding
    noise below 1e-12)."""
    if isinstance(value, Fraction):
        return str(value)
    return "0" if abs(value) < 1e-12 else f"{value:.{digits}g}"
