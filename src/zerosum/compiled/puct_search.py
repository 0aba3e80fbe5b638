"""Compiled PUCT's two halves of a simulation, for many trees at once, as a template:
`zerosum.search.mcts`'s `descend` and `back_up` with an evaluator (read the ideas there and
in `zerosum.compiled.puct`, which drives them).

`descend` walks each active tree down to the first position it has not seen, or to a
finished game (whose value it backs up at once), and writes each new position as the
network reads it: the observation of the player to move and the legal moves' numbers.
The caller runs the network on that batch; `back_up` expands each new position with the
network's priors and adds its value along the path. A tree is a slice of the forest's
arrays (`nodes[tree]`, `values[tree]`), its root a row of it.

`zerosum.compiled.cache.build` makes it one game's (`zerosum.compiled.puct.kernels`): the
game block below binds the game's functions and `compiled` to numba's `njit`. In this module
itself the functions are plain Python over placeholders, never called.
"""

from __future__ import annotations

import math

from zerosum.compiled.cache import placeholder, uncompiled
from zerosum.compiled.mcts_tree import (
    COUNT,
    FIRST,
    KIND,
    LOWER,
    MOVE,
    PRIOR,
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
to_move = legal = play = terminal = utility = observe = placeholder
compiled = uncompiled
# -- end of the game --


@compiled()
def select(node, nodes, values, c, solver):
    """The child to descend into: the best by PUCT, its mean for the player to move (0 when
    never visited) plus `c * prior * sqrt(N) / (1 + n)`; the first of equals."""
    sign = 1.0 if nodes[node, KIND] == 0 else -1.0
    first, count = nodes[node, FIRST], nodes[node, COUNT]
    only_open = solver and open_only(node, nodes, values)
    scale = c * math.sqrt(nodes[node, VISITS])
    best, best_row = -math.inf, first
    for row in range(first, first + count):
        if only_open and not is_open(node, row, nodes, values):
            continue
        visits = nodes[row, VISITS]
        mean = sign * values[row, TOTAL] / visits if visits else 0.0
        score = mean + scale * values[row, PRIOR] / (1 + visits)
        if score > best:
            best, best_row = score, row
    return best_row


@compiled()
def expand(node, state, priors, numbers, nodes, values, used, moves, low, high):
    """Create the children of `node` (its position `state`), in the game's order, each with
    its move's share of `priors` (the network's, by move number; uniform if they are all 0)."""
    count = legal(state, moves)
    total = 0.0
    for index in range(count):
        total += max(0.0, float(priors[numbers[moves[index]]]))
    first = used
    for index in range(count):
        row = first + index
        weight = max(0.0, float(priors[numbers[moves[index]]]))
        nodes[row, FIRST] = -1
        nodes[row, COUNT] = 0
        nodes[row, MOVE] = moves[index]
        nodes[row, VISITS] = 0
        nodes[row, KIND] = UNKNOWN
        values[row, TOTAL] = 0.0
        values[row, LOWER] = low
        values[row, UPPER] = high
        values[row, PRIOR] = weight / total if total > 0 else 1 / count
    nodes[node, FIRST] = first
    nodes[node, COUNT] = count
    return first + count


@compiled()
def descend(
    nodes, values, roots, root_states, active, c, solver, paths, lengths, states, moves,
    numbers, observations, legal_numbers, leaves, waiting,
):  # fmt: skip
    """One descent of each tree whose `active` is set, from its root (row `roots[tree]`,
    position `root_states[tree]`): a finished game's value is backed up at once; a new
    position waits for the network. The `count` waiting, in the trees' order, are returned
    in `waiting[:count]` (their trees), `leaves[:count]` (their positions),
    `observations[:count]` (as the player to move sees them) and `legal_numbers[:count]`
    (True at each legal move's number); each tree's path is `paths[tree, :lengths[tree]]`."""
    count = 0
    for tree in range(active.shape[0]):
        if not active[tree]:
            continue
        tree_nodes, tree_values, path = nodes[tree], values[tree], paths[tree]
        node, ply = roots[tree], 0
        path[0] = node
        states[0] = root_states[tree]
        while True:
            if tree_nodes[node, KIND] == TERMINAL:
                back_up(path, ply + 1, tree_values[node, LOWER], tree_nodes, tree_values, solver)
                break
            if tree_nodes[node, VISITS] == 0:
                observe(states[ply], to_move(states[ply]), observations[count])
                legal_numbers[count] = False
                for index in range(legal(states[ply], moves)):
                    legal_numbers[count, numbers[moves[index]]] = True
                leaves[count] = states[ply]
                waiting[count] = tree
                count += 1
                break
            row = select(node, tree_nodes, tree_values, c, solver)
            play(states[ply], tree_nodes[row, MOVE], states[ply + 1])
            ply += 1
            if tree_nodes[row, KIND] == UNKNOWN:  # first visit: its kind, proven if over
                if terminal(states[ply]):
                    tree_nodes[row, KIND] = TERMINAL
                    tree_values[row, LOWER] = tree_values[row, UPPER] = utility(states[ply], 0)
                else:
                    tree_nodes[row, KIND] = to_move(states[ply])
            node = row
            path[ply] = node
        lengths[tree] = ply + 1
    return count


@compiled()
def back_up_batch(
    nodes, values, used, paths, lengths, solver, waiting, count, leaves, priors, scores,
    scale, numbers, moves, low, high,
):  # fmt: skip
    """The network's answers for the `count` positions `descend` left waiting: each is
    expanded with its `priors` (by move number) and its score (for the player to move, in
    [-1, 1], times `scale`: the game's utilities) is added along its tree's path as player
    0's."""
    for index in range(count):
        tree = waiting[index]
        tree_nodes, tree_values, path = nodes[tree], values[tree], paths[tree]
        length = lengths[tree]
        leaf = path[length - 1]
        used[tree] = expand(
            leaf, leaves[index], priors[index], numbers, tree_nodes, tree_values, used[tree],
            moves, low, high,
        )  # fmt: skip
        value = float(scores[index]) * scale
        if tree_nodes[leaf, KIND] == 1:
            value = -value
        back_up(path, length, value, tree_nodes, tree_values, solver)


@compiled()
def finished(values, roots, active, done, simulations, out):
    """The active trees whose search is over: `done[tree]` simulations of `simulations`, or
    the root's value proven. They go into `out[:count]`; the count is returned."""
    count = 0
    for tree in range(active.shape[0]):
        if active[tree]:
            root = roots[tree]
            if done[tree] >= simulations or values[tree, root, LOWER] == values[tree, root, UPPER]:
                out[count] = tree
                count += 1
    return count


@compiled()
def compact(nodes, values, root, spare_nodes, spare_values):
    """Move the subtree of `root` to the first rows of the tree (`nodes`, `values`), in
    breadth-first order, through the spare arrays; the rows it then uses (the rest is free)."""
    spare_nodes[0] = nodes[root]
    spare_values[0] = values[root]
    used, done = 1, 0
    while done < used:
        first, count = spare_nodes[done, FIRST], spare_nodes[done, COUNT]
        if count:
            spare_nodes[used : used + count] = nodes[first : first + count]
            spare_values[used : used + count] = values[first : first + count]
            spare_nodes[done, FIRST] = used
            used += count
        done += 1
    nodes[:used] = spare_nodes[:used]
    values[:used] = spare_values[:used]
    return used
