"""Move orders a caller can hand to a search."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from zerosum.game import Game

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


def by_value(game: Game[Any, Any], value: Callable[[Any], float], *, best: bool = True) -> Order:
    """An order that examines first the move whose position is best (`best`) or worst for the
    player making it, by `value(position)`, the position's value for the first player (player
    0); moves of equal value keep the game's order.

    Given exact values, best first is the perfect order (alpha-beta examines the fewest
    leaves) and worst first the most wasteful one.
    """

    def order(state: Any, moves: Sequence[Any]) -> list[Any]:
        sign = 1 if game.to_move(state) == 0 else -1  # the mover's point of view
        if best:
            sign = -sign  # sorted smallest first: the best for the mover leads
        return sorted(moves, key=lambda move: sign * value(game.result(state, move)))

    return order
