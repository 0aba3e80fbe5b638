"""What the subcommands share: the argument parser, game lookup, JSON and number printing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from zerosum.game import Game
from zerosum.games.backgammon import Backgammon
from zerosum.games.connect4 import ConnectFour
from zerosum.games.pig import Pig
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


GAMES: dict[str, Callable[[], Game]] = {
    "tictactoe": TicTacToe,
    "connect4": ConnectFour,
    "pig": Pig,
    "backgammon": Backgammon,
}


def make_game(name: str) -> Game:
    """The built-in game called `name`; ValueError naming the known ones otherwise."""
    try:
        return GAMES[name]()
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r}: choose one of {known}") from None


def game_and_position(name: str, text: str | None) -> tuple[Game, Any]:
    """The game called `name` and the unfinished position `text` describes in it (the start
    when empty); for "tree", `text` is the tree itself and the position its root."""
    if name == "tree":
        if not text:
            raise ValueError('tree needs the tree itself, e.g. "[[3,12,8],[2,4,6],[14,5,2]]"')
        game: Game = Tree.from_text(text)
        state = game.initial_state()
    else:
        game = make_game(name)
        state = game.parse_state(text) if text else game.initial_state()  # type: ignore[attr-defined]
    if game.is_terminal(state):
        raise ValueError(f"the game is already over in {text!r}: nothing to search")
    return game, state


def move_number(text: str) -> int | str:
    """A move's text as a number when it is one (a column, a square), for JSON."""
    return int(text) if text.isdigit() else text


def line_text(game: Game, state: Any, moves: Any) -> list[str]:
    """The moves of a line played from `state`, as the game writes them."""
    words = []
    for move in moves:
        words.append(game.format_move(state, move))  # type: ignore[attr-defined]
        state = game.result(state, move)
    return words


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def number(value: float) -> int | float:
    """A value as an int when it is whole (3, not 3.0), for printing and JSON."""
    return int(value) if float(value).is_integer() else value


def parse_int_list(text: str, what: str) -> list[int]:
    """`"4,0,2"` as `[4, 0, 2]`; ValueError naming `what` when malformed."""
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise ValueError(f"bad {what} {text!r}: expected integers separated by commas") from None
