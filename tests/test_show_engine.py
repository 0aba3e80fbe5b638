"""The engine's trace, and the pictures of its search rebuilt from it."""

import pytest
from drawings import svg_groups
from hypothesis import given, settings
from hypothesis import strategies as st
from trees import ScoredTree

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tree import Tree
from zerosum.search import Trace, alphabeta
from zerosum.search.engine import Engine
from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF
from zerosum.show.searched import (
    EXAMINED,
    PRUNED,
    TABLE_HIT,
    engine_value,
    from_trace,
)
from zerosum.show.svg import svg
from zerosum.show.text import text
from zerosum.show.traced import traced_engine as engine_tree

CONNECT4 = ConnectFour()
POSITION = CONNECT4.parse_state("4453")
NODE_EVENTS = (ENTER, LEAF, HIT)


def traced_search(game, state, depth, trace, **flags):
    """The engine's result and the nodes, terminals, evaluations, cut-offs of its last iteration."""
    engine = Engine(game, trace=trace, **flags)
    totals = [(0, 0, 0, 0)]
    result = engine.search(
        state,
        depth=depth,
        on_iteration=lambda _: totals.append(
            (engine.nodes, engine.terminals, engine.evaluations, engine.cutoffs)
        ),
    )
    last = tuple(after - before for after, before in zip(totals[-1], totals[-2], strict=True))
    return result, last


def test_engine_trace_has_one_node_event_per_node_of_the_last_iteration():
    trace = Trace(limit=10**6)
    result, (nodes, _, _, cutoffs) = traced_search(CONNECT4, POSITION, 3, trace)
    kinds = [event.kind for event in trace.events]
    assert sum(kind in NODE_EVENTS for kind in kinds) == nodes == 99
    assert kinds.count(CUTOFF) == cutoffs == 29
    assert kinds.count(ENTER) == kinds.count(EXIT) == 38
    assert [e.kind for e in trace.events if e.ply == 0] == [ENTER, EXIT]  # one iteration kept
    assert trace.events[-1].value == result.score


def test_engine_result_is_the_same_with_and_without_a_trace():
    traced = Engine(CONNECT4, trace=Trace(max_ply=2)).search(POSITION, depth=5)
    plain = Engine(CONNECT4).search(POSITION, depth=5)
    assert (traced.score, traced.pv, traced.stats) == (plain.score, plain.pv, plain.stats)


def test_engine_trace_past_max_ply_counts_the_deeper_events():
    shallow, everything = Trace(max_ply=1), Trace(limit=10**6)
    traced_search(CONNECT4, POSITION, 3, shallow)
    traced_search(CONNECT4, POSITION, 3, everything)
    assert shallow.events == [event for event in everything.events if event.ply <= 1]
    assert len(shallow.events) + shallow.deeper == len(everything.events)


def test_engine_trace_windows_are_for_the_player_to_move():
    trace = Trace(max_ply=1)
    traced_search(CONNECT4, POSITION, 1, trace, table=False)
    root, first = trace.events[0], trace.events[1]
    assert (root.kind, root.alpha, root.beta) == (ENTER, -(1 << 40), 1 << 40)
    # After 4 it is the opponent's turn: -40/1024 for it, 0.039 for the root player.
    assert (first.kind, first.value) == (LEAF, -40)
    null_window = trace.of_kind(ENTER)[1]
    assert (null_window.alpha, null_window.beta) == (-41, -40)


def test_engine_picture_of_depth_1_in_text():
    drawing = text(engine_tree(CONNECT4, POSITION, 1))
    assert drawing.splitlines() == [
        "value 0.039 for MAX, the player to move; engine, depth 1 (its last iteration):"
        " 10 nodes, 2 cut-offs; drawn: the first ply (8 nodes), left out: 2 nodes searched"
        " below ply 1",
        "MAX α=-∞ β=∞ → 0.039 *",
        "├── 4 leaf 0.039 *",
        "├── 3 leaf 0.02",
        "├── 5 leaf 0.02",
        "├── 2 leaf 0.004",
        "├── 6 MIN α=0.039 β=0.04 → -0.008 cut-off: -0.008 ≤ α=0.039 (search went on below)",
        "├── 1 leaf 0",
        "└── 7 MIN α=0.039 β=0.04 → -0.016 cut-off: -0.016 ≤ α=0.039 (search went on below)",
    ]


def test_engine_picture_shows_a_null_window_search_repeated_once():
    searched = engine_tree(CONNECT4, POSITION, 2)
    again = [node for node in searched.nodes if node.earlier]
    assert [(n.move_text, n.earlier, n.value, n.alpha, n.beta) for n in again] == [
        ("6", (-0.008,), -0.008, -0.012, float("inf"))
    ]
    assert "├── 6 MIN α=-0.012 β=∞ → -0.008 * (searched again after -0.008)" in text(searched)
    assert [step.again for step in searched.steps].count(True) == 1
    assert "first searches that were repeated" in searched.summary()


def test_engine_picture_marks_table_hits_and_none_without_the_table():
    with_table = engine_tree(CONNECT4, POSITION, 5, max_nodes=10_000)
    without = engine_tree(CONNECT4, POSITION, 5, table=False, max_nodes=10_000)
    assert with_table.count(TABLE_HIT) == 50
    assert without.count(TABLE_HIT) == 0
    assert (with_table.result.stats.nodes, without.result.stats.nodes) == (825, 1_111)
    assert "table hit" in text(with_table)


