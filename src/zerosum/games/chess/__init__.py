"""Chess: the rules and what a search needs beside them (`rules`), and Syzygy endgame tables
(`syzygy`). The UCI protocol that puts the engine behind a chess GUI is a face of the program:
`zerosum.cli.uci`."""

from zerosum.games.chess.rules import PIECE_VALUES, WIN, Chess, Position, Weights

__all__ = ["PIECE_VALUES", "WIN", "Chess", "Position", "Weights"]
