"""Ranks of solved positions: the array forms give what the one-rank functions give."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.solve.outcome import (
    HALF,
    MAX_DISTANCE,
    MAX_VALUE,
    SPAN,
    outcome,
    outcomes,
    seen_by_mover,
    seen_by_mover_all,
    seen_by_opponent,
    seen_by_opponent_all,
)

# Every outcome a table can hold: a win or loss by 1 to MAX_VALUE, or a draw, at any distance.
RANKS = st.one_of(
    st.builds(lambda v, d: v * SPAN - d, st.integers(1, MAX_VALUE), st.integers(0, MAX_DISTANCE)),
    st.builds(lambda v, d: -v * SPAN + d, st.integers(1, MAX_VALUE), st.integers(0, MAX_DISTANCE)),
    st.builds(lambda d: -d, st.integers(0, MAX_DISTANCE)),
)


@given(st.lists(RANKS, max_size=30))
def test_array_forms_equal_the_one_rank_functions(ranks):
    array = np.array(ranks, np.int64)
    values, distances = outcomes(array)
    assert list(zip(values.tolist(), distances.tolist(), strict=True)) == list(map(outcome, ranks))
    assert seen_by_mover_all(array).tolist() == list(map(seen_by_mover, ranks))
    assert seen_by_opponent_all(array).tolist() == list(map(seen_by_opponent, ranks))


def test_array_of_a_game_too_long_to_store_is_a_value_error():
    with pytest.raises(ValueError, match="longer than 65534 plies"):
        outcomes(np.array([SPAN - MAX_DISTANCE - 1], np.int64))
    assert HALF < SPAN - MAX_DISTANCE  # a win at the longest distance is still a win
