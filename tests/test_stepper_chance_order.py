"""The stepper's trace of expectiminimax on trees with chance nodes, and the order of moves.

One trace serves `zerosum tree --show` and the page's stepper (`zerosum.show.html`): a chance
node is entered, its outcomes valued one after another with the expectation so far, and left
with the expectation. An order changes the leaves alpha-beta examines, never the value.
"""

from __future__ import annotations

import json

import pytest

from zerosum.games.tree import Tree
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.trace import Trace
from zerosum.show.html import stepped_search
from zerosum.show.searched import EXAMINED, PRUNED
from zerosum.show.traced import traced_tree, tree_order

TEXTBOOK = "[[3,12,8],[2,4,6],[14,5,2]]"
DICE = '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]'
CUT = '[[3, {"chance": [[0.5, 1], [0.5, 2]]}], [1, {"chance": [[0.25, 8], [0.75, 9]]}]]'


def leaves(searched) -> tuple[int, int]:
    examined = sum(1 for n in searched.nodes if n.leaf and n.status == EXAMINED)
    pruned = sum(1 for n in searched.nodes if n.leaf and n.status == PRUNED)
    return examined, pruned


def test_expectiminimax_steps_through_the_dice_tree_with_the_expectation_rising():
    stepped = stepped_search(traced_tree(Tree.from_text(DICE), "alphabeta"))
    assert stepped.value == "6"
    kinds = [(step["kind"], step["node"]) for step in stepped.steps]
    assert kinds == [
        ("enter", 0), ("enter", 1), ("leaf", 2), ("leaf", 3), ("exit", 1),
        ("enter", 4), ("leaf", 5), ("leaf", 6), ("exit", 4), ("exit", 0),
    ]  # fmt: skip
    rising = [
        (s["expectation"]["node"], s["expectation"]["value_text"])
        for s in stepped.steps
        if s["expectation"]
    ]
    assert rising == [(1, "3"), (1, "6"), (4, "5"), (4, "5.5")]
    assert (
        stepped.steps[4]["text"] == "Chance node after 0 returns its expectation 0.5×6 + 0.5×6 = 6."
    )
    assert stepped.steps[8]["text"].endswith("0.5×10 + 0.5×1 = 5.5.")
    assert (
        "With probability 0.5, it brings the expectation of chance node after 1 to 5.5"
        in (stepped.steps[7]["text"])
    )
    assert [s["secured"] for s in stepped.steps][4:] == ["6"] * 6
    assert stepped.drawing.count('class="node chance') == 2
    assert stepped.drawing.count(">p=0.5</text>") == 4


def test_a_cut_off_above_a_chance_node_prunes_it_and_its_outcomes():
    searched = traced_tree(Tree.from_text(CUT), "alphabeta")
    assert searched.result.value == 1.5 and searched.algorithm == "expectiminimax"
    assert leaves(searched) == (4, 2)
    pruned = [n for n in searched.nodes if n.status == PRUNED]
    assert [n.chance for n in pruned] == [True, False, False]
    assert [n.probability for n in pruned[1:]] == [0.25, 0.75]
    # the trace's values are expectiminimax's, its nodes those the search entered
    result = expectiminimax(Tree.from_text(CUT), (), pruning="alphabeta", transposition=False)
    assert (result.value, result.stats.nodes) == (1.5, searched.result.stats.nodes)


def test_star_pruning_refuses_a_trace_in_words():
    with pytest.raises(ValueError, match="star2 pruning cannot be traced"):
        expectiminimax(Tree.from_text(DICE), (), pruning="star2", trace=Trace())


@pytest.mark.parametrize(
    ("order", "examined"),
    [(None, 7), ("best", 5), ("worst", 9), ("2,1,0", 9), ("1", 9)],
    ids=["as given", "best first", "worst first", "reversed", "1 first"],
)
def test_the_textbook_tree_examines_leaves_by_the_order(order, examined):
    tree = Tree.from_text(TEXTBOOK)
    searched = traced_tree(tree, "alphabeta", tree_order(tree, order))
    assert searched.result.value == 3
    assert leaves(searched) == (examined, 9 - examined)


def test_best_first_examines_the_best_move_first_at_every_node():
    tree = Tree.from_text(TEXTBOOK)
    searched = traced_tree(tree, "alphabeta", tree_order(tree, "best"))
    root = searched.nodes[0]
    assert [searched.nodes[i].move for i in root.children] == [0, 1, 2]  # 3, then 2 and 2
    first_min = searched.nodes[root.children[0]]
    assert [searched.nodes[i].move for i in first_min.children] == [0, 2, 1]  # 3, 8, 12
    assert tree.values()[()] == 3 and tree.values()[(2,)] == 2


def test_minimax_examines_every_leaf_whatever_the_order():
    tree = Tree.from_text(TEXTBOOK)
    for order in (None, "best", "worst"):
        assert leaves(traced_tree(tree, "minimax", tree_order(tree, order))) == (9, 0)


def test_an_order_of_a_chance_tree_orders_the_players_moves_not_the_outcomes():
    tree = Tree.from_text(CUT)
    worst = traced_tree(tree, "alphabeta", tree_order(tree, "worst"))
    assert worst.result.value == 1.5
    assert leaves(worst) == (6, 0)
    chance = next(n for n in worst.nodes if n.chance)
    assert [worst.nodes[i].probability for i in chance.children] == [0.25, 0.75]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "bad --order 'x': 'x' is no move; expected integers separated by commas, or best"),
        ("1,1", "bad --order '1,1': it lists 1 twice, or best or worst"),
        ("3", "bad --order '3': the tree's moves are 0 to 2, not 3"),
    ],
    ids=["no move", "twice", "no such move"],
)
def test_a_bad_order_is_refused_with_the_commands_message(cli, text, message):
    with pytest.raises(ValueError) as error:
        tree_order(Tree.from_text(TEXTBOOK), text)
    assert str(error.value).startswith(message)
    code, out, err = cli("tree", TEXTBOOK, "--order", text)
    assert code == 2 and out == ""
    assert err == f"zerosum: error: {error.value}\n"


def test_tree_command_draws_a_chance_tree_and_takes_an_order(cli, tmp_path):
    code, out, _ = cli("tree", DICE, "--show", "text")
    assert code == 0
    assert "├── 0 CHANCE α=-∞ β=∞ → 6 *" in out and "(p=0.5) leaf 10" in out
    page = tmp_path / "dice.html"
    code, _, _ = cli("tree", DICE, "--show", "html", "-o", str(page))
    assert code == 0
    steps = json.loads(page.read_text().split('id="steps">')[1].split("</script>")[0])
    assert steps == stepped_search(traced_tree(Tree.from_text(DICE), "alphabeta")).steps
    report = cli.json("tree", TEXTBOOK, "--order", "worst")
    assert report["value"] == 3 and len(report["examined"]) == 9
    report = cli.json("tree", TEXTBOOK, "--order", "best", "--show", "text", "-o", "/dev/null")
    assert len(report["examined"]) == 5


def test_an_order_of_a_tree_without_a_players_node_is_refused_in_words():
    for text in ("5", '{"chance": [[0.5, 1], [0.5, 2]]}'):
        with pytest.raises(ValueError, match="the tree has no player's node to order"):
            tree_order(Tree.from_text(text), "1")
        assert tree_order(Tree.from_text(text), "best") is not None
