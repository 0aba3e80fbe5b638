"""`zerosum play GAME`: play against the program in the terminal."""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play a game against the program")
    parser.add_argument("game")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    raise ValueError("play is being written")
