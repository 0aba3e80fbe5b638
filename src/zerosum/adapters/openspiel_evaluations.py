"""Evaluations shipped with the OpenSpiel adapter, for games where OpenSpiel gives none.

OpenSpiel's games come with rules and no heuristic, so the engine could only search them to
the end. For checkers and Breakthrough this module counts material from OpenSpiel's drawing of
the board (`str(state)`: one line per row, its number first, files below), and `shipped`
hands the adapter the one for a game. A user's own evaluation goes to
`zerosum.adapters.openspiel.load(name, evaluation=...)` instead.

Every evaluation here returns the estimate for the player asked about, within
`(-ESTIMATE_BOUND, ESTIMATE_BOUND)`: inside the utilities' -1 to 1, so that no estimate reads
as a proven result, and minus the other player's estimate (zero-sum).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zerosum.game import Player

Evaluation = Callable[[Any, Player], float]

ESTIMATE_BOUND = 0.9
"""The largest estimate, in absolute value (a win is 1)."""

CHECKERS_PIECES = {"o": (0, 1.0), "8": (0, 1.5), "+": (1, 1.0), "*": (1, 1.5)}
"""OpenSpiel's checkers drawing: each mark's owner and worth (a man 1, a king 1.5). The first
player's men are `o`, crowned `8`; the second player's `+` and `*`."""

BREAKTHROUGH_PIECES = {"b": 0, "w": 1}
"""OpenSpiel's Breakthrough drawing: the first player's pieces `b` (starting on the top rows
and moving down), the second player's `w` (moving up)."""


def shipped(name: str, spiel: Any) -> Evaluation | None:
    """The evaluation zerosum ships for OpenSpiel's game `name` (`spiel`, OpenSpiel's game
    object, says its parameters), or None when it ships none."""
    if name == "checkers":
        return checkers_material
    if name == "breakthrough":
        return breakthrough_material
    return None


def board_rows(drawing: str) -> list[str]:
    """The rows of a board as OpenSpiel draws it, from the top, each without its number (the
    top row's is the number of rows, the bottom row's 1) and without the line of files below.
    The number is cut by its length, not as digits: checkers draws a king as `8`."""
    lines = [line.strip() for line in drawing.splitlines() if line.strip()][:-1]
    rows = []
    for index, line in enumerate(lines):
        number = str(len(lines) - index)
        if not line.startswith(number):
            raise ValueError(f"not a board OpenSpiel draws: row {number} reads {line[:40]!r}")
        rows.append(line[len(number) :])
    return rows


def _share(mine: float, theirs: float) -> float:
    """`ESTIMATE_BOUND` times the difference of the two sides' worth over their sum: from -0.9
    (the player has nothing left) to 0.9 (the other has nothing left)."""
    total = mine + theirs
    return 0.0 if total == 0 else ESTIMATE_BOUND * (mine - theirs) / total


def checkers_material(state: Any, player: Player) -> float:
    """Checkers material for `player`: men 1, kings 1.5, as a share of all (see `_share`)."""
    worth = [0.0, 0.0]
    for row in board_rows(str(state)):
        for mark in row:
            if mark in CHECKERS_PIECES:
                owner, value = CHECKERS_PIECES[mark]
                worth[owner] += value
    return _share(worth[player], worth[1 - player])


def breakthrough_material(state: Any, player: Player) -> float:
    """Breakthrough material for `player`: each piece 1, plus the square of the share of the
    board it has crossed (a piece one step from the far row is worth nearly 2: a runner counts
    more than a piece at home), as a share of all (see `_share`)."""
    rows = board_rows(str(state))
    far = max(len(rows) - 1, 1)
    worth = [0, 0]  # in 1/far² of a piece: integers, so that equal sides are exactly 0
    for index, row in enumerate(rows):  # index 0 is the top row, the first player's home
        for mark in row:
            if mark in BREAKTHROUGH_PIECES:
                owner = BREAKTHROUGH_PIECES[mark]
                crossed = index if owner == 0 else far - index
                worth[owner] += far * far + crossed * crossed
    return _share(worth[player], worth[1 - player])
