"""TD(λ) on Pig: the exact check against the optimal player, training, saving and search."""

import json
from dataclasses import replace
from fractions import Fraction

import pytest

pytest.importorskip("jax")

from zerosum.games.pig import HOLD, ROLL, Pig  # noqa: E402
from zerosum.learn.td import (  # noqa: E402
    LearnedPig,
    TDSettings,
    hold_at,
    load,
    save,
    train_td,
    win_probability_against_optimal,
)
from zerosum.search.expectiminimax import expectiminimax  # noqa: E402
from zerosum.solve.pig import solve_pig  # noqa: E402

TARGET = 20
SETTINGS = TDSettings(TARGET, hidden=16, lam=0.7, alpha=0.1, halving=0, exploration=0.1, seed=3)
FLOOR = 0.499
"""The mean win probability against optimal play that 1,000 games of TD(λ) to 20 must reach.

They reach 0.5: the learned policy is as good as the optimal one (to 20 that is rolling on
to the target, which the network must learn); untrained it gets 0.16, and holding at any
turn total short of the target at most 0.457."""


@pytest.fixture(scope="module")
def trained():
    return train_td(SETTINGS, 1_000)


@pytest.mark.parametrize("target", [2, 3, 20])
def test_the_optimal_policy_against_itself_wins_w_first_and_one_minus_w_second(target):
    solution = solve_pig(target)
    result = win_probability_against_optimal(target, solution.should_roll, solution=solution)
    assert result.first == pytest.approx(solution.win_probability(), abs=1e-14)
    assert result.second == pytest.approx(1 - solution.win_probability(), abs=1e-14)
    assert result.mean == pytest.approx(0.5, abs=1e-14)


def test_holding_at_the_first_chance_to_three_is_worked_out_by_hand():
    # Target 3: a 3 or more wins at once, a 2 makes a turn total of 2. Policy A holds it
    # (banks 2); the optimal B rolls on (5/6 to win at once beats any hold). A player with 2
    # banked wins with any face but 1. With x = A to move, y = B to move (A's chances):
    #   (2,2): x = 5/6 + y/6, y = x/6                  -> x = 6/7, y = 1/7
    #   (2,0): x = 5/6 + y/6, y = x/6 + x/36           -> x = 180/209, y = 35/209
    #   (0,2): x = 4/6 + (1/7)/6 + y/6, y = x/6        -> x = 174/245
    #   (0,0): x = 4/6 + (35/209)/6 + y/6, y = 7x/36   -> x = 31356/43681, y = 6097/43681
    result = win_probability_against_optimal(3, hold_at(1))
    assert result.first == pytest.approx(float(Fraction(31356, 43681)), abs=1e-15)
    assert result.second == pytest.approx(float(Fraction(6097, 43681)), abs=1e-15)


def test_pig_to_two_is_won_six_sevenths_by_the_first_player_whatever_the_policy():
    result = win_probability_against_optimal(2, hold_at(1))
    assert result.first == pytest.approx(6 / 7, abs=1e-15)
    assert result.second == pytest.approx(1 / 7, abs=1e-15)


def test_holding_at_20_to_30_wins_0_4213_against_optimal_and_rolling_once_far_less():
    assert win_probability_against_optimal(30, hold_at(20)).mean == pytest.approx(
        0.4213177083, abs=1e-10
    )
    assert win_probability_against_optimal(30, hold_at(1)).mean < 0.1


def test_a_solution_for_another_target_is_refused():
    with pytest.raises(ValueError, match="the solution is for target 3, not 4"):
        win_probability_against_optimal(4, hold_at(2), solution=solve_pig(3))


def test_1000_games_of_td_to_20_reach_the_floor_that_the_untrained_network_misses(trained):
    untrained = train_td(SETTINGS, 0)
    assert win_probability_against_optimal(TARGET, untrained.should_roll).mean < FLOOR - 0.1
    learned = win_probability_against_optimal(TARGET, trained.should_roll)
    assert learned.mean >= FLOOR
    best_hold = max(
        win_probability_against_optimal(TARGET, hold_at(k)).mean for k in range(2, TARGET)
    )
    assert learned.mean > best_hold
    assert trained.episodes == 1_000


def test_training_is_reproducible_and_continues_where_it_stopped(trained):
    again = train_td(SETTINGS, 600)
    continued = train_td(SETTINGS, 400, start=again)
    for name, array in trained.parameters.items():
        assert (continued.parameters[name] == array).all()
    assert continued.episodes == 1_000


