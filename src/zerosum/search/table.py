"""The transposition table: what a search learnt about a position, found again by its key.

An entry remembers, for one position, the depth it was searched to, the score found, whether
that score is exact or only a bound (the search was cut off: a lower bound after a fail-high,
an upper bound after a fail-low), the best move found, which is tried first next time, and
the `path` the score holds for (what of the way to the position its outcome depends on, for a
game with repetition rules; None where the position alone decides).

The table holds a fixed number of slots, derived from its size in megabytes and rounded up to a
prime: a position goes to slot `hash(key) % slots` (a prime modulus mixes every bit of a key in;
a power of two would keep only the low bits, one corner of a bitboard). Replacement policy,
"depth-preferred with ageing": a new entry takes a slot when the slot is empty, holds the same
position, was written by an earlier search (`new_search` ages it), or was searched less deeply
than the new one. So the table never grows past its size, deep results of the current search
survive, and stale ones go first.

The stored move is only a hint: a different position can share the slot and even the key
(a collision of a lossy key), so a search must check that move is legal before playing it.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, NamedTuple

EXACT, LOWER, UPPER = 0, 1, 2
"""Bound types: the score is the value, at least the value, or at most the value."""


def bound_type(score: float, alpha: float, beta: float) -> int:
    """The bound type of a fail-soft `score` found in the window (`alpha`, `beta`): LOWER when
    it reached `beta` (the moves left unsearched might do better), UPPER when it stayed at or
    below `alpha` (every move was refuted, by how much is not known), else EXACT."""
    return LOWER if score >= beta else UPPER if score <= alpha else EXACT


def decides(bound: int, score: float, alpha: float, beta: float) -> bool:
    """True when a stored `score` of type `bound` settles a search in the window (`alpha`,
    `beta`) without searching: it is exact, a lower bound that reaches `beta`, or an upper bound
    that stays at `alpha` or below."""
    return (
        bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha)
    )


ENTRY_BYTES = 256
"""Measured cost of one entry in CPython (a slot in the dict and a tuple of its fields)."""

DEFAULT_MEGABYTES = 256


class Entry(NamedTuple):
    """What the table remembers of one position: its `key`, the `depth` it was searched to,
    the `score` found and its `bound` type, the best `move`, the `generation` (the search) that
    wrote it, and the `path` the score holds for."""

    key: Hashable
    depth: int
    score: int
    bound: int
    move: Any
    generation: int
    path: Any


_new_entry = tuple.__new__
"""Builds an `Entry` from a tuple of its fields at a third of the cost of calling `Entry`,
whose `__new__` is a Python function (the table stores once a node)."""


@dataclass(frozen=True)
class TableStats:
    """What the table did: `probes` looked up, `hits` found the position, `cutoffs` ended a node
    with the stored score, `stores` written, `entries` held now out of `slots`."""

    probes: int
    hits: int
    cutoffs: int
    stores: int
    entries: int
    slots: int


def physical_memory() -> int | None:
    """Bytes of RAM on this machine, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def slots_for(megabytes: float) -> int:
    """The number of entries a table of `megabytes` holds; ValueError if it cannot exist here."""
    if not megabytes > 0:
        raise ValueError(f"table size must be more than 0 MB, got {megabytes}")
    size = int(megabytes * (1 << 20))
    memory = physical_memory()
    if memory is not None and size > memory:
        raise ValueError(
            f"a table of {megabytes} MB does not fit in this machine's memory ({memory >> 20} MB)"
        )
    return next_prime(max(2, size // ENTRY_BYTES))


def next_prime(n: int) -> int:
    """The smallest prime at least `n` (trial division: a few thousand steps at most)."""
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n


class TranspositionTable:
    """A bounded map from position keys to search results, with counts of its use."""

    def __init__(self, megabytes: float = DEFAULT_MEGABYTES) -> None:
        self.megabytes = megabytes
        self.slots = slots_for(megabytes)
        self.entries: dict[int, Entry] = {}
        self.generation = 0
        self.probes = self.hits = self.cutoffs = self.stores = 0

    def probe(self, key: Hashable) -> Entry | None:
        """The entry of the position `key`, or None."""
        self.probes += 1
        entry = self.entries.get(hash(key) % self.slots)
        if entry is not None and entry.key == key:
            self.hits += 1
            return entry
        return None

    def store(
        self, key: Hashable, depth: int, score: int, bound: int, move: Any, path: Any = None
    ) -> None:
        """Remember a result for `key` (reached by `path`), unless its slot holds a deeper one
        of this search."""
        slot = hash(key) % self.slots
        old = self.entries.get(slot)
        generation = self.generation
        if old is None or old.key == key or old.generation != generation or old.depth <= depth:
            fields = (key, depth, score, bound, move, generation, path)
            self.entries[slot] = _new_entry(Entry, fields)
            self.stores += 1

    def new_search(self) -> None:
        """Age every entry: a new search may overwrite them whatever their depth."""
        self.generation += 1

    def clear(self) -> None:
        """Forget every entry and reset the counts."""
        self.entries.clear()
        self.generation = 0
        self.probes = self.hits = self.cutoffs = self.stores = 0

    def stats(self) -> TableStats:
        return TableStats(
            self.probes, self.hits, self.cutoffs, self.stores, len(self.entries), self.slots
        )
