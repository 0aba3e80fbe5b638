"""Iterative deepening under a budget: the driver around the engine's node function, and what it
reports.

`IterativeDeepening` runs a search's iterations; the engine (`zerosum.search.engine.Engine`)
is one, adding the node function that searches each. With the `iterative` switch
(`zerosum.search.settings.Settings`), it searches to depth 1, 2, ... up to the depth asked for,
until the value is exact (no line ended on an estimate), or until the node or time budget runs
out; each iteration is reported (`on_iteration`, `iterations`) and the last one is the answer.
Each iteration searches the previous one's best root move first, with or without a table and
whatever `hash_move` says: it is what an iteration cut short answers with at the least. The
first of several iterations always finishes; the budget during a later one cuts it short, and
so does `stop()` (from any thread, at once, even in the first iteration). A search with a
single iteration (to the end, for a game without `evaluate`, or with `iterative` off) is
bounded by the budget from its start. An iteration cut short after it has searched a root move
to its full depth (the first: the previous iteration's best) is reported as such
(`Iteration.complete` False) and answers with the best of the root moves it finished: the whole
budget is used, and a better move found at the new depth is not thrown away. One cut short
before that is dropped, and the iteration before it answers; with none, the answer is the first
root move (with no score). Ctrl-C during a later iteration returns the last finished one.

What a search reports is the compiled engine's (`zerosum.compiled.engine`) too: each
`Iteration`, the `EngineResult` that `engine_result` makes of the finished ones, and the
budgets `check_budget` accepts.
"""

from __future__ import annotations

import threading
import time as clock
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from zerosum.game import Evaluating, Game, require
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.scores import decode, distance_score
from zerosum.search.settings import Settings
from zerosum.search.table import TableStats

__all__ = [
    "CHECK_EVERY",
    "UNLIMITED",
    "EngineResult",
    "Iteration",
    "IterativeDeepening",
    "Stopped",
    "check_budget",
    "engine_result",
]

UNLIMITED = 1 << 30
"""The depth of a search to the end of the game, and of a table entry valid at any depth."""

CHECK_EVERY = 256
"""Nodes between two looks at the clock and the stop request (a chess node costs ~0.2 ms)."""


@dataclass(frozen=True)
class Iteration:
    """One iteration of iterative deepening.

    `score` and `value` are for the player to move at the root (`value` on the game's utility
    scale); `exact` says the value is the game's (every line was followed to its end, or to a
    stored result that was); `plies` is the distance to the end of the win or loss the score
    proves (a bound on the value unless `exact`). `nodes` and `seconds` are this iteration's.
    `complete` is False for an iteration the budget cut short: its move, score and line are
    the best of the root moves it searched to `depth` (at least the first), never `exact`.
    """

    depth: int
    score: int
    value: float
    best_move: Any
    pv: tuple[Any, ...]
    exact: bool
    plies: int | None
    nodes: int
    seconds: float
    complete: bool = True

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass(frozen=True)
class EngineResult(SearchResult):
    """A `SearchResult` with the engine's detail.

    `score` is the integer score behind `value`; `depth` the depth of the iteration that
    answers, the last of `iterations` (every iteration reported; the last may have been cut
    short: `Iteration.complete`); `exact` whether the value is proven; `table` the
    transposition table's counts (None without a table); `seconds` the whole search's time;
    `stopped` why the search ended early: "time", "nodes", "interrupt", "stop", or None.
    When `stop` or the budget ends the search before its first iteration has searched one root
    move to the end, `depth` is 0 and `best_move` the first legal move, without a score
    (`score` 0, `value` 0.0, not `exact`).
    """

    score: int = 0
    depth: int = 0
    exact: bool = False
    iterations: tuple[Iteration, ...] = ()
    table: TableStats | None = None
    seconds: float = 0.0
    stopped: str | None = None


