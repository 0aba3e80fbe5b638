"""How the Play page draws a game: a board description for the page's drawer, and where on
that board each move is played (its target, sent to the page as the move's "place": the
commands' JSON has a `target` of its own, pn's final position).

Each kind of board is a `BoardKind` in `KINDS`, keyed by the name the page's drawers use
(`static/boards.js`: `zerosumBoards[kind]`); `GAME_KINDS` says which kind draws which game
class. A game with no kind of its own is drawn as "text": the game's own rendering, its moves
as buttons. The protocol of each kind (its fields, its places) is in docs/web.md. A new kind
is a `BoardKind` in `KINDS`, its game class in `GAME_KINDS`, and its drawer in a script of
`static/` that play.html loads before play.js.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum import notation
from zerosum.games.chess import Chess
from zerosum.games.connect4 import ConnectFour
from zerosum.games.go import Go
from zerosum.games.nim import Nim
from zerosum.games.othello import Othello
from zerosum.games.tictactoe import TicTacToe
from zerosum.web import chess_board, go_board, othello_board

Board = Callable[[Any, Any, Any, int], dict[str, Any]]
"""`board(game, state, last, seat)`: the drawing of `state` ("kind" and its fields), `last`
the move that led to it (None at the start) and `seat` the player the person plays (a board
may turn to put that player's side at the bottom)."""

Target = Callable[[Any, Any, Any], dict[str, Any]]
"""`target(game, state, move)`: where on the board a click plays `move` in `state`."""


@dataclass(frozen=True)
class BoardKind:
    """A kind of board: its drawing and where its moves are played."""

    board: Board
    target: Target


def _tictactoe_board(game: TicTacToe, state: Any, last: Any, seat: int) -> dict[str, Any]:
    text = game.format_state(state)  # nine of X, O and "."
    return {"kind": "tictactoe", "cells": [mark.strip(".") for mark in text], "last": last}


def _tictactoe_target(game: TicTacToe, state: Any, move: int) -> dict[str, Any]:
    return {"cell": move}


def _connect4_board(game: ConnectFour, state: Any, last: Any, seat: int) -> dict[str, Any]:
    position, mask, moves, _ = state
    first = position if moves % 2 == 0 else position ^ mask  # the stones of X, who began
    cells = []
    for row in reversed(range(game.height)):  # the top row first
        for column in range(game.width):
            bit = 1 << (column * game.stride + row)
            cells.append("" if not mask & bit else "X" if first & bit else "O")
    where = None
    if last is not None:  # the last stone is the top one of its column
        height = (mask >> (last * game.stride) & ((1 << game.height) - 1)).bit_length()
        where = [game.height - height, last]
    rows = [cells[r * game.width : (r + 1) * game.width] for r in range(game.height)]
    return {
        "kind": "connect4",
        "width": game.width,
        "height": game.height,
        "cells": rows,
        "last": where,
    }


def _connect4_target(game: ConnectFour, state: Any, move: int) -> dict[str, Any]:
    return {"column": move}


def _nim_board(game: Nim, state: Any, last: Any, seat: int) -> dict[str, Any]:
    heaps, _ = state
    return {
        "kind": "nim",
        "heaps": list(heaps),
        "last": None if last is None else {"heap": last[0], "take": last[1]},
    }


def _nim_target(game: Nim, state: Any, move: tuple[int, int]) -> dict[str, Any]:
    heap, count = move
    return {"heap": heap, "take": count}


def _text_board(game: Any, state: Any, last: Any, seat: int) -> dict[str, Any]:
    return {"kind": "text", "text": notation.render(game, state)}


def _no_target(game: Any, state: Any, move: Any) -> dict[str, Any]:
    return {}


KINDS: dict[str, BoardKind] = {
    "tictactoe": BoardKind(_tictactoe_board, _tictactoe_target),
    "connect4": BoardKind(_connect4_board, _connect4_target),
    "nim": BoardKind(_nim_board, _nim_target),
    "chess": BoardKind(chess_board.describe, chess_board.target),
    "othello": BoardKind(othello_board.describe, othello_board.target),
    "go": BoardKind(go_board.describe, go_board.target),
    "text": BoardKind(_text_board, _no_target),
}
"""Every kind of board the page draws, by the name of its drawer."""

GAME_KINDS: dict[type, str] = {
    TicTacToe: "tictactoe",
    ConnectFour: "connect4",
    Nim: "nim",
    Chess: "chess",
    Othello: "othello",
    Go: "go",
}
"""The kind of board that draws each game class; any other is drawn as "text"."""


def kind_of(game: Any) -> str:
    """The name of the kind of board that draws `game` (a key of `KINDS`)."""
    kind = GAME_KINDS.get(type(game), "text")
    return kind if kind in KINDS else "text"
