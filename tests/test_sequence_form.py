"""The sequence form: Kuhn poker's value and equilibria (Kuhn's family), exact and in floats;
matrix games and perfect-information trees seen as games of imperfect information, whose
values are known from their own solvers; the exact simplex method alone; the limits."""

from __future__ import annotations

import time
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.kuhn import KuhnPoker
from zerosum.games.leduc import LeducPoker
from zerosum.games.liars_dice import LiarsDice
from zerosum.games.tree import Tree
from zerosum.imperfect import sequence_form
from zerosum.imperfect.best_response import measure, profile_value
from zerosum.imperfect.sequence_form import (
    EXACT_SEQUENCES,
    EXACT_SIMPLEX,
    FloatOptimum,
    exact_simplex,
    solve,
    solve_exact,
)
from zerosum.imperfect.tree import unroll
from zerosum.imperfect.views import MatrixGame, PerfectInformation
from zerosum.limits import Limit
from zerosum.theory import matrix

KUHN = unroll(KuhnPoker())
TEXTBOOK = "[[3,12,8],[2,4,6],[14,5,2]]"  # minimax value 3


def test_kuhn_sequence_form_has_thirteen_sequences_a_player():
    form = sequence_form.sequence_form(KUHN)
    assert form.sizes == (13, 13)
    e, f = form.constraints
    assert e.shape == (7, 13) and f.shape == (7, 13)  # the empty sequence and six sets each
    # 30 ends of the game, each a pair of sequences of its own: 6 deals times 5 endings.
    assert form.payoffs.nnz == 30
    assert sum(form.exact_payoffs.values()) == sum(
        F(1, 6) * u for u, kind in zip(KUHN.exact_utility, KUHN.kind, strict=True) if kind == 3
    )


def test_plans_and_behaviour_are_inverse_and_pay_the_same():
    form = sequence_form.sequence_form(KUHN)
    uniform = tuple(F(1, 2) for _ in range(KUHN.actions))
    x, y = form.plans(uniform)
    assert form.behaviour((tuple(x), tuple(y))) == uniform
    payoff = sum(entry * x[s0] * y[s1] for (s0, s1), entry in form.exact_payoffs.items())
    assert payoff == profile_value(KUHN, uniform)


def test_kuhn_exact_value_is_minus_one_eighteenth_in_milliseconds():
    solve(KUHN, exact=True)  # imports and caches warmed
    started = time.perf_counter()
    solution = solve(KuhnPoker(), exact=True)
    elapsed = time.perf_counter() - started
    assert solution.exact and solution.value == F(-1, 18)
    assert all(isinstance(p, F) for p in solution.profile)
    assert elapsed < 0.5  # about 20 ms measured; generous for a loaded machine


def test_kuhn_float_value_within_1e_9():
    solution = solve(KUHN)
    assert not solution.exact and solution.method == "highs"
    assert abs(solution.value - (-1 / 18)) < 1e-9
    assert isinstance(solution.profile, np.ndarray)


def test_kuhn_exact_equilibrium_is_exploitable_by_exactly_nothing():
    solution = solve(KUHN, exact=True)
    found = measure(KUHN, solution.profile)
    assert found.exploitability == 0 and isinstance(found.exploitability, F)
    assert found.value == F(-1, 18) and found.best_values == (F(-1, 18), F(1, 18))


def test_kuhn_float_equilibrium_is_exploitable_by_less_than_1e_9():
    solution = solve(KUHN)
    assert abs(measure(KUHN, solution.profile).exploitability) < 1e-9  # rounding: +-3e-17


def test_leduc_in_floats_is_worth_minus_0_0856_to_the_first_player():
    tree = unroll(LeducPoker())
    solution = solve(tree)  # 1,093 sequences a player: 0.2 s
    assert abs(solution.value - (-0.0856064240780)) < 1e-9
    assert abs(measure(tree, solution.profile).exploitability) < 1e-9


def test_liars_dice_of_three_faces_exactly_and_in_floats():
    tree = unroll(LiarsDice(numdice=1, faces=3))
    exact = solve(tree, exact=True)  # 190 sequences a player: about a second
    assert exact.value == F(1, 9) and exact.method == "supports"
    assert abs(solve(tree).value - 1 / 9) < 1e-9
    assert measure(tree, exact.profile).exploitability == 0


def check_kuhn_family(solution: sequence_form.Solution) -> None:
    """The first player's strategy is one of Kuhn's: bet a Jack with some alpha in [0, 1/3], a
    King with 3 alpha, never a Queen; facing a bet after checking, call with a Queen with
    alpha + 1/3, always with a King, never with a Jack."""
    alpha = solution.strategy("J")["bet"]
    assert 0 <= alpha <= F(1, 3)
    assert solution.strategy("K")["bet"] == 3 * alpha
    assert solution.strategy("Q")["bet"] == 0
    assert solution.strategy("Q check bet")["call"] == alpha + F(1, 3)
    assert solution.strategy("J check bet")["call"] == 0
    if solution.strategy("K")["check"]:  # else a King never faces that bet: moves alike
        assert solution.strategy("K check bet")["call"] == 1


