"""Every switch of the engine does what it says: the nodes or the move order change with it."""

from __future__ import annotations

import dataclasses

import pytest
from test_engine import CheckingTree, ScoredTree

from zerosum.game import Tablebase
from zerosum.games.chess import Chess
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import Engine, Trace, alphabeta
from zerosum.search.engine import Settings

CONNECT_FOUR = ConnectFour()
CHESS = Chess()
ENDING = CHESS.parse_state("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")  # perft's third
PLAIN = dict(killers=False, history=False, null_window=False, quiescence=False)


@pytest.mark.parametrize(
    ("switches", "nodes"),
    [
        ({}, 3899),
        ({"table": False}, 8654),
        ({"iterative": False}, 2547),
        ({"hash_move": False}, 5278),  # the table still cuts, but its move is not tried first
        ({"killers": False}, 4225),
        ({"history": False}, 3631),
        ({"null_window": False}, 3852),
        ({"quiescence": False}, 4033),
        ({"quiescence_depth": 0}, 4033),  # nothing played out: as without quiescence
        ({"quiescence_depth": 1}, 3515),
    ],
)
def test_each_switch_changes_the_nodes_of_connect_four_after_4453_at_depth_6(switches, nodes):
    result = Engine(CONNECT_FOUR, **switches).search(CONNECT_FOUR.parse_state("4453"), depth=6)
    assert result.stats.nodes == nodes


CHESS_ENDING_NODES = [
    ({}, 2285),
    ({"table": False}, 4477),
    ({"iterative": False}, 2592),
    ({"hash_move": False}, 4111),
    ({"killers": False}, 2284),
    ({"history": False}, 2276),
    ({"captures": False}, 2488),
    ({"null_window": False}, 3293),
    ({"quiescence": False}, 1238),
    ({"static_exchange": False}, 2742),  # every capture played out in quiescence
    ({"null_move": False}, 2583),
    ({"late_move_reductions": False}, 2222),
    ({"futility": False}, 2573),
    ({"futility_margin": 0.0}, 874),
    ({"futility_margin": 3.0}, 2484),
    ({"check_extensions": False}, 879),
]
"""The nodes of the ending at depth 4 with each switch (the compiled engine's test holds it to
them too)."""


@pytest.mark.parametrize(("switches", "nodes"), CHESS_ENDING_NODES)
def test_each_switch_changes_the_nodes_of_a_chess_ending_at_depth_4(switches, nodes):
    assert Engine(CHESS, **switches).search(ENDING, depth=4).stats.nodes == nodes


def root_order(trace: Trace, game, root) -> list:
    """The root moves in the order the search traced their positions first."""
    children = {game.result(root, move): move for move in game.legal_moves(root)}
    order = []
    for event in trace.events:
        move = children.get(event.state) if event.ply == 1 else None
        if move is not None and move not in order:
            order.append(move)
    return order


@pytest.mark.parametrize("hash_move", [True, False])
def test_the_hash_move_is_searched_first_only_with_the_switch_on(hash_move):
    state = CONNECT_FOUR.parse_state("44")
    assert CONNECT_FOUR.legal_moves(state)[:2] == [3, 2]  # centre first
    trace = Trace()
    engine = Engine(CONNECT_FOUR, iterative=False, hash_move=hash_move, trace=trace, **PLAIN)
    assert engine.search(state, depth=3).best_move == 2
    engine.search(state, depth=3)  # the table now holds 2 for the root
    assert root_order(trace, CONNECT_FOUR, state)[0] == (2 if hash_move else 3)


@pytest.mark.parametrize(
    "switches",
    [{"table": False}, {"table": True, "hash_move": False}, {"table": True}],
    ids=["no table", "table without its move", "table and its move"],
)
def test_each_iteration_searches_the_previous_ones_best_root_move_first(switches):
    state = CONNECT_FOUR.parse_state("4453")
    trace = Trace()
    result = Engine(CONNECT_FOUR, trace=trace, **PLAIN, **switches).search(state, depth=2)
    assert [iteration.best_move for iteration in result.iterations] == [5, 5]
    assert root_order(trace, CONNECT_FOUR, state) == [5, 3, 2, 4, 1, 0, 6]


def test_without_iterative_deepening_the_root_moves_keep_the_games_order():
    state = CONNECT_FOUR.parse_state("4453")
    trace = Trace()
    result = Engine(CONNECT_FOUR, iterative=False, trace=trace, **PLAIN).search(state, depth=2)
    assert result.best_move == 5
    assert root_order(trace, CONNECT_FOUR, state) == [3, 2, 4, 1, 5, 0, 6]


