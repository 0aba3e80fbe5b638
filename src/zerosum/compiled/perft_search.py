"""Perft's count, as a template (`zerosum.compiled.perft`): the positions `depth` moves from
`states[ply]`, every move of every ply played.

`zerosum.compiled.cache.build` makes it one game's: the game block below binds the game's
functions and `compiled` to numba's `njit`, caching on disk where the game's functions can be
imported. In this module itself the function is plain Python over placeholders, never called.
"""

from __future__ import annotations

from numba import types

from zerosum.compiled.cache import placeholder, uncompiled

SIGNATURE = types.int64(types.uint64[:, ::1], types.int64[:, ::1], types.int64, types.int64)
"""`count(states, moves, ply, depth)`"""

# -- the game: bound per game by zerosum.compiled.cache --
legal = play = terminal = placeholder
compiled = uncompiled
# -- end of the game --


@compiled(SIGNATURE)
def count(states, moves, ply, depth):
    """The positions `depth` moves from `states[ply]` (a finished game counts for nothing)."""
    state = states[ply]
    if depth == 0:
        return 1
    if terminal(state):
        return 0
    line = moves[ply]
    found = legal(state, line)
    if depth == 1:  # the last ply: every move still played, counted here, not by a call each
        child = states[ply + 1]
        for index in range(found):
            play(state, line[index], child)
        return found
    total = 0
    for index in range(found):
        play(state, line[index], states[ply + 1])
        total += count(states, moves, ply + 1, depth - 1)
    return total
