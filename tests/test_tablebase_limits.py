"""Tables at their edges: where a table cannot be written, files that are no table (nested,
huge, empty, a directory), and the stated limits of a build, checked before the work."""

import hashlib
import json
import os
import struct
import sys
import tempfile
import time

import pexpect
import pytest

from zerosum.games.connect4 import POSITION_COUNTS, ConnectFour
from zerosum.games.nim import Nim
from zerosum.limits import Limit
from zerosum.solve import Table, read_header, retrograde, solve
from zerosum.solve import table as table_file
from zerosum.solve.parallel import CORES_SHARED, default_workers

HANG = 300  # seconds: every build here takes a few; only a hang reaches this

TAKE_AWAY = '''
class TakeAway:
    """A heap of `size` tokens; take 1 or 2; whoever takes the last one wins. It says nothing
    of how many positions it has: only the enumeration can find out."""

    def __init__(self, size=7):
        self.size = size

    def initial_state(self):
        return (self.size, 0)

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

    def key(self, state):
        return 2 * state[0] + state[1]
'''


@pytest.fixture
def take_away(tmp_path, monkeypatch):
    """The name of a game of the user's own, in a file, that gives no count of its positions."""
    (tmp_path / "take_away_game.py").write_text(TAKE_AWAY)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield str(tmp_path / "take_away_game.py") + ":TakeAway"
    sys.modules.pop("take_away_game", None)


def build(*words, output):
    return ["tablebase", "build", *words, "-o", str(output), "--workers", "1"]


# -- where the table goes ------------------------------------------------------------------


def test_output_that_is_no_file_is_refused_before_the_build(cli, tmp_path):
    assert "give a file name" in cli.error(*build("tictactoe", output=""))
    assert "it is a directory" in cli.error(*build("tictactoe", output=tmp_path))
    assert f"no directory '{tmp_path / 'none'}'" in cli.error(
        *build("tictactoe", output=tmp_path / "none" / "t.tb")
    )
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder_is_one_line_and_the_old_table_stays_byte_identical(
    cli, tmp_path, monkeypatch
):
    old = tmp_path / "t.tb"
    old.write_bytes(b"an older table")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert "cannot write" in cli.error(*build("tictactoe", output=old))
    assert "permission denied" in cli.error(*build("tictactoe", output=old))
    assert old.read_bytes() == b"an older table"
    assert [path.name for path in tmp_path.iterdir()] == ["t.tb"]


def test_a_save_that_fails_at_the_end_leaves_the_old_table_and_no_temporary_file(
    cli, tmp_path, monkeypatch
):
    old = tmp_path / "t.tb"
    old.write_bytes(b"an older table")

    def full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    assert "cannot write table" in cli.error(*build("tictactoe", output=old))
    assert "no space left on device" in cli.error(*build("tictactoe", output=old))
    assert old.read_bytes() == b"an older table"
    assert [path.name for path in tmp_path.iterdir()] == ["t.tb"]


def test_table_save_says_why_it_cannot_write_as_a_value_error(tictactoe_table, tmp_path):
    with pytest.raises(ValueError, match="it is a directory"):
        tictactoe_table.save(tmp_path)
    with pytest.raises(ValueError, match="give a file name"):
        tictactoe_table.save("")


# -- files that are no table -----------------------------------------------------------------


def table_bytes(header: bytes, body: bytes = b"", checksum: bytes | None = None) -> bytes:
    """A file in the table format around `header` and `body`, its checksum right unless given."""
    digest = hashlib.sha256(header + body).digest() if checksum is None else checksum
    return struct.pack("<8sHI32s", table_file.MAGIC, 1, len(header), digest) + header + body


def refused_alike(cli, path) -> str:
    """The one line `info` and `probe` both refuse `path` with (the file left as it was)."""
    before = _contents(path)
    message = cli.error("tablebase", "info", str(path))
    assert cli.error("tablebase", "probe", str(path)) == message
    assert _contents(path) == before
    return message


def _contents(path):
    """What a file holds (its size and time of change only when it is huge), None for a folder."""
    if not path.is_file():
        return None
    stat = path.stat()
    return (stat.st_size, stat.st_mtime_ns) if stat.st_size > 1 << 20 else path.read_bytes()


def test_a_header_nested_100000_deep_is_refused_in_one_line(cli, tmp_path):
    deep = b"[" * 100_000 + b"]" * 100_000
    path = tmp_path / "deep.tb"
    path.write_bytes(table_bytes(deep))  # the checksum is right: only the header is wrong
    assert "corrupted table (unreadable header)" in refused_alike(cli, path)
    path.write_bytes(table_bytes(deep, checksum=bytes(32)))
    assert "corrupted table (checksum mismatch)" in refused_alike(cli, path)


def test_nesting_is_measured_outside_strings():
    assert table_file._nesting(b'{"a": [1, {"b": "[[[[{{{{"}], "c": "\\\\"}') == 3
    assert table_file._nesting(b"[" * 50 + b"]" * 50) == 50
    assert table_file._nesting(b"") == 0


