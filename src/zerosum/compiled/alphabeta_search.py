"""The compiled engine's node function, as a template: `zerosum.search.engine`'s node function,
step for step, over a compiled game (the Python engine is the reference; read the idea there).

`zerosum.compiled.cache.build` makes it one game's search (`zerosum.compiled.engine.kernel`):
the game block below binds the game's functions, whose calls are then direct (inlined by LLVM),
and `compiled` to numba's `njit`, caching on disk where the game's functions can be imported.
In this module itself the functions are plain Python over placeholders, never called.
The helpers, the layout of `info` and the scores are `zerosum.compiled.alphabeta`'s.

A row of `moves` holds a ply's moves in its first half and, while forward pruning asks for
them, the ply's tactical moves (killers and noisy moves, never pruned) in its second half.
"""

from __future__ import annotations

import numpy as np
from numba import objmode

from zerosum.compiled.alphabeta import (
    CAPPED,
    CAPTURES,
    CHECKS,
    CUTOFFS,
    ESTIMATES,
    EVALUATIONS,
    EXTENSION_LIMIT,
    EXTENSIONS,
    FUTILITY,
    FUTILITY_DEPTH,
    FUTILITY_MARGIN,
    GENERATION,
    HASH_MOVE,
    HISTORY,
    HORIZONS,
    INFINITY,
    KILLERS,
    LATE_MOVE,
    MAX_PLY,
    NEXT_CHECK,
    NODE_SIGNATURE,
    NODES,
    NOISY,
    NULL_MOVE,
    NULL_MOVE_DEPTH,
    NULL_PLY,
    NULL_WINDOW,
    PRUNING,
    QUIESCE_SIGNATURE,
    QUIESCENCE,
    QUIESCENCE_DEPTH,
    REDUCTION_DEPTH,
    REDUCTIONS,
    REUSE_SCORES,
    ROOT_MOVE,
    ROOT_SCORE,
    SEARCH_SIGNATURE,
    SINGULAR,
    SINGULAR_DEPTH,
    SINGULAR_MARGIN,
    SINGULAR_SHORTFALL,
    SLOTS,
    STATIC_EXCHANGE,
    STOPPED,
    TABLE_CUTOFFS,
    TERMINALS,
    UNLIMITED,
    USE_TABLE,
    distance_score,
    heuristic_score,
    holds,
    order_moves,
    poll,
    put_first,
)
from zerosum.compiled.cache import placeholder, uncompiled
from zerosum.compiled.table import (
    DEPTH,
    PACKED,
    PATH,
    SCORE,
    probe,
    slot_of,
    store,
    stored_bound,
    stored_move,
)
from zerosum.search.ordering import QUIET
from zerosum.search.scores import PROVEN
from zerosum.search.table import EXACT, LOWER, UPPER

# -- the game: bound per game by zerosum.compiled.cache --
to_move = legal = play = terminal = utility = key = evaluate = noisy = placeholder
in_check = capture = pass_move = exchange = path_key = placeholder
compiled = uncompiled
# -- end of the game --


@compiled()
def static(state, info):
    """The evaluation of `state` for its player to move, as a score (counted)."""
    info[EVALUATIONS] += 1
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


@compiled()
def captures_first(state, moves, front, count):
    """Move the captures of `moves[front:count]` just after the `front` moves placed, ranked by
    MVV-LVA (`capture`, the highest first, ties in the game's order); how many moves are
    placed now (`MoveOrder.order`'s captures)."""
    placed = front
    for index in range(front, count):
        move = moves[index]
        if capture(state, move) != QUIET:
            for back in range(index, placed, -1):
                moves[back] = moves[back - 1]
            moves[placed] = move
            placed += 1
    by_rank(state, moves, front, placed)
    return placed


@compiled()
def by_rank(state, moves, start, stop):
    """Sort `moves[start:stop]` by `capture`, the highest first, stably (insertion sort)."""
    for index in range(start + 1, stop):
        move = moves[index]
        rank = capture(state, move)
        back = index
        while back > start and capture(state, moves[back - 1]) < rank:
            moves[back] = moves[back - 1]
            back -= 1
        moves[back] = move


