"""The compiled engine's search: `zerosum.search.engine`'s node function, step for step, over a
compiled game (the Python engine is the reference; read the idea there).

`kernel(compiled)` compiles, once a game in a process, a negamax alpha-beta node function
whose calls to the game's rules are direct (closures over its functions, inlined by LLVM).
Everything the search keeps lives in preallocated arrays the driver owns (`Arrays`): the
states of the current line (a row a ply, each child written into the next row), the move
lists, the triangular principal variation, the killer moves and history scores, the
transposition table (`zerosum.compiled.table`) and `info`, the counters and switches (`INFO`
below names its fields). Every `CHECK_EVERY` nodes the search calls back into Python
(`objmode`) to look at the clock, the stop request, the node budget and Ctrl-C, which compiled
code cannot see; when told to stop it unwinds without storing anything, as the Python engine's
`_Stop` does.

Scores are the Python engine's (`zerosum.search.scores`): for the player to move, a win
`u * SCALE - plies`, evaluations in 1/1024ths, rounded half to even as Python's `round`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, objmode, types

from zerosum.compiled.choice import announce
from zerosum.compiled.protocol import CompiledGame
from zerosum.compiled.table import (
    DEPTH,
    PACKED,
    SCORE,
    probe,
    slot_of,
    store,
    stored_bound,
    stored_move,
)
from zerosum.search.scores import EVALUATION_UNIT, PROVEN, SCALE
from zerosum.search.table import EXACT, LOWER, UPPER

INFINITY = 1 << 40
UNLIMITED = 1 << 30

# The fields of `info`: counters, then the running search's state, then the switches.
(
    NODES, TERMINALS, EVALUATIONS, CUTOFFS, HORIZONS, ESTIMATES, PROBES, HITS, TABLE_CUTOFFS,
    STORES, ENTRIES, NEXT_CHECK, STOPPED, ROOT_MOVE, ROOT_SCORE, GENERATION, SLOTS,
    USE_TABLE, HASH_MOVE, KILLERS, HISTORY, NULL_WINDOW, QUIESCENCE, QUIESCENCE_DEPTH,
    MAX_PLY,
) = range(25)  # fmt: skip
INFO = 25


_STATES = types.uint64[:, ::1]
_TABLE = types.int64[:, ::1]
_HISTORY = types.float64[:, ::1]
_INFO = types.int64[::1]
_INT = types.int64
QUIESCE_SIGNATURE = _INT(_STATES, _TABLE, _INFO, _INT, _INT, _INT, _INT)
"""`quiesce(states, moves, info, ply, alpha, beta, depth)`"""
NODE_SIGNATURE = _INT(
    _STATES, _TABLE, _TABLE, _TABLE, _HISTORY, _TABLE, _INFO, _INT, _INT, _INT, _INT
)
"""`node(states, moves, pv, killers, history, table, info, ply, depth, alpha, beta)`"""
SEARCH_SIGNATURE = _INT(_STATES, _TABLE, _TABLE, _TABLE, _HISTORY, _TABLE, _INFO, _INT)
"""`search(states, moves, pv, killers, history, table, info, depth)`"""


class Running(threading.local):
    """The search running in this thread: `poll()` is what the compiled code calls back every
    `CHECK_EVERY` nodes (nonzero: stop)."""

    poll: Callable[[], int] | None = None


running = Running()


INTERRUPTED = 4
"""What `poll` answers when Ctrl-C arrives while Python has control."""


def poll() -> int:
    """The running search's answer to "go on?": 0 to go on, else why to stop."""
    try:
        check = running.poll
        return 0 if check is None else check()
    except KeyboardInterrupt:
        return INTERRUPTED


@njit(cache=True)
def distance_score(utility: int, ply: int) -> int:
    """`zerosum.search.scores.distance_score`: a terminal utility reached at `ply`."""
    if utility > 0:
        return utility * SCALE - ply
    if utility < 0:
        return utility * SCALE + ply
    return 0


@njit(cache=True)
def heuristic_score(estimate: float) -> Any:
    """`zerosum.search.scores.heuristic_score`: an evaluation as a score below proven ones."""
    score = np.int64(np.rint(estimate * EVALUATION_UNIT))  # half to even, as Python's round
    return max(1 - PROVEN, min(PROVEN - 1, score))


