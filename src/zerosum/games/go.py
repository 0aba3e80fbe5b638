"""Go on a square board of 5x5 to 19x19 points (9x9 by default), scored by area with komi.

**Points.** Point `size * row + column` is bit `size * row + column` of a bitboard (a Python
integer), row 0 being the bottom row and column 0 the left one. As text a point is written in
the coordinates of the Go Text Protocol: its column letter, `A` to `T` without `I`, then its row
number counted from 1 at the bottom: `A1` is point 0 (bottom left), `D4` on 9x9 is point 30.
A pass is move `size * size` (`Go.pass_move`), written `pass`. Letters are read in either case.

**The rules** (those of Tromp and Taylor, with the ending below):

- Black (player 0, `X`) moves first, then White (player 1, `O`), in turn. A move is a stone put
  on an empty point, or a pass.
- After a stone is put down, every group of the opponent's stones left with no liberty (no
  empty point next to it) is taken off the board. Then the mover's own group must have a
  liberty: **suicide** (a stone that takes nothing and leaves its group without a liberty) is
  refused.
- **Positional superko**: a stone may not recreate a whole-board position (the stones on the
  board, whoever is to move) that stood earlier in the game. This covers the simple ko. A pass
  is always legal: it changes no stone.
- The game ends after **two consecutive passes**, or once `move_limit` moves (passes included)
  have been played, three times the board's points (243 on 9x9), where it is scored as it
  stands: so that every game, random ones included, ends.
- **Area scoring**: a player's points are their stones plus the empty points whose region (the
  empty points joined to them through empty points) borders only that player's stones.
  `score` is Black's points minus White's minus `komi` (7.5 by default), from Black's point of
  view; `utility` is its sign for the player asked about: +1 a win, -1 a loss, 0 only when an
  integer komi makes the score exactly 0. Dead stones are not removed: the game is played until
  they are taken, as under Tromp-Taylor.

A state is a `Position`: the two colours' stones, the player to move, the passes that ended the
last moves (0, 1 or 2), the moves played, and every board seen so far (for superko). Positions
are immutable; two are equal when all of these are.

**Positions as text** (`parse_state`, `format_state`), either:

- the moves from the start, each a point or `pass`, separated by spaces or commas:
  `D4 E5 pass C3`; `""` for the start; or
- the board: `size * size` points row by row from the top row down to row 1, each row from
  column A, each `X` (Black), `O` (White) or `.`, then the side to move, `X` or `O`. Spaces,
  `|` and `/` are ignored, so rows may be separated by `/`. Its history starts there: no board
  before it is known to superko, and no pass.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from zerosum.game import Player
from zerosum.limits import clipped

SMALLEST, LARGEST = 5, 19
"""The board sizes played: from 5x5 to 19x19."""

COLUMNS = "ABCDEFGHJKLMNOPQRST"
"""The column letters of the Go Text Protocol: `I` is left out."""

MARKS = "XO"
"""How a board shows Black's stones and White's."""

MOVES_PER_POINT = 3
"""The game ends after `MOVES_PER_POINT` times the board's points moves (see the module)."""

IGNORED = " \t\n\r|/"
MOVE_SEPARATORS = re.compile(r"[\s,]+")
VERTEX = re.compile(r"([a-hj-t])([0-9]{1,2})", re.IGNORECASE)


class Position(NamedTuple):
    """A position of Go: `black` and `white` stones as bitboards, the `player` to move, the
    consecutive `passes` that led here, the moves `played` since the start (or since the board
    it was read from), and `seen`, every board `(black, white)` of the game so far, this one
    included."""

    black: int
    white: int
    player: Player
    passes: int
    played: int
    seen: frozenset[tuple[int, int]]


