"""Nim as a two-player game for the search and the play command.

A state is `(heaps, player)`: the heap sizes and the player to move. A move `(heap, count)`
takes `count` objects (at least one) from heap `heap` (0-based). In normal play whoever takes
the last object wins; in misère play (`misere=True`) that player loses. Utilities are +1 and
-1 for the player asked about.

As text a move is the heap (1-based, as shown by `render`) and the count, "2 3" or "2:3":
take 3 from heap 2. A position is the heap sizes, "3 5 8" or "3,5,8", with player 0 to move.

The key of a position keeps the heaps in their order: (3, 5) and (5, 3) are worth the same,
but a move names its heap by number, so a best move stored for one (take 4 from heap 2) would
be illegal in the other. The heaps are written one after the other in a prefix code (Elias's
gamma code of size + 1) behind a leading 1, then the player to move: one integer for any number
of heaps of any size, two positions never sharing it; heaps up to 8 take 7 bits each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

import numpy as np

from zerosum.game import Player
from zerosum.limits import Limit, clipped

State = tuple[tuple[int, ...], Player]
Move = tuple[int, int]

MOVE_TEXT = re.compile(r"\s*(\S+?)\s*[:\s]\s*(\S+)\s*")

OBJECTS = Limit(
    "the objects of a Nim game",
    1_000_000,
    "a position lists one move for each object it holds (a million moves take 0.4 s and"
    " 100 MB here, at every move of a game); the theory (zerosum nim) takes any heaps",
    liftable=False,
)
HEAPS = Limit(
    "the heaps of a Nim game",
    1_000,
    "a position is drawn a line a heap and keyed a few bits a heap",
    liftable=False,
)
DRAWN = 40
"""The most objects a heap is drawn with; a larger heap is drawn cut short, with its size."""


HEAP_DIGITS = 100_000
"""The most digits of a heap size typed as text: more than a command-line word can hold (131,072
characters) would take seconds to convert; Bouton's theorem judges such heaps at once, and the
games played one move at a time have their own, far smaller limits."""


def parse_heaps(text: str) -> tuple[int, ...]:
    """Heap sizes from "3 5 8", "3,5,8" or "3, 5, 8"; ValueError when one is not a non-negative
    integer of at most HEAP_DIGITS digits, or is empty (`3,,5`, `3,`)."""
    items = text.split(",")
    words = [item.split() for item in items]
    if not any(words):
        raise ValueError("no heaps given: type the heap sizes, e.g. 3 5 8")
    for item in words:
        if not item and len(items) > 1:
            raise ValueError(
                f"bad heaps {clipped(text, 60)}: nothing between two commas, or a comma at an end"
            )
        for word in item:
            if not (word.isascii() and word.isdigit()):
                raise ValueError(
                    f"a heap size must be a non-negative integer, got {clipped(word, 40)}"
                )
            if len(word) > HEAP_DIGITS:
                raise ValueError(
                    f"a heap size has at most {HEAP_DIGITS:,} digits, got one of {len(word):,}"
                )
    # Python's int() refuses more than 4,300 digits (slow for untrusted text); the decimal
    # module converts exactly, with no such limit, in a fraction of a second up to HEAP_DIGITS
    return tuple(int(Decimal(word)) for item in words for word in item)


def nim_heaps(sizes: Iterable[int]) -> tuple[int, ...]:
    """The heaps as a tuple; ValueError when a size is negative or not an integer."""
    heaps = tuple(sizes)
    for size in heaps:
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ValueError(f"a heap size must be a non-negative integer, got {size!r}")
    return heaps


class Nim:
    """Nim from the heaps `heaps`, in normal play or, with `misere`, misère play."""

    player_names = ("first", "second")

    def __init__(self, heaps: tuple[int, ...] = (3, 5, 8), misere: bool = False) -> None:
        self.heaps = playable(nim_heaps(heaps))
        self.misere = misere

    def initial_state(self) -> State:
        return (self.heaps, 0)

    def to_move(self, state: State) -> Player:
        return state[1]

    def legal_moves(self, state: State) -> list[Move]:
        """Every (heap, count), heap by heap, larger counts first.

        Larger counts first lets alpha-beta find wins sooner: on three heaps up to 7 it visits
        about seven times fewer nodes than with smaller counts first.
        """
        heaps, _ = state
        return [(i, count) for i, size in enumerate(heaps) for count in range(size, 0, -1)]

    def result(self, state: State, move: Move) -> State:
        heaps, player = state
        i, count = move
        return ((*heaps[:i], heaps[i] - count, *heaps[i + 1 :]), 1 - player)

    def is_terminal(self, state: State) -> bool:
        return not any(state[0])

    def utility(self, state: State, player: Player) -> int:
        """+1 for the winner: whoever took the last object (normal) or did not (misère)."""
        mover_lost = not self.misere
        return -1 if (player == state[1]) == mover_lost else 1

    def key(self, state: State) -> int:
        """A perfect integer key: the heaps in order, in the gamma code, then the player."""
        heaps, player = state
        key = 1
        for size in heaps:
            code = size + 1  # `width` bits behind `width - 1` zeros: where each heap starts
            width = code.bit_length()
            key = key << (2 * width - 1) | code
        return key << 1 | player

    def parse_state(self, text: str) -> State:
        return (playable_heaps(text), 0)

    def reachable_at_most(self) -> tuple[int, int]:
        """At most how many positions are reachable from the start (every smaller size of each
        heap, either player to move) and how many moves they have in all (each position's
        objects: half of each heap's size on average)."""
        positions = 2
        for size in self.heaps:
            positions *= size + 1
        return positions, positions * sum(self.heaps) // 2

    def parse_move(self, state: State, text: str) -> Move:
        heaps, _ = state
        match = MOVE_TEXT.fullmatch(text)
        if (
            match is None
            or not (match[1] + match[2]).isascii()
            or not (match[1].isdigit() and match[2].isdigit())
        ):
            raise ValueError(
                f"{clipped(text.strip())} is not a move: type a heap and a count, e.g. 2 3"
            )
        if len(match[1]) > DIGITS or len(match[2]) > DIGITS:  # far beyond any heap or count
            raise ValueError(f"{clipped(text.strip())} is no move of these heaps")
        heap, count = int(match[1]), int(match[2])
        if not 1 <= heap <= len(heaps):
            raise ValueError(f"there is no heap {heap}: choose a heap from 1 to {len(heaps)}")
        if heaps[heap - 1] == 0:
            raise ValueError(f"heap {heap} is empty")
        if not 1 <= count <= heaps[heap - 1]:
            raise ValueError(f"heap {heap} has {heaps[heap - 1]}: take from 1 to {heaps[heap - 1]}")
        return (heap - 1, count)

    def format_move(self, state: State, move: Move) -> str:
        heap, count = move
        return f"{heap + 1}:{count}"

    def move_count(self) -> int:
        """Moves numbered heap by heap, `largest` numbers a heap for the largest starting heap
        (`NumberedMoves`): taking `count` from heap `i` is `i * largest + count - 1`."""
        return len(self.heaps) * max(self.heaps, default=0)

    def move_number(self, move: Move) -> int:
        heap, count = move
        return heap * max(self.heaps) + count - 1

    def numbered_move(self, number: int) -> Move:
        heap, taken = divmod(number, max(self.heaps))
        return (heap, taken + 1)

    def observation_shape(self) -> tuple[int, ...]:
        return (len(self.heaps), max(self.heaps, default=0))

    def observation(self, state: State, player: Player) -> np.ndarray:
        """Each heap as a row of 1s, one for each object left (`Observing`: both players see
        the same, as Nim is impartial)."""
        heaps, _ = state
        planes = np.zeros(self.observation_shape(), np.int8)
        for heap, size in enumerate(heaps):
            planes[heap, :size] = 1
        return planes

    def render(self, state: State) -> str:
        """One line per heap: its number, its objects and its size."""
        heaps, _ = state
        width = len(str(len(heaps)))
        return "\n".join(
            f"heap {i:>{width}}: {_drawn(size)} ({size:,})" for i, size in enumerate(heaps, 1)
        )


DIGITS = len(str(OBJECTS.most))
"""The most digits of a heap or a count in a move that can name one."""


def playable(heaps: tuple[int, ...]) -> tuple[int, ...]:
    """`heaps`, checked to be a game the `Nim` class plays (`HEAPS`, `OBJECTS`); ValueError with
    the limit otherwise."""
    HEAPS.check(len(heaps))
    OBJECTS.check(sum(heaps))
    return heaps


def playable_heaps(text: str) -> tuple[int, ...]:
    """The heaps of "3 5 8" or "3,5,8" (`parse_heaps`), checked to be a game the `Nim` class
    plays; a size of more digits than any playable heap is refused before it is converted."""
    for word in text.replace(",", " ").split():
        digits = word.lstrip("0")
        if len(digits) > DIGITS and digits.isascii() and digits.isdigit():
            raise ValueError(
                f"a heap of {len(digits):,} digits is over the limit of {OBJECTS.most:,}"
                f" {OBJECTS.what.removeprefix('the ')}: {OBJECTS.cost}"
            )
    return playable(parse_heaps(text))


def _drawn(size: int) -> str:
    """A heap's objects as bars, `-` for none, cut short after `DRAWN`."""
    if size > DRAWN:
        return "|" * DRAWN + "..."
    return "|" * size or "-"
