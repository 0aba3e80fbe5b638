"""`zerosum uci`: the chess engine speaking the Universal Chess Interface on stdin/stdout."""

from __future__ import annotations

import argparse

from zerosum.uci import serve


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "uci",
        help="run the chess engine for a UCI GUI",
        description=(
            "Speak the Universal Chess Interface on standard input and output, for a chess GUI,"
            " lichess-bot or python-chess's chess.engine. Options: Hash (MB), OwnBook with"
            " BookFile (a Polyglot book), SyzygyPath (Syzygy tables)."
        ),
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return serve()
