"""Syzygy endgame tables inside the search: chess positions of few pieces scored, not searched.

`Syzygy.open(path)` reads the tables in the folders of `path` (separated by the OS path
separator); the result is a `zerosum.game.Tablebase`, the engine's `tablebase=`: `lookup(state)`
gives `(value, distance)` for the player to move, or None where the tables do not answer.

The tables are probed for win/draw/loss (WDL) only, and only right after a capture or a pawn
move (the fifty-move counter at 0) with no castling right left: WDL is exact there, a "cursed"
win or "blessed" loss (one that the fifty-move rule turns into a draw) being a draw. Later in a
reversible sequence the counter has moved on and WDL could call a draw a win, so those
positions are searched as usual. Distance to zeroing (DTZ) counts moves to the next capture or
pawn move, not to mate, so it is never passed off as a mate distance: a win from the tables is
`(WIN, None)`, a win of unknown length (which the engine scores below every mate of known
length); DTZ serves at the root, where the UCI engine picks its move from it.
"""

from __future__ import annotations

import os

import chess
import chess.syzygy

from zerosum.games.chess.rules import WIN, Position


class Syzygy:
    """Syzygy tables as an engine's `tablebase`; `probes` and `hits` count the lookups."""

    def __init__(self, tables: chess.syzygy.Tablebase) -> None:
        self.tables = tables
        self.pieces = max((len(name) - 1 for name in tables.wdl), default=0)
        self.probes = self.hits = 0

    @classmethod
    def open(cls, path: str) -> Syzygy:
        """The tables in the folders of `path`; ValueError, whose reason begins with the path,
        when a folder is unreadable or none holds a WDL table."""
        tables = chess.syzygy.Tablebase()
        for folder in filter(None, path.split(os.pathsep)):
            try:
                tables.add_directory(folder, load_dtz=True)
            except OSError as error:
                tables.close()
                raise ValueError(f"{folder!r} unreadable: {error.strerror}") from None
        if not tables.wdl:
            tables.close()
            raise ValueError(f"{path!r} holds no Syzygy WDL tables (.rtbw)")
        return cls(tables)

    def lookup(self, state: Position) -> tuple[int, int | None] | None:
        """(WIN or -WIN, None) for a win or loss of the player to move (the tables do not know
        in how many plies), (0, None) for a draw, None where the tables are not probed or do not
        hold the position."""
        board = state.board
        if (
            board.halfmove_clock
            or board.castling_rights
            or chess.popcount(board.occupied) > self.pieces
        ):
            return None
        self.probes += 1
        try:
            wdl = self.tables.probe_wdl(board)
        except KeyError:  # MissingTableError: no table for this material
            return None
        self.hits += 1
        if abs(wdl) < 2:  # a draw, or a win or loss the fifty-move rule makes a draw
            return 0, None
        return (WIN if wdl > 0 else -WIN), None

    def best_move(self, position: Position) -> tuple[chess.Move, int] | None:
        """The tables' best move in `position` and its win/draw/loss for the player to move
        (2 a win, 0 a draw, -2 a loss; 1 and -1 a win or loss the fifty-move rule spoils): the
        quickest safe win, the longest loss, or a draw. None where the tables do not hold it."""
        board = position.board.copy(stack=False)
        if chess.popcount(board.occupied) > self.pieces:
            return None
        ranked = []
        try:
            for move in position.legal_moves():
                board.push(move)
                try:
                    if board.is_checkmate():
                        rank: tuple[int, int, int] = (3, 0, 0)
                    else:
                        wdl = -self.tables.probe_wdl(board)
                        dtz = self.tables.probe_dtz(board)
                        zeroing = int(board.halfmove_clock == 0)
                        # winning: zeroing first, then the fewest plies to zeroing (dtz < 0);
                        # losing: not zeroing, then the most plies (dtz > 0)
                        rank = (wdl, zeroing, dtz) if wdl > 0 else (wdl, -zeroing, dtz)
                finally:
                    board.pop()
                ranked.append((rank, move))
        except (KeyError, chess.syzygy.MissingTableError):
            return None
        rank, move = max(ranked, key=lambda pair: pair[0])
        return move, min(rank[0], 2)

    def close(self) -> None:
        self.tables.close()
