"""OpenSpiel's games through `zerosum.adapters.openspiel`: the same values and counts as
zerosum's own games where both have one, every command taking them by `openspiel:NAME`, and
the games the adapter refuses refused with the reason."""

from __future__ import annotations

import os
import random
import sys
from fractions import Fraction

import pyspiel  # the test extra installs OpenSpiel (zerosum[openspiel]): CI runs these tests
import pytest

import zerosum.adapters
from zerosum import registry
from zerosum.adapters.openspiel import (
    ALTERNATING,
    OpenSpielGame,
    OpenSpielHiddenGame,
    _after_last_chooser,
    _quiet_stderr,
    load,
)
from zerosum.adapters.openspiel_evaluations import ESTIMATE_BOUND, board_rows
from zerosum.cli import main
from zerosum.game import (
    Chance,
    Evaluating,
    InformationSets,
    Keyed,
    MoveText,
    Rendering,
    StateText,
    is_history_dependent,
)
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.players import searching_player
from zerosum.search.exact import alphabeta
from zerosum.search.ordering import by_priority
from zerosum.solve.connect4 import ConnectFourExact
from zerosum.solve.retrograde import solve
from zerosum.web.play import games_message, offered_games, playable_setup, program_spec

# -- tic-tac-toe: OpenSpiel's action a is the square a of zerosum's game (row by row) ---------


def test_openspiel_tic_tac_toe_offers_keys_text_and_a_drawing():
    game = load("tic_tac_toe")
    assert isinstance(game, OpenSpielGame)
    for capability in (Keyed, MoveText, StateText, Rendering):
        assert isinstance(game, capability)
    assert not isinstance(game, InformationSets)
    assert not is_history_dependent(game)
    state = game.parse_state("x(1,1) 0")
    assert game.render(state) == "o..\n.x.\n..."
    assert game.format_move(state, 8) == "x(2,2)"
    assert game.parse_move(state, "X(2,2)") == 8 == game.parse_move(state, "8")
    with pytest.raises(ValueError, match=r"'x\(1,1\)' is not a legal move: choose one of x\(0,1\)"):
        game.parse_move(state, "x(1,1)")


@pytest.mark.parametrize("order", [None, [4, 0, 2, 6, 8, 1, 3, 5, 7]])
def test_openspiel_tic_tac_toe_is_a_draw_with_our_alphabeta_counts(order):
    theirs, ours = load("tic_tac_toe"), TicTacToe()
    move_order = None if order is None else by_priority(order)
    through = alphabeta(theirs, theirs.initial_state(), order=move_order)
    own = alphabeta(ours, ours.initial_state(), order=move_order)
    assert through.value == own.value == 0
    assert through.stats == own.stats
    assert through.pv == own.pv
    if order is None:
        assert (through.stats.nodes, through.stats.terminals) == (18_297, 7_330)


def test_openspiel_tic_tac_toe_table_holds_5478_positions():
    game = load("tic_tac_toe")
    table = solve(game)
    assert table.counts == solve(TicTacToe()).counts  # wins and losses for the side to move too
    assert table.counts.positions == 5_478
    assert table.counts.terminal == 958
    start = table.initial()
    assert start is not None and start.value == 0 and start.distance == 9


def test_openspiel_key_is_the_position_not_the_path():
    game = load("tic_tac_toe")
    one = game.parse_state("0 4 8")
    other = game.parse_state("8 4 0")
    assert one.history() != other.history()
    assert game.key(one) == game.key(other)
    assert game.key(one) != game.key(game.parse_state("0 4"))


