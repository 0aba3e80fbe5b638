"""A game of the user's own, named in the game's place: FILE.py:CLASS, MODULE:CLASS, an
installed package's entry point, with options; every command takes it, and says in one line
what it cannot do with it."""

from __future__ import annotations

import sys
import textwrap

import pytest

from zerosum import registry

SUBTRACTION = textwrap.dedent(
    '''
    class TakeAway:
        """A heap of `size` tokens; take 1, 2 or 3; whoever takes the last one wins."""

        def __init__(self, size=7):
            self.size = size

        def initial_state(self):
            return (self.size, 0)

        def to_move(self, state):
            return state[1]

        def legal_moves(self, state):
            return [take for take in (1, 2, 3) if take <= state[0]]

        def result(self, state, move):
            return (state[0] - move, 1 - state[1])

        def is_terminal(self, state):
            return state[0] == 0

        def utility(self, state, player):
            return 1 if player != state[1] else -1

        def key(self, state):
            return 2 * state[0] + state[1]

        def parse_state(self, text):
            return (int(text), 0)
    '''
)


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    """`takeaway_game.py` in a folder of its own; the module is forgotten afterwards."""
    folder = tmp_path_factory.mktemp("own")
    path = folder / "takeaway_game.py"
    path.write_text(SUBTRACTION)
    yield path
    sys.modules.pop("takeaway_game", None)
    if str(folder) in sys.path:
        sys.path.remove(str(folder))


def test_solve_finds_the_multiple_of_four_rule(game_file, cli):
    spec = f"{game_file}:TakeAway"
    report = cli.json("solve", spec, "--distance")
    assert (report["game"], report["value"], report["best_move"]) == (spec, 1, "3")
    assert report["plies"] == 3  # 7 -> 4, the reply, then the last tokens
    assert cli.json("solve", spec, "8")["value"] == -1  # a multiple of 4 loses


def test_options_in_parentheses_reach_the_constructor(game_file, cli):
    report = cli.json("solve", f"{game_file}:TakeAway(size=12)")
    assert (report["value"], report["best_move"]) == (-1, "1")


def test_analyze_and_explain_search_it_to_the_end(game_file, cli):
    spec = f"{game_file}:TakeAway"
    report = cli.json("analyze", spec, "10")
    assert (report["value"], report["exact"], report["best_move"], report["plies"]) == (
        1,
        True,
        "2",
        5,
    )
    code, out, _ = cli("explain", spec, "--depth", "1")
    assert code == 0
    drawn = out.splitlines()
    assert drawn[0].startswith("value 1 for MAX, the player to move; alphabeta:")
    assert drawn[-1].startswith("└── 3 MIN")


def test_match_and_play_it(game_file, cli):
    spec = f"{game_file}:TakeAway"
    report = cli.json("match", spec, "--a", "perfect", "--b", "engine", "--games", "2")
    assert (report["wins"], report["losses"]) == (1, 1)  # whoever starts from 7 wins
    code, out, _ = cli("play", spec, "--first", "ai", answers=["4", "1", "q"])
    assert code == 0
    assert "The program (player 0) plays 3." in out
    assert "'4' is not a legal move: choose one of 1 2 3. Try again." in out


def test_a_table_is_built_and_read_only_with_the_game_named(game_file, cli, tmp_path):
    spec, table = f"{game_file}:TakeAway", str(tmp_path / "take.tb")
    report = cli.json("tablebase", "build", spec, "-o", table, "--workers", "1", progress=True)
    assert (report["positions"], report["value"], report["plies"]) == (14, 1, 3)
    err = cli.error("tablebase", "info", table)
    assert "takeaway_game.TakeAway, which is not built in: name the game" in err
    probe = cli.json("tablebase", "probe", table, spec, "--position", "5")
    assert (probe["value"], probe["plies"], probe["best_moves"]) == (1, 3, ["1"])
    err = cli.error("tablebase", "probe", table, f"{game_file}:TakeAway(size=9)")
    assert "corrupted" in err or "built for" in err


def test_a_module_on_the_path_is_named_module_colon_class(game_file, cli):
    sys.path.insert(0, str(game_file.parent))
    try:
        assert cli.json("solve", "takeaway_game:TakeAway", "5")["best_move"] == "1"
    finally:
        sys.path.remove(str(game_file.parent))


def test_an_installed_package_registers_a_name(game_file, cli, tmp_path, monkeypatch):
    info = tmp_path / "takeaway-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: takeaway\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[zerosum.games]\ntakeaway = takeaway_game:TakeAway\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(game_file.parent))
    assert "takeaway" in registry.games()
    assert cli.json("solve", "takeaway(size=8)")["value"] == -1
    listed = cli.json("games")["entries"]
    assert {"name": "takeaway", "source": "entry point takeaway_game:TakeAway"}.items() <= next(
        row for row in listed if row["name"] == "takeaway"
    ).items()
    assert registry.games()["tictactoe"].source == "built in"  # a built-in name wins a clash


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchgame", "unknown game 'nosuchgame': choose one of backgammon, chess, connect4"),
        ("missing.py:Game", "no file 'missing.py'"),
        ("json:loads(x=1)", "cannot make json:loads"),
        ("no_such_module_here:Game", "cannot import 'no_such_module_here'"),
        ("collections:Counter", "collections:Counter is not a game: it lacks initial_state"),
        ("connect4(width=5", "bad game 'connect4(width=5'"),
        ("connect4(width)", "bad game option 'width': expected NAME=VALUE"),
        ("connect4(depth=3)", "connect4 has no option 'depth'"),
        ("tree(x=1)", "tree takes no options"),
    ],
)
def test_a_bad_game_name_is_one_line_saying_what_is_wrong(cli, spec, message):
    assert message in cli.error("solve", spec)


def test_a_constructor_that_raises_is_one_line_naming_its_error(tmp_path, cli, monkeypatch):
    (tmp_path / "raising_game.py").write_text(
        "class Raise:\n    def __init__(self, size=3):\n        raise RuntimeError('no board')\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path.resolve()))  # where the file's folder goes
    code, out, err = cli("solve", "raising_game.py:Raise(size=4)")
    assert (code, out) == (2, "")
    assert err == (
        "zerosum: error: making raising_game.py:Raise with size=4 failed: RuntimeError: no board\n"
    )
    del sys.modules["raising_game"]


def test_a_missing_class_and_a_missing_capability_are_named(game_file, cli):
    assert "has no 'Nothing'" in cli.error("solve", f"{game_file}:Nothing")
    spec = f"{game_file}:TakeAway"
    err = cli.error("analyze", spec, "--depth", "2")
    assert "TakeAway does not provide Evaluating (evaluate), needed for depth-limited" in err
    err = cli.error("match", spec, "--a", "expectiminimax:depth=2", "--b", "random")
    assert "does not provide Evaluating (evaluate)" in err


def test_no_option_is_taken_for_an_abbreviation(cli):
    code, _, err = cli("match", "tictactoe", "--a", "random", "--b", "random", "--game", "3")
    assert code == 2
    assert "unrecognized arguments: --game 3" in err
