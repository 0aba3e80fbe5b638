"""Recording what a search does, as a bounded stream of events.

A search given a `Trace` records, in the order they happen:

- `ENTER` (`"enter"`): a node is entered, with the window `alpha`, `beta` where the algorithm
  has one;
- `LEAF` (`"leaf"`): a terminal position or a depth-limit evaluation, with its score;
- `CUTOFF` (`"cutoff"`): a node stops examining its moves, with the score that caused it and
  the window it broke (`alpha`, `beta`);
- `HIT` (`"hit"`): a node answered from a transposition table with the stored score, in place
  of `ENTER`..`EXIT` (for searches that keep a table; the exact searches never emit it; a probe
  that only narrows the window or suggests a move is not a hit);
- `EXIT` (`"exit"`): a node returns its score.

Scores are from the point of view the algorithm uses at that node (the root player's for
`minimax` and `alphabeta`, the player to move's for `negamax` and the engine, whose windows are
the player to move's too). Searches called without a trace pay one `is None` test per node (the
engine: one per node entered or left) and nothing else.

The engine (`zerosum.search.engine`) records the same kinds, with these differences: a node its
principal variation search tries with a null window and then searches again is entered twice
in a row; the positions its quiescence search plays out below the depth limit are nodes too
(so `max_ply` at the search's depth leaves them out); and its trace holds only its last
iteration of iterative deepening.

Two bounds keep a trace small on a large search: `limit` caps the events kept (later ones are
only counted in `dropped`), and `max_ply` keeps only the events of the first plies (the deeper
ones are counted in `deeper`), which is how a picture shows the top of a search that went on
far below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENTER = "enter"
LEAF = "leaf"
CUTOFF = "cutoff"
HIT = "hit"
EXIT = "exit"
KINDS = (ENTER, LEAF, CUTOFF, HIT, EXIT)


@dataclass(frozen=True)
class Event:
    """One thing a search did at one node `ply` moves below the root."""

    kind: str
    state: Any
    ply: int
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None


@dataclass
class Trace:
    """A bounded list of search events.

    Past `limit` kept events, further ones are counted in `dropped`; events more than `max_ply`
    plies below the root (when `max_ply` is set) are counted in `deeper` and never kept.
    """

    limit: int = 100_000
    max_ply: int | None = None
    events: list[Event] = field(default_factory=list)
    dropped: int = 0
    deeper: int = 0

    def __post_init__(self) -> None:
        if self.limit < 0:
            raise ValueError(f"a trace's limit must be at least 0, got {self.limit}")
        if self.max_ply is not None and self.max_ply < 0:
            raise ValueError(f"a trace's max_ply must be at least 0, got {self.max_ply}")

    def record(
        self,
        kind: str,
        state: Any,
        ply: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> None:
        if self.max_ply is not None and ply > self.max_ply:
            self.deeper += 1
        elif len(self.events) < self.limit:
            self.events.append(Event(kind, state, ply, value, alpha, beta))
        else:
            self.dropped += 1

    def clear(self) -> None:
        """Forget every event and count: the trace of a new search (or a new iteration) starts."""
        self.events.clear()
        self.dropped = self.deeper = 0

    @property
    def complete(self) -> bool:
        """True when no event within `max_ply` was dropped for want of room."""
        return self.dropped == 0

    def of_kind(self, kind: str) -> list[Event]:
        """The kept events of one kind, in order."""
        return [event for event in self.events if event.kind == kind]
