"""Connect Four on bitboards, 7 columns by 6 rows by default (any size, any line length).

The board is stored column by column, each column taking `height + 1` bits (the spare bit on
top keeps shifted lines from wrapping into the next column), bit `column * (height + 1) + row`
with row 0 at the bottom. A state is the tuple `(position, mask, moves, won)`:

- `position`: the stones of the player to move;
- `mask`: every stone on the board;
- `moves`: stones played so far (player 0 is to move when it is even);
- `won`: True when the player who just moved has completed a line.

`position + mask` is a unique key of the position (it sets the bit just above each column's
top stone and keeps the mover's stones), so the table needs no Zobrist hashing.

Moves are column numbers 0 to width - 1; `legal_moves` lists them centre first, the static
order good players and solvers start from. As text, moves are column digits 1-9 from the left
and a position is the string of columns played from the empty board (`"4453"`), the notation
of the published test sets; the empty string is the empty board.

For depth-limited search the game offers a threat-aware `evaluate` (an empty cell that would
complete a line is a threat; threats that can be played at once, and threats on the rows where
the zugzwang of the end of the game favours their owner, weigh more; then each stone counts
the lines it can still take part in) and `noisy_moves` (moves that win at once or stop the
opponent's immediate win), so that quiescence search never stops with a win on the board. The
exact solver is `zerosum.solve.connect4`.
"""

from __future__ import annotations

import functools
from math import comb
from typing import Any

import numpy as np

from zerosum.game import Player
from zerosum.games.planes import bit_planes
from zerosum.limits import Limit

State = tuple[int, int, int, bool]

POSITION_COUNTS = {
    (4, 4): 161_029,
    (5, 4): 3_945_711,
    (4, 5): 1_706_255,
    (4, 6): 15_835_683,
    (5, 5): 69_763_700,
    (6, 4): 94_910_577,
    (4, 7): 135_385_909,
    (5, 6): 1_044_334_437,
    (7, 4): 2_265_792_710,
    (6, 5): 2_818_972_642,
    (7, 6): 4_531_985_219_092,
}
"""The positions reachable from the empty board in four in a row, by (width, height): John
Tromp's counts (the smaller ones also counted by our own tables)."""

HEIGHT = Limit(
    "the rows of a Connect Four board",
    100,
    "a board is drawn and read a row at a time, and no search reaches the top of taller columns",
    liftable=False,
)
CONNECT = Limit(
    "the stones of a line in Connect Four",
    HEIGHT.most,
    "no longer line fits on a board (at most 9 columns and 100 rows)",
    liftable=False,
)


