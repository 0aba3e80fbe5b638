"""The full-tree CFR family compiled: `zerosum.imperfect.cfr`'s iteration, over the tree's
arrays (the Python version there is the reference; read the idea there).

Where the Python version recurses, this one makes two passes over the breadth-first nodes per
player: down the tree for the reach probabilities (`own`: the updated player's moves; `other`:
the other player's), then up for the values, adding each node's regrets and
average-strategy weight as it comes: the deepest level first, each level from left to right,
so that an information set's nodes add up in the recursion's order. Every sum is taken in the
same order as the recursion's,
so both give the same numbers (and OpenSpiel's: a node's counterfactual weight is the other
player's reach times chance's, multiplied last, as it multiplies them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHANCE, TERMINAL = 2, 3  # as zerosum.imperfect.tree's


@njit(cache=True)
def match(regret, low, count, strategy):
    """Regret matching at the set whose `count` slots start at `low`, into `strategy[:count]`
    (a slice of the policy, or a buffer): `cfr.Solver._strategy`."""
    positive = 0.0
    for j in range(count):
        if regret[low + j] > 0.0:
            positive += regret[low + j]
    for j in range(count):
        if positive > 0.0:
            r = regret[low + j]
            strategy[j] = (r if r > 0.0 else 0.0) / positive
        else:
            strategy[j] = 1.0 / count


@njit(cache=True)
def iterate(kind, first_child, child_count, infoset, chance, chance_reach, utility, levels,
            owner, action_start, regret, total, policy, plus, alpha, beta, gamma, start,
            count):  # fmt: skip
    """Iterations `start` to `start + count - 1` (numbered from 1), alternating: player 0's
    regrets and average, then player 1's against player 0's new strategy. `plus`: regret
    matching+ (regrets floored at 0); `alpha` >= 0: discounted CFR's discounts (positive
    regrets times t^alpha / (t^alpha + 1), negative times t^beta / (t^beta + 1)); the
    average weighs iteration t by t^gamma. `chance_reach`: the probability of chance's moves
    to each node, by which a node's regrets are weighed with the other player's reach."""
    nodes = kind.shape[0]
    own = np.empty(nodes)
    other = np.empty(nodes)
    value = np.empty(nodes)
    for t in range(start, start + count):
        weight = float(t) ** gamma
        for player in range(2):
            own[0] = 1.0
            other[0] = 1.0
            for n in range(nodes):
                k = kind[n]
                if k == TERMINAL:
                    continue
                first = first_child[n]
                if k == CHANCE:
                    for c in range(first, first + child_count[n]):
                        own[c] = own[n]
                        other[c] = other[n]
                else:
                    slot = action_start[infoset[n]]
                    for j in range(child_count[n]):
                        if k == player:
                            own[first + j] = own[n] * policy[slot + j]
                            other[first + j] = other[n]
                        else:
                            own[first + j] = own[n]
                            other[first + j] = other[n] * policy[slot + j]
            for level in range(levels.shape[0] - 2, -1, -1):
                for n in range(levels[level], levels[level + 1]):
                    k = kind[n]
                    if k == TERMINAL:
                        value[n] = utility[n] if player == 0 else -utility[n]
                        continue
                    first = first_child[n]
                    v = 0.0
                    if k == CHANCE:
                        for c in range(first, first + child_count[n]):
                            v += chance[c] * value[c]
                    else:
                        slot = action_start[infoset[n]]
                        for j in range(child_count[n]):
                            v += policy[slot + j] * value[first + j]
                        if k == player:
                            weight_of_node = other[n] * chance_reach[n]
                            for j in range(child_count[n]):
                                regret[slot + j] += weight_of_node * (value[first + j] - v)
                                total[slot + j] += weight * own[n] * policy[slot + j]
                    value[n] = v
            for i in range(owner.shape[0]):
                if owner[i] != player:
                    continue
                low, high = action_start[i], action_start[i + 1]
                for a in range(low, high):
                    if plus and regret[a] < 0.0:
                        regret[a] = 0.0
                    elif alpha >= 0.0:
                        if regret[a] >= 0.0:
                            regret[a] *= float(t) ** alpha / (float(t) ** alpha + 1.0)
                        else:
                            regret[a] *= float(t) ** beta / (float(t) ** beta + 1.0)
                match(regret, low, high - low, policy[low:high])
