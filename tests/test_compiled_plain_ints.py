"""The compiled games' bitboard helpers called from Python with plain integers (what a compiled
function hands back to Python) answer as with uint64 words: numba types an int below 2**63 as
int64, which mixed with the games' uint64 constants failed to compile or mixed a key wrongly.

(Still open: once a helper has been called from Python with an int below 2**63, numba reuses
that int64 version for a later int at or above 2**63 and raises OverflowError; callers in the
games' Python paths pass uint64 words, as Othello's evaluation does.)"""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.compiled import bits
from zerosum.games import compiled_othello as othello
from zerosum.games.compiled_connect4 import connect_four_rules
from zerosum.games.connect4 import ConnectFour

HIGH, LOW = 0x8000_0000_0000_0081, 0x0000_0010_0800_0000
"""A word with bit 63 set (an unsigned int to numba) and one without (a signed one)."""


def connect_four_helpers():
    rules = connect_four_rules(ConnectFour())
    module = __import__(rules.play.py_func.__module__)
    return [(module.line_starts, 1), (module.winning_cells, 2)]


def helpers():
    return [
        (bits.popcount, 1), (bits.shift_left, 2), (bits.shift_right, 2),
        (othello.legal_squares, 2), (othello.flipped, 2), (othello._mix, 1), (othello._fill, 3),
        *connect_four_helpers(),
    ]  # fmt: skip


@pytest.mark.parametrize("words", [(HIGH, LOW, 7), (LOW, HIGH, 7), (LOW, LOW, 7)])
def test_a_helper_given_plain_ints_answers_as_given_words(words):
    for helper, arity in helpers():
        arguments = words[:arity]
        if helper is othello.flipped:
            arguments = (words[0], words[1], 20)
        expected = helper(*(np.uint64(word) for word in arguments))
        assert helper(*arguments) == expected, helper.__name__