def test_tablebase_command_builds_and_reads_an_openspiel_table(cli, tmp_path):
    path = str(tmp_path / "ttt.tb")
    built = cli.json("tablebase", "build", "openspiel:tic_tac_toe", "-o", path)
    assert (built["positions"], built["value"], built["plies"]) == (5_478, 0, 9)
    info = cli.json("tablebase", "info", path)  # the file names its OpenSpiel game
    assert info["game"] == "openspiel:tic_tac_toe" and info["positions"] == 5_478
    probe = cli.json("tablebase", "probe", path, "--position", "x(1,1) o(0,1)")
    assert probe["value"] == 1  # O's edge reply loses to the centre
    message = cli.error("tablebase", "info", path, "openspiel:connect_four")
    assert "table built for" in message and "connect_four" in message


# -- Connect Four: OpenSpiel's action a is zerosum's column a + 1 -----------------------------


def late_positions(count: int, stones: int) -> list[list[int]]:
    """`count` unfinished positions of OpenSpiel's connect_four after `stones` random moves
    (a fixed generator: the same positions every run), as their actions."""
    spiel = pyspiel.load_game("connect_four")
    rng = random.Random(21)
    found: list[list[int]] = []
    while len(found) < count:
        state, actions = spiel.new_initial_state(), []
        while len(actions) < stones and not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(action)
        if not state.is_terminal():
            found.append(actions)
    return found


@pytest.mark.parametrize("actions", late_positions(5, 30))
def test_openspiel_connect_four_late_values_equal_our_solvers(actions):
    theirs = load("connect_four")
    state = theirs.parse_state(" ".join(map(str, actions)))
    ours = ConnectFour()
    own_state = ours.parse_state("".join(str(action + 1) for action in actions))
    through = alphabeta(theirs, state).value
    exact = ConnectFourExact(ours).answer(own_state).value
    assert through == exact
    centre_first = by_priority([3, 2, 4, 1, 5, 0, 6])  # both games' moves are columns from 0
    same_order = alphabeta(theirs, state, order=centre_first)
    assert same_order.stats == alphabeta(ours, own_state, order=centre_first).stats


# -- games played through the command -----------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "openspiel:breakthrough(rows=5,columns=5)",
        "openspiel:checkers(rows=6,columns=6)",
        "openspiel:hex(board_size=5)",
        "openspiel:go(board_size=9)",
    ],
)
def test_openspiel_games_play_a_match_through_the_command(cli, name):
    report = cli.json("match", name, "--a", "random", "--b", "mcts:iterations=8", "--games", "2")
    assert report["games"] == 2
    assert report["wins"] + report["draws"] + report["losses"] == 2


def test_openspiel_chance_outcomes_are_exact_fractions():
    game = load("backgammon")
    assert isinstance(game, Chance) and game.has_chance and is_history_dependent(game)
    first_roll = game.chance_outcomes(game.initial_state())  # no doubles: who starts
    assert {p for _, p in first_roll} == {Fraction(1, 30)} and len(first_roll) == 30
    state = game.result(game.initial_state(), first_roll[0][0])
    state = game.result(state, game.legal_moves(state)[0])
    rolls = game.chance_outcomes(state)
    assert len(rolls) == 36 and {p for _, p in rolls} == {Fraction(1, 36)}  # ordered dice
    assert registry.capabilities(registry.entry_of(game), game)[0] == "dice"


def test_solve_and_analyze_take_openspiel_games(cli):
    solved = cli.json("solve", "openspiel:tic_tac_toe")
    assert solved["value"] == 0
    analysed = cli.json("analyze", "openspiel:tic_tac_toe", "x(1,1)", "o(0,1)")
    assert (analysed["value"], analysed["exact"], analysed["plies"]) == (1, True, 5)
    assert analysed["best_move"] in ("x(0,0)", "x(0,2)", "x(2,0)", "x(2,2)")


# -- imperfect information: the CFR family ------------------------------------------------


