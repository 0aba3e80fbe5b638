"""`Engine.stop()`: another thread ends a search at once, keeping what it has found."""

from __future__ import annotations

import threading

from zerosum.games.chess import Chess
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree
from zerosum.search.engine import Engine


def search_stopped_after(engine: Engine, state, seconds: float, **budget):
    """The result of a search that another thread stops after `seconds`."""
    timer = threading.Timer(seconds, engine.stop)
    timer.start()
    try:
        return engine.search(state, **budget)
    finally:
        timer.cancel()


def test_stop_during_an_unbounded_search_returns_the_last_finished_iteration():
    game = Chess()
    engine = Engine(game)
    result = search_stopped_after(engine, game.initial_state(), 0.5)
    assert result.stopped == "stop"
    assert result.depth >= 1
    assert result.depth == result.iterations[-1].depth
    assert result.best_move == result.iterations[-1].best_move
    assert result.best_move in game.legal_moves(game.initial_state())


def test_stop_during_the_first_iteration_returns_a_legal_root_move_without_a_score():
    game = Chess()
    engine = Engine(game, iterative=False)  # one iteration of 40 plies: it never finishes
    state = game.initial_state()
    result = search_stopped_after(engine, state, 0.3, depth=40)
    assert result.stopped == "stop"
    assert result.depth == 0
    assert result.iterations == ()
    assert result.score == 0 and not result.exact
    assert result.best_move in game.legal_moves(state)
    assert result.pv == (result.best_move,)


def test_a_stop_requested_before_a_search_is_forgotten_when_it_starts():
    game = Chess()
    engine = Engine(game)
    engine.stop()
    result = engine.search(game.initial_state(), depth=2)
    assert result.stopped is None
    assert result.depth == 2


class Estimated(Tree):
    """Three root moves over a tree three plies deep, evaluated at the first two plies (from
    player 0's side): move 0 looks best after one ply, move 1 after two."""

    ESTIMATES = {
        (0,): 0.5, (1,): 0.25, (2,): 0.125,
        (0, 0): -0.375, (0, 1): -0.25, (1, 0): 0.375, (1, 1): 0.25, (2, 0): 0.0, (2, 1): 0.125,
    }  # fmt: skip

    def __init__(self):
        super().__init__([[[1, -1], [1, -1]] for _ in range(3)])

    def evaluate(self, state, player):
        return self.ESTIMATES[state] if player == 0 else -self.ESTIMATES[state]


def test_an_iteration_cut_short_answers_with_the_best_root_move_it_finished():
    game = Estimated()
    answers = set()
    for nodes in range(1, 40):
        result = Engine(game, table=False).search((), depth=2, nodes=nodes)
        last = result.iterations[-1]
        assert (result.best_move, result.value, result.depth) == (
            last.best_move, last.value, last.depth,
        )  # fmt: skip
        answers.add((result.depth, last.complete, result.best_move, result.value))
    assert answers == {
        (1, True, 0, 0.5),  # stopped before depth 2 finished its first root move
        (2, False, 0, -0.375),  # depth 2 finished move 0 only: still move 0, at its new score
        (2, False, 1, 0.25),  # it found move 1 better, then ran out
        (2, True, 1, 0.25),
    }


def test_a_search_to_the_end_is_bounded_by_its_node_budget_from_the_first_node():
    game = TicTacToe()  # no evaluation: one iteration, to the end
    start = game.initial_state()
    assert Engine(game).search(start).stats.nodes == 2969
    depths = set()
    for nodes in (1, 300, 2000):
        result = Engine(game).search(start, nodes=nodes)
        assert (result.stopped, result.stats.nodes, result.exact) == ("nodes", nodes, False)
        assert result.best_move in game.legal_moves(start)
        if result.iterations:  # root moves solved before the budget ran out: the best of them
            assert not result.iterations[-1].complete and result.value == 0
        depths.add(result.depth)
    assert 0 in depths and len(depths) > 1  # first move without a score; a cut-short answer
