"""The engine on games with repetition rules: table scores are reused only along equal paths."""

from __future__ import annotations

import zlib

import chess
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine import flag_sets

from zerosum.games.chess import Chess
from zerosum.search import alphabeta
from zerosum.search.engine import Engine


class Walk:
    """Players take turns moving a token along a graph's edges. A node without edges ends the
    game with its payoff for player 0; coming back to a position (node and player to move)
    ends it in a draw. A state is (node, player to move, positions visited before)."""

    history_dependent = True

    def __init__(self, edges: dict[str, list[str]], payoffs: dict[str, int], start: str = "R"):
        self.edges, self.payoffs, self.start = edges, payoffs, start

    def initial_state(self):
        return self.start, 0, frozenset()

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [] if self.is_terminal(state) else list(self.edges[state[0]])

    def result(self, state, move):
        node, player, seen = state
        return move, 1 - player, seen | {(node, player)}

    def is_terminal(self, state):
        return (state[0], state[1]) in state[2] or not self.edges.get(state[0])

    def utility(self, state, player):
        repeated = (state[0], state[1]) in state[2]
        value = 0 if repeated else self.payoffs[state[0]]
        return value if player == 0 else -value

    def key(self, state):
        return state[0], state[1]


class PathWalk(Walk):
    """The walk naming what of the path matters: the set of positions visited."""

    def path_key(self, state):
        return state[2]


class ForgetfulWalk(Walk):
    """The walk claiming that no path matters (wrongly): its table scores get corrupted."""

    def path_key(self, state):
        return None


class ScoredPathWalk(PathWalk):
    """The path-keyed walk with an evaluation, so that iterative deepening runs."""

    def evaluate(self, state, player):
        estimate = zlib.crc32(repr(state[:2]).encode()) % 100 / 100 - 0.5
        return estimate if player == 0 else -estimate


# Root R (player 0) goes to A or B. Through A, the position Y comes before X, so at X moving back
# to Y repeats it: a draw, and X is worth 0. Through B, X comes first: X -> Y -> W is worth 4
# (player 1 prefers it to L, 5), so B is worth 4 and R is worth 4. A is worth at most 1 (V).
TRAP = {
    "edges": {
        "R": ["A", "B"],
        "A": ["Y", "V"],
        "B": ["Z"],
        "Z": ["X"],
        "Y": ["X", "W"],
        "X": ["Y", "L"],
    },
    "payoffs": {"L": 5, "W": 4, "V": 1},
}


def test_a_draw_by_repetition_in_one_line_is_not_the_value_of_the_same_position_in_another():
    game = PathWalk(**TRAP)
    assert alphabeta(game, game.initial_state()).value == 4
    result = Engine(game).search(game.initial_state())
    assert (result.value, result.best_move, result.exact) == (4, "B", True)


def test_a_table_that_ignores_the_path_reuses_the_draw_and_gets_the_value_wrong():
    game = ForgetfulWalk(**TRAP)
    result = Engine(game, null_window=False).search(game.initial_state())
    assert result.value == 1  # X's draw, found through A, taken for X's value through B


def test_a_history_dependent_game_without_path_key_still_gets_the_value_right():
    game = Walk(**TRAP)
    assert Engine(game).search(game.initial_state()).value == 4


nodes = st.sampled_from("RABCDE")
graphs = st.builds(
    lambda root, edges, payoffs: {"edges": {**edges, "R": root}, "payoffs": payoffs},
    st.lists(nodes, min_size=1, max_size=3),
    st.dictionaries(nodes, st.lists(nodes, min_size=1, max_size=3), max_size=5),
    st.fixed_dictionaries({node: st.integers(-2, 2) for node in "RABCDE"}),
)


@settings(max_examples=120, deadline=None)
@given(graphs, flag_sets)
def test_engine_value_on_walks_with_repetition_draws_equals_alphabeta(graph, flags):
    for game in (Walk(**graph), PathWalk(**graph), ScoredPathWalk(**graph)):
        expected = alphabeta(game, game.initial_state(), distance=True)
        result = Engine(game, **flags).search(game.initial_state())
        assert (result.value, result.plies, result.exact) == (expected.value, expected.plies, True)


def test_chess_path_key_tells_a_position_with_repetitions_behind_it_from_the_same_one_fresh():
    game = Chess()
    fresh = game.parse_state("startpos")
    state = fresh
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        state = game.result(state, chess.Move.from_uci(uci))
    assert game.key(state) == game.key(fresh)
    assert game.path_key(state) != game.path_key(fresh)


def test_chess_repetition_draw_is_not_carried_to_the_position_without_that_history():
    # White, a queen down, shuffles a knight; the second time round Nc3 repeats a third time
    game = Chess()
    state = game.parse_state("1n1q2k1/8/8/8/8/2N5/8/6K1 b - - 0 1")
    for uci in ["b8c6", "c3b1", "c6b8", "b1c3", "b8c6", "c3b1", "c6b8"]:
        state = game.result(state, chess.Move.from_uci(uci))
    fresh = game.parse_state("1n1q2k1/8/8/8/8/8/8/1N4K1 w - - 0 1")
    assert game.key(state) == game.key(fresh)
    engine = Engine(game)
    drawn = engine.search(state, depth=3)
    lost = engine.search(fresh, depth=3)
    assert (drawn.score, drawn.best_move) == (0, chess.Move.from_uci("b1c3"))
    assert lost.score < -5 * 1024  # a queen down, in 1/1024ths of a pawn
