"""zerosum's games as PettingZoo environments (`zerosum.adapters.pettingzoo`): PettingZoo's
own API test, episodes that end as the same game played directly, and the games refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test  # the test extra installs PettingZoo: CI runs these

from zerosum.adapters.pettingzoo import AGENTS, ZerosumEnv, env, raw_env
from zerosum.games.backgammon import Backgammon
from zerosum.games.chess import Chess
from zerosum.games.connect4 import ConnectFour
from zerosum.games.kuhn import KuhnPoker
from zerosum.games.nim import Nim
from zerosum.games.othello import Othello
from zerosum.games.tictactoe import TicTacToe
from zerosum.players import Seat, environment_policy, make_player, parse_player
from zerosum.registry import entry_of

GAMES = {
    "tictactoe": TicTacToe,
    "connect4": ConnectFour,
    "othello": Othello,
    "nim": Nim,
}


@pytest.mark.parametrize("name", GAMES)
def test_environment_passes_pettingzoos_api_test(name):
    with warnings.catch_warnings():  # its advice on dict observations, as for its own games
        warnings.simplefilter("ignore", UserWarning)
        api_test(ZerosumEnv(GAMES[name](), render_mode="ansi"), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_wrapped_environment_passes_pettingzoos_api_test(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(GAMES[name](), render_mode="ansi"), num_cycles=300)


def test_raw_env_is_the_environment_without_wrappers():
    assert raw_env is ZerosumEnv
    assert type(env(TicTacToe()).unwrapped) is ZerosumEnv


def test_wrapped_environment_refuses_a_step_before_reset_and_an_action_out_of_range():
    wrapped = env(TicTacToe())
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        wrapped.step(4)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        _ = wrapped.agent_selection
    wrapped.reset()
    with pytest.raises(AssertionError, match="action is not in action space"):
        wrapped.step(9)
    with pytest.raises(ValueError, match="4 is not a legal move's number for player_1"):
        wrapped.step(4)
        wrapped.step(4)


def test_wrapped_environment_with_an_illegal_reward_ends_the_game_on_an_illegal_move():
    wrapped = env(TicTacToe(), illegal_reward=-1)
    wrapped.reset()
    wrapped.step(4)
    with warnings.catch_warnings():  # PettingZoo's own warning that the move was illegal
        warnings.simplefilter("ignore", UserWarning)
        wrapped.step(4)  # O on X's centre
    assert wrapped.rewards == {"player_0": 0, "player_1": -1}
    assert all(wrapped.terminations.values())


def test_a_zerosum_player_plays_through_the_wrapped_environment():
    _, rewards = episode(env(TicTacToe()), {"player_0": "solver", "player_1": "solver"})
    assert rewards == {"player_0": 0, "player_1": 0}


def test_observation_is_the_board_from_the_agents_side_and_the_mask_its_moves():
    env = ZerosumEnv(TicTacToe())
    env.reset()
    assert env.agent_selection == "player_0"
    env.step(4)  # X takes the centre
    seen = env.observe("player_1")
    assert seen["observation"].shape == (3, 3, 2)
    assert seen["observation"][1, 1].tolist() == [0, 1]  # O's own plane first: the centre is X's
    assert seen["action_mask"].tolist() == [1, 1, 1, 1, 0, 1, 1, 1, 1]
    assert env.observe("player_0")["action_mask"].sum() == 0  # not its turn
    with pytest.raises(ValueError, match="4 is not a legal move's number for player_1"):
        env.step(4)


def episode(environment, specs: dict[str, str]) -> tuple[object, dict[str, float]]:
    """The last position and each agent's reward of an episode in which each agent is played
    by the zerosum player of its spec (`environment` a `ZerosumEnv`, wrapped or not)."""
    environment.reset()
    policies = {agent: environment_policy(spec, environment) for agent, spec in specs.items()}
    rewards = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            rewards[agent] = reward
            environment.step(None)
        else:
            environment.step(policies[agent](observation, agent))
    return environment.position, rewards


def direct(game, specs: list[str]) -> tuple[object, list[float]]:
    """The last position and each player's utility of the game played directly."""
    players = [make_player(parse_player(spec), game, Seat(entry_of(game))) for spec in specs]
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.result(state, players[game.to_move(state)](state))
    return state, [game.utility(state, player) for player in (0, 1)]


