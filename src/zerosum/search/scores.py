"""Distance-aware scores: a win found sooner is worth more, a loss later is worth more.

A terminal utility `u` reached `ply` moves below the root is scored `u * SCALE - ply` when
positive and `u * SCALE + ply` when negative, so that among equal outcomes the quickest win
and the slowest loss score best, while a better outcome always outscores a worse one. That
needs integer utilities (win/draw/loss, or a game's integer points) and fewer than SCALE / 2
plies, which holds for every game searched to the end.
"""

from __future__ import annotations

SCALE = 1 << 20


def distance_score(utility: float, ply: int) -> int:
    """The integer score of a terminal `utility` reached at `ply`, from the same point of view."""
    if utility != int(utility):
        raise ValueError(f"distance-aware scores need integer utilities, got {utility!r}")
    u = int(utility)
    if u > 0:
        return u * SCALE - ply
    if u < 0:
        return u * SCALE + ply
    return 0


def scaled_evaluation(value: float) -> float:
    """A heuristic evaluation on the scale of distance-aware scores.

    Always a float, so that `decode` tells it from a proven (integer) score.
    """
    return float(value) * SCALE


def decode(score: float) -> tuple[float, int | None]:
    """The utility-scale value of a distance-aware score, and the plies of a proven result."""
    if isinstance(score, int):
        value = round(score / SCALE)
        return value, (abs(value * SCALE - score) if value else None)
    return score / SCALE, None
