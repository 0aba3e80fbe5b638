"""Traces: what the exact searches record, and the bounds that keep a trace small."""

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree
from zerosum.search import Trace, alphabeta
from zerosum.search.trace import CUTOFF, ENTER, EXIT, KINDS, LEAF

TEXTBOOK_TREE = Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])


def test_alphabeta_on_seed_tree_records_16_events_in_search_order():
    trace = Trace()
    alphabeta(TEXTBOOK_TREE, (), trace=trace)
    kinds = [event.kind for event in trace.events]
    assert kinds == [
        ENTER, ENTER, LEAF, LEAF, LEAF, EXIT,
        ENTER, LEAF, CUTOFF, EXIT,
        ENTER, LEAF, LEAF, LEAF, EXIT,  # 2 <= alpha at the last move: nothing left to prune
        EXIT,
    ]  # fmt: skip
    assert set(kinds) <= set(KINDS)


def test_cutoff_at_second_move_records_score_2_against_alpha_3():
    trace = Trace()
    alphabeta(TEXTBOOK_TREE, (), trace=trace)
    first_cutoff = trace.of_kind(CUTOFF)[0]
    assert (first_cutoff.state, first_cutoff.value, first_cutoff.alpha) == ((1,), 2, 3)


def test_enter_events_carry_the_window_alpha_3_after_the_first_move():
    trace = Trace()
    alphabeta(TEXTBOOK_TREE, (), trace=trace)
    windows = [(e.state, e.alpha, e.beta) for e in trace.of_kind(ENTER)]
    assert windows[2:] == [((1,), 3, float("inf")), ((2,), 3, float("inf"))]


def test_trace_past_its_limit_counts_dropped_events():
    trace = Trace(limit=5)
    alphabeta(TEXTBOOK_TREE, (), trace=trace)
    assert len(trace.events) == 5
    assert trace.dropped == 11
    assert not trace.complete


def test_trace_with_max_ply_keeps_only_the_first_plies_and_counts_the_rest():
    game = TicTacToe()
    trace, everything = Trace(max_ply=1), Trace(limit=10**6)
    alphabeta(game, game.initial_state(), trace=trace)
    alphabeta(game, game.initial_state(), trace=everything)
    assert {event.ply for event in trace.events} == {0, 1}
    assert trace.complete
    assert trace.events == [event for event in everything.events if event.ply <= 1]
    assert len(trace.events) + trace.deeper == len(everything.events)


def test_search_value_is_the_same_with_and_without_a_trace():
    game = TicTacToe()
    traced = alphabeta(game, game.initial_state(), trace=Trace(limit=10))
    plain = alphabeta(game, game.initial_state())
    assert traced == plain


@pytest.mark.parametrize("options", [{"limit": -1}, {"max_ply": -2}])
def test_trace_rejects_negative_bounds(options):
    with pytest.raises(ValueError, match="at least 0"):
        Trace(**options)
