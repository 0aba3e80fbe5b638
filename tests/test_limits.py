"""The shape of every limit and of what a message quotes of the input (zerosum.limits)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import zerosum
from zerosum.limits import MESSAGE_LENGTH, Limit, clipped, clipped_path, counted, one_line, shown

DOCS = Path(__file__).parent.parent / "docs"


def test_a_limit_names_itself_its_cost_and_the_way_to_insist():
    heaps = Limit("the heaps", 1_000, "each takes a line")
    heaps.check(1_000)
    heaps.check(10**30, lifted=True)
    with pytest.raises(ValueError) as refused:
        heaps.check(1_001, needs="about 3 GB")
    assert str(refused.value) == (
        "the heaps 1,001 is over the limit of 1,000: each takes a line"
        " (this one would need about 3 GB); pass --no-limit to try anyway"
    )


def test_a_limit_of_what_cannot_be_done_is_not_lifted():
    fixed = Limit("the width", 9, liftable=False)
    with pytest.raises(ValueError, match=r"^the width 10 is over the limit of 9$"):
        fixed.check(10, lifted=True)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (12345, "12,345"),
        (2**64 - 1, "18,446,744,073,709,551,615"),
        (10**20, "of 21 digits"),
        (10**20 - 1, "of 20 digits"),
        (10**5000, "of 5,001 digits"),
        (-(10**30), "of 31 digits"),
    ],
    ids=["small", "64 bits", "21 digits", "20 digits", "5,001 digits", "negative"],
)
def test_a_huge_integer_is_shown_by_its_digits(value, text):
    assert shown(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("abc", "'abc'"),
        ("x" * 200, "'" + "x" * 79 + "... (200 characters)"),
        (10**5000, "a number of 5,001 digits"),
        ([1, 10**5000], "a list holding a number of more than 4,300 digits"),
        (7, "7"),
        (True, "True"),
    ],
    ids=["short", "long", "huge number", "huge in a list", "number", "bool"],
)
def test_a_quoted_input_is_short_whatever_it_is(value, text):
    assert clipped(value) == text


def test_a_path_is_quoted_whole_or_with_its_file_name():
    assert clipped_path("/tmp/book.bin") == "'/tmp/book.bin'"
    deep = "/tmp/" + "folder/" * 40 + "nothing.csv"
    quoted = clipped_path(deep)
    assert quoted.startswith("'/tmp/folder/") and quoted.endswith("/nothing.csv' (296 characters)")
    assert len(quoted) < 200


def test_a_count_is_singular_for_one():
    assert [counted(n, "node") for n in (0, 1, 2, 18297)] == [
        "0 nodes", "1 node", "2 nodes", "18,297 nodes"
    ]  # fmt: skip
    assert counted(1, "loss", "losses") == "1 loss" and counted(3, "loss", "losses") == "3 losses"


def every_limit() -> dict[str, Limit]:
    """Every `Limit` the package states, by where it is defined."""
    found = {}
    for module in pkgutil.walk_packages(zerosum.__path__, "zerosum."):
        if module.name.endswith("__main__"):
            continue
        for name, value in vars(importlib.import_module(module.name)).items():
            if isinstance(value, Limit):
                found.setdefault(id(value), (f"{module.name}.{name}", value))
    return dict(found.values())


def test_every_limit_is_in_the_guides_table():
    section = (DOCS / "commands.md").read_text().split("## Limits, errors and progress")[1]
    table = [
        line
        for line in section.split("\n## ")[0].splitlines()
        if line.startswith("| ") and not line.startswith("| limit")
    ]
    limits = every_limit()
    assert len(limits) >= 28
    for where, limit in limits.items():
        what = limit.what.split(" (")[0]
        rows = [row for row in table if row.startswith(f"| {what} | {limit.most:,}")]
        assert len(rows) == 1, f"{where}: no row '| {what} | {limit.most:,}' in docs/commands.md"
        assert ("| yes |" in rows[0]) == limit.liftable, f"{where}: --no-limit column"
    assert len(table) == len(limits), "a row of the table names no limit"


def test_one_line_is_at_most_the_message_length_with_both_ends_kept():
    for length in (MESSAGE_LENGTH, MESSAGE_LENGTH + 1, 10_000):
        message = "start\n" + "x" * length + "\nend"
        line = one_line(message)
        assert "\n" not in line and len(line) <= MESSAGE_LENGTH, len(line)
        assert line.startswith("start x") and line.endswith("x end")
    assert one_line("short\nmessage") == "short message"
