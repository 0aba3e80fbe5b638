"""Limits on the sizes a user can ask for, checked before the work starts.

Every size a command takes (a heap, a target, a matrix's cells, a tree's depth, a table's
positions, a match's games) has a stated `Limit`: generous (what this machine does in minutes
and a few gigabytes), named in `--help`, and checked by `Limit.check` before any work, with a
message that says the limit, what the request would cost where that helps, and how to insist.
A user who means it passes `--no-limit` to the commands whose jobs take hours by design; the
limits that protect the program itself (Python's recursion, an array's width) have no override.

Each limit lives beside the code whose cost it bounds; this module only gives them one shape
and one message, and gives every message its words for what the user typed (`clipped`), for
numbers too long to print (`shown`) and for counts (`counted`), and its one line (`one_line`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

NO_LIMIT = "--no-limit"
"""The option that lifts the limits a user may lift."""


@dataclass(frozen=True)
class Limit:
    """The largest `what` accepted (`most`), and why: what a larger one would cost (`cost`).

    `liftable` limits bound the time or memory of a job, which a user may choose to spend
    (`--no-limit`); the others bound what the program can do at all.
    """

    what: str
    most: int
    cost: str = ""
    liftable: bool = True

    def check(self, value: int, *, lifted: bool = False, needs: str = "") -> None:
        """ValueError unless `value` is within the limit (or the limit is `lifted`); `needs`,
        when given, says what this request would take ("about 14 GB")."""
        if value <= self.most or (lifted and self.liftable):
            return
        reason = f": {self.cost}" if self.cost else ""
        request = f" (this one would need {needs})" if needs else ""
        insist = f"; pass {NO_LIMIT} to try anyway" if self.liftable else ""
        limit = f"the limit of {self.most:,}"
        raise ValueError(f"{self.what} {shown(value)} is over {limit}{reason}{request}{insist}")

    def __str__(self) -> str:
        return f"{self.what} at most {self.most:,}"


def shown(value: int) -> str:
    """An integer as a message shows it: with thousands separators, or by its number of digits
    when it is too long to read (and to convert: Python limits int-to-text conversion)."""
    if value.bit_length() > 64:
        return f"of {_digits(value)} digits"
    return f"{value:,}"


def _digits(value: int) -> str:
    """The number of decimal digits of a large `value`, found without converting it to text."""
    digits = int(value.bit_length() * 0.30102999566398120)  # log10(2): at most one short
    return f"{digits + (abs(value) >= 10**digits):,}"


def clipped(value: object, most: int = 80) -> str:
    """`value` as a message quotes it (`repr`), cut to `most` characters: an error line never
    echoes a whole 50 MB input, and a number too long for Python to convert to text (over 4,300
    digits, alone or inside a list) is named by its size."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number {shown(value)}"
    try:
        text = repr(value)
    except ValueError:  # a number of more than 4,300 digits inside a list
        return f"a {type(value).__name__} holding a number of more than 4,300 digits"
    if len(text) <= most:
        return text
    length = len(value) if isinstance(value, str) else len(text)
    return f"{text[:most]}... ({length:,} characters)"


def clipped_path(path: str | os.PathLike[str], most: int = 160) -> str:
    """A file's path as a message quotes it: whole up to `most` characters, and beyond, its
    beginning and its end, so that the file's name is still read in a deep folder."""
    name = os.fspath(path)
    text = repr(name)
    if len(text) <= most:
        return text
    head = most // 3
    return f"{text[:head]}...{text[head - most :]} ({len(name):,} characters)"


MESSAGE_LENGTH = 400
"""The most characters of an error line: a message quoting a huge input is cut."""


def one_line(message: str) -> str:
    """`message` as one line of at most `MESSAGE_LENGTH` characters (cut in the middle): how
    both faces show an error, the command on stderr and the page in its message."""
    line = " ".join(message.split("\n"))
    if len(line) <= MESSAGE_LENGTH:
        return line
    cut = " ... "
    half = (MESSAGE_LENGTH - len(cut)) // 2
    return f"{line[:half]}{cut}{line[-half:]}"


def counted(count: int, one: str, many: str = "") -> str:
    """A count with its noun, singular for one: `1 win`, `0 wins`, `18,297 nodes`, `1 loss`
    (`many` defaults to `one` + "s")."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


def physical_megabytes() -> float:
    """The machine's physical memory in megabytes (infinite where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (AttributeError, ValueError, OSError):  # no sysconf, or no such name here
        return math.inf


def check_megabytes(megabytes: float, what: str) -> None:
    """ValueError unless `megabytes`, the size of a table named `what` (`--table-mb`), is a
    positive number no larger than the machine's physical memory (a table that large would only
    swap, or fail to be allocated)."""
    most = physical_megabytes()
    if not (math.isfinite(megabytes) and 0 < megabytes <= most):
        memory = f"{most:,.0f} MB" if math.isfinite(most) else "unknown"
        raise ValueError(
            f"{what} must be a positive number of megabytes, at most this machine's memory"
            f" ({memory}), got {megabytes:g}"
        )
