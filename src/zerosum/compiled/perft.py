"""Perft: the number of positions `depth` moves from a position, every move of every ply
played (no counting of the last ply's moves in bulk), the test of a game's move generator.

A position where the game is over before `depth` counts for nothing (no line of `depth` moves
goes through it); a pass, in a game where it is a move, counts as one.
"""

from __future__ import annotations

import functools
import time as clock
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.compiled import perft_search
from zerosum.compiled.cache import build
from zerosum.compiled.checked import checked_once
from zerosum.compiled.protocol import CompiledGame, compiled_twin
from zerosum.limits import Limit

__all__ = ["POSITIONS", "Perft", "perft"]

POSITIONS = Limit(
    "perft's bound on its positions (the most moves of a position, to the power of the depth;"
    " or the positions one move less, counted, times the most moves)",
    10**10,
    "minutes at 20 million positions a second",
)


@dataclass(frozen=True)
class Perft:
    """`nodes` positions at `depth`, counted in `seconds`."""

    depth: int
    nodes: int
    seconds: float

    @property
    def nps(self) -> int:
        """Positions counted per second."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@functools.cache
def kernel(compiled: CompiledGame) -> Any:
    """The compiled perft of `compiled`: `count(states, moves, ply, depth)` of `states[ply]`
    (the template `zerosum.compiled.perft_search` made the game's, read from the cache if it
    was)."""
    bindings = {"legal": compiled.moves, "play": compiled.play, "terminal": compiled.terminal}
    module = build(perft_search, bindings, f"compiling perft for {compiled.name}", _compiled)
    return module.count


def _compiled(module: Any) -> None:
    """`count` has a signature: importing it compiled it."""


def perft(game: Any, state: Any, depth: int, *, lifted: bool = False) -> Perft:
    """The positions `depth` moves from `state` of `game` (a compiled game or a Python game with
    compiled rules, `state` the Python game's); ValueError for a game without compiled rules, or
    a depth whose bound is over `POSITIONS` (unless `lifted`)."""
    if depth < 0:
        raise ValueError(f"depth must be at least 0, got {depth}")
    compiled = compiled_twin(game)
    if compiled is None:
        raise ValueError(f"{type(game).__name__} has no compiled rules: perft needs them")
    checked_once(compiled)
    if depth > compiled.max_plies:
        raise ValueError(f"depth must be at most {compiled.max_plies}, the longest game")
    words = compiled.twin.to_words(state) if compiled.twin is not None else np.array(state)
    count = kernel(compiled)
    states = np.zeros((depth + 2, compiled.words), np.uint64)
    moves = np.zeros((depth + 2, compiled.max_moves), np.int64)
    states[0] = words
    if not lifted:
        POSITIONS.check(_bound(count, states, moves, compiled.max_moves, depth))
    start = clock.perf_counter()
    nodes = int(count(states, moves, 0, depth))
    return Perft(depth, nodes, clock.perf_counter() - start)


def _bound(count: Any, states: np.ndarray, moves: np.ndarray, most: int, depth: int) -> int:
    """A bound on the positions `depth` moves from `states[0]`: `most` (the most moves of a
    position) to the power of `depth`, or, when that is over `POSITIONS` (Othello's `most`
    is 64 for any board text, its positions have about 10 moves), the positions one move
    less, counted (within the same bound: a tenth or so of the work asked), times `most`."""
    bound = most**depth
    if bound <= POSITIONS.most or depth <= 1:
        return bound
    fewer = _bound(count, states, moves, most, depth - 1)
    if fewer > POSITIONS.most:
        return fewer * most
    return int(count(states, moves, 0, depth - 1)) * most
