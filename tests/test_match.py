"""Matches: player descriptions, the statistics of a score, and `zerosum match`."""

import json
import math
import random

import pytest

from zerosum.games.connect4 import ConnectFour
from zerosum.games.pig import Pig
from zerosum.games.tictactoe import TicTacToe
from zerosum.match import MatchResult, play_game, play_match
from zerosum.players import PlayerSpec, parse_player, player_maker
from zerosum.solve.pig import solve_pig


def test_mcts_description_parses_to_typed_options():
    spec = parse_player("mcts:iterations=800,c=1.4")
    assert spec == PlayerSpec("mcts", {"iterations": 800, "c": 1.4}, "mcts:iterations=800,c=1.4")


def test_player_without_options_parses():
    assert parse_player("random").options == {}
    assert parse_player("alphabeta:depth=3").options == {"depth": 3}


@pytest.mark.parametrize(
    "text, reason",
    [
        ("oracle:depth=3", "unknown player 'oracle': choose one of"),
        (
            "mcts:depth=3",
            "player 'mcts' has no option 'depth' (options: iterations, time, c, impl, playouts,"
            " rave)",
        ),
        (
            "mcts:iterations=many",
            "bad value 'many' for mcts option 'iterations': expected an integer",
        ),
        ("mcts:time=", "player option 'time' needs a value"),
        ("random:seed=1", "player 'random' has no option 'seed' (options: none)"),
    ],
)
def test_bad_player_description_says_what_is_wrong(text, reason):
    with pytest.raises(ValueError) as error:
        parse_player(text)
    assert reason in str(error.value)


def test_three_wins_one_loss_is_plus_191_elo():
    result = MatchResult(3, 0, 1)
    assert result.score == 0.75
    assert result.elo == pytest.approx(400 * math.log10(3))
    se = math.sqrt((3 * 0.25**2 + 0.75**2) / 4 / 4)
    assert result.standard_error == pytest.approx(se)
    assert result.elo_error == pytest.approx(1.959963984540054 * se * 400 / (math.log(10) * 0.1875))


def test_even_score_is_zero_elo_and_a_symmetric_interval():
    result = MatchResult(4, 2, 4)
    assert result.elo == 0
    low, high = result.score_interval
    assert low + high == pytest.approx(1)


def test_a_clean_sweep_has_no_finite_elo():
    result = MatchResult(5, 0, 0)
    assert result.elo is None and result.elo_error is None
    # Wilson's interval for a proportion of 1: from n / (n + z^2) to 1, never a point
    assert result.score_interval == pytest.approx((5 / (5 + 1.959963984540054**2), 1.0))


@pytest.mark.parametrize(
    ("wins", "draws", "losses", "low", "high"),
    [
        (4, 0, 0, 0.510109, 1.0),  # 4 / (4 + 1.96^2): the 4-0 match that said 1.000 to 1.000
        (0, 0, 4, 0.0, 0.489891),
        (3, 0, 1, 0.300642, 0.954413),  # centre 0.627527, half-width 0.326885
        (2, 2, 0, 0.300642, 0.954413),  # the same score, 0.75, over the same 4 games
        (5, 0, 5, 0.236593, 0.763407),
        (1, 0, 0, 0.206549, 1.0),
    ],
)
def test_the_score_interval_is_wilsons(wins, draws, losses, low, high):
    assert MatchResult(wins, draws, losses).score_interval == pytest.approx((low, high), abs=1e-6)


def test_a_match_of_no_games_has_the_even_score_as_its_interval():
    assert MatchResult(0, 0, 0).score_interval == (0.5, 0.5)


def test_players_alternate_who_moves_first():
    game = TicTacToe()
    first_movers = []

    def recorder(name):
        def make(seed):
            def choose(state):
                if state == game.initial_state():
                    first_movers.append(name)
                return game.legal_moves(state)[0]

            return choose

        return make

    play_match(game, recorder("a"), recorder("b"), 4)
    assert first_movers == ["a", "b", "a", "b"]