def test_openspiel_kuhn_poker_has_information_sets():
    game = load("kuhn_poker")
    assert isinstance(game, OpenSpielHiddenGame)
    assert isinstance(game, InformationSets) and isinstance(game, Chance)
    state = game.result(game.result(game.initial_state(), 2), 0)  # a King and a Jack
    assert game.legal_moves(state) == ("Pass", "Bet")
    assert game.information_set(state) == "2"


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
def test_openspiel_kuhn_poker_cfr_equals_ours(cli, algorithm):
    theirs = cli.json(
        "cfr", "openspiel:kuhn_poker", "--algorithm", algorithm, "--iterations", "300"
    )
    ours = cli.json("cfr", "kuhn", "--algorithm", algorithm, "--iterations", "300")
    assert (theirs["histories"], theirs["information_sets"]) == (58, 12)
    assert theirs["exploitability"] == pytest.approx(ours["exploitability"], abs=1e-12)
    assert theirs["value"] == pytest.approx(ours["value"], abs=1e-12)


def test_openspiel_leduc_poker_cfr_equals_ours(cli):
    theirs = cli.json("cfr", "openspiel:leduc_poker", "--iterations", "50")
    ours = cli.json("cfr", "leduc", "--iterations", "50")
    assert (theirs["histories"], theirs["information_sets"]) == (9_457, 936)
    assert theirs["exploitability"] == pytest.approx(ours["exploitability"], abs=1e-12)
    assert theirs["value"] == pytest.approx(ours["value"], abs=1e-12)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("openspiel:goofspiel", "openspiel:goofspiel has simultaneous moves"),
        ("openspiel:backgammon", "openspiel:backgammon has dice: the Play page plays games"),
        ("openspiel:kuhn_poker", "openspiel:kuhn_poker hides cards or dice"),
    ],
)
def test_serve_refuses_an_openspiel_game_its_page_cannot_play(cli, name, reason):
    assert reason in cli.error("serve", "--game", name)


# -- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("openspiel:goofspiel", "openspiel:goofspiel has simultaneous moves"),
        ("openspiel:blackjack", "openspiel:blackjack has 1 player: zerosum's games have two"),
        ("openspiel:kuhn_poker(players=3)", "openspiel:kuhn_poker has 3 players"),
        ("openspiel:sheriff", "openspiel:sheriff is not zero-sum"),
        ("openspiel:tic_tac_tie", "OpenSpiel has no game 'tic_tac_tie' (did you mean tic_tac_toe"),
        ("openspiel:breakthrough(rows=x)", "Wrong type for parameter rows"),
        ("openspiel:breakthrough(size=5)", "Unknown parameter 'size'"),
        ("openspiel:breakthrough(rows=[5])", "OpenSpiel takes a number, true or false, or text"),
        ("openspiel:hex(board_size=1000000)", "openspiel:hex: OpenSpiel cannot set up its start"),
    ],
)
def test_openspiel_games_the_adapter_cannot_take_are_refused_in_one_line(cli, name, reason):
    assert reason in cli.error("solve", name)


@pytest.mark.parametrize("command", ["solve", "cfr"])
def test_kriegspiel_whose_tree_no_walk_would_finish_is_refused_in_one_line_unwalked(cli, command):
    # Each of its histories is a chess position seen by one side: a walk of its tree (the
    # sequence form's, CFR's) would not pass the limit on histories in hours. Random paths
    # from the start show it is far over after a few moves each.
    message = cli.error(command, "openspiel:kriegspiel")
    assert "the game has far more histories than the limit of 20,000,000" in message
    assert "cannot end in bounded time" in message and "--no-limit" in message


def test_openspiel_imperfect_game_is_refused_by_tree_search_and_solved_by_the_sequence_form(cli):
    message = cli.error("analyze", "openspiel:kuhn_poker")
    assert "openspiel:kuhn_poker is a game of imperfect information" in message
    assert "'zerosum cfr openspiel:kuhn_poker'" in message
    solved = cli.json("solve", "openspiel:kuhn_poker", "--exact")
    assert solved["value_exact"] == "-1/18"  # Kuhn's value, exactly