@pytest.mark.parametrize(
    "header",
    [
        b"[]",
        b'{"game": 3}',
        b'{"game": "x", "parameters": {}, "sections": [], "positions": -1, "terminal": 0,'
        b' "wins": 0, "draws": 0, "losses": 0}',
        b'{"game": "x", "parameters": [], "sections": [], "positions": 0, "terminal": 0,'
        b' "wins": 0, "draws": 0, "losses": 0}',
        b'{"game": "x", "parameters": {}, "sections": [{"layer": "a"}], "positions": 0,'
        b' "terminal": 0, "wins": 0, "draws": 0, "losses": 0}',
        b"\xff\xfe not json",
    ],
)
def test_a_header_of_another_shape_is_refused_even_with_its_checksum_right(cli, tmp_path, header):
    path = tmp_path / "odd.tb"
    path.write_bytes(table_bytes(header))
    assert "corrupted table (unreadable header)" in refused_alike(cli, path)


def test_a_header_longer_than_any_table_has_is_refused_before_it_is_read(cli, tmp_path):
    path = tmp_path / "long.tb"
    length = table_file.MAX_HEADER_BYTES + 1
    path.write_bytes(struct.pack("<8sHI32s", table_file.MAGIC, 1, length, bytes(32)))
    assert f"a header of {length:,} bytes" in refused_alike(cli, path)


def test_a_directory_an_empty_file_and_a_huge_file_are_one_line(cli, tmp_path):
    assert "is a directory" in refused_alike(cli, tmp_path)
    empty = tmp_path / "empty.tb"
    empty.write_bytes(b"")
    assert "an empty file, not a zerosum table" in refused_alike(cli, empty)
    huge = tmp_path / "huge.tb"
    with open(huge, "wb") as file:
        file.truncate(8 << 30)  # 8 GB of zeros, sparse: nothing near it is read
    assert "not a zerosum table" in refused_alike(cli, huge)


def test_the_checksum_is_read_in_pieces(tictactoe_table, tmp_path, monkeypatch):
    path = tmp_path / "t.tb"
    tictactoe_table.save(path)
    monkeypatch.setattr(table_file, "READ_BYTES", 1000)
    assert Table.load(path, tictactoe_table.game).sections == tictactoe_table.sections
    assert read_header(path)["positions"] == 5478


# -- the stated limits of a build -------------------------------------------------------------


def test_nim_of_three_heaps_of_1000_is_refused_before_the_build_with_what_it_needs(cli, tmp_path):
    message = cli.error(*build("nim", "--heaps", "1000,1000,1000", output=tmp_path / "n.tb"))
    assert "a table's positions 2,006,006,002 is over the limit of 150,000,000" in message
    assert "GB of memory" in message and "--no-limit" in message
    message = cli.error(*build("nim", "--heaps", "100,100,100", output=tmp_path / "n.tb"))
    assert "the moves of a table built position by position 309,090,300" in message
    assert list(tmp_path.iterdir()) == []


def test_connect_four_boards_are_counted_before_the_build(cli, tmp_path):
    message = cli.error(*build("connect4", "--width", "5", "--height", "6", output=tmp_path / "c"))
    assert "a table's positions 1,044,334,437 is over the limit of 150,000,000" in message
    assert ConnectFour(4, 7).reachable_at_most()[0] <= retrograde.POSITIONS.most  # built here


def test_position_counts_bound_the_tables_built(tictactoe_table):
    for game in (ConnectFour(4, 4), ConnectFour(3, 4), ConnectFour(4, 3, connect=3)):
        positions, moves = game.reachable_at_most()
        table = solve(game, workers=1)
        assert len(table) <= positions
    assert len(solve(ConnectFour(4, 4), workers=1)) == POSITION_COUNTS[4, 4]
    nim = Nim((3, 4, 5))
    positions, moves = nim.reachable_at_most()
    assert (positions, moves) == (2 * 4 * 5 * 6, 4 * 5 * 6 * 12)
    assert len(solve(nim)) <= positions


@pytest.fixture
def tiny_limits(monkeypatch):
    """Limits of a build small enough to reach in a test: 30 positions, 100 moves."""
    monkeypatch.setattr(retrograde, "POSITIONS", Limit("a table's positions", 30))
    monkeypatch.setattr(
        retrograde, "MOVES", Limit("the moves of a table built position by position", 100)
    )