def test_first_legal_move_players_split_a_match_evenly():
    # Both always play the lowest empty square: whoever starts wins (squares 0, 3, 6 by X).
    game = TicTacToe()

    def first(seed):
        return lambda state: game.legal_moves(state)[0]

    result = play_match(game, first, first, 6)
    assert (result.wins, result.draws, result.losses) == (3, 0, 3)


def test_match_is_reproducible_with_a_seed():
    game = Pig(20)
    a, b = player_maker("mcts:iterations=30", game), player_maker("random", game)
    first = play_match(game, a, b, 6, seed=3)
    second = play_match(game, a, b, 6, seed=3)
    assert first == second


def test_mcts_beats_random_at_tictactoe():
    game = TicTacToe()
    mcts, random_ = player_maker("mcts:iterations=300", game), player_maker("random", game)
    result = play_match(game, mcts, random_, 10, seed=1)
    assert result.losses == 0 and result.wins >= 6


def test_dice_are_rolled_by_the_match():
    game = Pig(10)
    final = play_game(
        game, [lambda s: "roll", lambda s: "roll"], game.initial_state(), random.Random(1)
    )
    assert game.is_terminal(final)


def test_alphabeta_refuses_a_dice_game():
    with pytest.raises(ValueError, match="use expectiminimax"):
        player_maker("alphabeta:depth=2", Pig(10))


def test_openings_start_each_pair_of_games(tmp_path, cli):
    openings = tmp_path / "openings.txt"
    openings.write_text("# two Connect Four openings\n44\n\n4453  # a second one\n")
    argv = ["match", "connect4", "--a", "mcts:iterations=50", "--b", "random", "--games", "4"]
    report = cli.json(*argv, "--openings", str(openings))
    assert report["games"] == 4
    assert report["wins"] + report["draws"] + report["losses"] == 4


def test_bad_opening_names_its_line(tmp_path, cli):
    openings = tmp_path / "openings.txt"
    openings.write_text("44\n48\n")
    argv = ["match", "connect4", "--a", "random", "--b", "random", "--openings", str(openings)]
    assert f"{openings}, line 2:" in cli.error(*argv)


def test_match_json_reports_wins_draws_losses_and_elo(cli):
    args = ["match", "tictactoe", "--a", "mcts:iterations=200", "--b", "random", "--games", "8"]
    report = cli.json(*args)
    assert set(report) >= {"wins", "draws", "losses", "elo", "elo_error", "mean_score_interval"}
    assert report["wins"] + report["draws"] + report["losses"] == 8


def test_match_text_output_through_a_subprocess(cli):
    argv = ["match", "connect4", "--a", "random", "--b", "random", "--games", "4", "--seed", "2"]
    code, out, _ = cli.process(*argv)
    assert code == 0
    assert "random (A) against random (B) at connect4, 4 games" in out
    assert "score" in out


def test_unknown_player_is_one_line_exit_2(cli):
    err = cli.error("match", "connect4", "--a", "oracle:depth=3", "--b", "random")
    assert err.startswith("zerosum: error: unknown player 'oracle'") and err.count("\n") == 1


def test_connect4_game_state_after_opening_is_used():
    game = ConnectFour()
    random_ = player_maker("random", game)
    result = play_match(game, random_, random_, 2, openings=[game.parse_state("4444")])
    assert result.games == 2


def test_human_player_is_asked_again_after_an_illegal_move(cli):
    answers = ["nine", *[str(square) for square in range(9)] * 9]
    argv = ["match", "tictactoe", "--a", "human", "--b", "random", "--games", "1", "--json"]
    code, out, _ = cli(*argv, answers=answers)
    assert code == 0
    assert "'nine' is not a square" in out
    assert json.loads(out[out.index("{") :])["games"] == 1


def test_a_match_needs_a_game(cli):
    err = cli.error("match", "tictactoe", "--a", "random", "--b", "random", "--games", "0")
    assert "--games must be at least 1, got 0" in err


