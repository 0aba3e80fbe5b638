"""Othello (reversi) on 8x8 bitboards, written and numbered as OpenSpiel's `othello` does.

**Squares.** Square `8 * row + column` is bit `8 * row + column` of a bitboard, with row 0 at
the top and column 0 on the left: the action numbers of OpenSpiel's `othello`
(open_spiel/games/othello.h and othello.cc: `Move::GetAction` is `row * kNumCols + col`). As
text a square is its column letter `a`-`h` and its row number `1`-`8` counted from the top,
OpenSpiel's `Move::ToString`: `a1` is square 0 (top left), `h1` square 7, `a8` square 56. A
pass is move 64 (OpenSpiel's `kPassMove`, `kNumCells`), written `pass`.

**The start.** White on d4 and e5, Black on e4 and d5 (OpenSpiel's `OthelloState`
constructor: White on (3,3) and (4,4), Black on (3,4) and (4,3)); Black is player 0, `X`, and
moves first; White is player 1, `O`. Black's first moves are d3, c4, f5 and e6.

**The rules.** A move puts a disc on an empty square from which, in at least one of the eight
directions, a line of the opponent's discs ends in one of the mover's; every such line is
flipped. A player with no such square must pass (`legal_moves` is then `[PASS]`, the only
move); a player with one may not. The game ends when neither player has a square, the board
full or not. `utility` is +1, 0 or -1 by the sign of the disc difference for the player asked
about (empty squares count for nobody, as in OpenSpiel: `DiskCount`); `disc_difference` gives
the difference itself.

A state is the tuple `(mine, theirs, player, moves)`:

- `mine`, `theirs`: the discs of the player to move and of the other, as bitboards;
- `player`: the player to move (0 Black, 1 White);
- `moves`: the squares the player to move may play as a bitboard, with bit 64 (`PASS`) set
  instead when that player must pass, and 0 exactly when the game is over. `result` works it
  out once, so that `legal_moves` and `is_terminal` cost nothing.

`legal_moves` lists the squares in a fixed order good players start from, each group in
square order: the corners, the other edge squares but those next to a corner, the inner
squares but those diagonally next to a corner, the edge squares next to a corner (C-squares),
the squares diagonally next to a corner (X-squares). A compiled twin of this game must keep
the order for its node counts to equal these.

**Positions as text** (`parse_state`, `format_state`), either:

- the moves from the start, each a square or `pass`, with or without spaces or commas
  between them: `d3c5f6`, `d3 c5 f6`, `""` for the start; or
- the board: 64 squares row by row from a1 (a1 b1 ... h1, a2 ... h8), each `X` (Black), `O`
  (White) or `.` (`-`, as OpenSpiel prints an empty square, is read as `.` too), then the side to
  move, `X` or `O`. Letters in either case; spaces, `|` and `/` anywhere are ignored, so rows
  may be separated by `/`. `format_state` writes the 64 squares, a space and the side.

A board is accepted when the four centre squares (d4 e4 d5 e5) hold discs: they are filled at
the start and a disc is never removed, so a board with one of them empty cannot occur. Other
boards no game reaches (a disc cut off from the rest) are accepted and played by the rules as
they stand; a side to move with no square must pass, and a board where neither side has one is
a finished game.

**Evaluation** (`evaluate`, for depth-limited search): mobility (the squares each side could
play, as a share of both), corners, the discs on X-squares beside an empty corner (a gift of
that corner) and edge discs, in (-1, 1) and equal to `utility` on finished games. Its
`noisy_moves` are the corners the player to move can take, so that quiescence search does
not stop with a corner about to change hands.
"""

from __future__ import annotations

import re

import numpy as np

from zerosum.game import Player
from zerosum.games.planes import bit_planes
from zerosum.limits import clipped

State = tuple[int, int, int, int]

SIZE = 8
PASS = 64
"""The pass move (OpenSpiel's `kPassMove`): also the bit of `moves` that says the player must
pass."""
_SQUARES = np.arange(64).reshape(8, 8)  # each square's bit, row by row from a1

BOARD = (1 << 64) - 1
COLUMN_A = sum(1 << (8 * row) for row in range(SIZE))
COLUMN_H = COLUMN_A << 7
INNER_COLUMNS = BOARD & ~(COLUMN_A | COLUMN_H)
"""Columns b-g: a line running sideways or diagonally never flanks a disc on column a or h,
and masking those columns out keeps shifted lines from wrapping onto the next row."""

DIRECTIONS = ((1, INNER_COLUMNS), (8, BOARD), (7, INNER_COLUMNS), (9, INNER_COLUMNS))
"""Each shift with the squares a flanked line may cross: along a row (1), a column (8) and the
two diagonals (7 and 9). A left shift walks towards higher squares (row 8), a right shift
towards lower ones (row 1)."""


