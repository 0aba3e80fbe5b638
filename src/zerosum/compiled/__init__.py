"""The compiled layer: games whose rules are numba-compiled functions over a few integers, and
the searches specialised for them (the engine, MCTS, perft).

`zerosum.compiled.protocol` says what a compiled game gives; `checked` runs a user's game from
Python before it is compiled into a search; `rules` makes any compiled game an ordinary
`zerosum.game.Game`; `engine`, `mcts` and `perft` are the searches. numba is imported by the
modules that compile, never by `zerosum.game` or the Python searches.
"""

from zerosum.compiled.protocol import Compilable, CompiledGame, Twin, compiled_twin

__all__ = ["Compilable", "CompiledGame", "Twin", "compiled_twin"]
