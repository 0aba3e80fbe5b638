"""Whole-game solving: every position's exact value, not one search from one position."""