def square_bits(*names: str) -> int:
    """The bitboard of the squares named (`"a1"`, `"h8"`...)."""
    return sum(1 << square_of(name) for name in names)


def square_of(name: str) -> int:
    """The number of the square `name` (`"d3"` is 19)."""
    return 8 * (int(name[1]) - 1) + "abcdefgh".index(name[0])


def square_name(square: int) -> str:
    """The text of square number `square` (19 is `"d3"`)."""
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


CORNERS = square_bits("a1", "h1", "a8", "h8")
EDGES = (
    sum(1 << s for s in range(8)) | sum(1 << s for s in range(56, 64)) | COLUMN_A | COLUMN_H
) & ~CORNERS
C_SQUARES = square_bits("b1", "g1", "a2", "h2", "a7", "h7", "b8", "g8")
X_SQUARES = square_bits("b2", "g2", "b7", "g7")
INNER = BOARD & ~(CORNERS | EDGES | X_SQUARES)
ORDER = (CORNERS, EDGES & ~C_SQUARES, INNER, C_SQUARES, X_SQUARES)
"""The groups `legal_moves` lists squares by, best first (each group in square order)."""
X_SQUARE_CORNERS = tuple(
    (square_bits(x), square_bits(corner))
    for x, corner in (("b2", "a1"), ("g2", "h1"), ("b7", "a8"), ("g7", "h8"))
)
CENTRE = square_bits("d4", "e4", "d5", "e5")

START_BLACK = square_bits("e4", "d5")
START_WHITE = square_bits("d4", "e5")

MARKS = "XO"
EMPTY_MARKS = ".-"
IGNORED = " \t\n\r|/"
MOVE_SEPARATORS = re.compile(r"[\s,]+")
MOVE_WORD = re.compile(r"[a-h][1-8]|pass", re.IGNORECASE)


MIX_1, MIX_2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
WHITE_SALT = 0x9E3779B97F4A7C15
"""The multipliers of `mix`, and what the key mixes into the other's discs when White moves."""


def mix(z: int) -> int:
    """A 64-bit integer's bits mixed so that each changes about half of the result's
    (splitmix64's finaliser): a key that spreads nearby positions over the whole table."""
    z = (z ^ z >> 30) * MIX_1 & BOARD
    z = (z ^ z >> 27) * MIX_2 & BOARD
    return z ^ z >> 31


def legal_squares(mine: int, theirs: int) -> int:
    """The empty squares from which `mine` would flank a line of `theirs`, as a bitboard.

    In each direction, every run of `theirs` that starts next to one of `mine` is walked a
    square at a time, all runs at once: the square past a run's end is a move when it is empty,
    and the walk ends when no run goes on.
    """
    squares = 0
    for shift, crossable in DIRECTIONS:
        flank = theirs & crossable
        run = flank & (mine << shift)
        while run:
            run <<= shift
            squares |= run
            run &= flank
        run = flank & (mine >> shift)
        while run:
            run >>= shift
            squares |= run
            run &= flank
    return squares & BOARD & ~(mine | theirs)


def flipped(mine: int, theirs: int, square: int) -> int:
    """The discs of `theirs` that a disc of `mine` on `square` flips, as a bitboard."""
    disc = 1 << square
    flips = 0
    for shift, crossable in DIRECTIONS:
        flank = theirs & crossable
        run, probe = 0, disc << shift
        while probe & flank:
            run |= probe
            probe <<= shift
        if probe & mine:
            flips |= run
        run, probe = 0, disc >> shift
        while probe & flank:
            run |= probe
            probe >>= shift
        if probe & mine:
            flips |= run
    return flips


def squares_in(bitboard: int) -> list[int]:
    """The squares of `bitboard`, lowest first."""
    squares = []
    while bitboard:
        lowest = bitboard & -bitboard
        squares.append(lowest.bit_length() - 1)
        bitboard ^= lowest
    return squares


