"""Compiled MCTS's iterations, as a template: `zerosum.search.mcts`'s four steps over a
compiled game (read the ideas there and in `zerosum.compiled.mcts`, which drives them).

`zerosum.compiled.cache.build` makes it one game's (`zerosum.compiled.mcts.kernel`): the game
block below binds the game's functions and `compiled` to numba's `njit`, caching on disk where
the game's functions can be imported. In this module itself the functions are plain Python
over placeholders, never called.
"""

from __future__ import annotations

import math

import numpy as np

from zerosum.compiled.cache import placeholder, uncompiled
from zerosum.compiled.draws import below
from zerosum.compiled.mcts_tree import (
    AMAF_TOTAL,
    AMAF_VISITS,
    COUNT,
    FIRST,
    KIND,
    LOWER,
    MOVE,
    RUN_SIGNATURE,
    TERMINAL,
    TOTAL,
    UNKNOWN,
    UPPER,
    VISITS,
    back_up,
    is_open,
    open_only,
)

# -- the game: bound per game by zerosum.compiled.cache --
to_move = legal = play = terminal = utility = playout_move = placeholder
compiled = uncompiled
# -- end of the game --


@compiled()
def playout(state, scratch, child, moves, rng, trail, length):
    """The result for player 0 of a game played out at random from `state`, and the length of
    `trail` once its moves are added after the `length` first (each with its player, for
    RAVE): each move the game's playout policy's (`playout_move`), or where it gives -1 (none
    bound) one drawn uniformly from the legal moves."""
    scratch[:] = state
    while not terminal(scratch):
        move = playout_move(scratch, rng)
        if move < 0:
            move = moves[below(rng, legal(scratch, moves))]
        trail[length, 0] = to_move(scratch)
        trail[length, 1] = move
        length += 1
        play(scratch, move, child)
        scratch[:] = child
    return float(utility(scratch, 0)), length


@compiled()
def back_up_amaf(path, depth, trail, length, value, nodes, values, later):
    """RAVE: add `value` (for player 0) to the AMAF statistics of each child of a node of
    `path` (`path[0]` to `path[depth]`) whose move the player to move there played later in
    the iteration (`trail`, its `length` moves with their players; `path[i]` is the position
    before `trail[i]`), as `zerosum.search.mcts.MCTS.back_up_amaf` does; `later` holds
    (player, move) marks, left clear."""
    for index in range(length - 1, -1, -1):
        later[trail[index, 0], trail[index, 1]] = True
        if index > depth:
            continue
        node = path[index]
        kind = nodes[node, KIND]
        if kind != 0 and kind != 1:
            continue
        first = nodes[node, FIRST]
        for row in range(first, first + nodes[node, COUNT]):
            if later[kind, nodes[row, MOVE]]:
                nodes[row, AMAF_VISITS] += 1
                values[row, AMAF_TOTAL] += value
    for index in range(length):
        later[trail[index, 0], trail[index, 1]] = False


@compiled()
def expand(node, state, nodes, values, info, rng, moves, low, high):
    """Create the children of `node` (in a random order: unvisited ones are tried so)."""
    count = legal(state, moves)
    for index in range(count - 1, 0, -1):
        other = below(rng, index + 1)
        moves[index], moves[other] = moves[other], moves[index]
    first = info[0]
    for index in range(count):
        row = first + index
        nodes[row, FIRST] = -1
        nodes[row, COUNT] = 0
        nodes[row, MOVE] = moves[index]
        nodes[row, VISITS] = 0
        nodes[row, KIND] = UNKNOWN
        nodes[row, AMAF_VISITS] = 0
        values[row, TOTAL] = 0.0
        values[row, AMAF_TOTAL] = 0.0
        values[row, LOWER] = low
        values[row, UPPER] = high
    nodes[node, FIRST] = first
    nodes[node, COUNT] = count
    info[0] = first + count


@compiled()
def select(node, nodes, values, c, solver, rave):
    """The child to descend into: an unvisited one, else the best by UCB1; with RAVE (`rave`,
    the equivalence parameter, more than 0) one with neither visits nor AMAF results, else
    the best by UCB1 over the blend of its mean and AMAF mean (`rave_score`)."""
    sign = 1.0 if nodes[node, KIND] == 0 else -1.0
    first, count = nodes[node, FIRST], nodes[node, COUNT]
    only_open = solver and open_only(node, nodes, values)
    log_n = math.log(nodes[node, VISITS])
    best, best_row = -math.inf, first
    for row in range(first, first + count):
        if only_open and not is_open(node, row, nodes, values):
            continue
        visits = nodes[row, VISITS]
        if rave > 0.0:
            if visits == 0 and nodes[row, AMAF_VISITS] == 0:
                return row
            score = rave_score(row, nodes, values, sign, log_n, c, rave)
        else:
            if visits == 0:
                return row
            score = sign * values[row, TOTAL] / visits + c * math.sqrt(log_n / visits)
        if score > best:
            best, best_row = score, row
    return best_row


@compiled()
def rave_score(row, nodes, values, sign, log_n, c, rave):
    """RAVE's UCB1 value of the child `row` (`zerosum.search.mcts.MCTS.rave_score`)."""
    visits, amaf_visits = nodes[row, VISITS], nodes[row, AMAF_VISITS]
    beta = math.sqrt(rave / (3 * visits + rave)) if amaf_visits > 0 else 0.0
    mean = values[row, TOTAL] / visits if visits > 0 else 0.0
    amaf = values[row, AMAF_TOTAL] / amaf_visits if amaf_visits > 0 else 0.0
    blend = (1.0 - beta) * mean + beta * amaf
    return sign * blend + c * math.sqrt(log_n / max(visits, 1))


@compiled(RUN_SIGNATURE)
def run(
    states, nodes, values, info, rng, moves, path, iterations, c, solver, low, high, trail, later,
    rave,
):  # fmt: skip
    done = 0
    capacity = nodes.shape[0]
    scratch = np.empty(states.shape[1], np.uint64)
    child = np.empty(states.shape[1], np.uint64)
    while done < iterations:
        if solver and values[0, LOWER] == values[0, UPPER]:
            break  # the root is proven
        if info[0] + moves.shape[0] > capacity:
            break  # the tree is full: Python grows it
        node, ply, length = 0, 0, 0
        path[0] = 0
        while True:
            if nodes[node, KIND] == TERMINAL:
                value = values[node, LOWER]
                break
            if nodes[node, VISITS] == 0:
                value, length = playout(states[ply], scratch, child, moves, rng, trail, length)
                break
            if nodes[node, COUNT] == 0:
                expand(node, states[ply], nodes, values, info, rng, moves, low, high)
            row = select(node, nodes, values, c, solver, rave)
            play(states[ply], nodes[row, MOVE], states[ply + 1])
            trail[ply, 0] = nodes[node, KIND]
            trail[ply, 1] = nodes[row, MOVE]
            ply += 1
            length = ply
            if nodes[row, KIND] == UNKNOWN:  # first visit: its kind, proven if over
                if terminal(states[ply]):
                    nodes[row, KIND] = TERMINAL
                    values[row, LOWER] = values[row, UPPER] = utility(states[ply], 0)
                else:
                    nodes[row, KIND] = to_move(states[ply])
            node = row
            path[ply] = node
        back_up(path, ply + 1, value, nodes, values, solver)
        if rave > 0.0:
            back_up_amaf(path, ply, trail, length, value, nodes, values, later)
        done += 1
    return done