def test_the_limits_are_checked_at_their_edge_and_lifted_by_no_limit(cli, tmp_path, tiny_limits):
    output = tmp_path / "n.tb"
    assert Nim((1, 6)).reachable_at_most() == (28, 98)  # within both: built
    assert cli.json(*build("nim", "--heaps", "1,6", output=output))["positions"] <= 28
    assert Nim((14,)).reachable_at_most() == (30, 210)
    assert "the moves of a table built position by position 210 is over the limit of 100" in (
        cli.error(*build("nim", "--heaps", "14", output=output))
    )
    assert Nim((1, 14)).reachable_at_most() == (60, 450)
    assert "a table's positions 60 is over the limit of 30" in cli.error(
        *build("nim", "--heaps", "1,14", output=output)
    )
    report = cli.json(*build("nim", "--heaps", "1,14", "--no-limit", output=output))
    assert report["positions"] <= 60


def test_a_game_that_gives_no_count_is_stopped_as_soon_as_it_passes_the_limit(
    cli, tmp_path, tiny_limits, take_away
):
    output = tmp_path / "t.tb"
    assert cli.json(*build(take_away + "(size=15)", output=output))["positions"] == 30
    message = cli.error(*build(take_away + "(size=16)", output=output))
    assert "over the limit of 30" in message and "the enumeration stopped there" in message
    assert sorted(path.name for path in tmp_path.iterdir()) == ["t.tb", "take_away_game.py"]
    assert cli.json(*build(take_away + "(size=40)", "--no-limit", output=output))["positions"] == 80


def test_the_limits_are_named_in_the_help(cli):
    _, out, _ = cli("tablebase", "build", "--help")
    words = " ".join(out.split())
    assert "a table's positions at most 150,000,000" in words
    assert "the moves of a table built position by position at most 30,000,000" in words
    assert "--no-limit" in words


def test_workers_beyond_what_the_cores_can_run_are_refused(cli, tmp_path):
    most = CORES_SHARED * default_workers()
    message = cli.error(*build("tictactoe", output=tmp_path / "t.tb")[:-1], str(most + 1))
    assert f"the worker processes of a build {most + 1:,} is over the limit of {most:,}" in message


@pytest.mark.parametrize("game", ["pig", "backgammon"])
def test_games_with_dice_are_refused_with_the_reason(cli, tmp_path, game):
    assert f"{game} has dice" in cli.error(*build(game, output=tmp_path / "t.tb"))


def test_ctrl_c_in_a_build_on_two_processes_exits_130_without_traceback_or_file(tmp_path):
    (tmp_path / "digits.py").write_text(DIGITS)
    output = tmp_path / "d.tb"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "zerosum", "tablebase", "build", f"{tmp_path / 'digits.py'}:Digits",
         "--workers", "2", "-o", str(output)],
        encoding="utf-8",
        timeout=HANG,
        dimensions=(24, 200),
    )  # fmt: skip
    child.expect("layer 5")  # the pool is at work
    time.sleep(0.5)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["digits.py"]


DIGITS = '''
class Digits:
    """Seven digits written in turn: layered, expanded one position at a time."""

    def initial_state(self):
        return ()

    def to_move(self, state):
        return len(state) % 2

    def legal_moves(self, state):
        return list(range(10)) if len(state) < 7 else []

    def result(self, state, move):
        return (*state, move)

    def is_terminal(self, state):
        return len(state) == 7

    def utility(self, state, player):
        return 1 if sum(state) % 2 == player else -1

    def key(self, state):
        key = 1
        for digit in state:
            key = key * 10 + digit
        return key

    def layer(self, state):
        return len(state)
'''


def test_header_json_of_a_real_table_is_shallow(tictactoe_table_file):
    data = tictactoe_table_file.read_bytes()
    length = int.from_bytes(data[10:14], "little")
    header = data[46 : 46 + length]
    assert table_file._nesting(header) <= 3 < table_file.MAX_HEADER_DEPTH
    assert json.loads(header)["positions"] == 5478


def test_build_help_names_only_the_games_a_table_is_built_for(cli):
    shown = " ".join(cli("tablebase", "build", "--help")[1].split())
    assert "the game: tictactoe, connect4, nim (built in)" in shown
    for other in ("pig", "backgammon", "--target"):
        assert other not in shown
    assert "chess only: the endgames to build" in shown  # chess's tables are named apart


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pig"], "pig has dice: a table by retrograde analysis is for games without chance"
         " (zerosum solve pig solves it its own way)"),
        (["backgammon"], "(zerosum analyze backgammon ranks its moves by expectiminimax)"),
        (["pig", "--target", "5"], "unrecognized arguments: --target 5"),
    ],
)  # fmt: skip
def test_games_without_tables_are_refused_with_the_reason(cli, tmp_path, argv, message):
    output = tmp_path / "t.tb"
    assert message in cli.error("tablebase", "build", *argv, "-o", str(output))
    assert not output.exists()


def test_one_of_each_count_is_said_in_the_singular(cli, tmp_path):
    output = tmp_path / "one.tb"
    code, out, _ = cli("tablebase", "build", "nim", "--heaps", "1", "-o", str(output))
    assert code == 0
    assert (
        "nim (heaps 1): 2 positions, 1 terminal\nfor the side to move: 1 win, 0 draws, 1 loss\n"
        in out
    )
