"""The compiled engine: `zerosum.search.engine.Engine` at compiled speed, for compiled games.

`Engine(game)` takes a `CompiledGame`, or a Python game with a compiled twin (`connect4`,
`tictactoe`: `zerosum.compiled.protocol.compiled_twin`), and searches like the Python engine:
`search(state, depth=..., time=..., nodes=..., on_iteration=...)` returns the same
`EngineResult` (iterations, principal variation, nodes, table statistics), states and moves
being the Python game's (for a bare `CompiledGame`, its `zerosum.compiled.rules` view's:
tuples of words). The node function (`zerosum.compiled.alphabeta`) is the Python engine's, step
for step, with the same switches (`Settings`: the table and its size, iterative deepening,
the hash move, killers, history, PVS, quiescence and its depth) and the same scores; the
switches the compiled games never need (captures, null move, reductions, futility, check
extensions: no compiled game offers checks, passes or captures) are off, as the Python
engine's `effective` settings turn them off for these games. The transposition table has as
many slots as the Python table of the same `table_mb` (in 40 bytes a slot), so the two
engines keep the same entries: searched alike, they visit the same nodes.

Budgets: the compiled search calls back into Python every `CHECK_EVERY` nodes, where the
clock, the node budget, `stop()` and Ctrl-C are looked at exactly as the Python engine looks
at them every 256 nodes; a node budget is never exceeded, a time budget by at most the time
of `CHECK_EVERY` nodes (a millisecond or two).

The first search of a game compiles it (about 10 seconds of processor; the listeners of
`zerosum.compiled.compiling` are told first), once: numba's cache keeps it on disk for the next
processes where the game's functions can be imported (`zerosum.compiled.cache`; a closure or a
game typed into an interpreter is compiled once a process). The history heuristic is kept in
float64: a search to the end rewards a cut-off with `(2**30 - ply) ** 2`, beyond 64-bit
integers, which the Python engine's integers hold.
"""

from __future__ import annotations

import functools
import time as clock
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from numba import njit

from zerosum.compiled import alphabeta, alphabeta_search
from zerosum.compiled.alphabeta import (
    CAPPED,
    CAPTURES,
    CHECKS,
    CUTOFFS,
    ENTRIES,
    ESTIMATES,
    EVALUATIONS,
    EXTENSION_LIMIT,
    EXTENSIONS,
    FUTILITY,
    FUTILITY_MARGIN,
    GENERATION,
    HASH_MOVE,
    HISTORY,
    HITS,
    HORIZONS,
    INFO,
    KILLERS,
    MAX_PLY,
    NEXT_CHECK,
    NODES,
    NOISY,
    NULL_MOVE,
    NULL_PLY,
    NULL_WINDOW,
    PROBES,
    PRUNING,
    QUIESCENCE,
    QUIESCENCE_DEPTH,
    REDUCTIONS,
    REUSE_SCORES,
    ROOT_MOVE,
    ROOT_SCORE,
    SINGULAR,
    SLOTS,
    STATIC_EXCHANGE,
    STOPPED,
    STORES,
    TABLE_CUTOFFS,
    TERMINALS,
    UNLIMITED,
    USE_TABLE,
)
from zerosum.compiled.cache import build
from zerosum.compiled.checked import checked_once
from zerosum.compiled.protocol import CompiledGame, compiled_twin
from zerosum.compiled.rules import python_rules
from zerosum.compiled.table import new_table
from zerosum.game import Noisy, is_history_dependent
from zerosum.search.deepening import Iteration, IterativeDeepening, Stopped
from zerosum.search.ordering import QUIET
from zerosum.search.scores import EVALUATION_UNIT, decode
from zerosum.search.settings import Settings
from zerosum.search.table import TableStats, slots_for

__all__ = ["Engine"]

CHECK_EVERY = 4096
"""Nodes between two calls back into Python: a millisecond or two of chess (a compiled chess
node costs about a microsecond, Connect Four's a tenth), a call back costs a few
microseconds."""

