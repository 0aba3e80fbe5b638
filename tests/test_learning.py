"""Self-play learning (zerosum.learn): the network, batched self-play, the training loop, its
kept runs, the az player and the learned evaluation, and `zerosum train`.

One short seeded run on tic-tac-toe (about 20 seconds, shared by the module) is the proof
that it learns: a network searching 16 simulations a move never loses to perfect play, where
the same search with uniform priors and no value loses half its games.
"""

from __future__ import annotations

import gc
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.learn import network, selfplay, training
from zerosum.learn.player import network_player
from zerosum.match import play_match
from zerosum.players import parse_player, player_maker, trained
from zerosum.registry import setup
from zerosum.search.mcts import MCTS

TTT = setup("tictactoe").game
SIMULATIONS = 16
PLAN = training.Plan(
    "tictactoe",
    hidden=(64, 64),
    simulations=25,
    games_per_round=32,
    replays=16,
    learning_rate=3e-3,
    temperature_moves=1,
    seed=1,
)


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory: pytest.TempPathFactory) -> str:
    directory = str(tmp_path_factory.mktemp("learning") / "run")
    run = training.start(directory, PLAN, TTT)
    training.train(run, TTT, rounds=40)
    return directory


def uniform(state):
    return {move: 1.0 for move in TTT.legal_moves(state)}, 0.0


def test_a_short_run_never_loses_to_perfect_play_where_uniform_priors_do(trained_run):
    evaluation = trained(trained_run, TTT)
    solver = player_maker("solver", TTT)
    learned = play_match(
        TTT, lambda s: network_player(TTT, evaluation, SIMULATIONS, 1.5, s), solver, 20
    )
    assert learned.losses == 0 and learned.games == 20
    blind = play_match(
        TTT,
        lambda s: MCTS(TTT, iterations=SIMULATIONS, c=1.5, evaluator=uniform, seed=s).choose,
        solver,
        20,
    )
    assert blind.losses >= 5


def test_the_value_of_the_empty_board_is_near_a_draw_and_of_a_won_position_near_a_win(
    trained_run,
):
    evaluation = trained(trained_run, TTT)
    assert abs(evaluation.value(TTT.initial_state())) < 0.35
    # X in a corner, O beside it on an edge: a reply that loses, X to move wins
    assert evaluation.value(TTT.parse_state("XO.......")) > 0.6


def test_the_az_player_plays_from_a_spec_in_a_match(trained_run):
    spec = f"az:{trained_run},simulations=16"
    result = play_match(TTT, player_maker(spec, TTT), player_maker("random", TTT), 6)
    assert result.losses == 0
    engine = f"engine:depth=2,eval=az:{trained_run}"
    result = play_match(TTT, player_maker(engine, TTT), player_maker("random", TTT), 6)
    assert result.wins + result.draws == 6


def test_the_learned_evaluation_is_the_networks_value_for_the_side_asked(trained_run):
    from zerosum.players import _with_evaluation

    game = _with_evaluation(TTT, {"eval": f"az:{trained_run}", "depth": 1}, "engine")
    evaluation = trained(trained_run, TTT)
    state = TTT.parse_state("XO.......")
    assert game.evaluate(state, 0) == pytest.approx(evaluation.value(state))
    assert game.evaluate(state, 1) == pytest.approx(-evaluation.value(state))


def test_player_specs_of_the_az_player_are_checked():
    assert parse_player("az:runs/x,simulations=50").options == {
        "directory": "runs/x",
        "simulations": 50,
    }
    for text, message in [
        ("az", "needs its directory first"),
        ("az:simulations=5", "needs its directory first"),
        ("az:d,simulations=0", "simulations must be a whole number from 1"),
        ("az:d,depth=3", "has no option 'depth'"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_player(text)
    with pytest.raises(ValueError, match="needs depth=N"):
        player_maker("alphabeta:eval=az:d", TTT)
    with pytest.raises(ValueError, match="unknown evaluation"):
        player_maker("engine:depth=2,eval=nn:x", TTT)


def test_a_network_of_another_game_is_refused(trained_run):
    connect4 = setup("connect4(width=4, height=4)").game
    with pytest.raises(
        ValueError,
        match=r"learned tictactoe, not this game \(ConnectFour, positions of shape \(4, 4, 2\)\)",
    ):
        trained(trained_run, connect4)


# The network and self-play


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), rows=st.integers(1, 5))
def test_the_forward_pass_is_the_same_under_numpy_and_jax(seed, rows):
    import jax.numpy as jnp

    shape = network.Shape(18, (16, 8), 9)
    params = network.initial(shape, seed)
    params = {k: v + np.float32(0.1) for k, v in params.items()}  # biases not all zero
    inputs = np.random.default_rng(seed).integers(0, 2, (rows, 18)).astype(np.float32)
    scores, values = network.forward(params, inputs, np)
    jax_params = {k: jnp.asarray(v) for k, v in params.items()}
    jax_scores, jax_values = network.forward(jax_params, jnp.asarray(inputs), jnp)
    np.testing.assert_allclose(scores, np.asarray(jax_scores), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, np.asarray(jax_values), rtol=1e-5, atol=1e-5)
    assert scores.shape == (rows, 9) and values.shape == (rows,)
    assert np.all(np.abs(values) <= 1)


