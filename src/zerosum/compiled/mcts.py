"""Compiled MCTS: `zerosum.search.mcts`'s UCT with random playouts and MCTS-Solver (score bounds),
over a compiled game, the tree in preallocated arrays.

`MCTS(game, iterations=..., time=..., c=..., solver=..., seed=..., rave=...)` searches like the
Python `MCTS` (read the ideas there, RAVE's too) and returns the same `MCTSResult`, for the
player to move at the root; states and moves are the Python game's. On the same draws
(`zerosum.compiled.draws.Draws`) and the compiled game's move order, the Python `MCTS` grows
the same tree, iteration for iteration: the tests hold them to it. The same four steps: down
the tree by UCB1 (every child tried once first, in a random order; with the solver, children
proven no better than the node's guaranteed value are passed over), a new position scored by a
random playout (its moves drawn by the game's playout policy where it has one, `playouts=`),
the score added on the way back up, proven bounds tightened from the leaf up; a proven root
ends the search. A node is a row of the tree's arrays (its children a run of rows); states are
not stored but replayed along the path from the root. Scores are kept from player 0's point of
view, as in the Python search. What the Python `MCTS` has and this one has not: an evaluator
(PUCT), chance nodes, and the reuse of the tree between searches (each search starts a tree).

The budget is handed back to Python between slices of iterations (`SLICE`), where the clock is
read and the tree grown when it is nearly full.
"""

from __future__ import annotations

import functools
import math
import threading
import time as clock
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from zerosum.compiled import mcts_search
from zerosum.compiled.cache import build
from zerosum.compiled.checked import checked_once
from zerosum.compiled.mcts_tree import COUNT, FIRST, KIND, LOWER, MOVE, TOTAL, UPPER, VISITS
from zerosum.compiled.protocol import PLAYOUTS, CompiledGame, compiled_twin
from zerosum.compiled.rules import python_rules
from zerosum.game import Bounded
from zerosum.search.mcts import (
    PROGRESS_SECONDS,
    MCTSResult,
    MoveStats,
    _secure,
    check_budget,
    check_rave,
)

__all__ = ["MCTS"]

SLICE = 256
"""Iterations between two looks at the clock (a compiled Connect Four playout: ~1 µs)."""

INITIAL_NODES = 1 << 16
NODE_FIELDS, VALUE_FIELDS = 6, 4
"""The columns of the tree's arrays (`zerosum.compiled.mcts_tree`: RAVE's included)."""


@functools.cache
def kernel(compiled: CompiledGame, playouts: str = "game") -> Any:
    """The compiled iterations of `compiled`, playing out as `playouts` says (`PLAYOUTS`):
    `run(states, nodes, values, info, rng, moves, path, iterations, c, solver, low, high,
    trail, later, rave) -> iterations done` (the template `zerosum.compiled.mcts_search` made
    the game's, read from the cache if it was)."""
    policy = compiled.playout_move if playouts == "game" else None
    bindings = {
        "to_move": compiled.to_move, "legal": compiled.moves, "play": compiled.play,
        "terminal": compiled.terminal, "utility": compiled.utility,
        "playout_move": policy if policy is not None else _uniform,
    }  # fmt: skip
    module = build(mcts_search, bindings, f"compiling MCTS for {compiled.name}", _compiled)
    return module.run


@njit(cache=True)
def _uniform(state, rng):
    """No playout policy: -1, and the playout draws uniformly from the legal moves."""
    return -1


def _compiled(module: Any) -> None:
    """`run` has a signature: importing it compiled it."""


