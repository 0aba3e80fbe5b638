"""Best responses and a profile's value compiled: `zerosum.imperfect.best_response`'s walks, in
floats, over the tree's arrays (the Python versions there are the reference; read the idea
there).

Where the Python best response recurses and decides an information set when it first needs it,
this one comes up the tree a level at a time, the deepest first. At each level it adds the
children's values of the responder's nodes into their sets' moves (left to right, the order in
which the recursion adds them), decides each set met there, then values the level's nodes. That
needs every node of a set on one level, which `GameTree.sets_level` says; the caller uses the
Python walk otherwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHANCE, TERMINAL = 2, 3  # as zerosum.imperfect.tree's


@njit(cache=True)
def best_response(kind, first_child, child_count, infoset, chance, utility, levels, action_start,
                  profile, player):  # fmt: skip
    """What `player` gets by a best response to the other player's part of `profile`, and the
    move number it takes at each information set (-1 at the other player's sets)."""
    nodes = kind.shape[0]
    weight = np.empty(nodes)
    weight[0] = 1.0
    for n in range(nodes):
        k = kind[n]
        if k == TERMINAL:
            continue
        first = first_child[n]
        for j in range(child_count[n]):
            if k == CHANCE:
                weight[first + j] = weight[n] * chance[first + j]
            elif k == player:
                weight[first + j] = weight[n]
            else:
                weight[first + j] = weight[n] * profile[action_start[infoset[n]] + j]
    sign = 1.0 if player == 0 else -1.0
    value = np.empty(nodes)
    worth = np.zeros(action_start[-1])
    choice = np.full(action_start.shape[0] - 1, -1)
    for level in range(levels.shape[0] - 2, -1, -1):
        low, high = levels[level], levels[level + 1]
        for n in range(low, high):
            if kind[n] == player:
                slot, first = action_start[infoset[n]], first_child[n]
                for j in range(child_count[n]):
                    worth[slot + j] += value[first + j]
        for n in range(low, high):
            if kind[n] == player and choice[infoset[n]] < 0:
                slot = action_start[infoset[n]]
                best = 0
                for j in range(1, child_count[n]):
                    if worth[slot + j] > worth[slot + best]:
                        best = j
                choice[infoset[n]] = best
        for n in range(low, high):
            k = kind[n]
            if k == TERMINAL:
                value[n] = weight[n] * (sign * utility[n])
            elif k == player:
                value[n] = value[first_child[n] + choice[infoset[n]]]
            else:
                total = 0.0
                for c in range(first_child[n], first_child[n] + child_count[n]):
                    total += value[c]
                value[n] = total
    return value[0], choice


@njit(cache=True)
def profile_value(kind, first_child, child_count, infoset, chance, utility, action_start,
                  profile):  # fmt: skip
    """The first player's expected payoff when both players follow `profile`."""
    nodes = kind.shape[0]
    value = np.empty(nodes)
    for n in range(nodes - 1, -1, -1):
        k = kind[n]
        if k == TERMINAL:
            value[n] = utility[n]
            continue
        first, total = first_child[n], 0.0
        for j in range(child_count[n]):
            if k == CHANCE:
                total += chance[first + j] * value[first + j]
            else:
                total += profile[action_start[infoset[n]] + j] * value[first + j]
        value[n] = total
    return value[0]