def test_openspiel_missing_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now fails
    monkeypatch.delitem(sys.modules, "zerosum.adapters.openspiel")
    monkeypatch.delattr(zerosum.adapters, "openspiel")
    with pytest.raises(ValueError, match=r"pip install 'zerosum\[openspiel\]'"):
        registry.setup("openspiel:tic_tac_toe")


# -- evaluations ---------------------------------------------------------------------------


def random_line(game, plies: int) -> list:
    """The states of a game played by a fixed generator's random moves, `plies` at most."""
    rng, state, states = random.Random(7), game.initial_state(), []
    while len(states) < plies and not game.is_terminal(state):
        states.append(state)
        state = game.result(state, rng.choice(game.legal_moves(state)))
    return states


@pytest.mark.parametrize("name", ["checkers", "breakthrough"])
def test_shipped_material_is_zero_sum_even_at_the_start_and_below_a_win(name):
    game = load(name)
    assert isinstance(game, Evaluating)
    assert game.evaluate(game.initial_state(), 0) == 0 == game.evaluate(game.initial_state(), 1)
    for state in random_line(game, 60):
        mine, theirs = game.evaluate(state, 0), game.evaluate(state, 1)
        assert mine == -theirs and abs(mine) <= ESTIMATE_BOUND < 1


def test_checkers_material_counts_a_capture_and_a_king():
    game = load("checkers")
    taken = game.parse_state("c3d4 f6e5 d4f6")  # the first player's man takes one
    assert game.evaluate(taken, 0) == pytest.approx(ESTIMATE_BOUND * (12 - 11) / 23)
    assert board_rows(game.render(taken))[2] == ".+.+.o.+"


def test_breakthrough_material_counts_how_far_a_piece_has_come():
    game = load("breakthrough", {"rows": 6, "columns": 6})
    advanced = game.parse_state("a5a4")  # the first player (b) moves down one row
    assert game.evaluate(advanced, 0) > 0
    assert game.evaluate(advanced, 1) < 0


def test_a_users_evaluation_replaces_the_shipped_one():
    game = load("checkers", evaluation=lambda state, player: 0.25 if player == 0 else -0.25)
    assert game.evaluate(game.initial_state(), 0) == 0.25
    assert "evaluation" in registry.capabilities(registry.entry_of(game), game)


@pytest.mark.parametrize(
    ("name", "player"),
    [
        ("openspiel:tic_tac_toe", "solver"),
        ("openspiel:checkers", "engine:time=2"),
        ("openspiel:hex(board_size=5)", "mcts:time=2"),
        ("openspiel:kuhn_poker", registry.IMPERFECT_PLAYER),
    ],
)
def test_play_sets_the_player_the_game_allows_against_a_person(name, player):
    assert registry.setup(name, hidden=True).entry.player == player


def test_the_page_offers_openspiel_games_with_a_default_that_suits_them():
    offered = offered_games(["openspiel:hex(board_size=5)", "openspiel:checkers"])
    defaults = {game["name"]: game["default"] for game in games_message(offered)["entries"]}
    assert defaults["openspiel:hex(board_size=5)"] == {"kind": "mcts", "seconds": 1}
    assert defaults["openspiel:checkers"] == {"kind": "time", "seconds": 1}
    assert defaults["tictactoe"] == {"kind": "perfect"}


def test_a_person_plays_openspiel_tic_tac_toe_against_the_solver(cli):
    answers = ["x(1,1)", "0", "q"]  # the centre; then a square the solver has taken
    code, out, err = cli("play", "openspiel:tic_tac_toe", "--first", "human", answers=answers)
    assert code == 0, err
    assert "The program (second player) plays o(0,0)." in out
    assert "'0' is not a legal move: choose one of x(0,1), x(0,2)" in out
    assert out.rstrip().endswith("Game left unfinished.")


