"""Tic-tac-toe on two 9-bit boards.

Squares are numbered 0-8 row by row, as in the textbook:

    0 | 1 | 2
    3 | 4 | 5
    6 | 7 | 8

A state is the pair `(x, o)` of bit masks of the squares each side holds. X moves first, so
X is to move exactly when both have played the same number of stones. `legal_moves` returns
the empty squares in index order (the order whose alpha-beta count the textbook gives: 7,330).
Utilities are +1 for a win, -1 for a loss and 0 for a draw, for the player asked about.

As text a position is nine characters row by row, `X`, `O` and `.` (spaces, `|` and `/`
between them are ignored): `"XOX.O...."`; the side to move follows from the counts.
"""

from __future__ import annotations

import numpy as np

from zerosum.game import Player
from zerosum.games.planes import bit_planes

State = tuple[int, int]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
FULL = 0b111111111
_LINE_MASKS = tuple(sum(1 << square for square in line) for line in LINES)
# For every 9-bit set of squares: does it contain a line? One lookup instead of eight tests.
_HAS_LINE = bytes(any(mask & line == line for line in _LINE_MASKS) for mask in range(512))
_HAS_LINE_ARRAY = np.frombuffer(_HAS_LINE, np.uint8).astype(bool)
# For every set of occupied squares: the empty ones, in index order.
_EMPTY = tuple(tuple(s for s in range(9) if not occupied >> s & 1) for occupied in range(512))

_SQUARES = np.arange(9).reshape(3, 3)
"""Each square's bit, row by row: the board as observation planes see it."""

X, O = 0, 1  # noqa: E741 (the marks of the game)
MARKS = "XO"


