"""The Nim class plays games of stated sizes: heaps too large or too many are refused in one
line, through `play` as through the API, before any work."""

import pytest

from zerosum.games.nim import HEAPS, OBJECTS, Nim


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "nim", "1000000000000000000"],
        ["play", "nim", "--heaps", "1000000000000000000"],
        ["play", "nim", "--heaps", "9" * 5000],  # past Python's 4300 digits: no leak of it
        ["match", "nim", "--heaps", "3,1000000000000000000", "--a", "random", "--b", "random"],
    ],
)
def test_a_heap_of_10_to_the_18_is_refused_in_one_line(cli, argv):
    err = cli.error(*argv)
    assert "digits is over the limit of 1,000,000 objects of a Nim game" in err
    assert "the theory (zerosum nim) takes any heaps" in err
    assert "4300" not in err and len(err) < 400


def test_a_million_objects_are_played_and_one_more_refused(cli):
    code, out, _ = cli("play", "nim", "--heaps", "999999,1", answers=["q"])
    assert code == 0 and "(999,999)" in out and "|" * 40 + "..." in out
    assert "objects of a Nim game 1,000,001 is over the limit of 1,000,000" in cli.error(
        "play", "nim", "--heaps", "999999,2"
    )


def test_the_heaps_are_limited_to_a_thousand():
    Nim((1,) * HEAPS.most)
    with pytest.raises(ValueError, match="heaps of a Nim game 1,001 is over the limit of 1,000"):
        Nim((1,) * (HEAPS.most + 1))
    with pytest.raises(ValueError, match="over the limit of 1,000,000"):
        Nim((OBJECTS.most + 1,))
