"""Where the commands put what they draw: stdout or a file written atomically."""

from __future__ import annotations

import argparse

from zerosum.files import write_atomically
from zerosum.show.html import html
from zerosum.show.searched import SearchedTree
from zerosum.show.svg import svg
from zerosum.show.text import text

PICTURES = {"text": text, "svg": svg, "html": html}


def add_show_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--show",
        choices=sorted(PICTURES),
        help="draw the search: an indented text tree, an SVG picture or an HTML animation",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write the picture to FILE")


def show(tree: SearchedTree, args: argparse.Namespace, report: dict) -> None:
    """Draw `tree` as `args.show` asks: to `args.output`, or to stdout unless JSON goes there."""
    if args.output is None and args.json:
        raise ValueError("--json and --show both print to stdout: give the picture a file with -o")
    picture = PICTURES[args.show](tree)
    if args.output is None:
        print(picture, end="")
    else:
        write_atomically(args.output, picture)
        report["output"] = args.output