class Othello:
    """Othello: flank the opponent's discs to turn them; most discs when nobody can move wins."""

    player_names = ("X", "O")
    compiled_rules = "zerosum.games.compiled_othello:othello_rules"
    """The same rules compiled with numba, named (`zerosum.compiled.protocol.compiled_twin`
    loads them): the compiled twin imports this game, never the reverse."""

    def initial_state(self) -> State:
        return (START_BLACK, START_WHITE, 0, legal_squares(START_BLACK, START_WHITE))

    def to_move(self, state: State) -> Player:
        return state[2]

    def legal_moves(self, state: State) -> list[int]:
        """The squares the player to move may play (see the module for their order), `[PASS]`
        when it must pass, `[]` once the game is over."""
        moves = state[3]
        if moves & BOARD == 0:
            return [PASS] if moves else []
        ordered: list[int] = []
        for group in ORDER:
            if moves & group:
                ordered += squares_in(moves & group)
        return ordered

    def result(self, state: State, move: int) -> State:
        """The position after the legal `move` (a square, or `PASS`); ValueError for a move
        that is not legal."""
        mine, theirs, player, moves = state
        if not 0 <= move <= PASS:
            raise ValueError(f"{clipped(move)} is not a move: squares are 0-63, a pass {PASS}")
        if not moves >> move & 1:
            raise ValueError(f"{move_name(move)} is not a legal move here")
        if move != PASS:
            flips = flipped(mine, theirs, move)
            mine |= 1 << move | flips
            theirs ^= flips
        # The opponent moves next, or passes if only this player can go on, or the game ends.
        following = legal_squares(theirs, mine)
        if not following and legal_squares(mine, theirs):
            following = 1 << PASS
        return (theirs, mine, 1 - player, following)

    def is_terminal(self, state: State) -> bool:
        return state[3] == 0

    def disc_difference(self, state: State, player: Player = 0) -> int:
        """The discs of `player` minus those of the other (Black's by default)."""
        mine, theirs, mover, _ = state
        difference = mine.bit_count() - theirs.bit_count()
        return difference if player == mover else -difference

    def utility(self, state: State, player: Player) -> int:
        """+1 when `player` has more discs, -1 when fewer, 0 for as many."""
        difference = self.disc_difference(state, player)
        return (difference > 0) - (difference < 0)

    def value_bounds(self) -> tuple[int, int]:
        """Utilities lie between -1 (a loss) and +1 (a win): lets searches prove a win early."""
        return (-1, 1)

    def key(self, state: State) -> int:
        """A 64-bit key of the discs and the mover (the squares to play follow from these),
        as chess's Zobrist keys: two positions share one with a chance of about 2**-64, which
        the engine's table allows for (its stored move is checked before it is played). The
        compiled twin computes the same key, so the two engines' tables fill alike."""
        mine, theirs, player, _ = state
        return mix(mix(theirs ^ WHITE_SALT if player else theirs) ^ mine)

    def evaluate(self, state: State, player: Player) -> float:
        """An estimate in (-1, 1) of `state` for `player`; `utility` once the game is over.

        From the point of view of the player to move: mobility `(m - t) / (m + t + 2)` (m and t
        the squares each side could play now) weighs 0.3, each corner held more than the
        opponent 0.1, each disc on an X-square next to an empty corner -0.05, each edge disc
        0.01; the sum is held within [-0.9, 0.9], below a proven result.
        """
        mine, theirs, mover, moves = state
        if moves == 0:
            return self.utility(state, player)
        my_mobility = (moves & BOARD).bit_count()
        their_mobility = legal_squares(theirs, mine).bit_count()
        estimate = 0.3 * (my_mobility - their_mobility) / (my_mobility + their_mobility + 2)
        estimate += 0.1 * ((mine & CORNERS).bit_count() - (theirs & CORNERS).bit_count())
        empty = BOARD & ~(mine | theirs)
        for x_square, corner in X_SQUARE_CORNERS:
            if corner & empty:
                estimate -= 0.05 * (bool(mine & x_square) - bool(theirs & x_square))
        estimate += 0.01 * ((mine & EDGES).bit_count() - (theirs & EDGES).bit_count())
        estimate = max(-0.9, min(0.9, estimate))
        return estimate if player == mover else -estimate

    def noisy_moves(self, state: State) -> list[int]:
        """The corners the player to move can take."""
        return squares_in(state[3] & CORNERS)

    # -- text ------------------------------------------------------------------------------

    def parse_move(self, state: State, text: str) -> int:
        """The legal move `text` names: a square `a1`-`h8` or `pass`; ValueError saying why
        it is not one."""
        word = text.strip().lower()
        if not MOVE_WORD.fullmatch(word):
            raise ValueError(f"{clipped(text.strip())} is not a move: type a square a1-h8 or pass")
        mine, theirs, player, moves = state
        if moves == 0:
            raise ValueError("the game is already over")
        mark = MARKS[player]
        if word == "pass":
            if moves & BOARD:
                raise ValueError(f"{mark} cannot pass: it can play {self._listed(state)}")
            return PASS
        square = square_of(word)
        if moves >> square & 1:
            return square
        if moves == 1 << PASS:
            raise ValueError(f"{mark} has no square to play and must pass")
        if (mine | theirs) >> square & 1:
            raise ValueError(f"{word} is taken: {mark} can play {self._listed(state)}")
        raise ValueError(f"{word} turns no disc: {mark} can play {self._listed(state)}")

    def _listed(self, state: State) -> str:
        return " ".join(square_name(square) for square in squares_in(state[3] & BOARD))

    def format_move(self, state: State, move: int) -> str:
        return move_name(move)

    def parse_state(self, text: str) -> State:
        """The position `text` describes: the moves from the start or a board and the side to
        move (see the module); ValueError with the reason when it is malformed."""
        first = next((char for char in text if char not in IGNORED), "")
        if first and (first.upper() in MARKS or first in EMPTY_MARKS):
            return self._parse_board(text)
        return self._parse_moves(text)

    def _parse_moves(self, text: str) -> State:
        state = self.initial_state()
        rest = MOVE_SEPARATORS.sub("", text)
        number = 0
        while rest:
            number += 1
            word = MOVE_WORD.match(rest)
            if word is None:
                raise ValueError(
                    f"bad moves {clipped(text)}: move {number} starts {clipped(rest[:6])},"
                    " not a square a1-h8 or pass"
                )
            rest = rest[word.end() :]
            try:
                state = self.result(state, self.parse_move(state, word[0]))
            except ValueError as error:
                raise ValueError(f"bad moves {clipped(text)} at move {number}: {error}") from None
        return state

    def _parse_board(self, text: str) -> State:
        cells = [char.upper() for char in text if char not in IGNORED]
        cells = ["." if char == "-" else char for char in cells]
        wrong = next((c for c in cells[:64] if c not in "XO."), None)
        if len(cells) != 65 or wrong is not None or cells[64] not in MARKS:
            found = (
                f"{clipped(wrong)} is not a square's mark" if wrong is not None
                else f"got {len(cells)} characters" if len(cells) != 65
                else f"the side to move is {clipped(cells[64])}"
            )  # fmt: skip
            raise ValueError(
                f"bad position {clipped(text)}: expected 64 squares X, O or . row by row from"
                f" a1, then the side to move, X or O ({found})"
            )
        black = sum(1 << square for square, char in enumerate(cells[:64]) if char == "X")
        white = sum(1 << square for square, char in enumerate(cells[:64]) if char == "O")
        if (black | white) & CENTRE != CENTRE:
            raise ValueError(
                f"bad position {clipped(text)}: the centre squares d4 e4 d5 e5 are never empty"
            )
        player = MARKS.index(cells[64])
        mine, theirs = (black, white) if player == 0 else (white, black)
        moves = legal_squares(mine, theirs)
        if not moves and legal_squares(theirs, mine):
            moves = 1 << PASS
        return (mine, theirs, player, moves)

    def format_state(self, state: State) -> str:
        """The board text of a position: 64 squares from a1, a space, the side to move (the
        inverse of `parse_state`)."""
        black, white = self.discs(state)
        squares = "".join(
            "X" if black >> square & 1 else "O" if white >> square & 1 else "."
            for square in range(64)
        )
        return f"{squares} {MARKS[state[2]]}"

    def discs(self, state: State) -> tuple[int, int]:
        """Black's discs and White's, as bitboards."""
        mine, theirs, player, _ = state
        return (mine, theirs) if player == 0 else (theirs, mine)

    def move_count(self) -> int:
        """65 moves: the squares 0-63 row by row from a1, then `PASS` (`NumberedMoves`)."""
        return PASS + 1

    def move_number(self, move: int) -> int:
        return move

    def numbered_move(self, number: int) -> int:
        return number

    def observation_shape(self) -> tuple[int, ...]:
        return (SIZE, SIZE, 2)

    def observation(self, state: State, player: Player) -> np.ndarray:
        """`player`'s discs, then the other's, as two 8x8 planes, row 1 first (`Observing`)."""
        black, white = self.discs(state)
        own, other = (black, white) if player == 0 else (white, black)
        return bit_planes((own, other), _SQUARES)

    def render(self, state: State) -> str:
        """The board with row 1 at the top as OpenSpiel draws it, X for Black, O for White and
        `*` on the squares the player to move may play; the count and who moves below."""
        black, white = self.discs(state)
        moves = state[3]
        rows = ["  a b c d e f g h"]
        for row in range(SIZE):
            cells = []
            for square in range(8 * row, 8 * row + 8):
                if black >> square & 1:
                    cells.append("X")
                elif white >> square & 1:
                    cells.append("O")
                else:
                    cells.append("*" if moves >> square & 1 else ".")
            rows.append(f"{row + 1} " + " ".join(cells))
        count = f"X {black.bit_count()}, O {white.bit_count()}"
        mark = MARKS[state[2]]
        if moves == 0:
            rows.append(f"{count}: the game is over")
        elif moves == 1 << PASS:
            rows.append(f"{count}: {mark} has no square and must pass")
        else:
            rows.append(f"{count}: {mark} to move")
        return "\n".join(rows)


def move_name(move: int) -> str:
    """The text of a move: its square (`d3`) or `pass`."""
    return "pass" if move == PASS else square_name(move)
