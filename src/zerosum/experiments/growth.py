"""How the leaves a search reaches grow with depth on uniform trees (Knuth and Moore).

On a tree where every node has `b` moves and every leaf is `m` plies down, minimax reaches all
`b^m` leaves. Alpha-beta with the best move first everywhere reaches exactly the minimal tree,
`b^floor(m/2) + b^ceil(m/2) - 1` leaves (with distinct leaf values); in random order it reaches
about `b^(3m/4)` for moderate `b`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from zerosum.games.tree import Path, Tree
from zerosum.search.exact import alphabeta, minimax
from zerosum.search.ordering import Order
from zerosum.search.trace import EXIT, LEAF, Trace


@dataclass(frozen=True)
class GrowthPoint:
    """Leaves reached at one depth, averaged over the sample trees."""

    depth: int
    minimax: float
    random_order: float
    best_first: float


def minimal_tree_leaves(branching: int, depth: int) -> int:
    """The leaves of Knuth and Moore's minimal tree: b^floor(m/2) + b^ceil(m/2) - 1."""
    return branching ** (depth // 2) + branching ** ((depth + 1) // 2) - 1


def uniform_tree(branching: int, depth: int, rng: random.Random) -> Tree:
    """A tree with `branching` moves everywhere, `depth` plies deep, distinct random leaves."""
    values = list(range(branching**depth))
    rng.shuffle(values)
    leaves = iter(values)

    def build(ply: int) -> Any:
        if ply == depth:
            return next(leaves)
        return [build(ply + 1) for _ in range(branching)]

    return Tree(build(0))


def best_first(values: dict[Path, float]) -> Order:
    """The order that puts the best move first at every node of a tree whose values are known."""

    def order(state: Path, moves: Any) -> list[int]:
        sign = -1 if len(state) % 2 == 0 else 1  # MAX at even plies wants the largest first
        return sorted(moves, key=lambda move: sign * values[(*state, move)])

    return order


def growth_experiment(
    branching: int = 3,
    depths: Iterable[int] = range(1, 9),
    samples: int = 5,
    seed: int = 0,
    on_tree: Callable[[int], None] | None = None,
) -> tuple[GrowthPoint, ...]:
    """Leaves reached by minimax, alpha-beta in random order and in best-first order, per depth.

    Each depth averages `samples` uniform trees drawn from `random.Random(seed)`; their leaf
    values are a random permutation, so the moves' natural order is a random order. The
    best-first order comes from the exact values minimax records in its trace. `on_tree`, when
    given, is called with each tree's leaves once it is searched (a measure of the work done).
    """
    rng = random.Random(seed)
    points = []
    for depth in depths:
        totals = [0, 0, 0]
        for _ in range(samples):
            tree = uniform_tree(branching, depth, rng)
            trace = Trace(limit=2 * len(tree.nodes))
            full = minimax(tree, (), trace=trace)
            values = {
                e.state: e.value
                for e in trace.events
                if e.kind in (LEAF, EXIT) and e.value is not None  # minimax values them all
            }
            ordered = alphabeta(tree, (), order=best_first(values))
            totals[0] += full.stats.leaves
            totals[1] += alphabeta(tree, ()).stats.leaves
            totals[2] += ordered.stats.leaves
            if on_tree is not None:
                on_tree(len(tree.leaf_paths))
        points.append(GrowthPoint(depth, *(total / samples for total in totals)))
    return tuple(points)
