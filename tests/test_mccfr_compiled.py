"""Monte Carlo CFR compiled (`zerosum.imperfect.compiled_mccfr`) held to the readable Python
versions in `zerosum.imperfect.cfr`: the same draws from the same generator, in the same order,
so the same regrets and averages to the last bit, however the iterations are split into calls."""

from __future__ import annotations

import hidden_games
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.kuhn import KuhnPoker
from zerosum.games.leduc import LeducPoker
from zerosum.imperfect.best_response import exploitability
from zerosum.imperfect.cfr import SAMPLED, Solver
from zerosum.imperfect.tree import GameTree, unroll

KUHN = unroll(KuhnPoker())

signal_games = hidden_games.signal_games(most_depth=4)


def assert_same(python: Solver, compiled: Solver) -> None:
    """Equal regrets and average weights, bit for bit, and generators left in the same state
    (every draw taken by both)."""
    assert python.iterations == compiled.iterations
    assert python.regret.tobytes() == compiled.regret.tobytes()
    assert python.total.tobytes() == compiled.total.tobytes()
    assert python.random.bit_generator.state == compiled.random.bit_generator.state


def both(tree: GameTree, algorithm: str, seed: int, runs: list[int]) -> tuple[Solver, Solver]:
    """The Python and the compiled solver after the same iterations, the compiled one called
    once for each of `runs`, the Python one once for all."""
    python = Solver(tree, algorithm, seed=seed, impl="python")
    compiled = Solver(tree, algorithm, seed=seed)
    python.run(sum(runs))
    for count in runs:
        compiled.run(count)
    return python, compiled


@pytest.mark.parametrize("algorithm", SAMPLED)
def test_compiled_equals_python_on_kuhn(algorithm):
    python, compiled = both(KUHN, algorithm, 11, [1, 299, 700])
    assert_same(python, compiled)
    assert np.array_equal(python.average(), compiled.average())
    assert np.array_equal(python.current(), compiled.current())


@pytest.mark.parametrize("algorithm", SAMPLED)
def test_compiled_equals_python_on_leduc(algorithm):
    """A deeper tree (two rounds of betting, a public card): longer stacks and lines."""
    python, compiled = both(unroll(LeducPoker()), algorithm, 5, [40, 60])
    assert_same(python, compiled)


@settings(max_examples=40, deadline=None)
@given(
    game=signal_games,
    algorithm=st.sampled_from(SAMPLED),
    seed=st.integers(0, 2**32 - 1),
    runs=st.lists(st.integers(1, 30), min_size=1, max_size=3),
)
def test_compiled_equals_python_on_random_games(game, algorithm, seed, runs):
    python, compiled = both(unroll(game), algorithm, seed, runs)
    assert_same(python, compiled)


@pytest.mark.parametrize("algorithm", SAMPLED)
def test_same_seed_same_result_other_seed_other_result(algorithm):
    first, second, other = (Solver(KUHN, algorithm, seed=seed) for seed in (3, 3, 4))
    for solver in (first, second, other):
        solver.run(5000)
    assert first.regret.tobytes() == second.regret.tobytes()
    assert first.total.tobytes() == second.total.tobytes()
    assert not np.array_equal(first.total, other.total)


@pytest.mark.parametrize("algorithm", SAMPLED)
def test_kuhn_exploitability_falls_below_a_thousandth_and_a_half(algorithm):
    """Seeded, so the path is fixed: 0.0138 after 1,000 iterations of external sampling and
    0.109 of outcome sampling, then 0.00058 and 0.00095 after three million (under a second)."""
    solver = Solver(KUHN, algorithm, seed=2026)
    solver.run(1000)
    early = exploitability(KUHN, solver.average())
    solver.run(3_000_000 - solver.iterations)
    late = exploitability(KUHN, solver.average())
    assert 0 < late < min(0.0015, early / 10)