INTERRUPT = alphabeta.INTERRUPTED
STOPPING = {"stop": 1, "nodes": 2, "time": 3}
"""What the compiled search is told when the driver stops it (`info[STOPPED]`), by the
driver's reason; Ctrl-C is `INTERRUPT`."""

NEEDS = {
    "captures": ("capture",),
    "static_exchange": ("exchange",),
    "null_move": ("pass_move",),
    "late_move_reductions": ("in_check",),
    "futility": ("in_check",),
    "check_extensions": ("in_check",),
}
"""The compiled functions each switch of `Settings` needs beside the rules (the Python game
offering the capability is not enough): a switch is off where they are missing."""

SEARCH_PLIES = 512
"""The longest line the engine's stacks hold for a game longer than that (chess: thousands of
plies), far beyond any depth it is asked for with its extensions and quiescence; a line that
reaches it ends there, evaluated."""


@functools.cache
def kernel(compiled: CompiledGame) -> Any:
    """The compiled root search of `compiled`: `search(states, moves, pv, killers, history,
    table, info, depth) -> score` of `states[0]` for its player to move (the template
    `zerosum.compiled.alphabeta_search` made the game's, read from the cache if it was)."""
    bindings = {
        "to_move": compiled.to_move, "legal": compiled.moves, "play": compiled.play,
        "terminal": compiled.terminal, "utility": compiled.utility, "key": compiled.key,
        "evaluate": compiled.evaluate if compiled.evaluate is not None else _no_evaluation,
        "noisy": compiled.noisy if compiled.noisy is not None else _no_moves,
        "in_check": compiled.in_check if compiled.in_check is not None else _never,
        "capture": compiled.capture if compiled.capture is not None else _quiet,
        "pass_move": compiled.pass_move if compiled.pass_move is not None else _no_pass,
        "exchange": compiled.exchange if compiled.exchange is not None else _even,
        "path_key": compiled.path_key if compiled.path_key is not None else _no_path,
    }  # fmt: skip
    module = build(
        alphabeta_search, bindings, f"compiling the engine for {compiled.name}", _no_compiling
    )
    return module.search


def _no_compiling(module: Any) -> None:
    """The search's functions have signatures: importing them compiled them."""


@njit(cache=True)
def _no_evaluation(state, player):
    return 0.0


@njit(cache=True)
def _no_moves(state, out):
    return 0


@njit(cache=True)
def _never(state):
    return False


@njit(cache=True)
def _quiet(state, move):
    return float(QUIET)


@njit(cache=True)
def _no_pass(state, child):
    return False


@njit(cache=True)
def _even(state, move):
    return 0.0


@njit(cache=True)
def _no_path(state):
    return np.uint64(0)


class InInfo:
    """A count of the driver's that the compiled search keeps in the engine's `info`, at
    `field`: read and written there, so both see one number."""

    def __init__(self, field: int) -> None:
        self.field = field

    def __get__(self, engine: Any, owner: type | None = None) -> int:
        return int(engine.info[self.field])

    def __set__(self, engine: Any, value: int) -> None:
        engine.info[self.field] = value


