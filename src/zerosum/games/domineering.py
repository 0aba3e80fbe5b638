"""Domineering: dominoes placed on a board of squares, Left vertically and Right horizontally.

Left (Vertical, Blue) covers two empty squares one above the other, Right (Horizontal, Red)
two side by side; who cannot place a domino loses. The board is any set of squares: a
rectangle, with holes, or several pieces. A position is a `Board`: its height, width and a
bit mask of the empty squares (bit `row * width + column`, rows from the top).

Positions are written as rows from the top, separated by `/`: `.` an empty square, `#` a
covered one or a hole (`..#/.../...`); `RxC` is the empty rectangle of R rows and C columns
(`4x5`). A move is written as its two squares' top-left one and the direction: `v3,2` (a
vertical domino on row 3 and 4, column 2) or `h1,1`, counted from 1.

The rules split a board into its pieces (squares joined edge to edge), and name each piece by
its shape up to its eight images: the left-right and up-down reflections keep the value, and
the board turned a quarter (reflected in its diagonal) has the negative value, Left's dominoes
and Right's exchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from zerosum.limits import Limit, clipped

CELLS = Limit(
    "the squares of a Domineering board", 400, "its text is read square by square", liftable=False
)
"""The most squares a board may have (the value of large boards is out of reach anyway)."""

NAMES_KEPT = 1 << 21
"""The most pieces' names remembered (some 300 MB)."""


@dataclass(frozen=True)
class Board:
    """A Domineering position: `height` rows of `width` squares, `empty` a bit mask of the
    empty ones (bit row * width + column)."""

    height: int
    width: int
    empty: int

    def __str__(self) -> str:
        rows = []
        for row in range(self.height):
            rows.append(
                "".join(
                    "." if self.empty >> (row * self.width + column) & 1 else "#"
                    for column in range(self.width)
                )
            )
        return "/".join(rows)


def read_board(text: str) -> Board:
    """The board `text` writes: `RxC`, or rows of `.` and `#` separated by `/`."""
    words = text.strip().lower()
    if "x" in words and all(part.strip().isdigit() for part in words.split("x", 1)):
        height, width = (int(part) for part in words.split("x", 1))
        CELLS.check(height * width)
        if height < 1 or width < 1:
            raise ValueError(f"a Domineering rectangle has at least one square, got {text!r}")
        return Board(height, width, (1 << height * width) - 1)
    rows = [row.strip() for row in text.strip().split("/")]
    CELLS.check(sum(len(row) for row in rows))
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise ValueError(
            f"a Domineering board is rows of equal length separated by '/', like '../..' or"
            f" 2x3, got {clipped(text)}"
        )
    empty = 0
    for r, row in enumerate(rows):
        for c, square in enumerate(row):
            if square not in ".#":
                raise ValueError(
                    f"a Domineering square is '.' (empty) or '#' (covered), got {square!r}"
                    f" in {clipped(text)}"
                )
            if square == ".":
                empty |= 1 << (r * len(rows[0]) + c)
    return Board(len(rows), len(rows[0]), empty)