def test_training_reports_progress_and_stops_when_asked():
    seen = []

    def on_progress(done, episodes):
        seen.append((done, episodes))

    evaluation = train_td(
        SETTINGS, 1_000, chunk=200, on_progress=on_progress, stop=lambda: len(seen) == 2
    )
    assert seen == [(200, 1_000), (400, 1_000)]
    assert evaluation.episodes == 400
    with pytest.raises(ValueError, match="a chunk must hold at least 1 game, got 0"):
        train_td(SETTINGS, 10, chunk=0)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"lam": 1.5}, "λ (lam) must be between 0 and 1, got 1.5"),
        ({"alpha": 0}, "the step size α (alpha) must be above 0"),
        ({"target": 1}, "the target must be at least 2 points"),
        ({"halving": -1}, "the games halving α must be 0 (never) or more, got -1"),
    ],
)
def test_bad_settings_are_refused_with_the_reason(change, message):
    settings = replace(SETTINGS, **change)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        train_td(settings, 10)


def test_the_evaluation_is_two_v_minus_one_for_the_mover_and_exact_at_the_end(trained):
    state = (1, 5, 8, 4, False)  # player 1 to move: 8 banked against 5, turn total 4
    v = trained.win_probability(8, 5, 4)
    assert trained.evaluate(state, 1) == pytest.approx(2 * v - 1)
    assert trained.evaluate(state, 0) == pytest.approx(1 - 2 * v)
    assert trained.evaluate((0, 20, 7, 0, False), 0) == 1.0
    assert trained.evaluate((0, 20, 7, 0, False), 1) == -1.0
    with pytest.raises(ValueError, match="no position with scores 15, 3 and turn total 5"):
        trained.win_probability(15, 3, 5)


def test_expectiminimax_at_depth_one_plays_the_greedy_policy_and_depth_two_a_legal_move(trained):
    game = LearnedPig(trained)
    for text in ("0 0 8 0", "12 15 4 1", "17 3 2 0", "5 10 9 1"):
        state = game.parse_state(text)
        assert expectiminimax(game, state, depth=1).best_move == trained.best_move(state)
        assert expectiminimax(game, state, depth=2).best_move in (ROLL, HOLD)


def test_a_saved_evaluation_loads_with_identical_values(trained, tmp_path):
    save(trained, tmp_path / "model")
    loaded = load(tmp_path / "model")
    assert loaded.settings == trained.settings and loaded.episodes == 1_000
    for position in [(0, 0, 0), (10, 4, 6), (19, 19, 0)]:
        assert loaded.win_probability(*position) == trained.win_probability(*position)
    manifest = json.loads((tmp_path / "model" / "manifest.json").read_text())
    assert manifest["game"] == "pig(target=20)" and manifest["format"] == "zerosum-td-pig"


def _refusal(tmp_path, trained, spoil):
    folder = tmp_path / "model"
    save(trained, folder)
    spoil(folder)
    with pytest.raises(ValueError) as error:
        load(folder)
    message = str(error.value)
    assert "\n" not in message and str(folder) in message
    return message


def test_a_truncated_parameter_file_is_refused_in_one_line(trained, tmp_path):
    def truncate(folder):
        data = (folder / "parameters.npz").read_bytes()
        (folder / "parameters.npz").write_bytes(data[: len(data) // 2])

    assert "parameters.npz is damaged or was changed" in _refusal(tmp_path, trained, truncate)


def test_a_truncated_manifest_is_refused_in_one_line(trained, tmp_path):
    def truncate(folder):
        text = (folder / "manifest.json").read_text()
        (folder / "manifest.json").write_text(text[:40])

    assert "damaged or truncated" in _refusal(tmp_path, trained, truncate)


def test_a_foreign_directory_is_refused_in_one_line(trained, tmp_path):
    def foreign(folder):
        (folder / "manifest.json").write_text(json.dumps({"format": "alphazero", "version": 1}))

    assert "not a zerosum TD evaluation (format 'alphazero'" in _refusal(tmp_path, trained, foreign)


def test_tampered_parameters_are_refused_in_one_line(trained, tmp_path):
    def tamper(folder):
        data = bytearray((folder / "parameters.npz").read_bytes())
        data[len(data) // 2] ^= 1
        (folder / "parameters.npz").write_bytes(bytes(data))

    assert "SHA-256 is not the recorded one" in _refusal(tmp_path, trained, tamper)


def test_a_missing_directory_or_manifest_is_refused_in_one_line(tmp_path):
    with pytest.raises(ValueError, match="no such directory"):
        load(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="no manifest.json, so not a saved TD evaluation"):
        load(tmp_path)


def test_another_version_is_refused_in_one_line(trained, tmp_path):
    def newer(folder):
        manifest = json.loads((folder / "manifest.json").read_text())
        (folder / "manifest.json").write_text(json.dumps({**manifest, "version": 2}))

    assert "format version 2, this zerosum reads version 1" in _refusal(tmp_path, trained, newer)


def test_the_learned_pig_is_a_pig_of_the_evaluation_s_target(trained):
    game = LearnedPig(trained)
    assert isinstance(game, Pig) and game.target == TARGET
