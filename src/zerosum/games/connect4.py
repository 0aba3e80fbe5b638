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
"""

from __future__ import annotations

from zerosum.game import Player

State = tuple[int, int, int, bool]


class ConnectFour:
    """Connect Four: drop stones, first to line up `connect` of them wins."""

    player_names = ("X", "O")

    def __init__(self, width: int = 7, height: int = 6, connect: int = 4) -> None:
        if not 1 <= width <= 9:
            raise ValueError(f"width must be between 1 and 9 columns, got {width}")
        if height < 1:
            raise ValueError(f"height must be at least 1 row, got {height}")
        if connect < 2:
            raise ValueError(f"connect must be at least 2, got {connect}")
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

    def initial_state(self) -> State:
        return (0, 0, 0, False)

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
        return (opponent_stones, mask, moves + 1, self.has_line(mover_stones))

    def has_line(self, stones: int) -> bool:
        """True when `stones` contain `connect` in a row in some direction."""
        for shift in self.directions:
            run = stones
            for _ in range(self.connect - 1):
                run &= run >> shift
            if run:
                return True
        return False

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