def test_a_batch_of_positions_gets_the_answers_each_gets_alone():
    params = network.initial(network.shape_for(TTT, (16,)), 3)
    evaluation = selfplay.Evaluation(TTT, params)
    states = [TTT.initial_state(), TTT.parse_state("X.O.X.O.."), TTT.parse_state("XO.......")]
    for (priors, value), state in zip(evaluation.batch(states), states, strict=True):
        alone_priors, alone_value = evaluation(state)
        assert set(priors) == set(TTT.legal_moves(state))
        assert sum(priors.values()) == pytest.approx(1)
        assert priors == pytest.approx(alone_priors) and value == pytest.approx(alone_value)


def test_self_play_examples_are_its_positions_with_their_visits_and_results():
    params = network.initial(network.shape_for(TTT, (16,)), 0)
    examples = selfplay.play(TTT, params, selfplay.Settings(simulations=8), 6, seed=5)
    assert 6 * 5 <= len(examples) <= 6 * 9  # every game lasts 5 to 9 moves
    assert examples.observations.shape == (len(examples), 18)
    np.testing.assert_allclose(examples.policies.sum(axis=1), 1, rtol=1e-6)
    assert not np.any(examples.policies[~examples.legal])  # visits go to legal moves only
    assert set(np.unique(examples.values)) <= {-1.0, 0.0, 1.0}
    # the first example of each game is the empty board, with all nine moves legal
    empty = np.all(examples.observations == 0, axis=1)
    assert empty.sum() == 6 and np.all(examples.legal[empty])
    again = selfplay.play(TTT, params, selfplay.Settings(simulations=8), 6, seed=5)
    np.testing.assert_array_equal(again.policies, examples.policies)  # seeded


def test_puct_scores_a_position_once_and_expands_it_with_those_priors():
    calls = []

    def counting(state):
        calls.append(state)
        return uniform(state)

    result = MCTS(TTT, iterations=100, evaluator=counting, seed=1, solver=False).search(
        TTT.initial_state()
    )
    # one question a new node (a finished game needs none); expanding it asked again before
    assert len(calls) <= result.iterations


def test_games_that_self_play_cannot_learn_are_refused_with_the_reason():
    for name, message in [
        ("pig", "has dice"),
        ("chess", "does not provide NumberedMoves"),
    ]:
        with pytest.raises(ValueError, match=message):
            network.shape_for(setup(name).game, (8,))


# Kept runs


