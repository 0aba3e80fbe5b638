"""The Play page's Go board: what `static/board-go.js` draws, and where each move goes.

Points are numbered as the game numbers them (`zerosum.games.go`): point `size * row + column`,
row 0 at the bottom (`A1` is point 0), so that the drawer puts row 1 at the bottom as the
coordinates count it. A stone taken is simply gone from the next board.
"""

from __future__ import annotations

from typing import Any

from zerosum.games.go import Go, Position


def star_points(size: int) -> list[int]:
    """The points marked on the board (hoshi): the third lines' crossings on boards under 13x13
    (7x7 to 11x11), the fourth lines' on larger ones, the middle of each side too on boards
    of 15x15 and more, and the centre of an odd board; the centre alone under 7x7."""
    middle = size // 2
    centre = [middle * size + middle] if size % 2 else []
    if size < 7:
        return centre
    edge = 2 if size < 13 else 3
    lines = [edge, size - 1 - edge]
    if size >= 15 and size % 2:
        lines.insert(1, middle)
    return sorted({row * size + column for row in lines for column in lines} | set(centre))


def describe(game: Go, state: Position, last: int | None, seat: int) -> dict[str, Any]:
    """The board of `state` as the page draws it: its `size`, its `cells` from point 0 (A1)
    on, each `"B"` (Black, X), `"W"` (White, O) or `""`, the `stars`, the point of `last`
    (the move that led here; None for a pass or at the start), whether the last move was a
    pass (`passed`, known from the position itself), the player `to_move` (None once the game
    is over), the `area` of Black and White, the `komi`, and once the game is over its `score`
    as GTP writes it (`B+3.5`), else None. Row 1 is at the bottom whichever `seat` the person
    plays."""
    cells = [
        "B" if state.black >> point & 1 else "W" if state.white >> point & 1 else ""
        for point in range(game.points)
    ]
    black, white = game.area(state)
    over = game.is_terminal(state)
    return {
        "kind": "go",
        "size": game.size,
        "cells": cells,
        "stars": star_points(game.size),
        "last": None if last is None or last == game.pass_move else last,
        "passed": state.passes > 0,
        "to_move": None if over else state.player,
        "area": [black, white],
        "komi": game.komi,
        "score": game.score_text(state) if over else None,
    }


def target(game: Go, state: Position, move: int) -> dict[str, Any]:
    """Where the legal `move` goes on the board: `{"point": p}`, or `{"pass": True}`."""
    return {"pass": True} if move == game.pass_move else {"point": move}
