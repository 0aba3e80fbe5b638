"""Scores: one integer scale for proven results and estimates, and the one way to read it.

A score is an integer from the point of view its function states (the engine's: the player to
move; the exact searches' with `distance`: the root player's). Its size says what it is:

- a proven result: a terminal utility `u` reached `ply` moves below the root scores
  `u * SCALE - ply` when positive, `u * SCALE + ply` when negative, 0 for a draw, so that among
  equal outcomes the quickest win and the slowest loss score best, while a better outcome
  always outscores a worse one (integer utilities, fewer than `SCALE / 2` plies);
- an estimate: a game's evaluation in `EVALUATION_UNIT`ths of the utility scale, kept below
  `PROVEN` in size (`heuristic_score`), so that a proven win or loss never hides behind one.

A score of 0 is a draw or an estimate of 0: only the search knows which (it is exact when it
met no estimate). `decode` turns a score into what a person reads, and every face (the UCI
engine, `zerosum analyze`, the pictures) formats its fields.
"""

from __future__ import annotations

from dataclasses import dataclass

SCALE = 1 << 20
"""A utility of 1 scores `SCALE`, less the plies to reach it."""

PROVEN = SCALE // 2
"""Scores at least this far from 0 are proven wins or losses; estimates stay below it."""

EVALUATION_UNIT = 1 << 10
"""Estimates count 1/1024ths of the utility scale."""

UNKNOWN_DISTANCE = SCALE // 4
"""The distance given to a win or loss known without its length (an endgame table's win/draw/
loss): it scores below every win of known length and above every estimate, and decodes to no
plies."""


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


def heuristic_score(estimate: float) -> int:
    """The integer score of an evaluation `estimate` (utility scale), kept below proven scores."""
    score = round(estimate * EVALUATION_UNIT)
    return max(1 - PROVEN, min(PROVEN - 1, score))


def is_proven(score: int) -> bool:
    """True when `score` is a proven win or loss (a draw or an estimate is not)."""
    return score >= PROVEN or score <= -PROVEN


@dataclass(frozen=True)
class Decoded:
    """A score as a person reads it, from the same point of view.

    `value` is on the game's utility scale: a proven result's utility (an integer), or the
    estimate. `proven` says the value is a result, not an estimate: a win or a loss (at least
    that good or bad, where utilities go beyond win and loss and the search met estimates), or
    any value of an exact search, a draw included. `plies` is the distance to the end of a
    proven win or loss; None for a draw, an estimate, or a result of unknown length (an endgame
    table's win).
    """

    value: float
    proven: bool
    plies: int | None


def decode(score: int, exact: bool = False) -> Decoded:
    """What `score` means on the utility scale; `exact` says the search that found it met no
    estimate, so that a score short of `PROVEN` is a proven draw, not an estimate."""
    if not exact and -PROVEN < score < PROVEN:
        return Decoded(score / EVALUATION_UNIT, False, None)
    utility = round(score / SCALE)
    plies = abs(utility * SCALE - score) if utility else None
    return Decoded(utility, True, None if plies is None or plies >= UNKNOWN_DISTANCE else plies)