def test_kuhn_exact_first_player_is_in_kuhns_family():
    check_kuhn_family(solve(KUHN, exact=True))


def test_kuhn_by_the_exact_simplex_method_alone():
    solution = solve_exact(sequence_form.sequence_form(KUHN))
    assert solution.method == "simplex" and solution.value == F(-1, 18)
    check_kuhn_family(solution)
    assert measure(KUHN, solution.profile).exploitability == 0


def test_a_misleading_float_answer_falls_back_to_the_simplex_method():
    form = sequence_form.sequence_form(KUHN)
    nothing = np.zeros(13)
    wrong = FloatOptimum(x=nothing, y=nothing, x_slack=nothing, y_slack=nothing)
    solution = solve_exact(form, wrong)
    assert solution.method == "simplex" and solution.value == F(-1, 18)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=KUHN.actions, max_size=KUHN.actions))
def test_exploitability_of_random_kuhn_profiles_is_never_negative(weights):
    profile = np.array(weights) + 1e-3  # no set without weight
    sets = KUHN.action_start
    for i in range(len(KUHN.keys)):
        profile[sets[i] : sets[i + 1]] /= profile[sets[i] : sets[i + 1]].sum()
    assert measure(KUHN, profile).exploitability >= -1e-12


def matrices(low: int = -5, high: int = 5, most: int = 5) -> st.SearchStrategy[list[list[int]]]:
    return st.integers(1, most).flatmap(
        lambda rows: st.lists(
            st.lists(st.integers(low, high), min_size=rows, max_size=rows),
            min_size=1,
            max_size=most,
        )
    )


@settings(max_examples=60, deadline=None)
@given(matrices())
def test_matrix_games_value_is_the_matrix_solvers(rows):
    expected = matrix.solve(rows, exact=True).value
    tree = unroll(MatrixGame(rows))
    exact = solve(tree, exact=True)
    assert exact.value == expected
    assert abs(solve(tree).value - expected) < 1e-9
    # each player's strategy guarantees the value in the matrix game
    x, y = exact.strategy("rows").values(), exact.strategy("columns").values()
    columns = zip(*rows, strict=True)
    assert min(sum(p * a for p, a in zip(x, column, strict=True)) for column in columns) == expected
    assert max(sum(q * a for q, a in zip(y, row, strict=True)) for row in rows) == expected


@settings(max_examples=25, deadline=None)
@given(matrices(-3, 3, 4))
def test_matrix_games_by_the_exact_simplex_method_alone(rows):
    solution = solve_exact(sequence_form.sequence_form(unroll(MatrixGame(rows))))
    assert solution.method == "simplex"
    assert solution.value == matrix.solve(rows, exact=True).value


def test_textbook_tree_has_value_3():
    game = PerfectInformation(Tree.from_text(TEXTBOOK))
    exact = solve(game, exact=True)
    assert exact.value == 3
    assert abs(solve(game).value - 3) < 1e-9
    # the first player picks the first move (the others let the second player pay 2)
    assert exact.strategy("player 0 after ()") == {"0": 1, "1": 0, "2": 0}


def test_a_view_can_start_from_any_position():
    game = PerfectInformation(Tree.from_text(TEXTBOOK), (2,))
    assert game.legal_moves(game.initial_state()) == ("0", "1", "2")
    assert game.to_move(game.initial_state()) == 1
    assert solve(game, exact=True).value == 2  # the second player's best reply to move 2


def test_chance_tree_has_its_expectiminimax_value():
    # The textbook's dice: the first player chooses between two rolls, 6 for sure or 10 or 1.
    text = '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]'
    assert solve(PerfectInformation(Tree.from_text(text)), exact=True).value == 6
    # Chance first, then the second player minimises: (min(3, 5) + min(8, 1)) / 2.
    text = '{"chance": [[0.5, [[3, 5]]], [0.5, [[8, 1]]]]}'
    assert solve(PerfectInformation(Tree.from_text(text)), exact=True).value == 2


def trees() -> st.SearchStrategy[object]:
    """Small game trees: leaves, lists of moves, chance nodes of equally likely outcomes."""
    return st.recursive(
        st.integers(-4, 4),
        lambda children: st.one_of(
            st.lists(children, min_size=1, max_size=3),
            st.lists(children, min_size=2, max_size=3).map(
                lambda outcomes: {"chance": [[F(1, len(outcomes)), o] for o in outcomes]}
            ),
        ),
        max_leaves=12,
    )


def expectiminimax(node: object, player: int = 0) -> F:
    """The value of a tree for the first player, the way the tree module defines its turns."""
    if isinstance(node, int):
        return F(node)
    if isinstance(node, dict):
        return sum((p * expectiminimax(child, player) for p, child in node["chance"]), F(0))
    assert isinstance(node, list)
    values = [expectiminimax(child, 1 - player) for child in node]
    return max(values) if player == 0 else min(values)


