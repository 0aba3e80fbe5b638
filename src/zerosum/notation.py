"""Moves and positions as text, for any game: as the game writes them (`MoveText`,
`StateText`, `Rendering`), else by `str` and the players' numbers, so that a game without text
methods still plays everywhere."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from zerosum.game import Game, MoveText, Rendering, StateText, require
from zerosum.limits import clipped

if TYPE_CHECKING:
    from zerosum.search.ordering import Order


def player_names(game: Game) -> tuple[str, str]:
    """How the game calls its players (`player_names`), else `player 0` and `player 1`."""
    names = getattr(game, "player_names", None)
    if not names:
        return "player 0", "player 1"
    first, second = names
    return first, second


def state_of(game: Game, text: str) -> Any:
    """The position `text` describes in `game` (its `parse_state`); the start when empty."""
    if not text:
        return game.initial_state()
    require(game, StateText, "a position given as text")
    assert isinstance(game, StateText)  # as `require` has just checked, for the type checker
    return game.parse_state(text)


def format_move(game: Game, state: Any, move: Any) -> str:
    """`move` as the game writes it (`MoveText`), else as `str(move)`."""
    if isinstance(game, MoveText):
        return game.format_move(state, move)
    return str(move)


def parse_move(game: Game, state: Any, text: str) -> Any:
    """The legal move `text` names in `state`: by the game's `parse_move`, else the legal move
    whose `str` is `text`; ValueError with the reason (the legal moves, when few)."""
    if isinstance(game, MoveText):
        return game.parse_move(state, text)
    moves = list(game.legal_moves(state))
    for move in moves:
        if str(move) == text.strip():
            return move
    listed = " ".join(str(move) for move in moves[:20]) + (" ..." if len(moves) > 20 else "")
    raise ValueError(f"{clipped(text.strip())} is not a legal move: choose one of {listed}")


def numbered_moves(game: Game) -> tuple[range, str] | None:
    """Every move of a built-in game whose moves are integers, and what they are in words (an
    order of moves names some of them); None for any other game."""
    from zerosum.games.connect4 import ConnectFour
    from zerosum.games.tictactoe import TicTacToe

    if isinstance(game, TicTacToe):
        return range(9), "tic-tac-toe's moves are the squares 0 to 8"
    if isinstance(game, ConnectFour):
        last = game.width - 1
        return range(game.width), f"Connect Four's moves are the columns 0 to {last}, left to right"
    return None


def move_order(game: Game, state: Any, text: str) -> Order:
    """The order of moves `text` ("4,0,2,6,8") names, searched first in that order (the others
    after): distinct moves of `game` written as integers. ValueError with the reason: an empty
    order, a word that is no integer, a move the game does not have or one listed twice."""
    words = text.split(",")
    if not text.strip():
        raise ValueError("--order names no move: list the moves to try first, e.g. 4,0,2")
    moves = []
    for word in words:
        word = word.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,18}", word):
            raise ValueError(
                f"bad --order {clipped(text)}: {clipped(word)} is no move; expected integers"
                " separated by commas"
            )
        moves.append(int(word))
    known = numbered_moves(game)
    if known is not None:
        universe, words_for = known
        for move in moves:
            if move not in universe:
                raise ValueError(f"bad --order {clipped(text)}: {words_for}, not {move}")
    elif not any(isinstance(move, int) for move in game.legal_moves(state)):
        raise ValueError(
            f"--order lists moves as integers, and {type(game).__name__}'s moves are not"
            " integers (nothing to order)"
        )
    elif any(move < 0 for move in moves):
        raise ValueError(f"bad --order {clipped(text)}: moves are counted from 0")
    seen = set()
    for move in moves:
        if move in seen:
            raise ValueError(f"bad --order {clipped(text)}: it lists {move} twice")
        seen.add(move)
    from zerosum.search.ordering import by_priority

    return by_priority(moves)


def line_text(game: Game, state: Any, moves: Any) -> list[str]:
    """The moves of a line played from `state`, each as the game writes it."""
    words = []
    for move in moves:
        words.append(format_move(game, state, move))
        state = game.result(state, move)
    return words


def render(game: Game, state: Any) -> str:
    """The position as the game draws it (`Rendering`), else as `str(state)`."""
    return game.render(state) if isinstance(game, Rendering) else str(state)
