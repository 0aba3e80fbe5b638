"""Pictures of a search: the searched tree, its text, its SVG and its HTML animation."""

import json
import re
from xml.etree import ElementTree

import pytest
from drawings import SVG, svg_groups
from hypothesis import example, given, settings
from hypothesis import strategies as st

from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree
from zerosum.search import Trace, alphabeta, minimax
from zerosum.search.trace import ENTER, EXIT, HIT, LEAF
from zerosum.show.html import html
from zerosum.show.searched import EXAMINED, PRUNED, TABLE_HIT, from_trace
from zerosum.show.svg import LEGEND_TEXT, layout, svg
from zerosum.show.text import text
from zerosum.show.traced import traced_search as searched_tree

SEED_TREE = Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])


def test_seed_tree_svg_has_11_examined_nodes_7_examined_and_2_pruned_leaves():
    searched = searched_tree(SEED_TREE, ())
    groups = svg_groups(svg(searched))
    stats = searched.result.stats
    assert len(groups) == 13
    assert sum("examined" in g for g in groups) == stats.nodes == 11
    assert sum({"examined", "leaf"} <= g for g in groups) == stats.leaves == 7
    assert sum({"pruned", "leaf"} <= g for g in groups) == 2
    assert sum("leaf" in g for g in groups) == len(SEED_TREE.leaves()) == 9


def test_seed_tree_svg_crosses_out_two_edges_and_highlights_root_0_0():
    searched = searched_tree(SEED_TREE, ())
    root = ElementTree.fromstring(svg(searched))
    crosses = [line for line in root.iter(f"{SVG}line") if line.get("class") == "cross"]
    assert len(crosses) == 2 * 2  # two strokes per crossed-out edge
    principal = [n.state for n in searched.nodes if n.principal]
    assert principal == [(), (0,), (0, 0)]


def test_seed_tree_text_marks_cutoff_and_pruned_leaves():
    drawing = text(searched_tree(SEED_TREE, ()))
    assert drawing.splitlines()[0].startswith(
        "value 3 for MAX, the player to move; alphabeta: 11 nodes, 1 cut-off;"
    )
    assert "├── 1 MIN α=3 β=∞ → 2 cut-off: 2 ≤ α=3" in drawing
    assert "│   ├── 1 leaf (4) pruned" in drawing
    assert "│   └── 2 leaf (6) pruned" in drawing
    assert "└── 2 MIN α=3 β=∞ → 2\n" in drawing  # met alpha at its last move: nothing pruned
    assert drawing.count(") pruned") == 2


def test_negamax_picture_shows_scores_for_max():
    searched = searched_tree(SEED_TREE, (), algorithm="negamax")
    assert [searched.nodes[i].value for i in searched.root.children] == [3, 2, 2]
    assert searched.root.value == 3


def test_steps_show_max_securing_3_after_the_first_move():
    searched = searched_tree(SEED_TREE, ())
    secured = [step.secured for step in searched.steps]
    assert secured[:5] == [None] * 5
    assert secured[5:] == [3] * 11
    cutoff = next(step for step in searched.steps if step.dark)
    assert [searched.nodes[i].state for i in cutoff.dark] == [(1, 1), (1, 2)]


def test_explain_tictactoe_two_plies_leaves_out_the_deeper_nodes():
    game = TicTacToe()
    searched = searched_tree(game, game.initial_state(), max_ply=2)
    assert max(node.ply for node in searched.nodes) == 2
    assert searched.result.stats.nodes == 18_297
    assert searched.left_out == 18_297 - searched.count(EXAMINED)
    assert "left out: 18,257 nodes searched below ply 2" in searched.summary()
    groups = svg_groups(svg(searched))
    assert len(groups) == len(searched.nodes) == 82


def test_picture_too_big_is_a_value_error():
    game = TicTacToe()
    with pytest.raises(ValueError, match="more than 100 nodes to draw"):
        searched_tree(game, game.initial_state(), max_nodes=100)


def test_unknown_algorithm_is_a_value_error():
    with pytest.raises(ValueError, match="unknown algorithm 'sss'"):
        searched_tree(SEED_TREE, (), algorithm="sss")


def test_table_hit_event_becomes_a_leaf_answered_from_the_table():
    # The engine's traces will report a position found in its table in place of entering it.
    trace = Trace()
    for event in [
        (ENTER, (), 0, None, -1, 1),
        (LEAF, (0,), 1, 5),
        (HIT, (1,), 1, 7),
        (EXIT, (), 0, 7),
    ]:
        trace.record(*event)
    tree = Tree([5, [7, 8]])
    result = alphabeta(tree, ())
    searched = from_trace(tree, (), trace, result, algorithm="engine")
    hit = searched.nodes[2]
    assert (hit.status, hit.leaf, hit.value) == (TABLE_HIT, True, 7)
    assert "table hit" in text(searched)
    assert "hit" in svg_groups(svg(searched))[2]