# Explicit signatures: numba types a recursive function's calls at once instead of
# guessing its return type call site by call site (minutes of compiling without them).
@compiled(QUIESCE_SIGNATURE)
def quiesce(states, moves, info, ply, alpha, beta, depth):
    """The score of `states[ply]` at the horizon: its evaluation, or better after noisy
    moves (the Python engine's `_quiesce`)."""
    info[ESTIMATES] += 1
    state = states[ply]
    best = static(state, info)
    if not info[QUIESCENCE] or best >= beta or depth >= info[QUIESCENCE_DEPTH]:
        return best
    if ply + 1 >= info[MAX_PLY]:
        if info[CAPPED]:  # the stacks end before the game: so does the line
            return best
        raise ValueError("the game is longer than its max_plies")
    player = to_move(state)
    line = moves[ply]
    count = noisy(state, line)
    alpha = max(alpha, best)
    if info[CAPTURES] and count > 1:
        by_rank(state, line, 0, count)
    judged = info[STATIC_EXCHANGE] != 0 and not in_check(state)  # in check: every evasion
    child = states[ply + 1]
    for index in range(count):
        if judged and exchange(state, line[index]) < 0.0:
            continue  # a losing exchange: standing pat is better
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
    if depth > 0 and ply + 1 >= info[MAX_PLY]:
        if not info[CAPPED]:
            raise ValueError("the game is longer than its max_plies")
        depth = 0  # the stacks end before the game: the line ends here, at a horizon
    if depth <= 0:
        info[HORIZONS] += 1
        if info[QUIESCENCE]:
            return quiesce(states, moves, info, ply, alpha, beta, 0)
        info[ESTIMATES] += 1
        return static(state, info)

    # Step 3. The table: a stored score ends the node where its depth suffices, its bound
    # decides and it was found along an equal path (never at the root); the move to try
    # first.
    estimates = info[ESTIMATES]
    first = info[ROOT_MOVE] if ply == 0 else -1
    singular = False  # a singular extension to try, of the stored score `singular_score`
    singular_score = 0
    position = key(state)
    path = path_key(state)
    slot = slot_of(position, info[SLOTS]) if info[USE_TABLE] else 0
    if info[USE_TABLE] and probe(table, info, slot, position):
        packed = table[slot, PACKED]
        if first < 0 and info[HASH_MOVE]:
            first = stored_move(packed)
        stored_depth = table[slot, DEPTH]
        singular_score = table[slot, SCORE]
        singular = (
            info[SINGULAR] != 0
            and ply != 0
            and depth >= SINGULAR_DEPTH
            and ply < info[EXTENSION_LIMIT]
            and stored_depth >= depth - SINGULAR_SHORTFALL
            and stored_bound(packed) != UPPER
            and -PROVEN < singular_score < PROVEN
            and info[REUSE_SCORES] != 0
            and table[slot, PATH] == np.int64(path)
        )
        if (
            stored_depth >= depth
            and ply
            and info[REUSE_SCORES]
            and table[slot, PATH] == np.int64(path)
        ):
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

    # Step 4. The moves, in the order to search them: the first, the captures, the
    # killers, the rest by history.
    half = moves.shape[1] // 2
    line = moves[ply, :half]
    count = legal(state, line)
    if count <= 0:
        raise ValueError("a state that is not terminal has no legal moves")
    player = to_move(state)
    front = put_first(line, count, first)
    singular = singular and front == 1  # the stored move is legal, and first
    if info[CAPTURES]:
        front = captures_first(state, line, front, count)
    if info[KILLERS]:
        order_moves(line, front, count, killers[ply, 0], killers[ply, 1], history[player],
                    info[HISTORY])  # fmt: skip
    else:
        order_moves(line, front, count, -1, -1, history[player], info[HISTORY])

    # Step 5. Forward pruning: never at the root, in check, or with a proven score at
    # stake. A null move that still reaches beta ends the node; then the futility margin
    # (quiet moves skipped), the reductions of late quiet moves, and the tactical moves that
    # are neither (killers, noisy moves).
    child = states[ply + 1]
    futile = False
    margin = 0
    reducing = False
    tactical = moves[ply, half:]
    tactics = 0
    if (
        info[PRUNING]
        and ply
        and alpha > -PROVEN
        and beta < PROVEN
        and not (info[CHECKS] and in_check(state))
    ):
        if (  # `_null_move_cut`: passing, searched less deep, still reaches beta
            info[NULL_MOVE]
            and depth >= NULL_MOVE_DEPTH
            and ply != info[NULL_PLY] + 1
            and static(state, info) >= beta
            and pass_move(state, child)
        ):
            reduction = 2 if depth < 6 else 3
            saved = info[NULL_PLY]
            info[NULL_PLY] = ply
            if to_move(child) != player:
                score = -node(states, moves, pv, killers, history, table, info,
                              ply + 1, depth - 1 - reduction, -beta, -beta + 1)  # fmt: skip
            else:
                score = node(states, moves, pv, killers, history, table, info,
                             ply + 1, depth - 1 - reduction, beta - 1, beta)  # fmt: skip
            info[NULL_PLY] = saved
            if info[STOPPED]:
                return 0
            if score >= beta:
                info[ESTIMATES] += 1
                return beta if score >= PROVEN else score  # a pass proves nothing
        if info[FUTILITY] and depth <= FUTILITY_DEPTH:
            margin = static(state, info) + info[FUTILITY_MARGIN] * depth
            futile = margin <= alpha
        reducing = info[REDUCTIONS] != 0 and depth >= REDUCTION_DEPTH
        if futile or reducing:  # `_tactical`: the killers, then the noisy moves (captures)
            for slot_index in range(2):
                if killers[ply, slot_index] >= 0:
                    tactical[tactics] = killers[ply, slot_index]
                    tactics += 1
            if info[NOISY]:
                tactics += noisy(state, tactical[tactics:])
            elif info[CAPTURES]:
                for index in range(count):
                    if capture(state, line[index]) != QUIET:
                        tactical[tactics] = line[index]
                        tactics += 1

    # Step 6. A singular extension: the stored move, searched first, a ply deeper when every
    # other move, searched to half the depth, stays below its stored score less a margin
    # (`_singular`).
    if singular:
        singular_beta = singular_score - SINGULAR_MARGIN * depth
        for index in range(1, count):
            play(state, line[index], child)
            turn = to_move(child) != player
            low, high = (
                (-singular_beta, 1 - singular_beta) if turn else (singular_beta - 1, singular_beta)
            )
            score = node(states, moves, pv, killers, history, table, info, ply + 1,
                         depth // 2 - 1, low, high)  # fmt: skip
            if info[STOPPED]:
                return 0
            if (-score if turn else score) >= singular_beta:
                singular = False
                break

    # Step 7. The moves, the first with the whole window, the others with a null window
    # and again with the whole one if they may be better (PVS); a move that gives check a
    # ply deeper; quiet moves after the first skipped where futile, searched less deep
    # where late, unless that beats alpha.
    prunable = futile or reducing
    extending = info[EXTENSIONS] != 0 and ply < info[EXTENSION_LIMIT]
    checking = info[CHECKS] != 0 and (extending or prunable)
    original_alpha = alpha
    best, best_move = -INFINITY, -1
    null_window = False
    for index in range(count):
        move = line[index]
        play(state, move, child)
        sign = -1 if to_move(child) != player else 1  # the child's score is negated
        gives_check = checking and in_check(child)
        next_depth = depth if gives_check and extending or singular and index == 0 else depth - 1
        reduction = 0
        if prunable and index and not gives_check and not holds(tactical, tactics, move):
            if futile:  # it would not reach alpha
                info[ESTIMATES] += 1
                best = max(best, margin)
                continue
            if index >= LATE_MOVE:  # late: searched less deep, unless it is good
                reduction = 1 if index < 2 * LATE_MOVE else 2
        searched = next_depth - reduction
        low, high = alpha, alpha + 1 if null_window or reduction else beta
        while True:  # one call site: numba types a recursive call once per site
            if sign < 0:
                score = -node(states, moves, pv, killers, history, table, info,
                              ply + 1, searched, -high, -low)  # fmt: skip
            else:
                score = node(states, moves, pv, killers, history, table, info,
                             ply + 1, searched, low, high)  # fmt: skip
            if info[STOPPED]:
                return 0
            if reduction:
                if score <= alpha:
                    break
                reduction, searched = 0, next_depth  # better than alpha: at full depth
                high = alpha + 1 if null_window else beta
                continue
            if high < beta and alpha < score < beta:  # it may be better: by how much?
                high = beta
                continue
            break
        if reduction:  # the reduced search stayed at alpha: the move is let go
            info[ESTIMATES] += 1
            best = max(best, score)
            continue
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
                    if not (info[CAPTURES] and capture(state, move) != QUIET):
                        if info[KILLERS] and killers[ply, 0] != move and killers[ply, 1] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        if info[HISTORY]:
                            history[player, move] += float(depth) * float(depth)
                    break
        null_window = info[NULL_WINDOW] != 0

    # Step 8. Store: final (valid at any depth) when the subtree met no estimate.
    if info[USE_TABLE]:
        stored = best + ply if best >= PROVEN else best - ply if best <= -PROVEN else best
        sure = UNLIMITED if info[ESTIMATES] == estimates else depth
        bound = LOWER if best >= beta else UPPER if best <= original_alpha else EXACT
        store(table, info, slot, position, sure, stored, bound, best_move, info[GENERATION],
              path)  # fmt: skip
    return best


@compiled(SEARCH_SIGNATURE)
def search(states, moves, pv, killers, history, table, info, depth):
    return node(states, moves, pv, killers, history, table, info, 0, depth,
                -INFINITY, INFINITY)  # fmt: skip