class Engine(IterativeDeepening):
    """The compiled engine for a compiled game (or a Python game with a compiled twin); it
    keeps its table and history heuristic between searches (`clear` forgets them). The driver
    is the Python engine's (`IterativeDeepening`: the iterations, the budget, `stop`); the
    counts it reads are the compiled search's, in `info`."""

    check_every = CHECK_EVERY

    def __init__(self, game: Any, settings: Settings | None = None, **switches: Any) -> None:
        """An engine for `game` with `settings` (`Settings()` by default), changed by any of
        its fields given by name; ValueError for a game without compiled rules."""
        compiled = compiled_twin(game)
        if compiled is None:
            raise ValueError(
                f"{type(game).__name__} has no compiled rules: use the Python engine"
                " (zerosum.search.Engine), or give the game a compiled twin"
            )
        self.compiled = compiled
        checked_once(compiled)  # a user's game breaking its rules: a ValueError, not a crash
        if compiled.twin is not None:
            python_game = compiled.twin.game
            self._to_words: Callable[[Any], np.ndarray] = compiled.twin.to_words
            self._numbered_move: Callable[[int], Any] = compiled.twin.numbered_move
        else:
            python_game = python_rules(compiled)
            self._to_words, self._numbered_move = python_game.words, int
        requested = replace(settings or Settings(), **switches)
        off = {
            name: False
            for name, needed in NEEDS.items()
            if any(getattr(compiled, function) is None for function in needed)
        }
        settings = replace(requested.effective(python_game), **off)
        plies = min(compiled.max_plies, SEARCH_PLIES) + 2
        self.slots = slots_for(settings.table_mb) if settings.table else 1
        self.table = new_table(self.slots)
        self.states = np.zeros((plies + 1, compiled.words), np.uint64)
        self.moves = np.zeros((plies + 1, 2 * compiled.max_moves), np.int64)  # moves, tactics
        self.pv = np.zeros((plies + 1, plies + 2), np.int64)
        self.killers = np.full((plies + 1, 2), -1, np.int64)
        self.history = np.zeros((2, compiled.move_space), np.float64)
        self.info = np.zeros(INFO, np.int64)
        history_dependent = is_history_dependent(python_game)
        checks = settings.check_extensions or settings.forward_pruning  # never pruned in check
        info = self.info
        info[SLOTS] = self.slots
        info[MAX_PLY] = plies
        info[CAPPED] = compiled.max_plies > SEARCH_PLIES
        info[USE_TABLE] = settings.table
        info[HASH_MOVE] = settings.hash_move
        info[KILLERS] = settings.killers
        info[HISTORY] = settings.history
        info[CAPTURES] = settings.captures
        info[NULL_WINDOW] = settings.null_window
        info[QUIESCENCE] = settings.quiescence
        info[QUIESCENCE_DEPTH] = settings.quiescence_depth
        info[STATIC_EXCHANGE] = settings.static_exchange
        info[NOISY] = compiled.noisy is not None and isinstance(python_game, Noisy)
        info[CHECKS] = checks and compiled.in_check is not None
        info[EXTENSIONS] = settings.check_extensions
        info[NULL_MOVE] = settings.null_move
        info[REDUCTIONS] = settings.late_move_reductions
        info[FUTILITY] = settings.futility
        info[FUTILITY_MARGIN] = round(settings.futility_margin * EVALUATION_UNIT)
        info[SINGULAR] = settings.singular_extensions
        info[REUSE_SCORES] = not history_dependent or compiled.path_key is not None
        super().__init__(python_game, settings)  # the driver, its counts in `info`
        self.root_move = -1
        kernel(compiled)  # compiled, or read from numba's cache, now: before any search's clock
        self._warm_up()

    # The driver's counts, kept by the compiled search in `info`.
    nodes = InInfo(NODES)
    terminals = InInfo(TERMINALS)
    evaluations = InInfo(EVALUATIONS)
    cutoffs = InInfo(CUTOFFS)
    horizons = InInfo(HORIZONS)
    next_check = InInfo(NEXT_CHECK)

    @property
    def tablebase_hits(self) -> int:
        return 0

    def clear(self) -> None:
        """Forget the table, the history heuristic and the killer moves."""
        self.table[:] = 0
        self.history[:] = 0
        self.killers[:] = -1
        self.info[[PROBES, HITS, TABLE_CUTOFFS, STORES, ENTRIES, GENERATION]] = 0

    def table_stats(self) -> TableStats | None:
        if not self.settings.table:
            return None
        info = self.info
        return TableStats(
            int(info[PROBES]), int(info[HITS]), int(info[TABLE_CUTOFFS]), int(info[STORES]),
            int(info[ENTRIES]), self.slots,
        )  # fmt: skip

    def _warm_up(self) -> None:
        """Run the search to its first look at the budget, stopped there: numba compiles that
        call back into Python (an object-mode block, which its cache does not keep) when it is
        first run, a fifth of a second that would come out of the first search's budget."""
        info, saved = self.info, self.info.copy()
        self.compiled.initial(self.states[0])
        info[NEXT_CHECK] = 0
        alphabeta.running.poll = lambda: STOPPING["stop"]
        try:
            kernel(self.compiled)(
                self.states, self.moves, self.pv, self.killers, self.history, self.table, info, 1
            )
            interrupted = info[STOPPED] == INTERRUPT  # Ctrl-C, caught by the call back
        finally:
            alphabeta.running.poll = None
            info[:] = saved
        if interrupted:
            raise KeyboardInterrupt

    # -- an iteration: the compiled node function, called from the driver -----------------

    def _new_search(self) -> None:
        """Forget the killer moves and the last search's best root move, halve the history
        scores, age the table's entries (as the Python engine does)."""
        self.killers[:] = -1
        self.root_move = -1
        np.floor(self.history / 2, out=self.history)  # old history counts less than new
        self.info[GENERATION] += 1

    def _iterate(self, state: Any, depth: int, prune: bool) -> Iteration:
        """The iteration to `depth`, with forward pruning if `prune`; `Stopped` when the budget
        ended it before a root move was searched to the end, KeyboardInterrupt on Ctrl-C (the
        driver answers with the last finished one)."""
        info = self.info
        start = clock.perf_counter()
        self.states[0] = self._to_words(state)
        nodes_before, estimates_before = int(info[NODES]), int(info[ESTIMATES])
        info[ROOT_MOVE] = self.root_move
        info[PRUNING] = prune and depth < UNLIMITED
        info[EXTENSION_LIMIT] = depth if depth < UNLIMITED else 0
        info[NULL_PLY] = -2
        info[STOPPED] = 0
        self.pv[0, 0] = 0
        search = kernel(self.compiled)
        alphabeta.running.poll = self._poll
        try:  # Ctrl-C reaches Python in a call back: most often answered there, or raised here
            score = int(
                search(
                    self.states,
                    self.moves,
                    self.pv,
                    self.killers,
                    self.history,
                    self.table,
                    info,
                    depth,
                )  # fmt: skip
            )
        except KeyboardInterrupt:
            info[STOPPED] = INTERRUPT
            score = 0
        finally:
            alphabeta.running.poll = None
        complete = True
        if info[STOPPED]:
            if info[STOPPED] == INTERRUPT:
                raise KeyboardInterrupt
            if not self.pv[0, 0]:
                raise Stopped
            score, complete = int(info[ROOT_SCORE]), False
        seconds = clock.perf_counter() - start
        numbers = [int(move) for move in self.pv[0, 1 : self.pv[0, 0] + 1]]
        self.root_move = numbers[0] if numbers else -1
        pv = tuple(self._numbered_move(number) for number in numbers)
        exact = complete and int(info[ESTIMATES]) == estimates_before
        decoded = decode(score, exact)
        return Iteration(
            depth if depth < UNLIMITED else len(pv), score, decoded.value,
            pv[0] if pv else None, pv, exact, decoded.plies, int(info[NODES]) - nodes_before,
            seconds, complete,
        )  # fmt: skip

    def _poll(self) -> int:
        """What the compiled search asks every `CHECK_EVERY` nodes: 0 to go on, else why to
        stop (the driver's `_check_budget`; Ctrl-C is answered by `alphabeta.poll`)."""
        try:
            self._check_budget()
        except Stopped:
            assert self.stopped is not None  # the driver says why it stops
            return STOPPING[self.stopped]
        return 0
