"""Cutcake: rectangles of cake cut along their grid lines, Left across and Right down.

Left (Vertical, Blue) cuts a piece along a north-south line, into two narrower pieces; Right
(Horizontal, Red) cuts along an east-west line, into two shorter pieces (Winning Ways,
ch. 2). Who cannot cut (every piece 1 by 1 for both, 1 wide for Left, 1 high for Right)
loses. A position is a tuple of pieces `(height, width)`, written `2x3 1x4`: a piece of 2
rows and 3 columns, and a strip of 4 columns. A move is the piece cut (counted from 1) and the
cut: `1:v2` (Left: two columns to the west of the cut), `1:h1` (Right: one row above it); in
a cake of one piece, `v2` and `h1`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zerosum.limits import Limit, clipped

Piece = tuple[int, int]

SIDE = Limit(
    "the side of a piece of cake", 1_000, "its pieces are valued one by one", liftable=False
)


def read_cake(text: str) -> tuple[Piece, ...]:
    """The pieces `text` writes: `2x3 1x4`."""
    pieces = []
    for word in text.replace(",", " ").split():
        found = re.fullmatch(r"(\d+)x(\d+)", word.lower())
        if found is None or min(int(found[1]), int(found[2])) < 1:
            raise ValueError(f"a piece of cake is ROWSxCOLUMNS, like 2x3, got {clipped(word)}")
        height, width = int(found[1]), int(found[2])
        SIDE.check(max(height, width))
        pieces.append((height, width))
    return tuple(pieces)


class Cutcake:
    """Cutcake for the partizan protocol: Left cuts north-south, Right east-west."""

    name = "cutcake"
    left_name, right_name = "Vertical", "Horizontal"

    def read(self, text: str) -> tuple[Piece, ...]:
        return read_cake(text)

    def write(self, cake: tuple[Piece, ...]) -> str:
        return " ".join(f"{h}x{w}" for h, w in cake)

    def left_options(self, cake: tuple[Piece, ...]) -> Iterator[tuple[Piece, ...]]:
        return (option for _, option in self.moves(cake, True))

    def right_options(self, cake: tuple[Piece, ...]) -> Iterator[tuple[Piece, ...]]:
        return (option for _, option in self.moves(cake, False))

    def moves(self, cake: tuple[Piece, ...], left: bool) -> Iterator[tuple[str, tuple[Piece, ...]]]:
        """Each cut of Left (`left`) or Right: its text and the pieces it leaves."""
        for index, (height, width) in enumerate(cake):
            side = width if left else height
            for at in range(1, side // 2 + 1):  # a cut and its mirror image are one value
                if left:
                    halves = ((height, at), (height, width - at))
                else:
                    halves = ((at, width), (height - at, width))
                piece = f"{index + 1}:" if len(cake) > 1 else ""
                yield (
                    f"{piece}{'v' if left else 'h'}{at}",
                    cake[:index] + halves + cake[index + 1 :],
                )

    def components(self, cake: tuple[Piece, ...]) -> list[tuple[Piece, ...]]:
        """Each piece alone."""
        return [(piece,) for piece in cake if piece != (1, 1)]
