"""Toads and Frogs: toads move right, frogs move left, along a row of squares.

Left moves a toad (`T`) one square right into an empty square, or jumps it over one frog (`F`)
into the empty square just beyond; Right moves a frog left the same way, over a toad. Who
cannot move loses. A position is the row as text: `TT..FF`. A move is the square (from 1) of
the animal moved, and where it lands: `2-3`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zerosum.limits import Limit, clipped

SQUARES = Limit(
    "the squares of a Toads and Frogs row", 200, "its positions grow exponentially", liftable=False
)


def read_row(text: str) -> str:
    """The row `text` writes, in capitals: `T`, `F` and `.`."""
    row = text.strip().upper()
    SQUARES.check(len(row))
    if not re.fullmatch(r"[TF.]*", row):
        raise ValueError(
            "a Toads and Frogs row is made of T (toad), F (frog) and . (empty),"
            f" got {clipped(text)}"
        )
    return row


class ToadsAndFrogs:
    """Toads and Frogs for the partizan protocol: Left the toads, Right the frogs."""

    name = "toads-frogs"
    left_name, right_name = "Toads", "Frogs"

    def read(self, text: str) -> str:
        return read_row(text)

    def left_options(self, row: str) -> Iterator[str]:
        return (option for _, option in self.moves(row, True))

    def right_options(self, row: str) -> Iterator[str]:
        return (option for _, option in self.moves(row, False))

    def moves(self, row: str, left: bool) -> Iterator[tuple[str, str]]:
        """Each move of a toad (`left`) or a frog: its text and the row it leaves."""
        animal, other, step = ("T", "F", 1) if left else ("F", "T", -1)
        for at, square in enumerate(row):
            if square != animal:
                continue
            for to in (at + step, at + 2 * step):
                if not 0 <= to < len(row) or row[to] != ".":
                    continue
                if to == at + 2 * step and row[at + step] != other:
                    continue
                cells = list(row)
                cells[at], cells[to] = ".", animal
                yield f"{at + 1}-{to + 1}", "".join(cells)

    def key(self, row: str) -> str:
        return row
