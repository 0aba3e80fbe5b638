"""zerosum: search, solve and play two-player zero-sum games."""

from zerosum.game import FIRST, SECOND, Game, Player, opponent

__version__ = "0.1.0"

__all__ = ["FIRST", "SECOND", "Game", "Player", "__version__", "opponent"]
