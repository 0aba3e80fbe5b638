"""Where the commands put what they draw: stdout or a file written atomically."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from zerosum.show.html import html
from zerosum.show.searched import SearchedTree
from zerosum.show.svg import svg
from zerosum.show.text import text

PICTURES = {"text": text, "svg": svg, "html": html}


def write_atomically(path: str, data: str | bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder, then rename it.

    A reader sees the old file or the whole new one, never half of it. ValueError (one line)
    when the file cannot be written.
    """
    target = Path(path)
    content = data.encode() if isinstance(data, str) else data
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ValueError(f"cannot write {path}: {error.strerror}") from None


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
