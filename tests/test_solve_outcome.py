"""Ranks of solved positions: decoded to the outcome they encode; the array forms give what
the one-rank functions give."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.solve.outcome import (
    HALF,
    MAX_DISTANCE,
    MAX_VALUE,
    SPAN,
    outcomes,
    seen_by_mover,
    seen_by_mover_all,
    seen_by_opponent,
    seen_by_opponent_all,
    terminal_rank,
    terminal_rank_all,
)

# Every outcome a table can hold, as (rank, value, distance): a win or loss by 1 to MAX_VALUE,
# or a draw, at any distance.
DISTANCES = st.integers(0, MAX_DISTANCE)
OUTCOMES = st.one_of(
    st.builds(lambda v, d: (v * SPAN - d, v, d), st.integers(1, MAX_VALUE), DISTANCES),
    st.builds(lambda v, d: (-v * SPAN + d, -v, d), st.integers(1, MAX_VALUE), DISTANCES),
    st.builds(lambda d: (-d, 0, d), DISTANCES),
)


@given(st.lists(OUTCOMES, max_size=30))
def test_ranks_decode_to_their_outcomes_and_array_forms_equal_the_one_rank_functions(triples):
    ranks = [rank for rank, _, _ in triples]
    array = np.array(ranks, np.int64)
    values, distances = outcomes(array)
    assert values.tolist() == [value for _, value, _ in triples]
    assert distances.tolist() == [distance for _, _, distance in triples]
    assert seen_by_mover_all(array).tolist() == list(map(seen_by_mover, ranks))
    assert seen_by_opponent_all(array).tolist() == list(map(seen_by_opponent, ranks))


def test_array_of_a_game_too_long_to_store_is_a_value_error():
    with pytest.raises(ValueError, match="longer than 65534 plies"):
        outcomes(np.array([SPAN - MAX_DISTANCE - 1], np.int64))
    assert HALF < SPAN - MAX_DISTANCE  # a win at the longest distance is still a win


def test_terminal_ranks_of_an_array_equal_each_ones_and_refuse_what_cannot_be_stored():
    utilities = np.array([-2, -1, 0, 1, 127])
    assert terminal_rank_all(utilities).tolist() == [terminal_rank(u) for u in utilities]
    with pytest.raises(ValueError, match="integer utilities from -127 to 127, got -1 to 128"):
        terminal_rank_all(np.array([-1, 128]))
    with pytest.raises(ValueError, match="got an array of float64"):
        terminal_rank_all(np.array([0.5]))
