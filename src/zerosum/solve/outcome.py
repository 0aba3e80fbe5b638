"""Outcomes of solved positions, and the one integer per position that orders them.

An outcome is a *value* for the side to move (the game's utility: +1 a win, 0 a draw, -1 a
loss, or the game's own integer score) and a *distance*: the plies to the end of the game under
perfect play, where the side that wins hurries, the side that loses delays, and a draw takes its
shortest line. The retrograde passes compare outcomes millions of times, so they carry one
integer per position, its *rank*, from the point of view of the side to move:

    value * SPAN - distance   for a win (value > 0),
    value * SPAN + distance   for a loss (value < 0),
    -distance                 for a draw,

so that the larger rank is always the outcome the side to move prefers, and a position's rank
is the largest of its children's ranks as seen from it (`seen_by_opponent`, `seen_by_mover`).
`outcomes` decodes the ranks of a numpy array, and the functions ending in `_all` do the same
as their one-rank twins to every rank of an array at once.
"""

from __future__ import annotations

import numpy as np

SPAN = 1 << 17
HALF = SPAN >> 1
"""Ranks above HALF are wins, ranks below -HALF losses, the rest draws."""
MAX_DISTANCE = 0xFFFE
NO_END = 0xFFFF
"""The distance recorded for a draw held by endless play (a position on a cycle)."""
MAX_VALUE = 127


def terminal_rank(utility: float) -> int:
    """The rank of a finished game worth `utility` to the side to move; ValueError if unstorable."""
    if utility != int(utility) or not -MAX_VALUE <= utility <= MAX_VALUE:
        raise _unstorable(repr(utility))
    return int(utility) * SPAN


def terminal_rank_all(utilities: np.ndarray) -> np.ndarray:
    """`terminal_rank` of every utility of an integer array."""
    if not np.issubdtype(utilities.dtype, np.integer):
        raise _unstorable(f"an array of {utilities.dtype}")
    if len(utilities) and not -MAX_VALUE <= utilities.min() <= utilities.max() <= MAX_VALUE:
        raise _unstorable(f"{utilities.min()} to {utilities.max()}")
    return utilities.astype(np.int64) * SPAN


def _unstorable(got: str) -> ValueError:
    return ValueError(
        f"retrograde analysis needs integer utilities from {-MAX_VALUE} to {MAX_VALUE}, got {got}"
    )


def seen_by_opponent(rank: int) -> int:
    """The rank of a position as it counts for the other player, one ply before it."""
    if rank > HALF:
        return 1 - rank
    if rank < -HALF:
        return -1 - rank
    return rank - 1


def seen_by_mover(rank: int) -> int:
    """The rank of a position as it counts for the same player, moving one ply before it."""
    return rank + 1 if rank < -HALF else rank - 1


def outcomes(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (value, distance) every rank of an array encodes, for the same side to move, as two
    arrays; ValueError if a distance is too long to store."""
    win, loss = ranks > HALF, ranks < -HALF
    values = np.where(win, -(-ranks // SPAN), np.where(loss, ranks // SPAN, 0))
    distances = np.where(win | loss, np.abs(ranks - values * SPAN), -ranks)
    if len(distances) and distances.max() > MAX_DISTANCE:
        raise ValueError(f"a game longer than {MAX_DISTANCE} plies cannot be stored in a table")
    return values, distances


def seen_by_opponent_all(ranks: np.ndarray) -> np.ndarray:
    """`seen_by_opponent` of every rank of an array."""
    return np.where(ranks > HALF, 1 - ranks, np.where(ranks < -HALF, -1 - ranks, ranks - 1))


def seen_by_mover_all(ranks: np.ndarray) -> np.ndarray:
    """`seen_by_mover` of every rank of an array."""
    return np.where(ranks < -HALF, ranks + 1, ranks - 1)
