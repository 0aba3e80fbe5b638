"""Exact results that need no tree search: impartial games, Nim, subtraction and octal games."""
