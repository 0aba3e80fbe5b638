"""Move orders a caller can hand to a search."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

Order = Callable[[Any, Sequence[Any]], Iterable[Any]]
"""Given a state and its legal moves, the same moves in the order to examine them."""


def by_priority(priority: Iterable[Hashable]) -> Order:
    """An order that examines moves by their rank in `priority`; unlisted moves come last.

    `by_priority([4, 0, 2, 6, 8, 1, 3, 5, 7])` is the textbook's centre-and-corners-first order for
    tic-tac-toe.
    """
    priority = list(priority)
    rank = {move: index for index, move in enumerate(priority)}
    if len(rank) != len(priority):
        raise ValueError(f"move order {priority} lists a move twice")
    last = len(rank)

    def order(state: Any, moves: Sequence[Any]) -> list[Any]:
        return sorted(moves, key=lambda move: rank.get(move, last))

    return order
