"""Chess endgames of few pieces: their material, and the place of each position in a table.

A *material* names the pieces of both sides as Syzygy does, the stronger side first:
`KRvK`, `KQvKR`, `KPvKP` (`Material.parse` also takes `KRK`, `KQKR`). The stronger side is
White in the table; a position where it is Black is read with the board turned over (ranks
mirrored, colours swapped), which changes nothing of its value.

A table gives every position a number, its *index*, from which the position can be read back:

    index = ((turn * R + region(king of the first side)) * 64 + square 1) * 64 + ... square n-1

over the pieces in the table's order (the first side's king, the other king, the first side's
pieces from the queen down, then the other side's). The board's symmetries would give one
position up to eight numbers, so the index is taken on the *canonical* copy: without pawns the
eight symmetries of the square bring the first king into the triangle a1-d1-d4 (`R` = 10
squares), with pawns (which move forward) only the mirror between the a and h files is allowed,
bringing it onto files a to d (`R` = 32); among the copies left (a king on the diagonal), and
with two pieces alike in either order, the smallest index is the position's. An entry whose
position is not canonical, or not legal (two pieces on a square, a pawn on the first or last
rank, the side not to move in check), holds no position.

This module is the readable statement of the index; the table builder's compiled twin
(`zerosum.solve.compiled_chess_tables`) computes the same numbers, and the tests hold them equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

import chess

LETTERS = "KQRBNP"
"""The pieces in the order a material names them, strongest first."""
TYPES = {letter: chess.Piece.from_symbol(letter).piece_type for letter in LETTERS}
FIRST_SIDE_REGION = tuple(s for s in range(64) if chess.square_rank(s) <= chess.square_file(s) <= 3)
"""The ten squares of the triangle a1-d1-d4, where a table without pawns puts the first king."""
PAWN_REGION = tuple(s for s in range(64) if chess.square_file(s) <= 3)
"""Files a to d, where a table with pawns puts the first king."""
MOST_PIECES = 5
"""Tables of up to five pieces can be named (the index grows 64 times with each piece)."""


def transform(square: int, symmetry: int) -> int:
    """`square` under one of the eight symmetries of the board (bit 4 swaps files and ranks,
    then bit 1 mirrors the files, bit 2 the ranks); symmetries 0 and 1 keep pawns' directions."""
    file, rank = square & 7, square >> 3
    if symmetry & 4:
        file, rank = rank, file
    if symmetry & 1:
        file = 7 - file
    if symmetry & 2:
        rank = 7 - rank
    return rank * 8 + file


