"""Compiled PUCT: many trees of `zerosum.search.mcts`'s PUCT searched side by side over a
compiled game, the network asked about all their new positions at once.

A `Forest` holds `trees` searches in preallocated arrays (a tree a slice, a node a row, its
children a run of rows; states are not stored but replayed from the root). A simulation of
every tree is two compiled calls around one batch for the network:

1. `descend()` walks each active tree down by PUCT to the first position it has not seen
   (a finished game's value is backed up at once) and leaves the new positions in
   `observations` and `legal` (rows `:count`), as the network reads them;
2. the caller evaluates them: priors by move number, and a value in [-1, 1] for the player to
   move (`zerosum.learn.selfplay` runs the network, in numpy, on the whole batch);
3. `back_up(priors, values, count)` expands each new position with its priors and adds its
   value along the path, MCTS-Solver's bounds tightened on the way.

It is the Python `MCTS` with an evaluator, step for step: the same choices (the first of
equal scores, moves in the compiled game's order, which the built-in games' Python twins
share), the same sums in the same order, MCTS-Solver on,
the tree kept when the root moves down to a child (`move_to`), Dirichlet noise at the root
drawn by the same function from the caller's generator (`add_noise`). Given the same priors
and values it visits every move as often (the tests hold it to that). One difference that
changes no choice: a new position is expanded when its priors come back, not when it is
next reached. Values are kept from player 0's point of view, as there.

The game must have compiled rules with an observation (`observe`) and a Python twin that
numbers its moves and observes positions (`zerosum.game.NumberedMoves`, `Observing`):
tic-tac-toe and Connect Four. `supports(game)` says whether it has.
"""

from __future__ import annotations

import functools
import math
import random
from typing import Any

import numpy as np

from zerosum.compiled import puct_search
from zerosum.compiled.cache import build, told
from zerosum.compiled.checked import checked_once
from zerosum.compiled.mcts_tree import (
    COUNT,
    FIRST,
    KIND,
    LOWER,
    MOVE,
    PRIOR,
    TERMINAL,
    UNKNOWN,
    UPPER,
    VISITS,
)
from zerosum.compiled.protocol import CompiledGame, compiled_twin
from zerosum.game import Bounded
from zerosum.search.mcts import noisy_priors

__all__ = ["Forest", "supports"]

INITIAL_ROWS = 4096
"""The most rows a tree starts with: room for two searches' new nodes when the simulations of
a search are known, else this. A tree whose root moves down past half of them is compacted
(the subtree kept moved to the first rows: `compact`), and `back_up` doubles every tree's
rows when one might outgrow them."""


def supports(game: Any) -> bool:
    """True when `game` has what the compiled PUCT needs: compiled rules with `observe`, and a
    Python twin numbering its moves."""
    try:
        compiled = compiled_twin(game)
    except ValueError:  # rules that do not fit (a board too wide): the Python search plays
        return False
    return (
        compiled is not None
        and compiled.observe is not None
        and compiled.twin is not None
        and hasattr(compiled.twin.game, "move_number")
        and hasattr(compiled.twin.game, "observation_shape")
    )


@functools.cache
def kernels(compiled: CompiledGame) -> Any:
    """The module of `compiled`'s `descend` and `back_up_batch` (the template
    `zerosum.compiled.puct_search` made the game's, read from the cache if it was)."""
    bindings = {
        "to_move": compiled.to_move, "legal": compiled.moves, "play": compiled.play,
        "terminal": compiled.terminal, "utility": compiled.utility, "observe": compiled.observe,
    }  # fmt: skip
    return build(puct_search, bindings, f"compiling PUCT for {compiled.name}", _lazy)


def _lazy(module: Any) -> None:
    """The kernels compile when first called (numba caches them on disk)."""