class TicTacToe:
    """The game of noughts and crosses; player 0 is X and moves first."""

    player_names = ("X", "O")
    compiled_rules = "zerosum.games.compiled_tictactoe:tictactoe_rules"
    """The same rules compiled with numba, named (`zerosum.compiled.protocol.compiled_twin`
    loads them): the compiled twin imports this game, never the reverse."""

    def initial_state(self) -> State:
        return (0, 0)

    def to_move(self, state: State) -> Player:
        x, o = state
        return X if x.bit_count() == o.bit_count() else O

    def legal_moves(self, state: State) -> tuple[int, ...]:
        x, o = state
        if _HAS_LINE[x] or _HAS_LINE[o]:
            return ()
        return _EMPTY[x | o]

    def result(self, state: State, move: int) -> State:
        x, o = state
        if x.bit_count() == o.bit_count():
            return (x | 1 << move, o)
        return (x, o | 1 << move)

    def is_terminal(self, state: State) -> bool:
        x, o = state
        return bool(_HAS_LINE[x] or _HAS_LINE[o]) or x | o == FULL

    def utility(self, state: State, player: Player) -> int:
        x, o = state
        score = 1 if _HAS_LINE[x] else -1 if _HAS_LINE[o] else 0
        return score if player == X else -score

    def value_bounds(self) -> tuple[int, int]:
        """Utilities lie between -1 (a loss) and +1 (a win): lets searches prove a win early."""
        return (-1, 1)

    def key(self, state: State) -> int:
        """A perfect 18-bit key: X's squares in the low bits, O's above."""
        x, o = state
        return x | o << 9

    def from_keys(self, keys: np.ndarray) -> list[State]:
        """The positions whose keys are `keys` (a numpy array), in order: the inverse of `key`."""
        keys = np.asarray(keys, np.uint64)
        return list(zip((keys & FULL).tolist(), (keys >> 9).tolist(), strict=True))

    def expand_keys(self, keys: np.ndarray) -> tuple[np.ndarray, ...]:
        """The rules on a numpy array of keys (`zerosum.game.Vectorized`): movers, numbers of
        moves, utilities for the mover, and the children's keys in square order."""
        keys = np.asarray(keys, np.uint64)
        x, o = (keys & FULL).astype(np.intp), (keys >> 9).astype(np.intp)
        x_won, o_won = _HAS_LINE_ARRAY[x], _HAS_LINE_ARRAY[o]
        movers = (np.bitwise_count(x | o) & 1).astype(np.uint8)
        over = x_won | o_won | (x | o == FULL)
        utilities = np.where(x_won, 1, np.where(o_won, -1, 0)) * np.where(movers == X, 1, -1)
        squares = np.uint64(1) << np.arange(18, dtype=np.uint64)  # X's squares, then O's
        free = ((x | o)[:, None] >> np.arange(9) & 1 == 0) & ~over[:, None]
        children = keys[:, None] | squares[np.where(movers == X, 0, 9)[:, None] + np.arange(9)]
        return movers, free.sum(axis=1), utilities, children[free]

    def layers(self, keys: np.ndarray) -> np.ndarray:
        """The number of marks on each board of a numpy array of keys."""
        return np.bitwise_count(np.asarray(keys, np.uint64))

    def layer(self, state: State) -> int:
        """The number of marks on the board: every move adds one."""
        x, o = state
        return (x | o).bit_count()

    def winner(self, state: State) -> Player | None:
        """The player who has three in a row, if any."""
        x, o = state
        return X if _HAS_LINE[x] else O if _HAS_LINE[o] else None

    def parse_state(self, text: str) -> State:
        cells = [c for c in text.upper() if c not in " |/\n\t"]
        if len(cells) != 9 or any(c not in "XO." for c in cells):
            raise ValueError(
                f"bad position {text!r}: expected nine characters X, O or . row by row"
            )
        x = sum(1 << i for i, c in enumerate(cells) if c == "X")
        o = sum(1 << i for i, c in enumerate(cells) if c == "O")
        xs, os_ = x.bit_count(), o.bit_count()
        if xs not in (os_, os_ + 1):
            raise ValueError(
                f"bad position {text!r}: X moves first, so X has as many marks as O or one more"
                f" (here X {xs}, O {os_})"
            )
        if _HAS_LINE[x] and _HAS_LINE[o]:
            raise ValueError(f"bad position {text!r}: both sides have three in a row")
        if (_HAS_LINE[x] and xs == os_) or (_HAS_LINE[o] and xs != os_):
            raise ValueError(f"bad position {text!r}: play went on after the game was won")
        return (x, o)

    def format_state(self, state: State) -> str:
        """The nine-character text of a position (the inverse of `parse_state`)."""
        x, o = state
        return "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in range(9))

    def parse_move(self, state: State, text: str) -> int:
        text = text.strip()
        if not text.isdigit() or not 0 <= int(text) <= 8:
            raise ValueError(f"{text!r} is not a square: type a number from 0 to 8")
        square = int(text)
        if square not in self.legal_moves(state):
            raise ValueError(f"square {square} is already taken")
        return square

    def format_move(self, state: State, move: int) -> str:
        return str(move)

    def move_count(self) -> int:
        """Nine moves, numbered as the squares (`NumberedMoves`)."""
        return 9

    def move_number(self, move: int) -> int:
        return move

    def numbered_move(self, number: int) -> int:
        return number

    def observation_shape(self) -> tuple[int, ...]:
        return (3, 3, 2)

    def observation(self, state: State, player: Player) -> np.ndarray:
        """`player`'s marks, then the other's, as two 3x3 planes row by row (`Observing`)."""
        own, other = state if player == X else (state[1], state[0])
        return bit_planes((own, other), _SQUARES)

    def render(self, state: State) -> str:
        """The board with marks, and the numbers of the empty squares to choose from."""
        text = self.format_state(state)
        cells = [c if c != "." else str(i) for i, c in enumerate(text)]
        rows = [" " + " | ".join(cells[r : r + 3]) for r in (0, 3, 6)]
        return "\n---+---+---\n".join(rows)
