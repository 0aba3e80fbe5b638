"""Partizan games valued in canonical form (zerosum.theory.partizan_games and the games).

Literature values: Hackenbush strings by Berlekamp's rule and Green Hackenbush stalks as Nim
heaps (Winning Ways, ch. 1-2; Lessons in Play, ch. 4); Domineering's strips, the 2x2 square
±1 and the corner of three squares * (Winning Ways, ch. 1-2); Cutcake's strips n - 1 (Winning
Ways, ch. 2). Every value is also checked against the exact search of the game played out,
alone and in sums, Left and Right moving first.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.cutcake import Cutcake
from zerosum.games.domineering import Board, Domineering, read_board
from zerosum.games.hackenbush import Hackenbush
from zerosum.games.toads_frogs import ToadsAndFrogs
from zerosum.search import alphabeta
from zerosum.search.engine import Engine
from zerosum.theory.cgt_expressions import parse_value
from zerosum.theory.partizan_games import PartizanSum, PartizanValues, winning_moves


@pytest.mark.parametrize(
    ("stalks", "value"),
    [
        ("b", "1"), ("br", "1/2"), ("brr", "1/4"), ("bbr", "3/2"), ("brb", "3/4"),
        ("rb", "-1/2"), ("bbbrb", "11/4"), ("g", "*"), ("ggg", "*3"), ("g gg", "*3"),
        ("bg", "1*"), ("b r", "0"), ("0-1:g 1-2:g 2-0:g", "*"),  # fusion: a triangle is *
        ("0-1:b 1-2:r 1-3:r", "1/4"),
    ],
)  # fmt: skip
def test_hackenbush_values_from_the_literature(stalks, value):
    game = Hackenbush()
    assert PartizanValues(game)(game.read(stalks)) is parse_value(value)


@pytest.mark.parametrize(
    ("tree", "value"),
    [
        ("0-1:g 1-2:g 1-3:g", "*"),  # a stalk of 1 below branches *1 + *1 = 0
        ("0-1:g 1-2:g 1-3:g 3-4:g", "*4"),  # below branches *1 + *2 = *3: a stalk of 1 + 3
        ("0-1:g 1-2:g 2-3:g 1-4:g 4-5:g 1-6:g", "*2"),  # branches *2 + *2 + *1 = *1
    ],
)
def test_green_trees_by_the_colon_principle(tree, value):
    # Winning Ways, ch. 7: branches at a node may be replaced by a stalk of their nim-sum
    game = Hackenbush()
    assert PartizanValues(game)(game.read(tree)) is parse_value(value)


@pytest.mark.parametrize(
    ("board", "value"),
    [
        ("2x1", "1"), ("1x2", "-1"), ("1x3", "-1"), ("1x4", "-2"), ("1x5", "-2"),
        ("2x2", "±1"), (".#/..", "*"), ("../#.", "*"), ("3x3", "±1"),
        ("2x3", "{2 | -1/2}"), ("2x4", "{{2 | 0} | 0}"), ("3x4", "-3/2"), ("2x5", "1/2"),
    ],
)  # fmt: skip
def test_domineering_values(board, value):
    assert PartizanValues(Domineering())(read_board(board)) is parse_value(value)


def test_domineering_5x5_is_zero_a_win_for_the_second_player():
    # Lachmann, Moore and Rapaport (2000): the second player wins 5x5; its canonical form is 0.
    # The pieces are named by their eight images, so 16,456 are valued instead of 32,800.
    values = PartizanValues(Domineering())
    assert values(read_board("5x5")) is parse_value("0")
    assert len(values) == 16_456


@pytest.mark.parametrize(
    ("board", "turned"), [("2x3", "3x2"), ("2x4", "4x2"), ("3x4", "4x3"), (".#./...", "../#./..")]
)
def test_a_board_turned_a_quarter_is_the_negative(board, turned):
    values = PartizanValues(Domineering())
    assert values(read_board(board)) is -values(read_board(turned))


class PlainDomineering:
    """Domineering's moves and pieces without its names for shapes: every piece valued as
    itself, none by a mirror image or by the negative of its board turned."""

    def __init__(self) -> None:
        self.rules = Domineering()

    def left_options(self, board):
        return self.rules.left_options(board)

    def right_options(self, board):
        return self.rules.right_options(board)

    def components(self, board):
        return self.rules.components(board)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_boards_named_by_their_eight_images_keep_their_values(height, width, data):
    empty = data.draw(st.integers(0, (1 << height * width) - 1))
    board = Board(height, width, empty)
    named = PartizanValues(Domineering())
    named(read_board("3x3"))  # shapes named and remembered before, turned or not
    assert named(board) is PartizanValues(PlainDomineering())(board)


@pytest.mark.parametrize(
    ("cake", "value"), [("1x5", "4"), ("5x1", "-4"), ("2x2", "0"), ("2x4", "1")]
)
def test_cutcake_values(cake, value):
    game = Cutcake()
    assert PartizanValues(game)(game.read(cake)) is parse_value(value)


def played(game, positions, first):
    """+1 when the player moving first (0 Left, 1 Right) wins the sum, played out by alpha-beta."""
    adapter = PartizanSum(game, positions, first)
    return alphabeta(adapter, adapter.initial_state()).value


SUMS = [
    (Domineering(), ["2x3"]), (Domineering(), ["3x3"]), (Domineering(), ["2x4"]),
    (Domineering(), ["2x2", "2x2", ".#/.."]), (Domineering(), ["2x3", "3x2", "1x2"]),
    (Domineering(), ["..#/.../#..", "2x2"]), (Domineering(), ["3x4"]),
    (Hackenbush(), ["brb", "rbr g", "0-1:b 1-2:g 2-0:r"]), (Hackenbush(), ["bgr gb", "rgg"]),
    (ToadsAndFrogs(), ["TT.FF"]), (ToadsAndFrogs(), ["TT.F", "T.FF"]),
    (ToadsAndFrogs(), ["TTT..FF"]), (Cutcake(), ["2x3 3x2 1x2"]), (Cutcake(), ["3x5"]),
]  # fmt: skip


@pytest.mark.parametrize(("game", "texts"), SUMS, ids=[" + ".join(t) for _, t in SUMS])
def test_the_value_of_a_sum_predicts_the_search_of_it(game, texts):
    values = PartizanValues(game)
    positions = [game.read(text) for text in texts]
    total = values(positions[0])
    for position in positions[1:]:
        total = total + values(position)
    left_wins, right_wins = played(game, positions, 0) > 0, played(game, positions, 1) > 0
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert total.outcome == expected[(left_wins, right_wins)]


@pytest.mark.parametrize("texts", [["4x4"], ["3x4", "4x3"], ["2x3", "3x2", "2x2", ".#/.."]])
def test_the_engine_with_its_table_finds_the_outcome_of_the_value(texts):
    # the table names a sum by its pieces' names: pieces turned alike, in any order, meet
    rules = Domineering()
    values = PartizanValues(rules)
    total = values(read_board(texts[0]))
    for text in texts[1:]:
        total = total + values(read_board(text))
    wins = []
    for first in (0, 1):
        adapter = PartizanSum(rules, [read_board(text) for text in texts], first)
        found = Engine(adapter).search(adapter.initial_state())
        assert found.exact
        wins.append(found.value > 0)
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert total.outcome == expected[tuple(wins)]


def test_a_sum_is_named_by_its_pieces_in_any_order_and_turned_alike():
    adapter = PartizanSum(Domineering(), [])
    one = ((read_board("2x3"), read_board("3x2")), 0)
    other = ((read_board("3x2"), read_board("2x3")), 0)
    assert adapter.key(one) == adapter.key(other)
    assert adapter.key(one) != adapter.key(((read_board("2x3"), read_board("2x3")), 0))
    assert adapter.key(one) != adapter.key((one[0], 1))


def test_winning_moves_in_a_sum_leave_a_sum_the_mover_wins():
    game = Domineering()
    values = PartizanValues(game)
    parts = [read_board(text) for text in ("2x3", "3x2", "2x2")]
    left = winning_moves(values, parts, left=True)
    assert left and all(move.leaves >= 0 for move in left)
    for move in left:
        after = parts[: move.index] + [move.option] + parts[move.index + 1 :]
        assert played(game, after, 1) < 0  # Right, to move, loses


def test_bad_positions_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="rows of equal length"):
        read_board("../...")
    with pytest.raises(ValueError, match=r"is '\.' \(empty\) or '#'"):
        read_board("..x/...")
    with pytest.raises(ValueError, match="U-V:C"):
        Hackenbush().read("0-1:y")
    with pytest.raises(ValueError, match="T \\(toad\\), F \\(frog\\)"):
        ToadsAndFrogs().read("TXF")
    with pytest.raises(ValueError, match="ROWSxCOLUMNS"):
        Cutcake().read("2by3")