def check_budget(depth: int | None, time: float | None, nodes: int | None) -> None:
    """ValueError unless each budget given is one a search can keep: a depth and a node count
    of at least 1, a time of more than 0 seconds."""
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    if time is not None and not time > 0:
        raise ValueError(f"time must be more than 0 seconds, got {time}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"node budget must be at least 1, got {nodes}")


def engine_result(
    game: Game[Any, Any],
    state: Any,
    finished: list[Iteration],
    stats: SearchStats,
    table: TableStats | None,
    seconds: float,
    stopped: str | None,
) -> EngineResult:
    """What a search of `state` answers from its `finished` iterations (as `EngineResult`
    says): the deepest one's; the first legal move, unscored, when stopped before any; the
    root's utility, proven, when the game is over there."""
    if not finished and stopped is not None:  # stopped in the first iteration
        move = game.legal_moves(state)[0]  # no root move was searched to the end
        return EngineResult(
            0.0, move, (move,), stats, None, 0, 0, False, (), table, seconds, stopped
        )
    if not finished:  # the root is over: its utility, proven
        utility = game.utility(state, game.to_move(state))
        score = distance_score(utility, 0)
        plies = decode(score, exact=True).plies
        over = SearchStats(stats.nodes, stats.terminals, 0, 0)
        return EngineResult(utility, None, (), over, plies, score, 0, True, (), table, seconds)
    last = finished[-1]
    return EngineResult(
        last.value, last.best_move, last.pv, stats, last.plies, last.score, last.depth,
        last.exact, tuple(finished), table, seconds, stopped,
    )  # fmt: skip


class Stopped(Exception):
    """The budget ran out in the middle of an iteration."""


class IterativeDeepening(ABC):
    """The driver of a search by iterative deepening under a budget: `search` and `iterations`
    run the iterations, each searched by the subclass's `_iterate`, whose node function calls
    `_check_budget` when its count of `nodes` reaches `next_check`. Both engines are one: the
    Python engine and the compiled one (`zerosum.compiled.engine`), whose counts live in its
    compiled search's array and which looks at the budget every `check_every` nodes."""

    check_every = CHECK_EVERY
    """Nodes between two looks at the budget."""

    def __init__(self, game: Game[Any, Any], settings: Settings) -> None:
        """A driver for searches of `game` with the effective `settings`."""
        self.game = game
        self.settings = settings
        self.nodes = self.terminals = self.evaluations = self.cutoffs = self.horizons = 0
        self.next_check = UNLIMITED
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.stopped: str | None = None
        self.stop_requested = threading.Event()
        self.budgeted = False  # False during the first of several iterations: only `stop` ends it

    def stop(self) -> None:
        """Ask the running search (from any thread) to return as soon as it can."""
        self.stop_requested.set()

    def search(
        self,
        state: Any,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        on_iteration: Callable[[Iteration], None] | None = None,
    ) -> EngineResult:
        """The best move of the deepest finished iteration and its score, for the player to move.

        `depth` (plies), `time` (seconds) and `nodes` bound the search; with none of them it
        goes on until the value is exact. `on_iteration` is called with every finished
        iteration.
        """
        start = clock.perf_counter()
        finished: list[Iteration] = []
        for iteration in self.iterations(state, depth=depth, time=time, nodes=nodes):
            finished.append(iteration)
            if on_iteration is not None:
                on_iteration(iteration)
        seconds = clock.perf_counter() - start
        stats = SearchStats(self.nodes, self.terminals, self.evaluations, self.cutoffs)
        table = self.table_stats()
        return engine_result(self.game, state, finished, stats, table, seconds, self.stopped)

    def iterations(
        self,
        state: Any,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
    ) -> Iterator[Iteration]:
        """Every finished iteration of a search of `state`, as it finishes (see `search`)."""
        check_budget(depth, time, nodes)
        game = self.game
        self.nodes = self.terminals = self.evaluations = self.cutoffs = self.horizons = 0
        self.stop_requested.clear()
        if game.is_terminal(state):
            return
        if depth is not None:
            require(game, Evaluating, "depth-limited search")
        self.stopped = None
        self._new_search()
        start = clock.perf_counter()
        self.deadline = start + time if time is not None else None
        self.node_limit = nodes
        target = depth if depth is not None else UNLIMITED
        prune = self.settings.forward_pruning
        schedule = range(1 if self.settings.iterative else target, target + 1)
        # The first of several iterations always finishes (it is quick, and gives a scored
        # answer); a single iteration is bounded by the budget from its first node.
        self.budgeted = len(schedule) == 1
        self.next_check = self.nodes + 1 if self.budgeted else self.check_every
        for current in schedule:
            horizons = self.horizons
            try:
                iteration = self._iterate(state, current, prune)
            except Stopped:
                return
            except KeyboardInterrupt:
                if current == schedule.start:
                    raise
                self.stopped = "interrupt"
                return
            yield iteration
            if iteration.exact or not iteration.complete:
                return
            if self.horizons == horizons:  # every line ended: only pruning kept it from exact
                prune = False
            self.budgeted = True
            self.next_check = self.nodes + 1

    @abstractmethod
    def table_stats(self) -> TableStats | None:
        """What the transposition table did since it was made (None without one)."""

    @abstractmethod
    def _new_search(self) -> None:
        """Get ready for a new search: forget what holds for one search only."""

    @abstractmethod
    def _iterate(self, state: Any, depth: int, prune: bool) -> Iteration:
        """The iteration that searches `state` to `depth` plies (`UNLIMITED`: to the end), with
        forward pruning if `prune`, scored for the player to move there; `Stopped` when the
        budget ends it before one root move was searched to the end."""

    def _check_budget(self) -> None:
        """Raise `Stopped` when asked to stop or the time or node budget is spent (the budget
        only after the first of several iterations); else set the next check."""
        if self.stop_requested.is_set():
            self.stopped = "stop"
            raise Stopped
        if not self.budgeted:
            self.next_check = self.nodes + self.check_every
            return
        if self.node_limit is not None and self.nodes >= self.node_limit:
            self.stopped = "nodes"
            raise Stopped
        if self.deadline is not None and clock.perf_counter() >= self.deadline:
            self.stopped = "time"
            raise Stopped
        step = self.nodes + self.check_every
        self.next_check = step if self.node_limit is None else min(step, self.node_limit)
