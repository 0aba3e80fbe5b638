"""Monte Carlo CFR compiled: `zerosum.imperfect.cfr`'s external and outcome sampling over the
tree's arrays, many iterations a call (the Python versions there are the reference; read the
idea there).

numba cannot cache a recursive function reliably (numba issue 6061), so each pass walks the
tree with a stack of its own. Chance's nodes and the nodes where a move is sampled are passed
through as they fall (the walk goes on from the child drawn), so only what the recursion keeps
on its way back up has a frame:

- external sampling: a frame for each node of the updated player's on the way from the first
  node, holding its strategy, how many of its moves have been tried, and their values; an end's
  value goes up, completing each frame whose last move it was;
- outcome sampling: one line of play, a frame for each player's node on it (its set's first
  slot, the move taken, the other player's reach and the sampling probability there, the
  strategy), read back from the end to the first node.

The random numbers are the solver's own: the kernels take its `numpy.random.Generator`, which
numba reads and advances in place, and draw one uniform wherever the Python version does (at
each chance node and each sampled move, in the order the recursion meets them), choosing by the
same rule (`draw`). Every sum is taken in the Python version's order, so both give the same
numbers to the last bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zerosum.imperfect.compiled_cfr import match

CHANCE, TERMINAL = 2, 3  # as zerosum.imperfect.tree's


@njit(cache=True)
def draw(random, probabilities, start, count):
    """The first of the `count` probabilities from `start` whose cumulative sum exceeds a
    uniform draw from [0, 1) (the last if rounding leaves none): `cfr._draw`."""
    point = random.random()
    cumulative = 0.0
    for j in range(count):
        cumulative += probabilities[start + j]
        if point < cumulative:
            return j
    return count - 1


@njit(cache=True)
def external(kind, first_child, child_count, infoset, chance, utility, action_start, regret,
             total, random, depth, widest, iterations):  # fmt: skip
    """`iterations` iterations of external sampling, each a pass updating player 0 then one
    updating player 1 (`cfr.Solver._external`). `depth`: the tree's (a bound on the frames);
    `widest`: the most children of a node."""
    node = np.empty(depth + 1, np.int64)  # a frame's node, one of the updated player's
    tried = np.empty(depth + 1, np.int64)  # how many of its moves have handed their value up
    strategy = np.empty((depth + 1, widest))
    values = np.empty((depth + 1, widest))
    sampled = np.empty(widest)  # the other player's strategy at the node met
    for _ in range(iterations):
        for player in range(2):
            top = -1  # the frame on top of the stack
            n = 0
            while True:
                k = kind[n]
                first, count = first_child[n], child_count[n]
                if k == CHANCE:
                    n = first + draw(random, chance, first, count)
                    continue
                if k != TERMINAL and k != player:
                    low = action_start[infoset[n]]
                    match(regret, low, count, sampled)
                    for j in range(count):
                        total[low + j] += sampled[j]
                    n = first + draw(random, sampled, 0, count)
                    continue
                if k == player:  # a frame: every move tried, the first now
                    top += 1
                    node[top] = n
                    tried[top] = 0
                    match(regret, action_start[infoset[n]], count, strategy[top])
                    n = first
                    continue
                # An end: its value goes up to the frame on top, and on while it completes them.
                value = utility[n] if player == 0 else -utility[n]
                while top >= 0:
                    values[top, tried[top]] = value
                    tried[top] += 1
                    m = node[top]
                    if tried[top] < child_count[m]:
                        break
                    low = action_start[infoset[m]]
                    value = 0.0
                    for j in range(child_count[m]):
                        value += strategy[top, j] * values[top, j]
                    for j in range(child_count[m]):
                        regret[low + j] += values[top, j] - value
                    top -= 1
                if top < 0:
                    break
                n = first_child[node[top]] + tried[top]  # the frame's next move


@njit(cache=True)
def outcome(kind, first_child, child_count, infoset, chance, utility, action_start, regret,
            total, random, depth, widest, exploration, iterations):  # fmt: skip
    """`iterations` iterations of outcome sampling, each a pass updating player 0 then one
    updating player 1 (`cfr.Solver._outcome`), the updated player exploring with probability
    `exploration`. `depth`: the tree's (a bound on the frames); `widest`: the most children of
    a node."""
    mover = np.empty(depth + 1, np.int64)  # per frame: the player to move
    low_of = np.empty(depth + 1, np.int64)  # their set's first slot
    count_of = np.empty(depth + 1, np.int64)  # its number of moves
    taken = np.empty(depth + 1, np.int64)  # the move sampled
    theirs_of = np.empty(depth + 1)  # the other player's reach of the node
    sampled_of = np.empty(depth + 1)  # the probability of the players' moves sampled to it
    strategy = np.empty((depth + 1, widest))
    odds = np.empty(widest)
    for _ in range(iterations):
        for player in range(2):
            top = -1
            n = 0
            theirs = 1.0
            sampled = 1.0
            while kind[n] != TERMINAL:  # down one line of play
                k = kind[n]
                first, count = first_child[n], child_count[n]
                if k == CHANCE:  # sampled as it falls: the same factor on both sides
                    n = first + draw(random, chance, first, count)
                    continue
                top += 1
                low = action_start[infoset[n]]
                match(regret, low, count, strategy[top])
                for j in range(count):
                    if k == player:
                        odds[j] = exploration / count + (1.0 - exploration) * strategy[top, j]
                    else:
                        odds[j] = strategy[top, j]
                j = draw(random, odds, 0, count)
                mover[top], low_of[top], count_of[top], taken[top] = k, low, count, j
                theirs_of[top], sampled_of[top] = theirs, sampled
                if k != player:
                    theirs = theirs * strategy[top, j]
                sampled = sampled * odds[j]
                n = first + j
            value = (utility[n] if player == 0 else -utility[n]) / sampled
            tail = 1.0  # the probability of the strategies from the frame's child to the end
            for d in range(top, -1, -1):  # back up the line
                low, j = low_of[d], taken[d]
                p = strategy[d, j]
                if mover[d] == player:
                    worth = value * theirs_of[d] * tail
                    for a in range(low, low + count_of[d]):
                        regret[a] -= worth * p
                    regret[low + j] += worth
                else:
                    weight = theirs_of[d] / sampled_of[d]
                    for a in range(count_of[d]):
                        total[low + a] += weight * strategy[d, a]
                tail = tail * p