@njit(cache=True)
def order_moves(moves, count, first, killer, second_killer, history, use_history):
    """Put `moves[:count]` in the order to search them, in place: `first` (the hash move, or
    the previous iteration's best at the root) if it is legal, the killers (-1: none) that
    are legal, then the rest by `history` score if `use_history`, ties in the game's order
    (a stable insertion sort)."""
    front = 0
    for wanted in (first, killer, second_killer):
        if wanted < 0:
            continue
        for index in range(front, count):
            if moves[index] == wanted:
                for back in range(index, front, -1):
                    moves[back] = moves[back - 1]
                moves[front] = wanted
                front += 1
                break
    if use_history and count - front > 1:
        for index in range(front + 1, count):
            move = moves[index]
            score = history[move]
            back = index
            while back > front and history[moves[back - 1]] < score:
                moves[back] = moves[back - 1]
                back -= 1
            moves[back] = move


@functools.cache
def kernel(compiled: CompiledGame) -> Any:
    """The compiled root search of `compiled`: `search(states, moves, pv, killers, history,
    table, info, depth) -> score` of `states[0]` for its player to move."""
    announce(f"compiling the engine for {compiled.name} (once a process)")
    to_move, legal, play = compiled.to_move, compiled.moves, compiled.play
    terminal, utility, key = compiled.terminal, compiled.utility, compiled.key
    evaluate = compiled.evaluate if compiled.evaluate is not None else _no_evaluation
    noisy = compiled.noisy if compiled.noisy is not None else _no_moves

    @njit
    def static(state):
        return heuristic_score(evaluate(state, to_move(state)))

    @njit
    def check(info):
        """Step 1's look at the budget: True to stop."""
        with objmode(code="int64"):
            code = poll()
        if code:
            info[STOPPED] = code
            return True
        return False

    # Explicit signatures: numba types a recursive function's calls at once instead of
    # guessing its return type call site by call site (minutes of compiling without them).
    @njit(QUIESCE_SIGNATURE)
    def quiesce(states, moves, info, ply, alpha, beta, depth):
        """The score of `states[ply]` at the horizon: its evaluation, or better after noisy
        moves (the Python engine's `_quiesce`)."""
        info[ESTIMATES] += 1
        state = states[ply]
        info[EVALUATIONS] += 1
        best = static(state)
        if not info[QUIESCENCE] or best >= beta or depth >= info[QUIESCENCE_DEPTH]:
            return best
        if ply + 1 >= info[MAX_PLY]:
            raise ValueError("the game is longer than its max_plies")
        player = to_move(state)
        line = moves[ply]
        count = noisy(state, line)
        alpha = max(alpha, best)
        child = states[ply + 1]
        for index in range(count):
            info[NODES] += 1
            if info[NODES] >= info[NEXT_CHECK] and check(info):
                return 0
            play(state, line[index], child)
            turn = to_move(child) != player
            if terminal(child):
                info[TERMINALS] += 1
                score = distance_score(utility(child, player), ply + 1)
            else:  # one call site (see `node`)
                low, high = (-beta, -alpha) if turn else (alpha, beta)
                score = quiesce(states, moves, info, ply + 1, low, high, depth + 1)
                if turn:
                    score = -score
            if info[STOPPED]:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        info[CUTOFFS] += 1
                        break
        return best

    @njit(NODE_SIGNATURE)
    def node(states, moves, pv, killers, history, table, info, ply, depth, alpha, beta):
        """The score of `states[ply]` for its player to move, searched `depth` plies
        (fail-soft): the Python engine's `_node`, its steps numbered alike."""
        # Step 1. Count the node; every CHECK_EVERY nodes, look at the budget.
        info[NODES] += 1
        if info[NODES] >= info[NEXT_CHECK] and check(info):
            return 0
        state = states[ply]
        pv[ply, 0] = 0

        # Step 2. Scored, not searched: the end of the game, the horizon.
        if terminal(state):
            info[TERMINALS] += 1
            return distance_score(utility(state, to_move(state)), ply)
        if depth <= 0:
            info[HORIZONS] += 1
            if info[QUIESCENCE]:
                return quiesce(states, moves, info, ply, alpha, beta, 0)
            info[ESTIMATES] += 1
            info[EVALUATIONS] += 1
            return static(state)
        if ply + 1 >= info[MAX_PLY]:
            raise ValueError("the game is longer than its max_plies")

        # Step 3. The table: a stored score ends the node where its depth suffices and its
        # bound decides (never at the root); the move to try first.
        estimates = info[ESTIMATES]
        first = info[ROOT_MOVE] if ply == 0 else -1
        position = key(state)
        slot = slot_of(position, info[SLOTS]) if info[USE_TABLE] else 0
        if info[USE_TABLE] and probe(table, info, slot, position):
            packed = table[slot, PACKED]
            if first < 0 and info[HASH_MOVE]:
                first = stored_move(packed)
            stored_depth = table[slot, DEPTH]
            if stored_depth >= depth and ply:
                score = table[slot, SCORE]
                if score >= PROVEN:  # stored relative to its own node
                    score -= ply
                elif score <= -PROVEN:
                    score += ply
                bound = stored_bound(packed)
                if (
                    bound == EXACT
                    or (bound == LOWER and score >= beta)
                    or (bound == UPPER and score <= alpha)
                ):
                    info[TABLE_CUTOFFS] += 1
                    if stored_depth < UNLIMITED:
                        info[ESTIMATES] += 1
                    return score

        # Step 4. The moves, in the order to search them.
        line = moves[ply]
        count = legal(state, line)
        if count <= 0:
            raise ValueError("a state that is not terminal has no legal moves")
        player = to_move(state)
        if info[KILLERS]:
            order_moves(line, count, first, killers[ply, 0], killers[ply, 1], history[player],
                        info[HISTORY])  # fmt: skip
        else:
            order_moves(line, count, first, -1, -1, history[player], info[HISTORY])

        # Step 6. The moves, the first with the whole window, the others with a null window
        # and again with the whole one if they may be better (PVS). (Step 5, forward
        # pruning, is for games the compiled engine does not take: checks, passes.)
        original_alpha = alpha
        best, best_move = -INFINITY, -1
        null_window = False
        child = states[ply + 1]
        for index in range(count):
            move = line[index]
            play(state, move, child)
            sign = -1 if to_move(child) != player else 1  # the child's score is negated
            low, high = alpha, alpha + 1 if null_window else beta
            while True:  # one call site: numba types a recursive call once per site
                if sign < 0:
                    score = -node(states, moves, pv, killers, history, table, info,
                                  ply + 1, depth - 1, -high, -low)  # fmt: skip
                else:
                    score = node(states, moves, pv, killers, history, table, info,
                                 ply + 1, depth - 1, low, high)  # fmt: skip
                if info[STOPPED]:
                    return 0
                if high < beta and alpha < score < beta:  # it may be better: by how much?
                    high = beta
                    continue
                break
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    length = pv[ply + 1, 0]
                    pv[ply, 1] = move
                    for step in range(length):
                        pv[ply, step + 2] = pv[ply + 1, step + 1]
                    pv[ply, 0] = length + 1
                    if not ply:  # the answer if the budget cuts the iteration short
                        info[ROOT_SCORE] = score
                    if score >= beta:
                        info[CUTOFFS] += 1
                        # A quiet move that caused a cut-off: a killer of its ply, in history.
                        if info[KILLERS] and killers[ply, 0] != move and killers[ply, 1] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        if info[HISTORY]:
                            history[player, move] += float(depth) * float(depth)
                        break
            null_window = info[NULL_WINDOW] != 0

        # Step 7. Store: final (valid at any depth) when the subtree met no estimate.
        if info[USE_TABLE]:
            stored = best + ply if best >= PROVEN else best - ply if best <= -PROVEN else best
            sure = UNLIMITED if info[ESTIMATES] == estimates else depth
            bound = LOWER if best >= beta else UPPER if best <= original_alpha else EXACT
            store(table, info, slot, position, sure, stored, bound, best_move, info[GENERATION])
        return best

    @njit(SEARCH_SIGNATURE)
    def search(states, moves, pv, killers, history, table, info, depth):
        return node(states, moves, pv, killers, history, table, info, 0, depth,
                    -INFINITY, INFINITY)  # fmt: skip

    return search


@njit(cache=True)
def _no_evaluation(state, player):
    return 0.0


@njit(cache=True)
def _no_moves(state, out):
    return 0
