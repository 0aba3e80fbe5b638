"""What the subcommands share: the argument parser, the game argument, JSON and numbers."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from zerosum import registry
from zerosum.limits import NO_LIMIT, clipped, one_line
from zerosum.registry import Setup

if TYPE_CHECKING:
    from zerosum.solve.answer import ExactSolver


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2, and which takes
    no abbreviation of an option (`--game` is never read as `--games`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def add_no_limit(parser: argparse.ArgumentParser, cost: str) -> None:
    """The `--no-limit` option of a command whose job a stated limit keeps to minutes (`cost`
    says what grows past it)."""
    parser.add_argument(
        NO_LIMIT,
        dest="no_limit",
        action="store_true",
        help=f"go past the stated limits ({cost}): the job may take hours and much memory",
    )


def add_book(parser: argparse.ArgumentParser, who: str = "the solver") -> None:
    """The `--book FILE` and `--no-book` options of a command whose solver answers from an
    opening book (`use_book` applies them)."""
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--book",
        metavar="FILE",
        help=f"{who} answers from this Connect Four opening book (one built by zerosum"
        " tablebase build connect4-book --plies N) instead of the package's",
    )
    chosen.add_argument(
        "--no-book",
        dest="no_book",
        action="store_true",
        help=f"{who} searches from scratch, without Connect Four's opening book (the exact"
        " score of every position of its first plies, which it otherwise answers at once)",
    )


def use_book(solver: ExactSolver, book: str | None, no_book: bool) -> None:
    """`--book FILE` (None: the package's) and `--no-book` on `solver`; ValueError in one line
    for a book the solver cannot read."""
    solver.no_book = no_book
    if book is not None:
        solver.read_book(book)


GAME_HELP = (
    "the game: a built-in NAME (zerosum games lists them) or one an installed package"
    " registers; else FILE.py:CLASS (a class in a Python file); else MODULE:CLASS (a class in"
    " an importable module); tried in that order; or openspiel:NAME, a game of OpenSpiel"
    " (pip install 'zerosum[openspiel]'). Options may follow in parentheses,"
    " NAME(key=value,...), passed to the game's constructor (OpenSpiel's parameters for its"
    " games)"
)


def add_game_argument(parser: argparse.ArgumentParser, *, position: bool = True) -> None:
    """The game argument every command that plays or searches a game takes, the flags of the
    built-in games' options, and (with `position`) the position: after the game, or
    `--position` (`--fen` is the same, for chess players' habits)."""
    parser.add_argument("game", metavar="GAME", help=GAME_HELP)
    parser.set_defaults(takes_game=True)
    if position:
        parser.add_argument(
            "position_words",
            nargs="*",
            metavar="POSITION",
            help="the position to start from, in the game's notation (default: the start)",
        )
        parser.add_argument(
            "--position",
            "--fen",
            dest="position_option",
            metavar="POSITION",
            help="the position, as an option (chess: a FEN)",
        )
    group = parser.add_argument_group("options of the built-in games")
    for option in registry.GAME_OPTIONS:
        owners = [entry.name for entry in registry.BUILT_IN if entry.option(option.name)]
        help_text = f"{option.help} ({', '.join(owners)})"
        if option.switch:
            group.add_argument(f"--{option.name}", action="store_const", const=True, help=help_text)
        else:
            group.add_argument(f"--{option.name}", metavar="VALUE", help=help_text)


def position_text(args: argparse.Namespace) -> str:
    """The position the user gave, after the game or with `--position`, as one text."""
    words = " ".join(getattr(args, "position_words", None) or [])
    option = getattr(args, "position_option", None)
    if words and option is not None:
        raise ValueError("give the position once: after the game or with --position")
    return option if option is not None else words


def game_setup(args: argparse.Namespace, *, hidden: bool = False) -> Setup:
    """The game the arguments name, made with their options, and the position they give; a
    game of imperfect information only for a command that takes one (`hidden`)."""
    flags = {option.name: getattr(args, option.name) for option in registry.GAME_OPTIONS}
    return registry.setup(args.game, position_text(args), flags, hidden=hidden)


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


INTEGER_DIGITS = 100
"""The most digits of one integer in a list a user types (`parse_int_list`): far more than any
command can use, few enough to convert at once (Python converts at most 4,300)."""

_INTEGER = re.compile(r"[-+\u2212]?[0-9]+")


def parse_int_list(text: str, what: str) -> list[int]:
    """`"4,0,2"` (spaces around the commas allowed) as `[4, 0, 2]`; ValueError naming `what`
    when an item is empty (`4,,2`, `4,`, an empty text) or not an integer of at most
    INTEGER_DIGITS digits."""
    items = text.split(",")
    for position, item in enumerate(items, 1):
        item = item.strip()
        if not item:
            reason = (
                "no integers given"
                if len(items) == 1
                else f"item {position} is empty: integers are separated by one comma"
            )
        elif not _INTEGER.fullmatch(item):
            reason = f"{clipped(item, 40)} is not an integer"
        elif len(item.lstrip("+-\u2212")) > INTEGER_DIGITS:
            reason = f"item {position} has more than {INTEGER_DIGITS} digits"
        else:
            continue
        raise ValueError(f"bad {what} {clipped(text, 60)}: {reason}")
    return [int(item.strip().replace("\u2212", "-")) for item in items]
