"""The `zerosum` command: parse the arguments, call the library, print.

Each subcommand lives in its own module with two functions: `add_parser(subparsers)` declares
its arguments and `run(args) -> int` does the work and returns the exit code. A user's mistake
(a malformed tree, an illegal move, a bad option) raises `ValueError` and becomes one line on
stderr with exit code 2, as does a refusal of the system (a full disk, an unwritable output);
Ctrl-C exits with 130; a reader that leaves (`| head`) ends the command quietly.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence

from zerosum.cli import (
    analyze,
    cfr,
    chart,
    explain,
    games,
    grundy,
    match,
    matrix,
    nim,
    perft,
    play,
    pn,
    serve,
    solve,
    tablebase,
    train,
    tree,
    uci,
)
from zerosum.cli.common import Parser
from zerosum.cli.progress import announce_compiling
from zerosum.limits import one_line

COMMANDS = (play, solve, analyze, explain, match, tablebase, train, games, tree, chart, nim, grundy,
            pn, matrix, cfr, perft, uci, serve)  # fmt: skip


def build_parser() -> Parser:
    parser = Parser(
        prog="zerosum",
        description="Search, solve and play two-player zero-sum games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: the process's arguments); return the exit code."""
    parser = build_parser()
    arguments = sys.argv[1:] if argv is None else list(argv)
    if not arguments:  # `zerosum` alone: what it can do, as an error (nothing was asked)
        parser.print_help(sys.stderr)
        return 2
    args, extra = parser.parse_known_args(arguments)
    if extra:  # the words of a position after a flag (`solve connect4 --weak 4453`) are its own
        if not hasattr(args, "position_words") or any(word.startswith("-") for word in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.position_words = [*args.position_words, *extra]
    announce_compiling()
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a full disk is found here, not at the interpreter's exit
    except ValueError as error:
        return _refused(str(error))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
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
