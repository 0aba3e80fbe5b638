"""The shape of every limit and of what a message quotes of the input (zerosum.limits)."""

from __future__ import annotations

import pytest

from zerosum.limits import Limit, clipped, counted, shown


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


def test_a_count_is_singular_for_one():
    assert [counted(n, "node") for n in (0, 1, 2, 18297)] == [
        "0 nodes", "1 node", "2 nodes", "18,297 nodes"
    ]  # fmt: skip
    assert counted(1, "loss", "losses") == "1 loss" and counted(3, "loss", "losses") == "3 losses"
