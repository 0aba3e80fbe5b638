"""The compiled engine scores as the Python engine and plain alpha-beta do, and, searching
alike, visits the same nodes; its budgets and stop work; a collision never plays an illegal move.

Compiling the engine for a game costs about 10 seconds of processor (once a process, shared by
every test here through the games' compiled rules).
"""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.compiled.protocol import CompiledGame
from zerosum.games import compiled_tictactoe as rules
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta
from zerosum.search.deepening import IterativeDeepening
from zerosum.search.engine import Engine

CONNECT_FOUR = ConnectFour()
SMALL = ConnectFour(5, 4)
TICTACTOE = TicTacToe()


def random_position(game, plies, seed):
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(list(game.legal_moves(state))))
    return state


def same_search(python, compiled):
    assert compiled.score == python.score
    assert compiled.value == python.value
    assert compiled.exact == python.exact
    assert compiled.pv == python.pv
    assert compiled.stats == python.stats
    assert compiled.table == python.table
    assert [(i.depth, i.score, i.pv, i.nodes, i.exact) for i in compiled.iterations] == [
        (i.depth, i.score, i.pv, i.nodes, i.exact) for i in python.iterations
    ]


@pytest.mark.parametrize("seed", range(12))
def test_tictactoe_to_the_end_equals_the_python_engine_and_alphabeta(seed):
    state = random_position(TICTACTOE, seed % 6, seed)
    compiled = CompiledEngine(TICTACTOE, table_mb=1).search(state)
    same_search(Engine(TICTACTOE, table_mb=1).search(state), compiled)
    assert compiled.value == alphabeta(TICTACTOE, state).value
    assert compiled.exact


def test_tictactoe_from_the_start_is_a_draw_in_2969_nodes_as_in_python():
    result = CompiledEngine(TICTACTOE).search(TICTACTOE.initial_state())
    assert (result.value, result.exact, result.stats.nodes) == (0, True, 2969)


@pytest.mark.parametrize("seed", range(6))
def test_small_connect_four_to_the_end_equals_the_python_engine_and_alphabeta(seed):
    state = random_position(SMALL, 9, seed)
    while SMALL.is_terminal(state):
        seed += 100
        state = random_position(SMALL, 9, seed)
    compiled = CompiledEngine(SMALL, table_mb=4).search(state)
    same_search(Engine(SMALL, table_mb=4).search(state), compiled)
    assert compiled.exact
    assert compiled.value == alphabeta(SMALL, state).value


@pytest.mark.parametrize(
    ("switches", "nodes"),
    [  # the Python engine's counts (tests/test_engine_switches.py)
        ({}, 3899),
        ({"table": False}, 8654),
        ({"iterative": False}, 2547),
        ({"hash_move": False}, 5278),
        ({"killers": False}, 4225),
        ({"history": False}, 3631),
        ({"null_window": False}, 3852),
        ({"quiescence": False}, 4033),
        ({"quiescence_depth": 1}, 3515),
    ],
)
def test_each_switch_gives_the_python_engines_nodes_after_4453_at_depth_6(switches, nodes):
    state = CONNECT_FOUR.parse_state("4453")
    result = CompiledEngine(CONNECT_FOUR, **switches).search(state, depth=6)
    assert result.stats.nodes == nodes


@pytest.mark.parametrize("seed", range(8))
def test_connect_four_at_fixed_depth_visits_the_python_engines_nodes(seed):
    state = random_position(CONNECT_FOUR, 4 + seed * 3, seed)
    while CONNECT_FOUR.is_terminal(state):
        seed += 100
        state = random_position(CONNECT_FOUR, 4 + seed % 100 * 3, seed)
    switches = [{}, {"null_window": False, "killers": False}, {"quiescence": False}][seed % 3]
    python = Engine(CONNECT_FOUR, table_mb=8, **switches).search(state, depth=5)
    compiled = CompiledEngine(CONNECT_FOUR, table_mb=8, **switches).search(state, depth=5)
    same_search(python, compiled)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000))
def test_singular_extensions_visit_the_python_engines_nodes(seed):
    state = random_position(CONNECT_FOUR, 2 + seed % 8, seed)
    if CONNECT_FOUR.is_terminal(state):
        state = CONNECT_FOUR.parse_state("4453")
    python = Engine(CONNECT_FOUR, table_mb=8, singular_extensions=True).search(state, depth=7)
    compiled = CompiledEngine(CONNECT_FOUR, table_mb=8, singular_extensions=True)
    same_search(python, compiled.search(state, depth=7))


def test_a_singular_extension_searches_more_of_connect_four_after_4453_at_depth_7():
    state = CONNECT_FOUR.parse_state("4453")
    singular = CompiledEngine(CONNECT_FOUR, singular_extensions=True).search(state, depth=7)
    assert (
        CompiledEngine(CONNECT_FOUR).search(state, depth=7).stats.nodes,
        singular.stats.nodes,
    ) == (
        8246,
        11450,
    )