@settings(max_examples=60, deadline=None)
@given(trees())
def test_trees_value_is_their_expectiminimax_value_by_every_route(nested):
    tree = unroll(PerfectInformation(Tree(nested)))
    expected = expectiminimax(nested)
    assert solve(tree, exact=True).value == expected
    assert solve_exact(sequence_form.sequence_form(tree)).value == expected
    assert abs(solve(tree).value - expected) < 1e-9


def test_a_game_without_choices_is_worth_its_expected_payoff():
    game = PerfectInformation(Tree.from_text('{"chance": [[0.5, 3], [0.5, 2]]}'))
    assert solve(game, exact=True).value == F(5, 2)
    assert solve(game).value == 2.5


def test_exact_simplex_solves_a_small_program():
    # minimise -z0 - z1 subject to z0 + z1 + s0 = 4, z0 + 3 z1 + s1 = 6: z = (4, 0) or (3, 1)
    # both optimal at -4; multipliers (1, 0) after the tie is broken.
    optimum = exact_simplex([{0: 1, 1: 1, 2: 1}, {0: 1, 1: 3, 3: 1}], [4, 6], {0: -1, 1: -1}, 4)
    assert -optimum.values[0] - optimum.values[1] == -4
    assert optimum.reduced_costs[2] == 1  # the first row's multiplier, as the dual's slack


def test_exact_simplex_finds_equalities_without_a_slack():
    # minimise z0 subject to z0 + z1 = 2, z0 - z1 = 0: only z = (1, 1) is feasible.
    optimum = exact_simplex([{0: 1, 1: 1}, {0: 1, 1: -1}], [2, 0], {0: 1}, 2)
    assert optimum.values == (1, 1)


def test_exact_simplex_refuses_infeasible_and_unbounded_programs():
    with pytest.raises(ValueError, match="no feasible point"):
        exact_simplex([{0: 1}, {0: 1}], [1, 2], {}, 1)
    with pytest.raises(ValueError, match="unbounded"):
        exact_simplex([{0: 1, 1: -1}], [0], {0: -1}, 2)


def test_exact_solutions_are_limited_in_sequences(monkeypatch):
    small = Limit(EXACT_SEQUENCES.what, 20, EXACT_SEQUENCES.cost)
    monkeypatch.setattr(sequence_form, "EXACT_SEQUENCES", small)
    with pytest.raises(ValueError, match="sequences of the two players for an exact solution 26"):
        solve(KUHN, exact=True)
    assert solve(KUHN, exact=True, lifted=True).value == F(-1, 18)
    assert solve(KUHN).value < 0  # floats have no such limit


def test_the_simplex_method_is_limited_in_sequences(monkeypatch):
    small = Limit(EXACT_SIMPLEX.what, 20, EXACT_SIMPLEX.cost)
    monkeypatch.setattr(sequence_form, "EXACT_SIMPLEX", small)
    form = sequence_form.sequence_form(KUHN)
    with pytest.raises(ValueError, match="for the exact simplex method 26 is over"):
        solve_exact(form)
    assert solve_exact(form, lifted=True).value == F(-1, 18)
    assert solve(KUHN, exact=True).method == "supports"  # the supports need no simplex


def test_matrix_game_view_moves_and_information_sets():
    game = MatrixGame([[1, 2, 3], [4, 5, 6]])
    start = game.initial_state()
    assert game.legal_moves(start) == ("row 1", "row 2")
    assert game.information_set(start) == "rows"
    after = [game.result(start, move) for move in game.legal_moves(start)]
    assert {game.information_set(state) for state in after} == {"columns"}
    assert game.legal_moves(after[1]) == ("column 1", "column 2", "column 3")
    end = game.result(after[1], "column 3")
    assert game.is_terminal(end) and game.utility(end, 0) == 6 and game.utility(end, 1) == -6
    with pytest.raises(ValueError, match="choose row 1 to row 2"):
        game.result(start, "row 3")
    with pytest.raises(ValueError):
        MatrixGame([[1, 2], [3]])


def test_perfect_information_view_keeps_the_games_moves_as_text():
    game = PerfectInformation(Tree.from_text(TEXTBOOK))
    start = game.initial_state()
    assert game.legal_moves(start) == ("0", "1", "2")
    state = game.result(start, "2")
    assert game.information_set(state) == "player 1 after ('2',)"
    end = game.result(state, "0")
    assert game.is_terminal(end) and game.utility(end, 0) == 14
    with pytest.raises(ValueError, match="not a legal move"):
        game.result(start, "3")


class _SameText:
    """Two moves written alike: a history could not tell them apart."""

    def initial_state(self):
        return 0

    def to_move(self, state):
        return 0

    def legal_moves(self, state):
        return (1, 2) if state == 0 else ()

    def result(self, state, move):
        return move

    def is_terminal(self, state):
        return state != 0

    def utility(self, state, player):
        return state if player == 0 else -state

    def format_move(self, state, move):
        return "move"

    def parse_move(self, state, text):
        return 1


def test_perfect_information_view_refuses_moves_written_alike():
    with pytest.raises(ValueError, match="same text"):
        game = PerfectInformation(_SameText())
        game.legal_moves(game.initial_state())
