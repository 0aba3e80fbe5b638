"""The Play page's chess board: what `static/board-chess.js` draws, and where each move goes.

The page draws a position from its FEN and lets a person move a piece from one square to
another; `target` says which squares a legal move joins, so that the drawer can find the move
a click or a drag means and send its text (the game's `format_move`, SAN) back to the server.
"""

from __future__ import annotations

from typing import Any

import chess

from zerosum.games.chess import Chess, Position


def describe(game: Chess, state: Position, last: chess.Move | None, seat: int) -> dict[str, Any]:
    """The board of `state` as the page draws it: its FEN, the squares of `last` (the move that
    led here, which a position does not keep; None at the start), the square of the king in
    check if the side to move is in check, and "flip" (Black at the bottom) when `seat`, the
    player the person plays, is Black (1)."""
    board = state.board
    king = board.king(board.turn) if board.is_check() else None
    return {
        "kind": "chess",
        "fen": board.fen(),
        "flip": seat == 1,
        "last": None if last is None else [_name(last.from_square), _name(last.to_square)],
        "check": None if king is None else _name(king),
    }


def target(game: Chess, state: Position, move: chess.Move) -> dict[str, Any]:
    """Where the legal `move` goes on the board: its square of departure, its square of
    arrival (the king's, for castling) and the piece a pawn becomes (`"q"`, `"r"`, `"b"`,
    `"n"`, or None)."""
    return {
        "from": _name(move.from_square),
        "to": _name(move.to_square),
        "promotion": None if move.promotion is None else chess.piece_symbol(move.promotion),
    }


def _name(square: int) -> str:
    return chess.square_name(square)