@pytest.mark.parametrize(("captures", "order"), [(True, [2, 0, 1, 3]), (False, [0, 1, 2, 3])])
def test_captures_come_first_most_valuable_victim_first(captures, order):
    tree = ScoredTree([1, 2, 3, 4])  # move m takes a piece of value m + 1 when m is even
    trace = Trace()
    Engine(tree, captures=captures, iterative=False, table=False, trace=trace, **PLAIN).search(
        (), depth=1
    )
    assert root_order(trace, tree, ()) == order


class CountedChecks(CheckingTree):
    """The checking tree, counting the calls of `in_check`."""

    calls = 0

    def in_check(self, state):
        self.calls += 1
        return super().in_check(state)


NESTED = [[[1, -2], [3, [0, 2]]], [[-1, 2], [[1, 1], -3]], [[2, [0, -1]], [1, 3]]]


@pytest.mark.parametrize(
    ("switches", "called"),
    [
        ({}, True),
        ({"check_extensions": False}, True),  # forward pruning never prunes in check
        ({"check_extensions": False, "late_move_reductions": False, "futility": False}, True),
        (
            {
                "check_extensions": False,
                "late_move_reductions": False,
                "futility": False,
                "null_move": False,
            },
            False,
        ),
    ],
)
def test_in_check_is_not_called_when_nothing_uses_it(switches, called):
    game = CountedChecks(NESTED)
    Engine(game, **switches).search(game.initial_state(), depth=4)
    assert (game.calls > 0) == called


def test_a_singular_extension_searches_the_chess_ending_deeper_at_depth_6_and_7():
    for depth, (off, on), values in [
        (6, (12664, 17516), (0.29, 0.29)),
        (7, (21635, 37751), (0.29, 0.44)),
    ]:
        plain = Engine(CHESS).search(ENDING, depth=depth)
        singular = Engine(CHESS, singular_extensions=True).search(ENDING, depth=depth)
        assert (plain.stats.nodes, singular.stats.nodes) == (off, on)
        assert (round(plain.value, 2), round(singular.value, 2)) == values
        assert CHESS.format_move(ENDING, singular.best_move) == "Rxf4+"


def test_singular_extensions_need_the_hash_move_and_an_evaluation():
    assert not Engine(CHESS).settings.singular_extensions  # off unless asked for
    assert Engine(CONNECT_FOUR, singular_extensions=True).settings.singular_extensions
    assert not Engine(CHESS, singular_extensions=True, hash_move=False).settings.singular_extensions
    assert not Engine(CHESS, singular_extensions=True, table=False).settings.singular_extensions
    assert not Engine(TicTacToe(), singular_extensions=True).settings.singular_extensions


def test_settings_are_effective_for_the_game():
    assert Engine(CONNECT_FOUR).settings == Settings(
        captures=False,
        null_move=False,
        late_move_reductions=False,
        futility=False,
        check_extensions=False,
        static_exchange=False,
    )  # Connect Four has no captures, checks or passes
    tictactoe = Engine(TicTacToe(), quiescence_depth=3).settings
    assert (tictactoe.iterative, tictactoe.quiescence, tictactoe.table) == (False, False, True)
    assert tictactoe.quiescence_depth == 3
    assert Engine(CHESS).settings == Settings()


def test_settings_are_given_whole_or_switch_by_switch_and_frozen():
    settings = Settings(hash_move=False, table_mb=1)
    engine = Engine(CHESS, settings, killers=False)
    assert (engine.settings.hash_move, engine.settings.killers) == (False, False)
    assert engine.settings.table_mb == 1 and engine.table is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        engine.settings.table = False  # type: ignore[misc]
    with pytest.raises(TypeError, match="hashmove"):
        Engine(CHESS, hashmove=False)
    with pytest.raises(ValueError, match="quiescence depth must be at least 0, got -1"):
        Settings(quiescence_depth=-1)


class Outcomes:
    """Tic-tac-toe's outcomes from five stones on, without their length (as a win/draw/loss
    table gives them): the value for the player to move, and no distance."""

    def lookup(self, state):
        x, o = state
        if (x | o).bit_count() < 5:
            return None
        return int(alphabeta(TicTacToe(), state).value), None


def test_a_tablebase_result_of_unknown_length_is_proven_with_no_plies_and_never_searched():
    game = TicTacToe()
    assert isinstance(Outcomes(), Tablebase)
    state = game.parse_state("XO.......")  # X to move wins
    searched = Engine(game).search(state)
    engine = Engine(game, tablebase=Outcomes())
    looked_up = engine.search(state)
    assert engine.tablebase_hits > 0 and looked_up.stats.nodes < searched.stats.nodes
    assert (searched.value, searched.plies) == (1, 5)
    assert (looked_up.value, looked_up.exact, looked_up.plies) == (1, True, None)  # not how soon
    assert alphabeta(game, game.result(state, looked_up.best_move)).value == -1  # O loses