def test_a_resumed_run_goes_on_exactly_as_one_that_did_not_stop(tmp_path):
    plan = training.Plan("tictactoe", hidden=(16,), simulations=4, games_per_round=4,
                         gate_games=2, seed=7)  # fmt: skip
    straight = training.start(str(tmp_path / "a"), plan, TTT)
    training.train(straight, TTT, rounds=2)
    stopped = training.start(str(tmp_path / "b"), plan, TTT)
    training.train(stopped, TTT, rounds=1)
    resumed = training.resume(str(tmp_path / "b"))
    assert resumed.progress.rounds == 1 and len(resumed.buffer) == len(stopped.buffer)
    np.testing.assert_array_equal(resumed.buffer.policies, stopped.buffer.policies)
    training.train(resumed, TTT, rounds=1)
    assert resumed.progress.steps == straight.progress.steps
    assert resumed.progress.games == straight.progress.games == 8
    for name, value in straight.params.items():
        np.testing.assert_allclose(resumed.params[name], value, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(resumed.buffer.values, straight.buffer.values)
    kept = sorted(p.name for p in (tmp_path / "b").iterdir())
    assert kept == [
        "best-000002.npz", "buffer-000002.npz", "log.jsonl", "manifest.json",
        "optimizer-000002.npz", "params-000002.npz",
    ]  # fmt: skip


def test_a_round_learns_the_same_from_the_compiled_search_as_from_the_python_one(tmp_path):
    plan = training.Plan("tictactoe", hidden=(16,), simulations=6, games_per_round=4,
                         gate_games=2, seed=3)  # fmt: skip
    runs = {}
    for impl in ("python", "compiled"):
        runs[impl] = training.start(str(tmp_path / impl), plan, TTT)
        training.train(runs[impl], TTT, rounds=1, impl=impl)
    np.testing.assert_array_equal(runs["compiled"].buffer.policies, runs["python"].buffer.policies)
    for name, value in runs["python"].params.items():
        np.testing.assert_array_equal(runs["compiled"].params[name], value)


def test_self_play_workers_run_numpy_on_one_thread_and_this_process_keeps_its_own():
    before = {name: os.environ.get(name) for name in training.BLAS_THREADS}
    with training._self_players(2, lambda: None) as mapper:
        seen = list(mapper(os.getenv, [(name,) for name in training.BLAS_THREADS]))
    assert seen == ["1"] * len(training.BLAS_THREADS)
    assert {name: os.environ.get(name) for name in training.BLAS_THREADS} == before


@pytest.fixture
def small_run(tmp_path) -> Path:
    plan = training.Plan("tictactoe", hidden=(8,), simulations=2, games_per_round=2,
                         gate_games=2, seed=1)  # fmt: skip
    training.train(training.start(str(tmp_path / "run"), plan, TTT), TTT, rounds=1)
    return tmp_path / "run"


def test_damaged_truncated_or_foreign_runs_are_refused_in_one_line(small_run, tmp_path):
    best = next(small_run.glob("best-*.npz"))
    data = best.read_bytes()
    best.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"best-000001.npz is damaged or was changed"):
        trained(str(small_run), TTT)
    best.write_bytes(data)
    trained(str(small_run), TTT)  # whole again
    manifest = small_run / "manifest.json"
    text = manifest.read_text()
    manifest.write_text(text[:100])
    with pytest.raises(ValueError, match="manifest.json is damaged: not a run's manifest"):
        training.resume(str(small_run))
    manifest.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="is not a zerosum training run's manifest"):
        trained(str(small_run), TTT)
    manifest.write_text(text.replace('"version": 2', '"version": 99'))
    with pytest.raises(ValueError, match="format version 99; this zerosum reads version 2"):
        training.resume(str(small_run))
    with pytest.raises(ValueError, match="holds no training run"):
        trained(str(tmp_path), TTT)


def test_a_run_does_not_start_over_another(small_run):
    with pytest.raises(ValueError, match="holds a run already: --resume goes on with it"):
        training.start(str(small_run), PLAN, TTT)


# The command


def test_train_refuses_bad_options_in_one_line(cli, tmp_path):
    for arguments, message in [
        (["--time", "soon"], "--time takes a duration such as 90s, 30m or 1h"),
        (["--time", "0s"], "--time must be more than 0"),
        (["--hidden", "64,x"], "--hidden takes 1 to 8 layer widths"),
        (["--games", "0"], "--games must be at least 1"),
        (["--opponent", "wizard"], "unknown player 'wizard'"),
        (["--resume"], "out is not a directory of a training run"),
    ]:
        out = tmp_path / "out"
        code, _, err = cli("train", "tictactoe", "--out", str(out), *arguments)
        assert code == 2 and err.count("\n") == 1 and message in err, (arguments, err)
    code, _, err = cli("train", "kuhn", "--out", str(tmp_path / "k"))
    assert code == 2 and "imperfect information" in err
    code, _, err = cli("train", "othello", "--impl", "compiled", "--out", str(tmp_path / "o"))
    assert code == 2 and err.count("\n") == 1 and "Othello has no compiled rules with" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "flag, value, limit",
    [
        ("--simulations", "100001", "self-play simulations a move 100,001 is over the limit"),
        ("--simulations", "9" * 20, "self-play simulations a move of 20 digits is over"),
        ("--games-per-round", "10001", "self-play games a round 10,001 is over the limit"),
        ("--games", "1000000001", "games of a training run 1,000,000,001 is over the limit"),
        ("--rounds", "10000001", "rounds of training 10,000,001 is over the limit"),
    ],
)
def test_train_refuses_a_job_past_its_limits_before_its_first_file(
    cli, tmp_path, flag, value, limit
):
    # Each was taken, and the run went on for ever: a move, a round or the run never ended.
    # No run can be made under a file: the limit is what refuses it, before any file.
    (tmp_path / "file").write_text("")
    err = cli.error("train", "tictactoe", "--out", str(tmp_path / "file" / "run"), flag, value)
    assert limit in err and "pass --no-limit" not in err, err