def test_a_file_names_an_openspiel_game_with_its_users_evaluation(cli, tmp_path):
    path = tmp_path / "mobile_checkers.py"
    path.write_text(
        "from zerosum.adapters.openspiel import load\n"
        "def mobility(state, player):\n"
        "    moves = min(len(state.legal_actions()), 50) / 100\n"
        "    return moves if state.current_player() == player else -moves\n"
        "def checkers():\n"
        "    return load('checkers', evaluation=mobility)\n"
    )
    report = cli.json("analyze", f"{path}:checkers", "--depth", "2")
    game = load("checkers")
    start = game.initial_state()
    first_moves = [game.format_move(start, move) for move in game.legal_moves(start)]
    assert report["depth"] == 2 and report["best_move"] in first_moves


@pytest.mark.parametrize("name", ["openspiel:pig(winscore=10)", "openspiel:go(board_size=5)"])
def test_an_openspiel_game_without_evaluation_too_large_to_solve_is_sent_to_mcts(cli, name):
    short = name.partition("(")[0]
    assert f"MCTS plays it (zerosum play {short})" in cli.error("solve", name)


def test_analyze_refuses_an_openspiel_game_with_dice_out_of_reach(cli):
    analysed = cli.error("analyze", "openspiel:pig(winscore=10)")
    assert "openspiel:pig has no evaluation and too many positions to search to the end" in (
        analysed
    )


def test_analyze_searches_openspiel_go_by_the_python_mcts(cli):
    report = cli.json("analyze", "openspiel:go(board_size=5)", "--iterations", "200", "--top", "99")
    game = load("go", {"board_size": 5})
    start = game.initial_state()
    legal = {game.format_move(start, move) for move in game.legal_moves(start)}
    assert (report["algorithm"], report["impl"], report["iterations"]) == ("mcts", "python", 200)
    assert {move["move"] for move in report["moves"]} == legal
    assert sum(move["visits"] for move in report["moves"]) == 200 - 1  # the root's own playout


@pytest.mark.parametrize(
    ("name", "few"),
    [
        ("openspiel:tic_tac_toe", True),
        ("openspiel:hex(board_size=4)", True),
        ("openspiel:hex(board_size=5)", False),
        ("openspiel:connect_four(rows=4,columns=4)", True),
        ("openspiel:connect_four", False),
        ("openspiel:othello", False),
        ("openspiel:checkers(rows=4,columns=4)", False),  # a move counter ends it
    ],
)
def test_an_openspiel_game_is_searched_to_the_end_on_a_board_of_at_most_16_cells(name, few):
    assert registry.setup(name).entry.solvable is few


def test_the_engine_refuses_an_openspiel_game_it_could_search_only_to_an_end_out_of_reach(cli):
    # Hex 11x11 has no evaluation: the engine, searching to the end, would run out of time
    # before one move was searched, and play the first legal move every time
    message = cli.error("match", "openspiel:hex", "--a", "engine:time=0.1", "--b", "random")
    assert message == (
        "zerosum: error: openspiel:hex has no evaluation and too many positions to search to"
        " the end: MCTS plays it (mcts:time=SECONDS)\n"
    )
    analysed = cli.json("analyze", "openspiel:hex", "--iterations", "50")  # by MCTS
    assert analysed["algorithm"] == "mcts" and analysed["legal_moves"] == 121
    small = cli.json(
        "match", "openspiel:hex(board_size=3)", "--a", "engine:time=1", "--b", "random",
        "--games", "2",
    )  # fmt: skip
    # searched to the end: both games won, the first by force, the second on the random
    # player's mistakes (the match's fixed random choices)
    assert small["wins"] == 2


@pytest.mark.parametrize(
    ("name", "player"),
    [
        ("openspiel:hex(board_size=5)", "mcts:time=0.5"),
        ("openspiel:hex(board_size=3)", "engine:time=0.5"),
        ("openspiel:checkers", "engine:time=0.5"),
    ],
)
def test_play_for_a_time_sets_mcts_where_the_engine_has_nothing_to_stop_at(name, player):
    setup = registry.setup(name)
    assert searching_player(setup.entry, setup.game, 0.5, None) == player