class MCTS:
    """Compiled Monte Carlo tree search (see the module); `iterations` and `time` (seconds) are
    budgets, at least one needed; `c` the exploration constant of UCB1; `playouts` how the
    playouts move (`PLAYOUTS`: the game's playout policy, the default, or uniformly random);
    `rave` RAVE's equivalence parameter (None or 0: no RAVE)."""

    def __init__(
        self,
        game: Any,
        *,
        iterations: int | None = None,
        time: float | None = None,
        c: float | None = None,
        solver: bool = True,
        seed: int | None = None,
        playouts: str = "game",
        rave: float | None = None,
    ) -> None:
        check_budget(iterations, time, c)
        self.rave = check_rave(rave, False)
        if playouts not in PLAYOUTS:
            raise ValueError(f"playouts must be one of {', '.join(PLAYOUTS)}, got {playouts!r}")
        compiled = compiled_twin(game)
        if compiled is None:
            raise ValueError(f"{type(game).__name__} has no compiled rules: use the Python MCTS")
        self.compiled = compiled
        checked_once(compiled)  # a user's game breaking its rules: a ValueError, not a crash
        if compiled.twin is not None:
            self.game = compiled.twin.game
            self._to_words = compiled.twin.to_words
            self._numbered_move: Callable[[int], Any] = compiled.twin.numbered_move
        else:
            self.game = python_rules(compiled)
            self._to_words, self._numbered_move = self.game.words, int
        self.iterations, self.time, self.solver = iterations, time, solver
        self.playouts = playouts
        self.c = math.sqrt(2) if c is None else c
        self.low, self.high = (
            self.game.value_bounds() if isinstance(self.game, Bounded) else (-math.inf, math.inf)
        )
        seeded = np.random.default_rng(seed).integers(1, 1 << 63)
        self.rng = np.array([seeded], np.uint64)
        self.nodes = np.zeros((INITIAL_NODES, NODE_FIELDS), np.int64)
        self.values = np.zeros((INITIAL_NODES, VALUE_FIELDS), np.float64)
        self.states = np.zeros((compiled.max_plies + 2, compiled.words), np.uint64)
        self.moves = np.zeros(compiled.max_moves, np.int64)
        self.path = np.zeros(compiled.max_plies + 2, np.int64)
        self.trail = np.zeros((compiled.max_plies + 2, 2), np.int64)  # an iteration's moves
        self.later = np.zeros((2, compiled.move_space), np.bool_)  # RAVE's marks
        self.info = np.zeros(1, np.int64)
        self.stop_requested = threading.Event()
        kernel(compiled, playouts)  # compiled, or read from numba's cache, now: before the clock

    def stop(self) -> None:
        """Ask the running search (from any thread) to return after its current slice."""
        self.stop_requested.set()

    def search(
        self, state: Any, on_progress: Callable[[MCTSResult], None] | None = None
    ) -> MCTSResult:
        """Search `state` within the budget and report the root's statistics; `on_progress`,
        when given, gets the report so far every `PROGRESS_SECONDS` while it searches."""
        self.stop_requested.clear()
        game = self.game
        if game.is_terminal(state):
            raise ValueError("the game is over in this position: there is no move to search")
        run = kernel(self.compiled, self.playouts)
        nodes, values = self.nodes, self.values
        nodes[0] = (-1, 0, -1, 0, game.to_move(state), 0)
        values[0] = (0.0, self.low, self.high, 0.0)
        self.info[0] = 1
        self.states[0] = self._to_words(state)
        self._state = state
        start = clock.perf_counter()
        deadline = None if self.time is None else start + self.time
        report_at = start + PROGRESS_SECONDS if on_progress is not None else math.inf
        done = 0
        while not (self.solver and values[0, 1] == values[0, 2]):
            if self.iterations is not None and done >= self.iterations:
                break
            now = clock.perf_counter()
            if deadline is not None and done and now >= deadline:
                break
            if self.stop_requested.is_set():
                break
            if now >= report_at and on_progress is not None and done:
                on_progress(self._report(done, now - start))
                report_at = now + PROGRESS_SECONDS
            quota = SLICE if self.iterations is None else min(SLICE, self.iterations - done)
            if self.info[0] + (quota + 1) * self.moves.shape[0] > nodes.shape[0]:
                nodes, values = self._grow()
            done += run(
                self.states, nodes, values, self.info, self.rng, self.moves, self.path, quota,
                float(self.c), bool(self.solver), float(self.low), float(self.high),
                self.trail, self.later, float(self.rave or 0.0),
            )  # fmt: skip
        return self._report(done, clock.perf_counter() - start)

    def choose(self, state: Any) -> Any:
        """The move the search prefers in `state`."""
        return self.search(state).best_move

    def principal_lines(self) -> dict[Any, tuple[Any, ...]]:
        """Each move of the last search's root, with the line the search expects after it, as
        the Python `MCTS.principal_lines` reads its tree: the move, then at each node below
        its most visited child (the first of its run of rows on a tie) while it was visited."""
        nodes = self.nodes
        lines: dict[Any, tuple[Any, ...]] = {}
        first = int(nodes[0, FIRST])
        for row in range(first, first + int(nodes[0, COUNT])):
            line, node = [int(nodes[row, MOVE])], row
            while nodes[node, COUNT] > 0:
                start = int(nodes[node, FIRST])
                children = range(start, start + int(nodes[node, COUNT]))
                node = max(children, key=lambda child: int(nodes[child, VISITS]))
                if nodes[node, VISITS] == 0:
                    break
                line.append(int(nodes[node, MOVE]))
            lines[self._numbered_move(line[0])] = tuple(map(self._numbered_move, line))
        return lines

    def _grow(self) -> tuple[np.ndarray, np.ndarray]:
        """Twice the room for the tree, the nodes kept."""
        size = self.nodes.shape[0] * 2
        nodes = np.zeros((size, NODE_FIELDS), np.int64)
        values = np.zeros((size, VALUE_FIELDS), np.float64)
        used = int(self.info[0])
        nodes[:used], values[:used] = self.nodes[:used], self.values[:used]
        self.nodes, self.values = nodes, values
        return nodes, values

    def _report(self, iterations: int, seconds: float) -> MCTSResult:
        """The Python MCTS's report, read from the arrays."""
        nodes, values = self.nodes, self.values
        sign = 1.0 if nodes[0, KIND] == 0 else -1.0
        first, count = int(nodes[0, FIRST]), int(nodes[0, COUNT])
        rows = sorted(range(first, first + count), key=lambda row: -int(nodes[row, VISITS]))
        stats = []
        for row in rows:
            visits = int(nodes[row, VISITS])
            lower, upper = float(values[row, LOWER]), float(values[row, UPPER])
            stats.append(
                MoveStats(
                    self._numbered_move(int(nodes[row, MOVE])),
                    visits,
                    sign * float(values[row, TOTAL]) / visits if visits else 0.0,
                    1 / count,
                    sign * lower + 0.0 if lower == upper else None,
                )  # fmt: skip
            )
        root_lower, root_upper = float(values[0, LOWER]), float(values[0, UPPER])
        if not stats:  # one iteration: the root was scored, never expanded
            move = self.game.legal_moves(self._state)[0]
            return MCTSResult(move, 0.0, False, (), iterations, 1, seconds)
        if root_lower == root_upper:
            value, proven = sign * root_lower + 0.0, True
            best = max(stats, key=lambda m: (m.proven == value, m.visits)).move
        else:
            value, proven = sign * float(values[0, TOTAL]) / int(nodes[0, VISITS]), False
            guaranteed = root_lower if sign > 0 else -root_upper
            candidates = [
                m
                for m, row in zip(stats, rows, strict=True)
                if (values[row, UPPER] if sign > 0 else -values[row, LOWER]) >= guaranteed
            ] or stats
            best = max(candidates, key=_secure).move
        return MCTSResult(best, value, proven, tuple(stats), iterations, int(self.info[0]), seconds)
