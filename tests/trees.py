"""Game trees for engine tests: `Tree` with what the engine's enhancements need."""

from __future__ import annotations

import zlib

from zerosum.games.tree import Tree


class ScoredTree(Tree):
    """A tree with a fixed pseudo-random evaluation (from player 0's side, negated for player 1)
    and noisy moves (the even ones), so that evaluation and quiescence run."""

    def evaluate(self, state, player):
        estimate = zlib.crc32(repr(state).encode()) % 1000 / 1000 - 0.5
        return estimate if player == 0 else -estimate

    def noisy_moves(self, state):
        return [move for move in self.legal_moves(state) if move % 2 == 0]