class Go:
    """Go: surround more of the board than the opponent; captures, positional superko, area
    scoring with komi (see the module for the rules and their conventions)."""

    player_names = ("Black", "White")
    compiled_rules = "zerosum.games.compiled_go:go_rules"
    """The same rules compiled with numba (`zerosum.games.compiled_go`), named: the compiled
    twin imports this game, never the reverse."""
    history_dependent = True
    """Superko and the passes make a position's moves and outcome depend on its history."""

    def __init__(self, size: int = 9, komi: float = 7.5) -> None:
        """A board of `size` x `size` points (5 to 19) and `komi`, the points White is given
        (a multiple of 0.5, at most the board's points either way); ValueError otherwise."""
        if isinstance(size, bool) or not isinstance(size, int) or not SMALLEST <= size <= LARGEST:
            raise ValueError(f"size must be a whole number from {SMALLEST} to {LARGEST}, got"
                             f" {clipped(size)}")  # fmt: skip
        self.size = size
        self.points = size * size
        self.komi = check_komi(komi, self.points)
        self.pass_move = self.points
        self.move_limit = MOVES_PER_POINT * self.points
        self.board = (1 << self.points) - 1
        left = sum(1 << (size * row) for row in range(size))
        self.not_left = self.board & ~left
        self.not_right = self.board & ~(left << (size - 1))
        self.around = [self.neighbours(1 << point) for point in range(self.points)]

    def __repr__(self) -> str:
        return f"Go(size={self.size}, komi={self.komi})"

    # -- the board -------------------------------------------------------------------------

    def neighbours(self, bits: int) -> int:
        """The points next to those of `bits` (above, below, left, right), as a bitboard."""
        size = self.size
        return (
            (bits << 1 & self.not_left)
            | (bits >> 1 & self.not_right)
            | (bits << size & self.board)
            | bits >> size
        )

    def group(self, seed: int, stones: int) -> int:
        """The points of `stones` joined to those of `seed` through `stones`, as a bitboard."""
        group = seed
        while True:
            grown = (group | self.neighbours(group)) & stones
            if grown == group:
                return group
            group = grown

    def groups(self, stones: int) -> list[int]:
        """The groups of `stones` (each a bitboard), from the one holding the lowest point."""
        found = []
        while stones:
            group = self.group(stones & -stones, stones)
            found.append(group)
            stones &= ~group
        return found

    def placed(self, state: Position, point: int) -> tuple[int, int] | str:
        """The board `(black, white)` after the player to move puts a stone on the empty
        `point`, its captures taken; or why the stone is illegal (suicide, superko)."""
        black, white, player = state.black, state.white, state.player
        mine, theirs = (black, white) if player == 0 else (white, black)
        stone = 1 << point
        mine |= stone
        empty = self.board & ~(mine | theirs)
        captured = 0
        touching = self.around[point] & theirs
        while touching:
            group = self.group(touching & -touching, theirs)
            if not self.neighbours(group) & empty:
                captured |= group
            touching &= ~group
        if captured:
            theirs &= ~captured
        elif not self.around[point] & empty and not (
            self.neighbours(self.group(stone, mine)) & empty
        ):
            return f"{self.point_name(point)} is suicide: it takes nothing and has no liberty"
        board = (mine, theirs) if player == 0 else (theirs, mine)
        if board in state.seen:
            return f"{self.point_name(point)} repeats an earlier position (positional superko)"
        return board

    # -- the playout policy (not the rules) ------------------------------------------------

    def is_eye(self, state: Position, point: int, player: Player) -> bool:
        """Whether the empty `point` is a simple eye of `player`: each point next to it
        (above, below, left, right) holds one of `player`'s stones, and of its diagonal points
        on the board, none holds an opponent's stone when `point` is on the edge or in a
        corner, at most one when it is inside the board (an empty diagonal point is no harm).
        A point failing the diagonals (a false eye) may be a group's only way to connect."""
        own, other = (state.black, state.white) if player == 0 else (state.white, state.black)
        if (own | other) >> point & 1 or self.around[point] & ~own:
            return False
        row, column = divmod(point, self.size)
        diagonals = [
            (row + rows) * self.size + column + columns
            for rows in (-1, 1)
            for columns in (-1, 1)
            if 0 <= row + rows < self.size and 0 <= column + columns < self.size
        ]
        foes = sum(other >> diagonal & 1 for diagonal in diagonals)
        return foes <= (1 if len(diagonals) == 4 else 0)

    def playout_moves(self, state: Position) -> list[int]:
        """The moves a playout draws from in the non-terminal `state` (`compiled_go`'s
        `playout_move` draws one of them uniformly): the legal stones that fill no simple eye
        of the player to move (`is_eye`), or the pass alone when there is none."""
        player = state.player
        stones = [
            move
            for move in self.legal_moves(state)
            if move != self.pass_move and not self.is_eye(state, move, player)
        ]
        return stones or [self.pass_move]

    # -- the protocol ----------------------------------------------------------------------

    def initial_state(self) -> Position:
        return Position(0, 0, 0, 0, 0, frozenset({(0, 0)}))

    def to_move(self, state: Position) -> Player:
        return state.player

    def is_terminal(self, state: Position) -> bool:
        return state.passes >= 2 or state.played >= self.move_limit

    def legal_moves(self, state: Position) -> list[int]:
        """The empty points where a stone is legal, lowest first, then the pass; `[]` once the
        game is over."""
        if self.is_terminal(state):
            return []
        empty = self.board & ~(state.black | state.white)
        moves = []
        while empty:
            stone = empty & -empty
            empty ^= stone
            point = stone.bit_length() - 1
            if not isinstance(self.placed(state, point), str):
                moves.append(point)
        moves.append(self.pass_move)
        return moves

    def result(self, state: Position, move: int) -> Position:
        """The position after the legal `move` (a point, or `pass_move`); ValueError saying why
        a move is not legal."""
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= self.points:
            raise ValueError(
                f"{clipped(move)} is not a move: points are 0-{self.points - 1}, a pass"
                f" {self.pass_move}"
            )
        if self.is_terminal(state):
            raise ValueError("the game is over")
        following = 1 - state.player
        if move == self.pass_move:
            return state._replace(
                player=following, passes=state.passes + 1, played=state.played + 1
            )
        if (state.black | state.white) >> move & 1:
            raise ValueError(f"{self.point_name(move)} is taken")
        board = self.placed(state, move)
        if isinstance(board, str):
            raise ValueError(board)
        return Position(*board, following, 0, state.played + 1, state.seen | {board})

    def utility(self, state: Position, player: Player) -> int:
        """+1 when `player` has the higher score by area (komi counted), -1 when lower, 0 for
        the same (possible only with an integer komi)."""
        score = self.score(state)
        sign = (score > 0) - (score < 0)
        return sign if player == 0 else -sign

    def value_bounds(self) -> tuple[int, int]:
        """Utilities lie between -1 (a loss) and +1 (a win)."""
        return (-1, 1)

    # -- scoring ---------------------------------------------------------------------------

    def area(self, state: Position) -> tuple[int, int]:
        """Black's points and White's by area: their stones and the empty regions that border
        only their stones (see the module)."""
        black, white = state.black, state.white
        black_area, white_area = black.bit_count(), white.bit_count()
        for region in self.groups(self.board & ~(black | white)):
            border = self.neighbours(region)
            if border & black and not border & white:
                black_area += region.bit_count()
            elif border & white and not border & black:
                white_area += region.bit_count()
        return black_area, white_area

    def score(self, state: Position) -> float:
        """Black's points minus White's minus komi, from Black's point of view: positive when
        Black is ahead. Any position can be scored, finished or not."""
        black_area, white_area = self.area(state)
        return black_area - white_area - self.komi

    def score_text(self, state: Position) -> str:
        """The score as the Go Text Protocol writes it: `B+3.5`, `W+0.5`, or `0`."""
        score = self.score(state)
        if score == 0:
            return "0"
        points = abs(score)
        written = str(int(points)) if points == int(points) else str(points)
        return f"{'B' if score > 0 else 'W'}+{written}"

    # -- text ------------------------------------------------------------------------------

    def point_name(self, point: int) -> str:
        """The text of `point` (`D4`)."""
        row, column = divmod(point, self.size)
        return f"{COLUMNS[column]}{row + 1}"

    def point_of(self, text: str) -> int:
        """The point `text` names (`D4`, `d4`); ValueError when it is not a point of this
        board."""
        found = VERTEX.fullmatch(text.strip())
        if found is None:
            raise ValueError(
                f"{clipped(text.strip())} is not a point: a column letter A-T without I, then a row"
                f" number, like D4"
            )
        column = COLUMNS.index(found[1].upper())
        row = int(found[2]) - 1
        if column >= self.size or not 0 <= row < self.size:
            last = f"{COLUMNS[self.size - 1]}{self.size}"
            raise ValueError(f"{found[0].upper()} is off the {self.size}x{self.size} board"
                             f" (A1 to {last})")  # fmt: skip
        return self.size * row + column

    def format_move(self, state: Position, move: int) -> str:
        return "pass" if move == self.pass_move else self.point_name(move)

    def parse_move(self, state: Position, text: str) -> int:
        """The legal move `text` names: a point (`D4`) or `pass`; ValueError saying why it is
        not one."""
        if self.is_terminal(state):
            raise ValueError("the game is over")
        if text.strip().lower() == "pass":
            return self.pass_move
        point = self.point_of(text)
        if (state.black | state.white) >> point & 1:
            raise ValueError(f"{self.point_name(point)} is taken")
        placed = self.placed(state, point)
        if isinstance(placed, str):
            raise ValueError(placed)
        return point

    def parse_state(self, text: str) -> Position:
        """The position `text` describes: the moves from the start or a board and the side to
        move (see the module); ValueError with the reason when it is malformed."""
        cells = [char for char in text if char not in IGNORED]
        if cells and all(char.upper() in "XO." for char in cells):
            return self._parse_board(text, [char.upper() for char in cells])
        state = self.initial_state()
        words = [word for word in MOVE_SEPARATORS.split(text) if word]
        for number, word in enumerate(words, 1):
            try:
                state = self.result(state, self.parse_move(state, word))
            except ValueError as error:
                raise ValueError(f"bad moves {clipped(text)} at move {number}: {error}") from None
        return state

    def _parse_board(self, text: str, cells: list[str]) -> Position:
        points = self.points
        if len(cells) != points + 1 or "." in cells[points:]:
            raise ValueError(
                f"bad position {clipped(text)}: expected {points} points X, O or . row by row"
                f" from the top row, then the side to move, X or O (got {len(cells)} characters)"
            )
        black = white = 0
        for index, char in enumerate(cells[:points]):
            row, column = divmod(index, self.size)
            bit = 1 << (self.size * (self.size - 1 - row) + column)
            if char == "X":
                black |= bit
            elif char == "O":
                white |= bit
        for stones in (black, white):
            for group in self.groups(stones):
                if not self.neighbours(group) & self.board & ~(black | white):
                    lowest = (group & -group).bit_length() - 1
                    raise ValueError(f"bad position {clipped(text)}: the group at"
                                     f" {self.point_name(lowest)} has no liberty")  # fmt: skip
        player = MARKS.index(cells[points])
        return Position(black, white, player, 0, 0, frozenset({(black, white)}))

    def format_state(self, state: Position) -> str:
        """The board text of a position: its rows from the top separated by `/`, a space, the
        side to move (read back by `parse_state`, its history apart)."""
        rows = []
        for row in reversed(range(self.size)):
            rows.append("".join(self._mark(state, self.size * row + column, ".")
                                for column in range(self.size)))  # fmt: skip
        return f"{'/'.join(rows)} {MARKS[state.player]}"

    def _mark(self, state: Position, point: int, empty: str) -> str:
        if state.black >> point & 1:
            return "X"
        if state.white >> point & 1:
            return "O"
        return empty

    def render(self, state: Position) -> str:
        """The board with row 1 at the bottom, X for Black and O for White, the column letters
        above and below; then who moves, or the score once the game is over."""
        letters = "   " + " ".join(COLUMNS[: self.size])
        lines = [letters]
        for row in reversed(range(self.size)):
            marks = " ".join(self._mark(state, self.size * row + c, ".") for c in range(self.size))
            lines.append(f"{row + 1:>2} {marks} {row + 1}")
        lines.append(letters)
        black_area, white_area = self.area(state)
        count = f"area X {black_area}, O {white_area}, komi {self.komi:g}"
        if self.is_terminal(state):
            lines.append(f"{count}: the game is over, {self.score_text(state)}")
        else:
            passed = ", the last move a pass" if state.passes else ""
            lines.append(f"{count}: {MARKS[state.player]} to move{passed}")
        return "\n".join(lines)

    # -- numbered moves --------------------------------------------------------------------

    def move_count(self) -> int:
        """The points, then the pass (`NumberedMoves`)."""
        return self.points + 1

    def move_number(self, move: int) -> int:
        return move

    def numbered_move(self, number: int) -> int:
        return number


def check_komi(komi: object, points: int) -> float:
    """`komi` as a float: a finite multiple of 0.5, at most `points` either way (a larger one
    decides the game before it starts); ValueError otherwise."""
    if isinstance(komi, bool) or not isinstance(komi, (int, float)):
        raise ValueError(f"komi must be a number, got {clipped(komi)}")
    if not math.isfinite(komi) or abs(komi) > points or komi * 2 != int(komi * 2):
        raise ValueError(
            f"komi must be a multiple of 0.5 from -{points} to {points}, got {clipped(komi)}"
        )
    return float(komi)