def test_the_table_and_history_carry_over_between_searches_as_in_python():
    python, compiled = Engine(CONNECT_FOUR), CompiledEngine(CONNECT_FOUR)
    for moves in ("", "4", "44", "443"):
        state = CONNECT_FOUR.parse_state(moves)
        same_search(python.search(state, depth=5), compiled.search(state, depth=5))


def test_a_node_budget_is_never_exceeded():
    """The first iteration always finishes (as in the Python engine): a budget smaller than it
    stops the search at the next node; a larger one at exactly its count."""
    engine = CompiledEngine(CONNECT_FOUR)
    for budget in (1, 50, 20_000, 100_000):
        result = engine.search(CONNECT_FOUR.initial_state(), nodes=budget)
        first = result.iterations[0].nodes
        assert result.stats.nodes == (first + 1 if budget <= first else budget)
        assert result.stopped == "nodes"
        assert result.best_move in CONNECT_FOUR.legal_moves(CONNECT_FOUR.initial_state())


def test_a_time_budget_stops_the_search_with_a_legal_move():
    result = CompiledEngine(CONNECT_FOUR).search(CONNECT_FOUR.initial_state(), time=0.2)
    assert result.stopped == "time"
    assert result.best_move in range(7)
    assert result.iterations[-1].depth == result.depth


def test_stop_from_another_thread_ends_a_search_to_the_end():
    engine = CompiledEngine(CONNECT_FOUR, quiescence=False)
    timer = threading.Timer(0.3, engine.stop)
    timer.start()
    result = engine.search(CONNECT_FOUR.parse_state("4453"), depth=40)
    timer.join()
    assert result.stopped == "stop"
    assert result.best_move in range(7)


@njit
def lossy_key(state):
    return (state[0] | state[1]) & np.uint64(3)  # four keys for every position: collisions


def test_hash_collisions_never_play_an_illegal_move():
    lossy = CompiledGame(
        "tictactoe with a lossy key", 2, 9, 9, 9, rules.initial, rules.to_move, rules.moves,
        rules.play, rules.terminal, rules.utility, lossy_key,
    )  # fmt: skip
    engine = CompiledEngine(lossy, table_mb=0.001)
    python_rules = engine.game
    for seed in range(30):
        state = random_position(python_rules, seed % 7, seed)
        if python_rules.is_terminal(state):
            continue
        result = engine.search(state)
        line = state
        for move in result.pv:
            assert move in python_rules.legal_moves(line)
            line = python_rules.result(line, move)


def test_a_game_without_compiled_rules_is_refused():
    with pytest.raises(ValueError, match="has no compiled rules"):
        CompiledEngine(object())


def test_depth_needs_an_evaluation():
    with pytest.raises(ValueError, match="Evaluating"):
        CompiledEngine(TICTACTOE).search(TICTACTOE.initial_state(), depth=3)


def _impatient(after: int):
    """A budget check that Ctrl-C interrupts at its `after`-th call (as if the user pressed it
    while the compiled search had called back into Python)."""
    calls = []

    def check(engine):
        calls.append(engine.nodes)
        if len(calls) == after:
            raise KeyboardInterrupt
        return IterativeDeepening._check_budget(engine)

    return check


def test_ctrl_c_in_a_later_iteration_returns_the_last_finished_one_as_the_python_engine(
    monkeypatch,
):
    """The first iteration runs unchecked; each later one calls back at its first node: the
    third call is the start of iteration 4, so iterations 1 to 3 answer."""
    monkeypatch.setattr(CompiledEngine, "_check_budget", _impatient(3))
    result = CompiledEngine(CONNECT_FOUR).search(CONNECT_FOUR.initial_state(), depth=12)
    assert result.stopped == "interrupt"
    assert result.depth == 3 and [i.depth for i in result.iterations] == [1, 2, 3]


def test_ctrl_c_in_the_only_iteration_is_passed_on(monkeypatch):
    monkeypatch.setattr(CompiledEngine, "_check_budget", _impatient(1))
    engine = CompiledEngine(CONNECT_FOUR, iterative=False)
    with pytest.raises(KeyboardInterrupt):
        engine.search(CONNECT_FOUR.initial_state(), depth=8)


def test_ctrl_c_while_the_engine_is_made_is_passed_on(monkeypatch):
    """Making the engine runs its search to the first call back (to compile it): Ctrl-C
    arriving there reaches the caller, as anywhere else."""
    from zerosum.compiled import engine as made

    class Interrupting(dict):
        def __getitem__(self, key):
            raise KeyboardInterrupt

    monkeypatch.setattr(made, "STOPPING", Interrupting(made.STOPPING))
    with pytest.raises(KeyboardInterrupt):
        CompiledEngine(CONNECT_FOUR)
    monkeypatch.undo()
    engine = CompiledEngine(CONNECT_FOUR)  # and an engine made after it searches as ever
    assert engine.search(CONNECT_FOUR.parse_state("4453"), depth=6).stats.nodes == 3899