@pytest.mark.parametrize(
    ("game", "specs"),
    [
        (TicTacToe(), ["solver", "solver"]),
        (
            ConnectFour(width=5, height=4),
            ["engine:depth=4,impl=python", "mcts:iterations=60,impl=python"],
        ),
        (Nim(heaps=(2, 3, 4)), ["solver", "random"]),
    ],
)
def test_episode_of_two_zerosum_players_ends_as_the_game_played_directly(game, specs):
    last, rewards = episode(ZerosumEnv(game), dict(zip(AGENTS, specs, strict=True)))
    state, utilities = direct(game, specs)
    assert game.key(last) == game.key(state)
    assert [rewards["player_0"], rewards["player_1"]] == utilities
    assert sum(utilities) == 0


def test_tic_tac_toe_between_solvers_is_a_draw_through_the_environment():
    _, rewards = episode(ZerosumEnv(TicTacToe()), {"player_0": "solver", "player_1": "solver"})
    assert rewards == {"player_0": 0, "player_1": 0}


@pytest.mark.parametrize(
    ("game", "reason"),
    [
        (KuhnPoker(), "KuhnPoker hides information"),
        (Backgammon(), "Backgammon has chance"),
        (Chess(), "Chess does not number its moves (NumberedMoves"),
    ],
)
def test_games_an_environment_cannot_hold_are_refused_with_the_reason(game, reason):
    with pytest.raises(ValueError, match=reason.replace("(", r"\(")):
        ZerosumEnv(game)


def test_nim_moves_are_numbered_heap_by_heap():
    game = Nim(heaps=(3, 5, 8))
    assert game.move_count() == 24
    numbers = [game.move_number(move) for move in game.legal_moves(game.initial_state())]
    assert sorted(numbers) == sorted(set(numbers)) and max(numbers) == 23
    start = game.initial_state()
    assert all(game.numbered_move(game.move_number(m)) == m for m in game.legal_moves(start))
    assert np.array_equal(game.observation(((1, 0, 2), 0), 0)[:, :2], [[1, 0], [0, 0], [1, 1]])


@pytest.mark.parametrize(
    ("name", "made"),
    [
        ("connect4", ConnectFour()),
        ("connect4(width=5,height=4)", ConnectFour(width=5, height=4)),
        ("nim(heaps=[3,5,8])", Nim(heaps=(3, 5, 8))),
    ],
)
def test_an_environment_takes_a_game_by_the_command_lines_name(name, made):
    for make in (env, raw_env):
        named = make(name).unwrapped
        assert type(named.game) is type(made) and vars(named.game) == vars(made)
        assert named.action_space("player_0") == ZerosumEnv(made).action_space("player_0")


def test_an_openspiel_game_is_an_environment_by_its_name():
    go = env("openspiel:go(board_size=9)")
    assert go.action_space("player_0").n == 82  # every point, and the pass
    assert go.observation_space("player_0")["observation"].shape == (4, 9, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env("openspiel:tic_tac_toe", render_mode="ansi"), num_cycles=50)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("nosuchgame", "unknown game 'nosuchgame'"),
        ("connect4(depth=3)", "connect4 has no option 'depth'"),
        ("kuhn", "KuhnPoker hides information"),
        ("pig", "Pig has chance"),
    ],
)
def test_a_name_an_environment_cannot_take_is_refused_with_the_reason(name, reason):
    with pytest.raises(ValueError, match=reason):
        env(name)
