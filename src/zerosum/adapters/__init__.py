"""Other libraries' games as zerosum games, and zerosum's games as theirs.

`zerosum.adapters.openspiel` makes a game of OpenSpiel (DeepMind's collection of game rules in
C++) a zerosum `Game`. Each adapter implements the protocol of `zerosum.game` and imports no
algorithm: the searches and solvers take the adapted game as they take a built-in one.
"""
