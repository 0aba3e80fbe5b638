"""Move ordering: the orders a caller can hand to a search (`by_priority`, `by_value`), and the
engine's own, learnt as it searches (`MoveOrder`: the hash move, captures by MVV-LVA, killers,
history).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from zerosum.game import Game, Player

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


QUIET = -(1 << 40)
"""The MVV-LVA rank of a move that captures nothing: below every capture's."""


def mvv_lva(capture: tuple[float, float] | None) -> float:
    """The rank of a move by what it captures (`zerosum.game.Capturing.capture`: the values of
    the victim and the attacker), the highest searched first: most valuable victim first, then
    least valuable attacker; quiet moves last."""
    if capture is None:
        return QUIET
    victim, attacker = capture
    return victim * 1024 - attacker


class MoveOrder:
    """The engine's move order (`zerosum.search.engine.Engine`), learnt as it searches: the
    first move it is given (the `hash_move`, the move the table stored for the position, played
    only if it is legal, on any path; at the root the previous iteration's best), then captures
    by MVV-LVA (given the game's `capture`: `zerosum.game.Capturing`, the `captures` switch),
    then the two `killers` of the ply, then the rest by the `history` heuristic, ties kept in the
    game's own order of `legal_moves`. It keeps the killers and the history between searches
    (`clear` forgets them)."""

    def __init__(
        self,
        capture: Callable[[Any, Any], tuple[float, float] | None] | None,
        *,
        killers: bool,
        history: bool,
    ) -> None:
        """A move order that ranks captures by `capture` (none if None), and keeps `killers`
        and `history` if they are on."""
        self.capture = capture
        self.killers = killers
        self.history = history
        self.killer_moves: dict[int, list[Any]] = {}
        self.history_scores = _no_history()

    def order(
        self, state: Any, moves: Sequence[Any], first: Any, ply: int, player: Player
    ) -> list[Any]:
        """`moves` in the order to search them: `first` (the hash move, or at the root the
        previous iteration's best), captures, killers, then by history."""
        front = []
        rest = list(moves)
        if first is not None and first in rest:  # a collision can store any move
            rest.remove(first)
            front.append(first)
        capture = self.capture
        if capture is not None:
            captures = [move for move in rest if capture(state, move) is not None]
            if captures:
                captures.sort(key=lambda move: mvv_lva(capture(state, move)), reverse=True)
                front += captures
                rest = [move for move in rest if move not in captures]
        if self.killers:
            for killer in self.killer_moves.get(ply, ()):
                if killer in rest:
                    front.append(killer)
                    rest.remove(killer)
        if self.history and len(rest) > 1:
            scores = self.history_scores[player]
            rest.sort(key=scores.__getitem__, reverse=True)
        return front + rest

    def reward(self, state: Any, move: Any, depth: int, ply: int, player: Player) -> None:
        """Remember a quiet move that caused a cut-off: as a killer of its ply, and in history."""
        if self.capture is not None and self.capture(state, move) is not None:
            return
        if self.killers:
            killers = self.killer_moves.setdefault(ply, [])
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        if self.history:
            scores = self.history_scores[player]
            scores[move] += depth * depth

    def new_search(self) -> None:
        """Forget the killer moves; halve the history scores (old history counts less than
        new)."""
        self.killer_moves = {}
        for scores in self.history_scores:
            for move in scores:
                scores[move] >>= 1

    def clear(self) -> None:
        """Forget the history heuristic and the killer moves."""
        self.history_scores = _no_history()
        self.killer_moves = {}


def _no_history() -> tuple[defaultdict[Any, int], defaultdict[Any, int]]:
    """Each player's history scores, every move at 0 (a default dict: the moves are sorted by
    its `__getitem__`, with no Python call per move)."""
    return defaultdict(int), defaultdict(int)
