"""The lines of a text protocol on standard input (`uci`, `gtp`), read within a bound."""

from __future__ import annotations

from typing import IO


def bounded_line(source: IO[bytes], longest: int) -> bytes | int:
    """The next line of `source` (b"" at the end of input), or, for a line longer than `longest`
    bytes, its length in bytes: that line is read in pieces and skipped, never held whole."""
    line = source.readline(longest + 1)
    if len(line) <= longest or line.endswith(b"\n"):
        return line
    size = len(line)
    while piece := source.readline(1 << 16):
        size += len(piece)
        if piece.endswith(b"\n"):
            break
    return size
