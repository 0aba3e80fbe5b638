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


UNKNOWN_DISTANCE = SCALE // 4
"""The distance given to a win or loss known without its length (an endgame table's win/draw/
loss): it scores below every win of known length and above every estimate, and decodes to no
plies."""


def decode(score: float) -> tuple[float, int | None]:
    """The utility-scale value of a distance-aware score, and the plies of a proven result (None
    for a draw, an estimate, or a result of unknown length)."""
    if isinstance(score, int):
        value = round(score / SCALE)
        plies = abs(value * SCALE - score) if value else None
        return value, (None if plies is None or plies >= UNKNOWN_DISTANCE else plies)
    return score / SCALE, None


PROVEN = SCALE // 2
"""Scores at least this far from 0 are proven wins or losses; heuristic scores stay below it."""

EVALUATION_UNIT = 1 << 10
"""Integer heuristic scores count 1/1024ths of the utility scale."""


def heuristic_score(estimate: float) -> int:
    """The integer score of an evaluation `estimate` (utility scale), kept below proven scores."""
    score = round(estimate * EVALUATION_UNIT)
    return max(1 - PROVEN, min(PROVEN - 1, score))


def is_proven(score: int) -> bool:
    """True when an integer score is a proven win or loss rather than an estimate."""
    return score >= PROVEN or score <= -PROVEN
