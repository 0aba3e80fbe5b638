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