def test_engine_picture_too_big_leaves_out_the_deepest_plies_and_says_so():
    searched = engine_tree(CONNECT4, POSITION, 5)
    assert (searched.max_ply, len(searched.nodes)) == (3, 148)
    assert searched.left_out == 825 - 74 - 19 == 732
    assert "drawn: the first 3 plies (148 nodes), left out: 732 nodes" in searched.summary()


def test_engine_picture_of_one_node_is_the_root_alone():
    searched = engine_tree(CONNECT4, POSITION, 2, max_nodes=1)
    assert (len(searched.nodes), searched.max_ply, searched.left_out) == (1, 0, 39 - 1)
    assert "drawn: the root only (1 node)" in searched.summary()


def test_engine_svg_counts_equal_the_trace():
    searched = engine_tree(CONNECT4, POSITION, 3, table=False, max_nodes=1_000)
    trace = Trace(max_ply=3)
    _, (nodes, _, _, _) = traced_search(CONNECT4, POSITION, 3, trace, table=False)
    groups = svg_groups(svg(searched))
    drawn = sum(bool({"examined", "hit"} & g) for g in groups)
    searched_events = sum(event.kind in NODE_EVENTS for event in trace.events)
    assert drawn == searched_events - searched.repeated == nodes - searched.left_out
    unexamined = sum(
        len(CONNECT4.legal_moves(node.state))
        - sum(searched.nodes[child].status != PRUNED for child in node.children)
        for node in searched.nodes
        if node.cutoff is not None and node.children
    )
    pruned = [node for node in searched.nodes if node.status == PRUNED]
    assert sum("pruned" in g for g in groups) == len(pruned) == unexamined > 0
    assert all(searched.nodes[node.parent].cutoff is not None for node in pruned)


def test_engine_picture_of_a_finished_game_is_refused():
    with pytest.raises(ValueError, match="the game is over"):
        engine_tree(CONNECT4, CONNECT4.parse_state("4455667"), 2)


def test_engine_value_is_on_the_utility_scale():
    assert [engine_value(s) for s in (1 << 40, -(1 << 41), 44, (1 << 20) - 7, 0)] == [
        float("inf"),
        float("-inf"),
        0.043,
        1,
        0,
    ]


def test_replay_matches_children_in_any_order_and_keeps_a_repeated_search_once():
    tree = Tree([[1, 2], [3, 4]])
    trace = Trace()
    for event in [
        (ENTER, (), 0, None, -9, 9),
        (ENTER, (1,), 1, None, -9, 9),  # the second move first, as an engine may order it
        (LEAF, (1, 0), 2, 3),
        (EXIT, (1,), 1, 3),
        (ENTER, (0,), 1, None, 2, 3),  # a null window...
        (LEAF, (0, 0), 2, 1),
        (EXIT, (0,), 1, 1),
        (ENTER, (0,), 1, None, -9, 9),  # ...then searched again
        (LEAF, (0, 0), 2, 1),
        (LEAF, (0, 1), 2, 2),
        (EXIT, (0,), 1, 1),
        (EXIT, (), 0, 3),
    ]:
        trace.record(*event)
    searched = from_trace(tree, (), trace, alphabeta(tree, ()), algorithm="engine")
    assert [searched.nodes[i].move for i in searched.root.children] == [1, 0]
    repeated = searched.nodes[searched.root.children[1]]
    assert (repeated.earlier, repeated.alpha, len(repeated.children)) == ((1,), -9, 2)
    assert len(searched.nodes) == 6 and len(searched.steps) == 12 - 3
    assert (searched.repeated, searched.searched_again) == (2, 1)  # (0,) and (0, 0) first time
    assert [step.again for step in searched.steps].index(True) == 4


def test_replay_rejects_a_position_that_is_not_a_child():
    trace = Trace()
    for event in [(ENTER, (), 0), (LEAF, (0, 1), 1, 5)]:
        trace.record(*event)
    with pytest.raises(ValueError, match="not an unsearched child of node 0"):
        from_trace(Tree([[1, 2]]), (), trace, alphabeta(Tree([[1, 2]]), ()), algorithm="x")


leaves = st.integers(-3, 3)
subtrees = st.recursive(leaves, lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=30)
nested_trees = st.lists(subtrees, min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(nested_trees, st.integers(1, 4), st.booleans(), st.booleans())
def test_engine_picture_of_any_tree_counts_every_node_once(nested, depth, table, null_window):
    tree = ScoredTree(nested)
    trace = Trace(limit=10**5)
    result, (nodes, _, _, _) = traced_search(
        tree, (), depth, trace, table=table, null_window=null_window
    )
    searched = from_trace(
        tree,
        (),
        trace,
        result,
        algorithm="engine",
        mover_view=True,
        scale=engine_value,
        expand_pruned=False,
    )
    drawn = searched.count(EXAMINED) + searched.count(TABLE_HIT)
    assert drawn + searched.repeated == sum(e.kind in NODE_EVENTS for e in trace.events) == nodes
    assert searched.root.value == engine_value(result.score)
    for node in searched.nodes:
        if node.cutoff is not None and node.children:
            score, bound = node.cutoff
            assert score >= bound if node.maximizing else score <= bound