def test_trace_that_dropped_events_is_rejected():
    trace = Trace(limit=4)
    result = alphabeta(SEED_TREE, (), trace=trace)
    with pytest.raises(ValueError, match="dropped 12 events past its limit of 4"):
        from_trace(SEED_TREE, (), trace, result, algorithm="alphabeta")


def test_trace_of_another_position_is_rejected():
    trace = Trace()
    result = alphabeta(SEED_TREE, (1,), trace=trace)
    with pytest.raises(ValueError, match="another position"):
        from_trace(SEED_TREE, (), trace, result, algorithm="alphabeta")


def test_html_animation_is_self_contained_with_one_step_per_event():
    page = html(searched_tree(SEED_TREE, ()))
    assert not re.search(r"""(src|href)\s*=|https?://(?!www\.w3\.org/2000/svg)""", page)
    steps = json.loads(re.search(r'id="steps">(.*?)</script>', page, re.DOTALL).group(1))
    assert len(steps) == 16
    assert steps[8]["text"] == (
        "MIN node after 1 stops: 2 ≤ α=3, so 2 branches go dark without being looked at."
    )


nested_trees = st.recursive(
    st.integers(-9, 9),
    lambda children: st.lists(children, min_size=1, max_size=3),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(nested_trees)
def test_picture_counts_equal_search_statistics_on_any_tree(nested):
    tree = Tree(nested)
    searched = searched_tree(tree, ())
    stats = searched.result.stats
    assert searched.count(EXAMINED) == stats.nodes
    assert searched.count(EXAMINED, leaf=True) == stats.leaves
    assert searched.count(EXAMINED, leaf=True) + searched.count(PRUNED, leaf=True) == len(
        tree.leaves()
    )
    assert searched.root.value == minimax(tree, ()).value
    groups = svg_groups(svg(searched))
    assert sum("examined" in g for g in groups) == stats.nodes
    if searched.root.children:
        assert searched.steps[-1].secured == searched.root.value


@settings(max_examples=60, deadline=None)
@given(nested_trees)
def test_animation_reveals_leaves_in_drawing_order_and_darkens_each_pruned_node_once(nested):
    searched = searched_tree(Tree(nested), ())
    places, across = layout(searched)
    axis = 1 if across else 0
    breadth = [places[step.node][axis] for step in searched.steps if step.kind == LEAF]
    assert breadth == sorted(breadth) and len(set(breadth)) == len(breadth)
    darkened = [index for step in searched.steps for index in step.dark]
    pruned = [node.index for node in searched.nodes if node.status == PRUNED]
    assert sorted(darkened) == pruned


TEXTBOOK_NESTED = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
WIDE_DOWN = [[i, i + 1, i + 2, i + 3] for i in range(7)]  # 28 leaves: drawn down, 1365 px wide
WIDE_ACROSS = [[i, -i] for i in range(20)]  # 40 leaves: too wide to draw down, drawn across


@pytest.mark.parametrize(
    ("nested", "across"),
    [(TEXTBOOK_NESTED, False), (7, False), (WIDE_DOWN, False), (WIDE_ACROSS, True)],
)
def test_trees_for_the_caption_checks_are_drawn_down_or_across(nested, across):
    assert layout(searched_tree(Tree(nested), ()))[1] is across


@settings(max_examples=60, deadline=None)
@given(nested_trees)
@example(TEXTBOOK_NESTED)
@example(7)
@example(WIDE_DOWN)
@example(WIDE_ACROSS)
def test_svg_caption_lines_measured_in_dejavu_sans_fit_between_the_margins(nested):
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    searched = searched_tree(Tree(nested), ())
    root = ElementTree.fromstring(svg(searched))
    width = float(root.get("viewBox").split()[2])
    lines = [t for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert "".join(line.text for line in lines) == searched.summary() + LEGEND_TEXT
    # DejaVu Sans (matplotlib's copy) is the first font the drawing asks for; captions are 12 px.
    font = FontProperties(family="DejaVu Sans", size=12)
    for line in lines:
        measured, _, _ = TextToPath().get_text_width_height_descent(line.text, font, ismath=False)
        left = float(line.get("x"))
        assert left + measured <= width - left, line.text
