"""The `zerosum` command: parse the arguments, call the library, print.

Each subcommand lives in its own module with two functions: `add_parser(subparsers)` declares
its arguments and `run(args) -> int` does the work and returns the exit code. A user's mistake
(a malformed tree, an illegal move, a bad option) raises `ValueError` and becomes one line on
stderr with exit code 2, as does a refusal of the system (a full disk, an unwritable output);
Ctrl-C, wherever it comes, is one line and exit code 130 (`zerosum.interrupt`); a
reader that leaves (`| head`) ends the command quietly.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import time
from collections.abc import Iterable, Sequence

from zerosum.cli.common import Parser
from zerosum.interrupt import interrupted
from zerosum.limits import one_line

COMMANDS: dict[str, str] = {
    "play": "play a game against the program",
    "solve": "solve a position exactly",
    "analyze": "analyse a position with the engine",
    "explain": "draw the first plies of a search of a position",
    "match": "play a match between two players",
    "tablebase": "solve every position of a game once and play from the table",
    "train": "learn to play a game by self-play (a network guiding MCTS, the AlphaZero line)",
    "games": "list the games: built in and installed",
    "tree": "search a game tree given as nested lists",
    "chart": "draw one of the textbook's experiments as a chart (needs matplotlib)",
    "nim": "judge a Nim position and find the winning move",
    "grundy": "Grundy numbers, P positions and period of a heap game",
    "pn": "P and N positions built backwards from the end",
    "cgt": "a partizan game's value in Conway's canonical form, its mean and temperature",
    "matrix": "solve a zero-sum matrix game: saddle points, mixed strategies, the value",
    "cfr": "approximate equilibrium of a game of imperfect information (CFR family)",
    "perft": "count the positions N moves away (compiled games)",
    "uci": "run the chess engine for a UCI GUI",
    "gtp": "run the Go engine for a GTP controller (Go Text Protocol)",
    "serve": "serve the page in the browser: play against the program, a matrix game solved,"
    " a search stepped through",
}
"""Every subcommand, in the order `zerosum --help` lists them, with its line there. The module
`zerosum.cli.NAME` holds the rest: `add_arguments(parser)` and `run(args) -> int`."""


def build_parser(commands: Iterable[str] | None = None) -> Parser:
    """The parser of the `zerosum` command: every subcommand listed, and the arguments of those
    in `commands` (all by default). A command's module is imported only here, so `zerosum
    --help` imports none and `zerosum games` only its own."""
    parser = Parser(
        prog="zerosum",
        description="Search, solve and play two-player zero-sum games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = COMMANDS if commands is None else set(commands)
    for name, help_line in COMMANDS.items():
        command = subparsers.add_parser(name, help=help_line)
        if name in chosen:
            importlib.import_module(f"zerosum.cli.{name}").add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: the process's arguments); return the exit code."""
    try:
        return _command(argv)
    except KeyboardInterrupt:  # while a command's module imports, or its arguments are read
        return interrupted()


def _command(argv: Sequence[str] | None) -> int:
    started = time.perf_counter()  # a command's time budget counts from here (`args.started`)
    arguments = sys.argv[1:] if argv is None else list(argv)
    named = next((word for word in arguments if not word.startswith("-")), None)
    parser = build_parser([named] if named in COMMANDS else [])
    if not arguments:  # `zerosum` alone: what it can do, as an error (nothing was asked)
        parser.print_help(sys.stderr)
        return 2
    args, extra = parser.parse_known_args(arguments)
    if extra:  # the words of a position after a flag (`solve connect4 --weak 4453`) are its own
        if not hasattr(args, "position_words") or any(word.startswith("-") for word in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.position_words = [*args.position_words, *extra]
    args.started = started
    from zerosum.cli.progress import announce_compiling

    announce_compiling()
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a full disk is found here, not at the interpreter's exit
    except ValueError as error:
        return _refused(str(error))
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:  # the reader left (`zerosum games | head -1`): nothing more to say
        _quiet_stdout()
        return 0
    except OSError as error:  # the system refused: a full disk, a file gone, a device error
        _quiet_stdout()
        where = f": {error.filename}" if error.filename else ""
        return _refused(f"{error.strerror or error}{where}")
    return code


def _refused(reason: str) -> int:
    """Say why the command stopped, in one line on stderr; the exit code 2."""
    with contextlib.suppress(OSError):  # stderr gone too: the exit code says it
        print(f"zerosum: error: {one_line(reason)}", file=sys.stderr)
    return 2


def _quiet_stdout() -> None:
    """Point standard output at nothing, so that the interpreter's last flush of what could not
    be written raises nothing at exit."""
    with contextlib.suppress(OSError, ValueError):  # no file behind stdout (a test's buffer)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
