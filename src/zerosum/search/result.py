"""What a search returns: a value, a move, a principal variation and what it cost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SearchStats:
    """Counts of the work a search did.

    `nodes` counts every position the search entered (the root included); `terminals` the
    finished games it reached (the textbook's count of games played to the end); `evaluations` the
    positions it judged with the game's heuristic at the depth limit; `cutoffs` the times it
    stopped examining a node's moves because the remaining ones could not matter.
    """

    nodes: int = 0
    terminals: int = 0
    evaluations: int = 0
    cutoffs: int = 0

    @property
    def leaves(self) -> int:
        """Positions where the search stopped descending: terminals plus evaluations."""
        return self.terminals + self.evaluations


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search from one position.

    `value` is from the point of view of the player to move at the root, on the game's utility
    scale. `best_move` is None when the root is terminal. `pv` (the principal variation) is the
    line of best play the search found, starting with `best_move`. `plies` is the number of
    moves to the end of the game under best play when the search proved a win or a loss with
    distance-aware scores, else None.
    """

    value: float
    best_move: Any
    pv: tuple[Any, ...]
    stats: SearchStats
    plies: int | None = None