class Forest:
    """`trees` PUCT searches of `game` side by side (see the module); `c` is PUCT's
    exploration constant, `scale` what the network's values are multiplied by to be in the
    game's utilities (`zerosum.learn.selfplay.value_scale`), `simulations` a search's, when
    known (the trees' first size). ValueError when the game has no compiled rules with an
    observation (`supports`)."""

    def __init__(
        self,
        game: Any,
        trees: int,
        *,
        c: float = 1.5,
        scale: float = 1.0,
        solver: bool = True,
        simulations: int | None = None,
    ) -> None:
        if not supports(game):
            raise ValueError(
                f"{type(game).__name__} has no compiled rules with an observation: the compiled"
                " PUCT cannot search it (the Python one can)"
            )
        compiled = compiled_twin(game)
        assert compiled is not None and compiled.twin is not None  # supports() said so
        checked_once(compiled)
        self.compiled = compiled
        self.game = python = compiled.twin.game
        self.c, self.scale, self.solver = float(c), float(scale), bool(solver)
        low, high = python.value_bounds() if isinstance(python, Bounded) else (-math.inf, math.inf)
        self.low, self.high = float(low), float(high)
        self.move_count: int = python.move_count()
        numbered = compiled.twin.numbered_move
        self.numbers = np.array(
            [python.move_number(numbered(move)) for move in range(compiled.move_space)], np.int64
        )
        """The network's number of each compiled move."""
        self.inputs = math.prod(python.observation_shape())
        self.kernels = kernels(compiled)
        words, depth = compiled.words, compiled.max_plies + 2
        rows = INITIAL_ROWS
        if simulations is not None:
            rows = min(rows, 2 * (simulations + 2) * compiled.max_moves)
        self.nodes = np.zeros((trees, rows, 5), np.int64)
        self.values = np.zeros((trees, rows, 4), np.float64)
        self.used = np.zeros(trees, np.int64)
        self.roots = np.zeros(trees, np.int64)
        self.root_states = np.zeros((trees, words), np.uint64)
        self.paths = np.zeros((trees, depth), np.int64)
        self.lengths = np.zeros(trees, np.int64)
        self.states = np.zeros((depth, words), np.uint64)
        self.moves = np.zeros(compiled.max_moves, np.int64)
        self.observations = np.zeros((trees, self.inputs), np.float32)
        """The waiting positions as the player to move sees them (rows `:count`)."""
        self.legal = np.zeros((trees, self.move_count), bool)
        """True at each waiting position's legal moves' numbers (rows `:count`)."""
        self.leaves = np.zeros((trees, words), np.uint64)
        self.waiting = np.zeros(trees, np.int64)
        self.ready = np.zeros(trees, np.int64)
        self.count = 0
        with told(f"compiling PUCT for {compiled.name} (once; later runs read the cache)"):
            self._touch_kernels()  # compiled, or read from numba's cache, now: not mid-game

    # The search.

    def plant(self, tree: int, words: np.ndarray) -> None:
        """Start `tree` afresh at the position `words`; ValueError for a finished game."""
        if self.compiled.terminal(words):
            raise ValueError("the game is over in this position: there is no move to search")
        self.nodes[tree, 0] = (-1, 0, -1, 0, self.compiled.to_move(words))
        self.values[tree, 0] = (0.0, self.low, self.high, 1.0)
        self.used[tree], self.roots[tree] = 1, 0
        self.root_states[tree] = words

    def descend(self, active: np.ndarray) -> int:
        """One descent of each tree where `active` (bool, a tree each) is True: the number
        of new positions waiting for the network, in `observations` and `legal`."""
        self.count = int(
            self.kernels.descend(
                self.nodes, self.values, self.roots, self.root_states, active, self.c,
                self.solver, self.paths, self.lengths, self.states, self.moves, self.numbers,
                self.observations, self.legal, self.leaves, self.waiting,
            )
        )  # fmt: skip
        return self.count

    def back_up(self, priors: np.ndarray, values: np.ndarray) -> None:
        """The network's answers for the positions `descend` left waiting, in their order:
        `priors` (count, moves) by move number, `values` (count,) for the player to move."""
        if int(self.used.max()) + self.moves.shape[0] > self.nodes.shape[1]:
            self._grow()
        self.kernels.back_up_batch(
            self.nodes, self.values, self.used, self.paths, self.lengths, self.solver,
            self.waiting, self.count, self.leaves, np.ascontiguousarray(priors, np.float32),
            np.ascontiguousarray(values, np.float32), self.scale, self.numbers, self.moves,
            self.low, self.high,
        )  # fmt: skip
        self.count = 0

    def add_noise(self, tree: int, rng: random.Random, alpha: float, fraction: float) -> None:
        """Mix Dirichlet(`alpha`) noise drawn from `rng` into `fraction` of the priors of the
        root's moves (`zerosum.search.mcts.MCTS.add_noise`; the root is scored already)."""
        rows = self.children(tree)
        priors = self.values[tree, rows.start : rows.stop, PRIOR]
        priors[:] = noisy_priors(priors.tolist(), rng, alpha, fraction)

    def move_to(self, tree: int, row: int) -> None:
        """Root `tree` at its root's child `row`, the statistics below it kept (the game may
        be over there: `over`)."""
        compiled, child = self.compiled, self.root_states[tree].copy()
        compiled.play(self.root_states[tree], self.nodes[tree, row, MOVE], child)
        if self.nodes[tree, row, KIND] == UNKNOWN:  # never reached: its kind, as descend gives
            if compiled.terminal(child):
                self.nodes[tree, row, KIND] = TERMINAL
                self.values[tree, row, LOWER : UPPER + 1] = compiled.utility(child, 0)
            else:
                self.nodes[tree, row, KIND] = compiled.to_move(child)
        self.roots[tree] = row
        self.root_states[tree] = child
        if self.used[tree] > self.nodes.shape[1] // 2:
            self._compact(tree)

    def over(self, tree: int) -> bool:
        """The game is over at the root of `tree`."""
        return bool(self.nodes[tree, self.roots[tree], KIND] == TERMINAL)

    # What a tree knows.

    def finished(self, active: np.ndarray, done: np.ndarray, simulations: int) -> list[int]:
        """The trees where `active` (bool, a tree each) is True whose search is over: `done`
        (a count a tree) has reached `simulations`, or the solver proved the root's value."""
        count = self.kernels.finished(
            self.values, self.roots, active, done, simulations, self.ready
        )
        return self.ready[:count].tolist()

    def children(self, tree: int) -> range:
        """The rows of the root's moves, in the game's order (empty before it is expanded)."""
        root = int(self.roots[tree])
        first = int(self.nodes[tree, root, FIRST])
        return range(first, first + int(self.nodes[tree, root, COUNT]))

    def visits(self, tree: int, row: int | None = None) -> int:
        """The visits of node `row` of `tree` (its root by default)."""
        return int(self.nodes[tree, self.roots[tree] if row is None else row, VISITS])

    def move(self, tree: int, row: int) -> Any:
        """The Python game's move leading to `row`."""
        assert self.compiled.twin is not None
        return self.compiled.twin.numbered_move(int(self.nodes[tree, row, MOVE]))

    def bounds(self, tree: int, row: int | None = None) -> tuple[float, float]:
        """The proven lower and upper bounds of node `row` (the root by default), for player 0."""
        node = self.roots[tree] if row is None else row
        return float(self.values[tree, node, LOWER]), float(self.values[tree, node, UPPER])

    def _touch_kernels(self) -> None:
        """Call each kernel once on these arrays, doing nothing (no tree active, no answer
        waiting, an empty tree compacted): numba compiles them for their types."""
        if not len(self.roots):
            return
        nothing = np.zeros(len(self.roots), bool)
        self.descend(nothing)
        self.finished(nothing, self.lengths, 1)
        self.back_up(np.zeros((0, self.move_count), np.float32), np.zeros(0, np.float32))
        self._compact(0)

    def _compact(self, tree: int) -> None:
        """The subtree of the root of `tree` moved to its first rows, the others freed."""
        spare_nodes, spare_values = np.empty_like(self.nodes[0]), np.empty_like(self.values[0])
        self.used[tree] = self.kernels.compact(
            self.nodes[tree], self.values[tree], self.roots[tree], spare_nodes, spare_values
        )
        self.roots[tree] = 0

    def _grow(self) -> None:
        """Twice the rows for every tree, the nodes kept."""
        trees, rows = self.nodes.shape[:2]
        nodes = np.zeros((trees, rows * 2, 5), np.int64)
        values = np.zeros((trees, rows * 2, 4), np.float64)
        nodes[:, :rows], values[:, :rows] = self.nodes, self.values
        self.nodes, self.values = nodes, values
