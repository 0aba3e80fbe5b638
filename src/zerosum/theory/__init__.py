"""Exact results that need no tree search: impartial games, Nim, subtraction and octal games,
matrix games (`zerosum.theory.matrix`: von Neumann's minimax theorem), and partizan games in
Conway's canonical form (`zerosum.theory.partizan`, `thermograph`, `cgt_expressions`)."""