def test_the_pages_strength_by_time_is_mcts_on_a_game_the_engine_cannot_stop_in():
    setup = playable_setup("openspiel:hex(board_size=5)")
    spec = program_spec(setup, {"kind": "time", "seconds": 1})
    assert spec.kind == "mcts" and spec.options["time"] == 1


def test_an_openspiel_error_reaches_the_user_once_in_one_line(capfd):
    # OpenSpiel prints its exception on the process's standard error too: quieted
    code = main(["solve", "openspiel:breakthrough(rows=x)"])
    assert code == 2
    assert capfd.readouterr().err == (
        "zerosum: error: openspiel:breakthrough: Wrong type for parameter rows. Expected type:"
        " kInt, got kString with x\n"
    )


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_quieted_standard_error_comes_back_when_the_block_raises(capfd):
    before = open_descriptors()
    with pytest.raises(pyspiel.SpielError), _quiet_stderr():
        os.write(2, b"hidden\n")
        pyspiel.load_game("breakthrough", {"rows": "x"})
    os.write(2, b"shown\n")
    assert capfd.readouterr().err == "shown\n"
    assert open_descriptors() == before


def test_quieting_standard_error_without_one_or_without_a_null_device_is_no_failure(
    monkeypatch, capfd
):
    monkeypatch.setattr(sys, "stderr", None)
    with _quiet_stderr():
        os.write(2, b"hidden\n")
    monkeypatch.undo()
    monkeypatch.setattr(os, "devnull", "/no/such/device")
    with _quiet_stderr():
        os.write(2, b"shown\n")
    assert capfd.readouterr().err == "shown\n"


@pytest.mark.parametrize(
    ("name", "parameters"),
    [
        ("tic_tac_toe", {}),
        ("connect_four", {"rows": 4, "columns": 4}),
        ("hex", {"board_size": 4}),
        ("breakthrough", {"rows": 4, "columns": 4}),
        ("othello", {}),
        ("go", {"board_size": 5}),
    ],
)
def test_alternating_games_name_the_player_to_move_at_the_end_as_their_history_does(
    name, parameters
):
    game = load(name, parameters)
    assert name in ALTERNATING
    rng = random.Random(5)
    for _ in range(5):
        state = game.initial_state()
        while not game.is_terminal(state):
            assert game.to_move(state) == state.move_number() % 2
            state = game.result(state, rng.choice(game.legal_moves(state)))
        assert game.to_move(state) == _after_last_chooser(state)
        assert list(game.legal_moves(state)) == []


def test_utility_is_openspiels_return_without_chance_and_exact_with_it():
    game = load("tic_tac_toe")
    won = game.parse_state("x(0,0) o(1,0) x(0,1) o(1,1) x(0,2)")
    assert (game.utility(won, 0), game.utility(won, 1)) == (1.0, -1.0)
    dice = load("pig", {"winscore": 10})
    start = dice.initial_state()
    rolling = dice.result(start, dice.parse_move(start, "roll"))
    assert dice.is_chance(rolling) and dice.legal_moves(rolling) == ()  # chance's, not a move
    state, rng = start, random.Random(3)
    while not dice.is_terminal(state):
        if dice.is_chance(state):
            state = dice.result(state, rng.choice(dice.chance_outcomes(state))[0])
        else:
            state = dice.result(state, rng.choice(dice.legal_moves(state)))
    assert {type(dice.utility(state, player)) for player in (0, 1)} == {int}  # fractions stay


def test_explain_draws_the_search_of_an_openspiel_game_whose_states_compare_by_identity(cli):
    # two OpenSpiel states of one position are two objects that differ: replayed by keys
    code, out, err = cli("explain", "openspiel:tic_tac_toe", "x(1,1)", "o(0,1)")
    assert code == 0, err
    assert out.startswith("value 1 for MAX, the player to move; alphabeta: 383 nodes, 82 cut-offs")
    assert "├── x(0,0) MIN α=-∞ β=∞ → 1 *" in out