class Domineering:
    """Domineering's rules for the partizan protocol: Left vertical, Right horizontal."""

    name = "domineering"
    left_name, right_name = "Vertical", "Horizontal"

    def read(self, text: str) -> Board:
        return read_board(text)

    def left_options(self, board: Board) -> Iterator[Board]:
        """The boards a vertical domino leaves."""
        width, empty = board.width, board.empty
        below = empty & (empty >> width)  # squares whose square below is empty too
        while below:
            bit = below & -below
            below ^= bit
            yield Board(board.height, width, empty & ~(bit | bit << width))

    def right_options(self, board: Board) -> Iterator[Board]:
        """The boards a horizontal domino leaves."""
        width, empty = board.width, board.empty
        pairs = empty & (empty >> 1) & _not_last_column(board.height, width)
        while pairs:
            bit = pairs & -pairs
            pairs ^= bit
            yield Board(board.height, width, empty & ~(bit | bit << 1))

    def moves(self, board: Board, left: bool) -> Iterator[tuple[str, Board]]:
        """Each move of Left (`left`) or Right as text (`v1,2`), with the board it leaves."""
        width, empty = board.width, board.empty
        step = width if left else 1
        for index in range(board.height * width):
            if not left and index % width == width - 1:
                continue
            pair = 1 << index | 1 << (index + step)
            if index + step < board.height * width and empty & pair == pair:
                row, column = divmod(index, width)
                yield (
                    f"{'v' if left else 'h'}{row + 1},{column + 1}",
                    Board(board.height, width, empty & ~pair),
                )

    def components(self, board: Board) -> list[Board]:
        """The pieces of the board, each cropped to its own rectangle."""
        pieces = []
        left = board.empty
        not_last = _not_last_column(board.height, board.width)
        while left:
            piece = _flood(board, left & -left, not_last)
            left &= ~piece
            if piece & (piece - 1):  # a single square is worth 0: no domino fits
                pieces.append(_cropped(board, piece))
        return pieces

    def __init__(self) -> None:
        self._names: dict[int, tuple[int, bool]] = {}

    def signed_key(self, board: Board) -> tuple[int, bool]:
        """The board's shape as one number, the least of its eight images, and whether that
        image is the board turned a quarter (then the board's value is its negative: turning
        exchanges Left's dominoes and Right's). The number is `empty << 18 | height << 9 |
        width`. Remembered (up to `NAMES_KEPT`, then forgotten at once): the same small pieces
        come back in many positions."""
        height, width = board.height, board.width
        raw = board.empty << 18 | height << 9 | width
        found = self._names.get(raw)
        if found is not None:
            return found
        if len(self._names) >= NAMES_KEPT:
            self._names.clear()
        found = self._names[raw] = self._named(board)
        return found

    def _named(self, board: Board) -> tuple[int, bool]:
        height, width = board.height, board.width
        size = height * width
        squares = format(board.empty, f"0{size}b")[::-1]  # squares[i] is square i
        rows = [squares[i : i + width] for i in range(0, size, width)]
        least = (height, width, _least_image(squares, rows), False)
        if height >= width:  # the board turned is no wider: its images may be less
            columns = [squares[c::width] for c in range(width)]  # the rows of the board turned
            least = min(least, (width, height, _least_image("".join(columns), columns), True))
        return int(least[2][::-1], 2) << 18 | least[0] << 9 | least[1], least[3]


def _least_image(squares: str, rows: list[str]) -> str:
    """The least of a board's images reflected left to right, top to bottom or both, as the
    text of its squares from the first (`squares`, cut into `rows`)."""
    return min(squares, "".join(row[::-1] for row in rows), "".join(rows[::-1]), squares[::-1])


@cache
def _not_last_column(height: int, width: int) -> int:
    """The squares of a `height` by `width` board but its last column."""
    row = (1 << (width - 1)) - 1
    mask = 0
    for r in range(height):
        mask |= row << (r * width)
    return mask


def _flood(board: Board, start: int, not_last: int) -> int:
    """The squares joined to `start` edge to edge through empty squares (`not_last`: the
    board's squares but its last column)."""
    width, empty = board.width, board.empty
    not_first = not_last << 1
    piece, frontier = start, start
    while frontier:
        grown = (
            frontier << width
            | frontier >> width
            | (frontier & not_last) << 1
            | (frontier & not_first) >> 1
        )
        frontier = grown & empty & ~piece
        piece |= frontier
    return piece


def _cropped(board: Board, piece: int) -> Board:
    """The piece alone on its smallest rectangle."""
    width = board.width
    rows = [r for r in range(board.height) if piece >> (r * width) & ((1 << width) - 1)]
    columns_mask = 0
    for r in rows:
        columns_mask |= piece >> (r * width) & ((1 << width) - 1)
    first_column = (columns_mask & -columns_mask).bit_length() - 1
    new_width = columns_mask.bit_length() - first_column
    empty = 0
    for i, r in enumerate(range(rows[0], rows[-1] + 1)):
        line = piece >> (r * width + first_column) & ((1 << new_width) - 1)
        empty |= line << (i * new_width)
    return Board(rows[-1] - rows[0] + 1, new_width, empty)
