"""RAVE in the compiled MCTS, held to the Python MCTS's: on the same draws
(`zerosum.compiled.draws.Draws`) and the compiled game's move order, both grow the same tree,
with RAVE (`rave=K`) and without it, so every root move has the same visits and mean.

Without RAVE this also holds the compiled UCT to the Python one. Compiling MCTS for a game costs
a few seconds (once, then numba's cache); the Python search over the compiled rules is slow, so
the searches are short.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.compiled.draws import Draws
from zerosum.compiled.mcts import MCTS
from zerosum.compiled.protocol import compiled_twin
from zerosum.compiled.rules import CompiledRules
from zerosum.games.connect4 import ConnectFour
from zerosum.games.go import Go
from zerosum.games.tictactoe import TicTacToe
from zerosum.search.mcts import MCTS as PythonMCTS

GAMES = {"tictactoe": TicTacToe(), "connect4": ConnectFour(), "go": Go(size=5)}


class BoundedRules(CompiledRules):
    """The compiled rules as a Python game, with the bounds of the Python twin's utilities:
    the compiled MCTS's solver knows them from the twin, so the Python one must too."""

    def __init__(self, game) -> None:
        super().__init__(compiled_twin(game))
        self.bounds = game.value_bounds()

    def value_bounds(self):
        return self.bounds


def opened(game, numbers):
    """The position after the moves `numbers` choose (each an index into the legal moves),
    stopping before one that would end the game."""
    state = game.initial_state()
    for number in numbers:
        legal = game.legal_moves(state)
        following = game.result(state, legal[number % len(legal)])
        if game.is_terminal(following):
            break
        state = following
    return state


def both(game, state, iterations, seed, **options):
    """The root moves (move, visits, mean) of the compiled MCTS and of the Python MCTS drawing
    from the same sequence, over the compiled rules."""
    compiled = MCTS(game, iterations=iterations, seed=seed, playouts="random", **options)
    rules = BoundedRules(game)
    python = PythonMCTS(rules, iterations=iterations, reuse=False, **options)
    python.rng = Draws(compiled.rng.copy())  # type: ignore[assignment]
    words = tuple(int(word) for word in compiled_twin(game).twin.to_words(state))
    ours, theirs = compiled.search(state), python.search(words)
    return (
        sorted((m.move, m.visits, round(m.value, 12)) for m in ours.moves),
        sorted((m.move, m.visits, round(m.value, 12)) for m in theirs.moves),
    )


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("rave", [None, 10.0, 1000.0])
def test_the_compiled_and_the_python_mcts_grow_the_same_tree(name, rave):
    game = GAMES[name]
    ours, theirs = both(game, game.initial_state(), 300, 7, rave=rave)
    assert ours == theirs
    assert sum(visits for _, visits, _ in ours) == 300 - 1


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(list(GAMES)),
    st.lists(st.integers(0, 80), max_size=6),
    st.integers(1, 2**32),
    st.sampled_from([1.0, 50.0, 2000.0]),
    st.booleans(),
)
def test_the_same_tree_from_any_position_with_or_without_the_solver(
    name, numbers, seed, rave, solver
):
    game = GAMES[name]
    state = opened(game, numbers)
    ours, theirs = both(game, state, 120, seed, rave=rave, solver=solver)
    assert ours == theirs


def test_rave_changes_the_search_and_none_or_zero_leave_it_as_it_was():
    game = GAMES["go"]
    state = game.initial_state()

    def visits(**options):
        result = MCTS(game, iterations=500, seed=3, **options).search(state)
        return [(m.move, m.visits) for m in result.moves]

    plain = visits()
    assert visits(rave=None) == visits(rave=0) == plain
    assert visits(rave=300) != plain


@pytest.mark.parametrize(
    ("rave", "message"),
    [(-1, r"rave must be from 0 \(none\)"), (float("inf"), r"rave must be from 0 \(none\)"),
     ("7", "rave must be a number")],
)  # fmt: skip
def test_a_bad_rave_is_refused_by_both(rave, message):
    for search in (MCTS, PythonMCTS):
        with pytest.raises(ValueError, match=message):
            search(GAMES["tictactoe"], iterations=10, rave=rave)


def test_rave_is_refused_with_an_evaluator():
    def evaluator(state):
        return {}, 0.0

    with pytest.raises(ValueError, match="PUCT"):
        PythonMCTS(GAMES["tictactoe"], iterations=10, evaluator=evaluator, rave=100)
