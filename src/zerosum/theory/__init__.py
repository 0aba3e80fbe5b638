"""Exact results that need no tree search: impartial games, Nim, subtraction and octal games,
and matrix games (`zerosum.theory.matrix`: von Neumann's minimax theorem)."""
