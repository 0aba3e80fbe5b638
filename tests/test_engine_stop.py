"""`Engine.stop()`: another thread ends a search at once, keeping what it has found."""

from __future__ import annotations

import threading

from zerosum.games.chess import Chess
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
