"""Scores: one integer scale for proven results and estimates, read by one decoder."""

from __future__ import annotations

import pytest

from zerosum.games.connect4 import ConnectFour
from zerosum.search import alphabeta
from zerosum.search.engine import Engine
from zerosum.search.scores import (
    PROVEN,
    SCALE,
    UNKNOWN_DISTANCE,
    Decoded,
    decode,
    distance_score,
    heuristic_score,
)


@pytest.mark.parametrize(
    ("score", "exact", "decoded"),
    [
        (distance_score(1, 5), False, Decoded(1, True, 5)),  # a win in 5 plies
        (distance_score(-1, 4), False, Decoded(-1, True, 4)),  # a loss in 4
        (distance_score(3, 2), True, Decoded(3, True, 2)),  # a game's points, not only 1
        (distance_score(1, 3 + UNKNOWN_DISTANCE), False, Decoded(1, True, None)),  # length unknown
        (heuristic_score(0.5), False, Decoded(0.5, False, None)),  # an estimate
        (0, False, Decoded(0.0, False, None)),  # an estimate of 0...
        (0, True, Decoded(0, True, None)),  # ...or a draw, when the search met no estimate
    ],
)
def test_decode_tells_a_proven_result_from_an_estimate_by_its_size(score, exact, decoded):
    assert decode(score, exact) == decoded


def test_an_estimate_stays_below_every_proven_score():
    assert heuristic_score(10**9) == PROVEN - 1 < distance_score(1, SCALE // 2 - 1)
    assert not decode(heuristic_score(-(10**9))).proven


def test_alphabeta_with_distance_scores_an_estimate_on_the_engines_scale():
    game = ConnectFour()
    state = game.parse_state("4453")
    plain = Engine(
        game, table=False, iterative=False, killers=False, history=False, quiescence=False
    ).search(state, depth=3)
    exact = alphabeta(game, state, depth=3, distance=True)
    assert (exact.value, exact.plies) == (plain.value, None) == (plain.score / 1024, None)
    assert exact.stats.evaluations > 0 and isinstance(exact.value, float)
