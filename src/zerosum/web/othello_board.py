"""The Play page's Othello board: what `static/board-othello.js` draws, and where each move goes.

Cells are numbered as the game numbers its squares (`zerosum.games.othello`): `a1` is cell 0
at the top left, row by row, so that the drawer shows the board as the notation counts it.
"""

from __future__ import annotations

from typing import Any

from zerosum.games.othello import PASS, SIZE, Othello, State


def describe(game: Othello, state: State, last: int | None, seat: int) -> dict[str, Any]:
    """The board of `state` as the page draws it: 64 cells from a1, each `"B"` (Black, X),
    `"W"` (White, O) or `""`, and the square of `last` (the move that led here; None for a
    pass or at the start). The board is drawn with row 1 at the top, as its squares are
    written, whichever `seat` the person plays."""
    black, white = game.discs(state)
    cells = [
        "B" if black >> cell & 1 else "W" if white >> cell & 1 else ""
        for cell in range(SIZE * SIZE)
    ]
    last = None if last == PASS else last
    return {"kind": "othello", "size": SIZE, "cells": cells, "last": last}


def target(game: Othello, state: State, move: int) -> dict[str, Any]:
    """Where the legal `move` goes on the board: `{"cell": square}`, or `{"pass": True}`."""
    return {"pass": True} if move == PASS else {"cell": move}
