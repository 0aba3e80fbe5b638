"""Recording what a search does, as a bounded stream of events.

A search given a `Trace` records, in the order they happen:

- `enter`: a node is entered (with the window `alpha`, `beta` where the algorithm has one);
- `leaf`: a terminal position or a depth-limit evaluation, with its score;
- `cutoff`: a node stops examining its moves, with the score that caused it;
- `exit`: a node returns its score.

Scores are from the point of view the algorithm uses at that node (the root player's for
`minimax` and `alphabeta`, the player to move's for `negamax`). Searches called without a trace
pay one `is None` test per node and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing a search did at one node."""

    kind: str
    state: Any
    ply: int
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None


@dataclass
class Trace:
    """A bounded list of search events: past `limit`, events are counted in `dropped`, not kept."""

    limit: int = 100_000
    events: list[Event] = field(default_factory=list)
    dropped: int = 0

    def record(
        self,
        kind: str,
        state: Any,
        ply: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> None:
        if len(self.events) < self.limit:
            self.events.append(Event(kind, state, ply, value, alpha, beta))
        else:
            self.dropped += 1

    def of_kind(self, kind: str) -> list[Event]:
        """The kept events of one kind, in order."""
        return [event for event in self.events if event.kind == kind]
