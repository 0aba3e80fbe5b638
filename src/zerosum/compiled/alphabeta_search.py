"""The compiled engine's node function, as a template: `zerosum.search.engine`'s node function,
step for step, over a compiled game (the Python engine is the reference; read the idea there).

`zerosum.compiled.cache.build` makes it one game's search (`zerosum.compiled.engine.kernel`):
the game block below binds the game's functions, whose calls are then direct (inlined by LLVM),
and `compiled` to numba's `njit`, caching on disk where the game's functions can be imported.
In this module itself the functions are plain Python over placeholders, never called.
The helpers, the layout of `info` and the scores are `zerosum.compiled.alphabeta`'s.
"""

from __future__ import annotations

from numba import objmode

from zerosum.compiled.alphabeta import (
    CUTOFFS,
    ESTIMATES,
    EVALUATIONS,
    GENERATION,
    HASH_MOVE,
    HISTORY,
    HORIZONS,
    INFINITY,
    KILLERS,
    MAX_PLY,
    NEXT_CHECK,
    NODE_SIGNATURE,
    NODES,
    NULL_WINDOW,
    QUIESCE_SIGNATURE,
    QUIESCENCE,
    QUIESCENCE_DEPTH,
    ROOT_MOVE,
    ROOT_SCORE,
    SEARCH_SIGNATURE,
    SLOTS,
    STOPPED,
    TABLE_CUTOFFS,
    TERMINALS,
    UNLIMITED,
    USE_TABLE,
    distance_score,
    heuristic_score,
    order_moves,
    poll,
)
from zerosum.compiled.cache import placeholder, uncompiled
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
from zerosum.search.scores import PROVEN
from zerosum.search.table import EXACT, LOWER, UPPER

# -- the game: bound per game by zerosum.compiled.cache --
to_move = legal = play = terminal = utility = key = evaluate = noisy = placeholder
compiled = uncompiled
# -- end of the game --


@compiled()
def static(state):
    return heuristic_score(evaluate(state, to_move(state)))


@compiled()
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
@compiled(QUIESCE_SIGNATURE)
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


@compiled(NODE_SIGNATURE)
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


@compiled(SEARCH_SIGNATURE)
def search(states, moves, pv, killers, history, table, info, depth):
    return node(states, moves, pv, killers, history, table, info, 0, depth,
                -INFINITY, INFINITY)  # fmt: skip