def test_ctrl_c_leaves_a_run_that_plays_and_resumes(tmp_path):
    directory = tmp_path / "run"
    command = [sys.executable, "-m", "zerosum", "train", "tictactoe", "--out", str(directory),
               "--simulations", "4", "--games-per-round", "4", "--hidden", "8",
               "--workers", "2", "--time", "10m"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in process.stdout:  # the second round's line: one round at least is kept
            lines.append(line)
            if line.startswith("round 2,"):
                break
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, (lines, err)
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "--resume goes on" in out
    kept = training.resume(str(directory))
    assert kept.progress.rounds >= 2
    said = re.search(r"stopped: .* keeps round (\d+) ", out)
    assert said is not None and int(said[1]) == kept.progress.rounds  # the round on disk
    result = play_match(TTT, player_maker(f"az:{directory}", TTT), player_maker("random", TTT), 2)
    assert result.games == 2
    env = dict(os.environ)
    code = subprocess.run(
        [
            sys.executable,
            "-m",
            "zerosum",
            "train",
            "tictactoe",
            "--out",
            str(directory),
            "--resume",
            "--rounds",
            "1",
            "--workers",
            "1",
            "--json",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert code.returncode == 0, code.stderr
    report = json.loads(code.stdout[code.stdout.index("{") :])
    assert report["round"] == kept.progress.rounds + 1


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_in_a_garbage_collection_stops_training_at_its_next_stop_point(tmp_path, workers):
    """Python runs SIGINT's handler wherever the main thread is: in a call back of the garbage
    collector (JAX has one, and any allocation may run it), a KeyboardInterrupt is printed as
    ignored and lost, and training went on. Here Ctrl-C comes in the first collection after
    round 1: training stops in round 2, with round 1 kept."""
    plan = training.Plan("tictactoe", hidden=(8,), simulations=4, games_per_round=4,
                         gate_games=2, seed=3)  # fmt: skip
    run = training.start(str(tmp_path / "run"), plan, TTT)
    reported: list[int] = []
    pressed: list[int] = []

    def press(phase: str, info: dict) -> None:
        if phase == "start" and reported and not pressed:
            pressed.append(reported[-1])
            signal.raise_signal(signal.SIGINT)  # its handler runs here, in the collection

    # Python's own Ctrl-C, as in a terminal: a pytest-xdist worker starts with SIGINT ignored,
    # and training leaves a caller's choice of SIGINT as it is
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    thresholds = gc.get_threshold()  # and Python's collector, which a test before may have tuned
    gc.set_threshold(700, 10, 10)
    gc.callbacks.append(press)
    try:
        with pytest.raises(KeyboardInterrupt):
            training.train(run, TTT, rounds=4, workers=workers,
                           on_progress=lambda p: reported.append(p.rounds))  # fmt: skip
    finally:
        gc.callbacks.remove(press)
        gc.set_threshold(*thresholds)
        signal.signal(signal.SIGINT, previous)
    assert pressed == [1] and reported == [1]
    assert training.resume(str(tmp_path / "run")).progress.rounds == 1


def test_stop_points_record_ctrl_c_and_raise_it_at_a_poll_or_the_blocks_end():
    went_on = []
    with pytest.raises(KeyboardInterrupt), training.stop_points() as poll:
        signal.raise_signal(signal.SIGINT)  # recorded, not raised
        went_on.append(True)
        with pytest.raises(KeyboardInterrupt):
            poll()
        with pytest.raises(KeyboardInterrupt), training.stop_points():  # nested: the same record
            went_on.append(True)
    assert went_on == [True, True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_stop_points_leave_a_handler_of_the_callers_own_alone():
    calls: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        with training.stop_points() as poll:
            signal.raise_signal(signal.SIGINT)
            poll()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == [signal.SIGINT]


OWN_GAME = """
class TakeOneOrTwo:
    \"\"\"A heap of five tokens; take one or two; whoever takes the last one wins.\"\"\"

    def initial_state(self):
        return (5, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [take for take in (1, 2) if take <= state[0]]

    def result(self, state, move):
        return (state[0] - move, 1 - state[1])

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        return 1 if player != state[1] else -1

    def move_count(self):
        return 2

    def move_number(self, move):
        return move - 1

    def numbered_move(self, number):
        return number + 1

    def observation_shape(self):
        return (6,)

    def observation(self, state, player):
        return [int(size == state[0]) for size in range(6)]
"""


def test_a_game_of_the_users_own_file_trains_in_worker_processes(tmp_path):
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / "take_one_or_two.py").write_text(OWN_GAME)
    elsewhere = tmp_path / "elsewhere"  # the file's folder is not the workers' directory
    elsewhere.mkdir()
    spec = f"{folder / 'take_one_or_two.py'}:TakeOneOrTwo"
    command = [sys.executable, "-m", "zerosum", "train", spec, "--out", str(tmp_path / "run"),
               "--simulations", "2", "--games-per-round", "4", "--hidden", "8",
               "--workers", "2", "--rounds", "1", "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=elsewhere, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["game"], report["round"], report["games"]) == (spec, 1, 4)
    assert training.read_manifest(str(tmp_path / "run"))["game"] == spec


def test_the_gate_comes_every_so_many_rounds_and_the_log_says_so(tmp_path):
    from zerosum.learn.log import read_log

    plan = training.Plan("tictactoe", hidden=(8,), simulations=2, games_per_round=2,
                         gate_games=2, gate_every=2, opponents=("random",),
                         evaluation_games=2)  # fmt: skip
    run = training.start(str(tmp_path / "run"), plan, TTT)
    training.train(run, TTT, opponents={"random": player_maker("random", TTT)}, rounds=3)
    log = read_log(tmp_path / "run")
    assert len(log.rounds) == 3 and len(log.gates) == 1
    assert [r.games for r in log.rounds] == [2, 4, 6] and log.gates[0].games == 4
    accepted = log.gates[0].accepted
    assert len(log.evaluations) == (1 if accepted else 0)
    assert run.progress.best_round == (2 if accepted else 0)


# Pig learns by TD(lambda) through the same command


def test_train_pig_learns_by_td_keeps_it_and_measures_it_exactly(cli, tmp_path):
    directory = str(tmp_path / "pig")
    report = cli.json("train", "pig(target=20)", "--games", "1000", "--out", directory,
                      progress=True)  # fmt: skip
    assert report["games"] == 1000
    against = report["against_optimal"]
    assert against["mean"] == pytest.approx((against["first"] + against["second"]) / 2)
    assert against["mean"] > 0.49  # an untrained network wins 0.156 (tests/test_td_pig.py)
    resumed = cli.json("train", "pig(target=20)", "--games", "1500", "--out", directory,
                       "--resume", progress=True)  # fmt: skip
    assert resumed["games"] == 1500
    pig = setup("pig(target=20)").game
    result = play_match(
        pig, player_maker(f"expectiminimax:depth=1,eval=td:{directory}", pig),
        player_maker("random", pig), 4,
    )  # fmt: skip
    assert result.games == 4
    code, _, err = cli("train", "pig", "--simulations", "5", "--out", str(tmp_path / "x"))
    assert code == 2 and "Pig learns by TD(lambda)" in err
    for spec, message in [
        (f"expectiminimax:eval=td:{directory}", "needs depth=N"),
        (f"engine:depth=2,eval=td:{directory}", "cannot play a game with dice"),
    ]:
        with pytest.raises(ValueError, match=message):
            player_maker(spec, pig)
    with pytest.raises(ValueError, match=r"learned pig\(target=20\), not this game"):
        player_maker(f"expectiminimax:depth=1,eval=td:{directory}", setup("pig").game)


def test_training_without_jax_names_the_extra_before_writing_anything(cli, tmp_path, monkeypatch):
    for module in ("jax", "jax.numpy", "optax"):
        monkeypatch.setitem(sys.modules, module, None)  # an import of it fails
    monkeypatch.delitem(sys.modules, "zerosum.learn.optimizer", raising=False)
    for game, budget in [("tictactoe", "--rounds"), ("pig(target=20)", "--games")]:
        out = tmp_path / "out"
        code, _, err = cli("train", game, "--out", str(out), budget, "1")
        assert code == 2 and err.count("\n") == 1, err
        assert "pip install 'zerosum[learn]'" in err
        assert not out.exists()