def test_the_perfect_pig_player_is_the_solved_policy_and_beats_random():
    game = Pig(20)
    perfect = player_maker("perfect", game)
    result = play_match(game, perfect, player_maker("random", game), 30, seed=2)
    assert result.wins > 2 * result.losses
    choose, solution = perfect(0), solve_pig(20)
    for state in [(0, 0, 0, 0, False), (0, 15, 0, 4, False), (1, 3, 12, 6, False)]:
        assert choose(state) == solution.best_move(state)


def test_the_engine_never_loses_tic_tac_toe_to_random_play():
    game = TicTacToe()
    result = play_match(
        game, player_maker("engine:nodes=100000", game), player_maker("random", game), 10
    )
    assert result.losses == 0
    assert result.wins + result.draws == 10


def test_the_engine_at_depth_4_beats_random_connect_four_play(cli):
    report = cli.json("match", "connect4", "--a", "engine:depth=4", "--b", "random", "--games", "4")
    assert report["wins"] == 4


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["match", "connect4", "--a", "engine", "--b", "random"], "engine needs a budget"),
        (
            ["match", "pig", "--a", "engine:depth=2", "--b", "random"],
            "cannot play a game with dice",
        ),
        (["match", "connect4", "--a", "engine:depth=x", "--b", "random"], "expected an integer"),
    ],
)
def test_bad_engine_players_are_one_line_exit_2(cli, argv, reason):
    assert reason in cli.error(*argv)  # one line, exit code 2


def test_a_backgammon_opening_won_on_the_first_roll_is_won_once_by_each_player(tmp_path, cli):
    openings = tmp_path / "races.txt"
    openings.write_text("# X bears off its last checker whatever the dice\nX: 1 / 6:15\n")
    argv = ["match", "backgammon", "--a", "random", "--b", "random", "--games", "2"]
    report = cli.json(*argv, "--openings", str(openings))
    assert (report["wins"], report["draws"], report["losses"]) == (1, 0, 1)


def test_a_match_may_start_from_a_position_and_a_tree_is_its_position(cli):
    report = cli.json("match", "tictactoe", "XO.X.O...", "--a", "perfect", "--b", "random",
                      "--games", "2", "--json")  # fmt: skip
    assert report["games"] == 2
    assert cli.json("match", "tree", "[[3,12,8],[2,4,6],[14,5,2]]", "--a", "perfect", "--b",
                    "perfect", "--games", "2", "--json")["draws"] == 0  # fmt: skip
    assert "the game is already over in 'XXXOO....'" in cli.error(
        "match", "tictactoe", "XXXOO....", "--a", "random", "--b", "random"
    )
    assert "not both" in cli.error(
        "match", "tictactoe", "X........", "--a", "random", "--b", "random", "--openings", "f"
    )


def test_a_game_stops_unfinished_at_its_most_moves():
    game, rng = Pig(target=100), random.Random(3)
    roll = lambda state: "roll" if "roll" in game.legal_moves(state) else None  # noqa: E731
    played = []
    final = play_game(
        game, [roll, roll], game.initial_state(), rng, lambda *m: played.append(m), most_moves=7
    )
    assert len(played) == 7 and not game.is_terminal(final)


def test_a_game_past_the_most_moves_of_a_match_is_an_adjudicated_draw():
    game = Pig(target=100_000)  # about 170,000 moves between random players
    random_ = player_maker("random", game)
    result = play_match(game, random_, random_, 3, most_moves=500)
    assert (result.wins, result.draws, result.losses, result.adjudicated) == (0, 3, 0, 3)
    ended = play_match(Pig(target=10), random_, random_, 4, most_moves=500)
    assert ended.adjudicated == 0 and ended.draws == 0  # Pig has no draw


def test_match_reports_its_adjudicated_games(cli):
    argv = ["match", "pig(target=100000)", "--a", "random", "--b", "random", "--games", "2"]
    report = cli.json(*argv, "--most-moves", "400")
    assert (report["draws"], report["adjudicated"], report["most_moves"]) == (2, 2, 400)
    code, out, _ = cli(*argv, "--most-moves", "400")
    assert code == 0 and "2 games still going after 400 moves scored a draw (adjudicated)" in out
    assert cli.error(*argv, "--most-moves", "0") == (
        "zerosum: error: --most-moves must be at least 1, got 0\n"
    )