@dataclass(frozen=True)
class Material:
    """The pieces of an endgame, the stronger side first: `first` and `second` are each side's
    letters after its king, strongest first (`Material.parse("KQKR")`: first "Q", second "R")."""

    first: str
    second: str

    @classmethod
    def parse(cls, text: str) -> Material:
        """The material `text` names (`KRK`, `KRvK`, `kqkr`), the stronger side first;
        ValueError with the reason when it names none."""
        upper = text.strip().upper()
        if "V" in upper:
            sides = upper.split("V")
        else:
            found = re.fullmatch(r"K([QRBNP]*)K([QRBNP]*)", upper)
            sides = [] if found is None else ["K" + found.group(1), "K" + found.group(2)]
        if len(sides) != 2 or not all(re.fullmatch(r"K[QRBNP]*", side) for side in sides):
            raise ValueError(
                f"material {text!r}: name each side's king and pieces, e.g. KRK, KQKR or KPvKP"
            )
        first, second = (_strongest_first(side[1:]) for side in sides)
        if len(first) + len(second) + 2 > MOST_PIECES:
            raise ValueError(
                f"material {text!r}: at most {MOST_PIECES} pieces (kings included), not"
                f" {len(first) + len(second) + 2}"
            )
        if _strength(second) > _strength(first):
            first, second = second, first
        return cls(first, second)

    @classmethod
    def of_board(cls, board: chess.Board) -> tuple[Material, bool]:
        """The material of `board` and whether its stronger side is Black (the board read
        turned over)."""
        sides = [
            "".join(letter * len(board.pieces(TYPES[letter], colour)) for letter in LETTERS[1:])
            for colour in (chess.WHITE, chess.BLACK)
        ]
        material = cls.parse(f"K{sides[0]}vK{sides[1]}")
        return material, material.first != sides[0]

    @property
    def name(self) -> str:
        return f"K{self.first}vK{self.second}"

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        """(piece type, colour: 0 the first side, 1 the second) of each piece in index order."""
        return (
            (chess.KING, 0),
            (chess.KING, 1),
            *((TYPES[letter], 0) for letter in self.first),
            *((TYPES[letter], 1) for letter in self.second),
        )

    @property
    def pawns(self) -> bool:
        return "P" in self.first + self.second

    @property
    def region(self) -> tuple[int, ...]:
        return PAWN_REGION if self.pawns else FIRST_SIDE_REGION

    @property
    def symmetries(self) -> tuple[int, ...]:
        return (0, 1) if self.pawns else tuple(range(8))

    @property
    def entries(self) -> int:
        """The size of the index: both sides to move, every square for each piece."""
        return 2 * len(self.region) * 64 ** (len(self.pieces) - 1)

    def smaller(self) -> list[Material]:
        """The materials a capture or a promotion of this one leads to (kings alone aside),
        and a capture that promotes: a pawn taking a piece on the last rank (`KRvKP`'s pawn
        taking the rook as it promotes reaches `KQvK`, `KRvK`, `KBvK` or `KNvK`)."""
        found = []
        for side, other in ((self.first, self.second), (self.second, self.first)):
            for at, letter in enumerate(side):
                rest = side[:at] + side[at + 1 :]
                if rest or other:
                    found.append(Material.parse(f"K{rest}vK{other}"))
                if letter != "P":
                    continue
                for promoted in "QRBN":
                    found.append(Material.parse(f"K{rest}{promoted}vK{other}"))
                    for taken, piece in enumerate(other):
                        if piece != "P":  # no pawn stands on the last rank
                            left = other[:taken] + other[taken + 1 :]
                            found.append(Material.parse(f"K{rest}{promoted}vK{left}"))
        return sorted(set(found), key=lambda material: material.name)

    def index(self, squares: tuple[int, ...], turn: int) -> int:
        """The index of the position whose pieces (in `pieces` order, colours as the table
        reads them) stand on `squares`, `turn` to move (0 the first side): its canonical copy's."""
        region = self.region
        best = -1
        for symmetry in self.symmetries:
            moved = [transform(square, symmetry) for square in squares]
            if moved[0] not in region:
                continue
            _sort_alike(moved, self.pieces)
            number = turn * len(region) + region.index(moved[0])
            for square in moved[1:]:
                number = number * 64 + square
            if best < 0 or number < best:
                best = number
        return best

    def squares_of(self, number: int) -> tuple[tuple[int, ...], int]:
        """The squares (in `pieces` order) and the side to move of entry `number`, the
        inverse of `index` on a canonical position."""
        squares = []
        for _ in range(len(self.pieces) - 1):
            number, square = divmod(number, 64)
            squares.append(square)
        turn, king = divmod(number, len(self.region))
        return (self.region[king], *reversed(squares)), turn

    def board(self, squares: tuple[int, ...], turn: int) -> chess.Board:
        """The board of the pieces on `squares`, `turn` to move (the first side White)."""
        board = chess.Board(None)
        for (piece_type, side), square in zip(self.pieces, squares, strict=True):
            board.set_piece_at(square, chess.Piece(piece_type, side == 0))
        board.turn = turn == 0
        return board

    def position_of(self, board: chess.Board) -> tuple[tuple[int, ...], int]:
        """The squares (in `pieces` order) and the side to move of `board` as this table reads
        it (turned over when the stronger side is Black); ValueError when the material differs."""
        material, turned = Material.of_board(board)
        if material != self:
            raise ValueError(f"the position's material is {material.name}, not {self.name}")
        squares = []
        taken: set[int] = set()
        for piece_type, side in self.pieces:
            colour = chess.WHITE if (side == 0) != turned else chess.BLACK
            for square in sorted(board.pieces(piece_type, colour)):
                if square not in taken:
                    taken.add(square)
                    squares.append(square ^ 56 if turned else square)
                    break
        turn = int(board.turn == chess.BLACK) ^ int(turned)
        return tuple(squares), turn


def _sort_alike(squares: list[int], pieces: tuple[tuple[int, int], ...]) -> None:
    """Put the squares of pieces alike (same type and side, next to each other in the order)
    in ascending order, so that their order does not make two indexes of one position."""
    for i, j in product(range(2, len(squares)), repeat=2):
        if i < j and pieces[i] == pieces[j] and squares[i] > squares[j]:
            squares[i], squares[j] = squares[j], squares[i]


def _strongest_first(letters: str) -> str:
    return "".join(sorted(letters, key=LETTERS.index))


def _strength(letters: str) -> tuple[int, ...]:
    """How a side ranks against the other: more pieces first, then the stronger pieces."""
    return (len(letters), *(len(LETTERS) - LETTERS.index(letter) for letter in letters))
