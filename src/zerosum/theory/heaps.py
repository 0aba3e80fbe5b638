"""Grundy sequences of one-heap games and their proved periods.

For games played on heaps of tokens (subtraction games, octal games, Grundy's game) the
Grundy number of a heap of n is a sequence g(0), g(1), ... A period is only reported when a
theorem turns finitely many computed values into a statement about all n: `find_period` takes
that theorem as `needed(preperiod, period)`, the number of values it must see.

Values are kept in an `array` of unsigned integers, as narrow as they allow: the octal
games' inner loop works on its raw bytes.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from zerosum.limits import Limit

WIDER = {"B": "H", "H": "I", "I": "Q"}

SECONDS = Limit(
    "the time of these Grundy values (estimated, in seconds)",
    120,
    "each game's cost, measured here, grows with the heaps (and their square for the games"
    " that split a heap, and for the period search)",
)
"""How long a sequence may take, estimated before each batch of values from the game's own
cost (`seconds(count)` of each game) and the period search's (`search_seconds`)."""

PROGRESS_EVERY = 256
"""Heaps computed between two calls of a progress callback."""


def search_seconds(count: int) -> float:
    """The period search's time at worst over `count` values (and the halves before it), in
    seconds: measured here, 1.3 ns a byte of the values for each period tried, values of two
    bytes, periods up to half the count, twice for the doublings."""
    return 2 * 1.3e-9 * 2 * count * (count / 2)


def append_value(values: array, value: int) -> array:
    """`values` with `value` appended, widened to a larger item type first when it needs one."""
    while value >> (8 * values.itemsize):
        values = array(WIDER[values.typecode], values)
    values.append(value)
    return values


@dataclass(frozen=True)
class GrundySequence:
    """The Grundy numbers of heaps 0..len(values)-1, and the period when one is proved.

    `preperiod` and `period` say that g(n + period) = g(n) for every n >= preperiod; both are
    None when no period was proved from the `checked` values computed (heaps 0..checked-1).
    """

    values: tuple[int, ...]
    preperiod: int | None
    period: int | None
    checked: int

    @property
    def p_positions(self) -> tuple[int, ...]:
        """The heap sizes among `values` with Grundy number 0: the player to move loses."""
        return tuple(n for n, value in enumerate(self.values) if value == 0)

    def value(self, n: int) -> int:
        """g(n), from the values or, beyond them, from the proved period."""
        if n < len(self.values):
            return self.values[n]
        if self.preperiod is None or self.period is None:
            raise ValueError(f"g({n}) is beyond the values computed and no period is proved")
        return self.values[self.preperiod + (n - self.preperiod) % self.period]


def find_period(values: array, needed: Callable[[int, int], int]) -> tuple[int, int] | None:
    """The least `(preperiod, period)` that the computed `values` prove, or None.

    For each candidate period p, from 1 up, the preperiod is one past the last n with
    g(n) != g(n + p) among the values; the pair is proved when `needed(preperiod, p)` values
    are available. A proved period is a true period, and every true period of the sequence
    starts at the same preperiod, so the first one proved is the least.
    """
    count = len(values)
    width = values.itemsize
    raw = values.tobytes()
    for period in range(1, count // 2 + 1):
        # XOR of the sequence with itself shifted by p: its highest non-zero item is the last
        # mismatch (little-endian integers, so item n sits at bits 8 * width * n and up).
        head = int.from_bytes(raw[: (count - period) * width], "little")
        tail = int.from_bytes(raw[period * width :], "little")
        mismatch = head ^ tail
        preperiod = (mismatch.bit_length() - 1) // (8 * width) + 1 if mismatch else 0
        if needed(preperiod, period) <= count:
            return preperiod, period
    return None


def sequence(
    compute: Callable[[int], array],
    upto: int,
    needed: Callable[[int, int], int] | None,
    search: int,
    seconds: Callable[[int], float] | None = None,
    no_limit: bool = False,
) -> GrundySequence:
    """The sequence to heap `upto`, with the period proved from at most `search` values.

    `compute(count)` returns the first `count` values. The period search doubles the values it
    examines from 64 until a period is proved, `search` is reached or (unless `no_limit`) the
    next doubling would take longer than `SECONDS`; with `needed` None (no theorem applies) no
    period is looked for. Values past a proved period are filled in from it instead of being
    computed; otherwise ValueError when computing them all would take longer than `SECONDS`
    (estimated by `seconds(count)`, the game's own cost), unless `no_limit`.
    """
    if upto < 0:
        raise ValueError(f"the largest heap must be at least 0, got {upto}")
    if search < 1:
        raise ValueError(f"the period search needs at least 1 value, got {search}")

    def estimate(count: int, searched: int) -> int:
        """The estimated seconds of `count` values and a period search over `searched`."""
        return math.ceil((seconds(count) if seconds else 0) + search_seconds(searched))

    count = upto + 1
    checked = min(64, search)
    found = None
    while needed is not None:
        found = find_period(compute(checked), needed)
        if found is not None or checked >= search:
            break
        following = min(2 * checked, search)
        if not no_limit and estimate(following, following) > SECONDS.most:
            break  # the search stops where the time limit would: `checked` says how far it went
        checked = following
    if found is None:
        SECONDS.check(estimate(count, 0), lifted=no_limit, needs=f"heaps 0 to {count - 1:,}")
        values = compute(count)[:count]
        return GrundySequence(tuple(values), None, None, count if needed is None else checked)
    preperiod, period = found
    if count <= checked:
        values = compute(count)[:count]
    else:
        values = _extend(compute(preperiod + period), preperiod, period, count)
    return GrundySequence(tuple(values), preperiod, period, checked)


def _extend(values: array, preperiod: int, period: int, count: int) -> array:
    """The first `count` values of a sequence periodic from `preperiod` with `period`."""
    cycle = values[preperiod : preperiod + period]
    return (values[:preperiod] + cycle * ((count - preperiod) // period + 1))[:count]