class ConnectFour:
    """Connect Four: drop stones, first to line up `connect` of them wins."""

    player_names = ("X", "O")
    compiled_rules = "zerosum.games.compiled_connect4:connect_four_rules"
    """The same rules compiled with numba, named (`zerosum.compiled.protocol.compiled_twin`
    loads them): the compiled twin imports this game, never the reverse."""

    def __init__(self, width: int = 7, height: int = 6, connect: int = 4) -> None:
        if not 1 <= width <= 9:
            raise ValueError(f"width must be between 1 and 9 columns, got {width}")
        if height < 1:
            raise ValueError(f"height must be at least 1 row, got {height}")
        HEIGHT.check(height)
        if connect < 2:
            raise ValueError(f"connect must be at least 2, got {connect}")
        CONNECT.check(connect)
        self.width, self.height, self.connect = width, height, connect
        stride = height + 1
        self.stride = stride
        self.bottom = [1 << (c * stride) for c in range(width)]
        self.top = [1 << (c * stride + height - 1) for c in range(width)]
        self.column_mask = [((1 << height) - 1) << (c * stride) for c in range(width)]
        self.cells = width * height
        centre = (width - 1) / 2
        self.order = tuple(sorted(range(width), key=lambda c: (abs(c - centre), c)))
        # Shifts along the four directions: vertical, horizontal, and the two diagonals.
        self.directions = (1, stride, stride - 1, stride + 1)
        self.bottom_row = sum(self.bottom)
        self.board = sum(self.column_mask)
        # Rows (counted from 1 at the bottom) where a threat is worth more: odd rows for the
        # first player, even rows for the second (who fills the last cell of each column pair).
        odd_rows = sum(self.bottom_row << row for row in range(0, height, 2))
        self.good_rows = (odd_rows, self.board ^ odd_rows)
        # Cells grouped by how many lines of `connect` cells pass through them: a stone on a
        # cell that takes part in more lines is worth more (the centre over the edges).
        lines_through: dict[int, int] = {}
        for column in range(width):
            for row in range(height):
                for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(column + dc * i, row + dr * i) for i in range(connect)]
                    if all(0 <= c < width and 0 <= r < height for c, r in cells):
                        for c, r in cells:
                            bit = 1 << (c * stride + r)
                            lines_through[bit] = lines_through.get(bit, 0) + 1
        weights: dict[int, int] = {}
        for bit, count in lines_through.items():
            weights[count] = weights.get(count, 0) | bit
        self.cell_weights = tuple(weights.items())
        # For `_masks`: shifts by 1, 2, 4... that smear a column's top bit down, each masked
        # to the bits that stay within the column.
        self._smear = tuple(
            (shift, sum(((1 << stride - shift) - 1) << c * stride for c in range(width)))
            for shift in (1 << i for i in range(stride.bit_length()))
            if shift < stride
        )
        self._threats_of, self._threats = (-1, -1), (0, 0)

    def initial_state(self) -> State:
        return (0, 0, 0, False)

    def reachable_at_most(self) -> tuple[int, int]:
        """At most how many positions are reachable from the empty board, and how many moves
        they have in all (at most `width` each): Tromp's count for four in a row where known,
        else every way of stacking the stones with the first player's one ahead or level,
        as if nobody ever won."""
        positions = POSITION_COUNTS.get((self.width, self.height)) if self.connect == 4 else None
        if positions is None:
            positions = sum(self._stackings())
        return positions, positions * self.width

    def widest_layer_at_most(self) -> int:
        """At most how many positions one layer (a number of stones) holds: the most ways of
        stacking that many stones, the first player's one ahead or level, as if nobody ever
        won; never more than all the positions (5x4: 900,900, and its widest layer holds
        620,337)."""
        return min(max(self._stackings()), self.reachable_at_most()[0])

    def _stackings(self) -> list[int]:
        """For each number of stones, the ways of stacking them in the columns with the first
        player's one ahead or level, as if nobody ever won."""
        heights = [1]  # heights[n]: the ways of filling the columns with n stones in all
        for _ in range(self.width):
            heights = [
                sum(heights[n - k] for k in range(self.height + 1) if 0 <= n - k < len(heights))
                for n in range(len(heights) + self.height)
            ]
        return [ways * comb(n, (n + 1) // 2) for n, ways in enumerate(heights)]

    def to_move(self, state: State) -> Player:
        return state[2] & 1

    def legal_moves(self, state: State) -> list[int]:
        if state[3]:
            return []
        mask = state[1]
        return [c for c in self.order if not mask & self.top[c]]

    def result(self, state: State, move: int) -> State:
        position, mask, moves, _ = state
        opponent_stones = position ^ mask
        mask |= mask + self.bottom[move]
        mover_stones = opponent_stones ^ mask
        return (opponent_stones, mask, moves + 1, self.line_starts(mover_stones) != 0)

    def line_starts(self, stones: Any) -> Any:
        """The cells where a line of `connect` of `stones` starts, in any direction: a bitboard,
        or a numpy array of them (every direction is checked: a line is rare)."""
        starts = 0
        if self.connect == 4:  # pairs of pairs: two shifts instead of three
            for shift in self.directions:
                pairs = stones & stones >> shift
                starts |= pairs & pairs >> 2 * shift
            return starts
        for shift in self.directions:
            run = stones
            for _ in range(self.connect - 1):
                run = run & run >> shift  # never in place: `stones` may be an array
            starts |= run
        return starts

    def is_terminal(self, state: State) -> bool:
        return state[3] or state[2] == self.cells

    def utility(self, state: State, player: Player) -> int:
        """+1 or -1 once somebody has won (the player who just moved), 0 for a full board."""
        if not state[3]:
            return 0
        winner = (state[2] - 1) & 1
        return 1 if player == winner else -1

    def value_bounds(self) -> tuple[int, int]:
        """Utilities lie between -1 (a loss) and +1 (a win): lets searches prove a win early."""
        return (-1, 1)

    def key(self, state: State) -> int:
        return state[0] + state[1]

    def layer(self, state: State) -> int:
        """The number of stones on the board: every move adds one."""
        return state[2]

    def from_keys(self, keys: np.ndarray) -> list[State]:
        """The positions whose keys are `keys` (a numpy array), in order: the inverse of `key`."""
        columns = (column.tolist() for column in self._decode(keys))
        return list(zip(*columns, strict=True))

    def expand_keys(self, keys: np.ndarray) -> tuple[np.ndarray, ...]:
        """The rules on a numpy array of keys (`zerosum.game.Vectorized`): movers, numbers of
        moves, utilities for the mover, and the children's keys, centre columns first."""
        position, mask, moves, won = self._decode(keys)
        opponent = position ^ mask  # the stones of the player who just moved
        over = won | (moves == self.cells)
        order = self.order
        tops = np.array([self.top[c] for c in order], np.uint64)
        bottoms = np.array([self.bottom[c] for c in order], np.uint64)
        free = ((mask[:, None] & tops) == 0) & ~over[:, None]
        grown = mask[:, None] | (mask[:, None] + bottoms)
        children = opponent[:, None] + grown  # the child's mover is the player who just moved
        utilities = np.where(won, -1, 0)  # the player to move has lost, or it is a draw
        return (moves & 1).astype(np.uint8), free.sum(axis=1), utilities, children[free]

    def layers(self, keys: np.ndarray) -> np.ndarray:
        """The number of stones on each board of a numpy array of keys."""
        return np.bitwise_count(self._masks(np.asarray(keys, np.uint64)))

    def _decode(self, keys: np.ndarray) -> tuple[np.ndarray, ...]:
        """The four parts of the states of an array of keys, as arrays: the mover's stones, all
        the stones, their number, and whether the player who just moved has a line."""
        keys = np.asarray(keys, np.uint64)
        mask = self._masks(keys)
        position = keys - mask
        return position, mask, np.bitwise_count(mask), self.line_starts(position ^ mask) != 0

    def _masks(self, keys: np.ndarray) -> np.ndarray:
        """The stones on each board of an array of keys. In each column a key holds the mover's
        stones plus the column's stones (a run of ones from the bottom), so one more per column
        leaves the bit above the top stone highest and the mover's stones below it; smearing
        that bit downwards gives the column's stones."""
        if self.stride * self.width > 64:
            raise ValueError(f"a {self.width}x{self.height} board has keys wider than 64 bits")
        smeared = keys + np.uint64(self.bottom_row)
        for shift, within in self._smear:
            smeared |= smeared >> shift & np.uint64(within)
        return smeared >> 1 & np.uint64(self.board)

    def winning_cells(self, stones: int, mask: int) -> int:
        """The empty cells where one more of `stones` would complete a line."""
        if self.connect == 4:  # the common case, unrolled
            return self._winning_cells_of_four(stones, mask)
        reach = self.connect - 1
        cells = 0
        for shift in self.directions:
            # ahead[k]: cells with k stones in a row next to them in the shift's direction.
            ahead, behind = [-1], [-1]
            for _ in range(reach):
                ahead.append(ahead[-1] & stones >> shift * len(ahead))
                behind.append(behind[-1] & stones << shift * len(behind))
            for k in range(reach + 1):
                cells |= ahead[k] & behind[reach - k]
        return cells & (self.board ^ mask)

    def _winning_cells_of_four(self, stones: int, mask: int) -> int:
        cells = (stones << 1) & (stones << 2) & (stones << 3)  # three below
        for shift in self.directions[1:]:
            pair = (stones << shift) & (stones << 2 * shift)
            cells |= pair & (stones << 3 * shift) | pair & (stones >> shift)
            pair = (stones >> shift) & (stones >> 2 * shift)
            cells |= pair & (stones << shift) | pair & (stones >> 3 * shift)
        return cells & (self.board ^ mask)

    def threats(self, position: int, mask: int) -> tuple[int, int]:
        """The winning cells of the player to move and of the opponent.

        The last answer is kept: quiescence asks for the same position's evaluation and its
        noisy moves one after the other.
        """
        if position == self._threats_of[0] and mask == self._threats_of[1]:
            return self._threats
        self._threats = (
            self.winning_cells(position, mask), self.winning_cells(position ^ mask, mask)
        )  # fmt: skip
        self._threats_of = (position, mask)
        return self._threats

    def evaluate(self, state: State, player: Player) -> float:
        """An estimate in (-1, 1) of `state` for `player`: its threats against the opponent's.

        Equal to `utility` on finished games.
        """
        position, mask, moves, won = state
        if won or moves == self.cells:
            return self.utility(state, player)
        mover = moves & 1
        mine, theirs = self.threats(position, mask)
        playable = (mask + self.bottom_row) & self.board
        if mine & playable:
            estimate = 0.9  # the player to move wins at once
        elif (theirs & playable).bit_count() > 1:
            estimate = -0.9  # two threats at once: one can be stopped, not both
        else:
            good_mine, good_theirs = self.good_rows[mover], self.good_rows[1 - mover]
            threats = (
                mine.bit_count() + (mine & good_mine).bit_count()
                - theirs.bit_count() - (theirs & good_theirs).bit_count()
            )  # fmt: skip
            opponent = position ^ mask
            placement = 0
            for weight, cells in self.cell_weights:
                placement += weight * (
                    (position & cells).bit_count() - (opponent & cells).bit_count()
                )
            estimate = max(-0.8, min(0.8, (12 * threats + placement) / 256))
        return estimate if player == mover else -estimate

    def noisy_moves(self, state: State) -> list[int]:
        """Columns that win at once, or stop the opponent from winning at once."""
        position, mask, _, won = state
        if won:
            return []
        playable = (mask + self.bottom_row) & self.board
        mine, theirs = self.threats(position, mask)
        urgent = (mine | theirs) & playable
        if not urgent:
            return []
        return [c for c in self.order if urgent & self.column_mask[c]]

    def can_play(self, state: State, column: int) -> bool:
        return 0 <= column < self.width and not state[1] & self.top[column]

    def parse_move(self, state: State, text: str) -> int:
        text = text.strip()
        if not (len(text) == 1 and text.isdigit() and 1 <= int(text) <= self.width):
            raise ValueError(f"{text!r} is not a column: type a number from 1 to {self.width}")
        column = int(text) - 1
        if state[3] or state[2] == self.cells:
            raise ValueError("the game is already over")
        if not self.can_play(state, column):
            raise ValueError(f"column {column + 1} is full")
        return column

    def format_move(self, state: State, move: int) -> str:
        return str(move + 1)

    def parse_state(self, text: str) -> State:
        """The position after the columns in `text` (digits 1-9) are played from the empty board."""
        state = self.initial_state()
        for index, char in enumerate(text.strip()):
            if state[3]:
                raise ValueError(
                    f"bad moves {text!r}: the game is over after move {index}, before {char!r}"
                )
            try:
                state = self.result(state, self.parse_move(state, char))
            except ValueError as error:
                raise ValueError(f"bad moves {text!r} at move {index + 1}: {error}") from None
        return state

    def move_count(self) -> int:
        """One move a column, numbered from 0 on the left (`NumberedMoves`)."""
        return self.width

    def move_number(self, move: int) -> int:
        return move

    def numbered_move(self, number: int) -> int:
        return number

    def observation_shape(self) -> tuple[int, ...]:
        return (self.height, self.width, 2)

    def observation(self, state: State, player: Player) -> np.ndarray:
        """`player`'s stones, then the other's, as two planes of the board, its top row first
        (`Observing`)."""
        position, mask, moves, _ = state
        own = position if moves % 2 == player else mask ^ position  # `position`: the mover's
        return bit_planes((own, mask ^ own), self._cell_bits)

    @functools.cached_property
    def _cell_bits(self) -> np.ndarray:
        """Each cell's bit, the top row first (the observation's layout)."""
        rows = np.arange(self.height - 1, -1, -1)[:, None]
        return np.arange(self.width)[None, :] * (self.height + 1) + rows

    def render(self, state: State) -> str:
        """Rows from the top, X for player 0 and O for player 1, column numbers below."""
        position, mask, moves, _ = state
        first = position if moves % 2 == 0 else position ^ mask
        rows = []
        for row in reversed(range(self.height)):
            cells = []
            for column in range(self.width):
                bit = 1 << (column * self.stride + row)
                cells.append("." if not mask & bit else "X" if first & bit else "O")
            rows.append(" ".join(cells))
        rows.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(rows)
