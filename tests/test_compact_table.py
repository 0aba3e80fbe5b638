"""The compact table: every position as today's table has it, a few bytes each, verified on
load; `zerosum tablebase build --work-dir` writes it and `info`, `probe` and `play` read it."""

import json

import numpy as np
import pytest

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.solve import compact, parallel, solve
from zerosum.solve.compact import CompactTable
from zerosum.solve.partitioned import build

_MASK = (1 << 64) - 1
_ODD = 0x9E3779B97F4A7C15
_INVERSE = pow(_ODD, -1, 1 << 64)


class Rekeyed:
    """Tic-tac-toe under other keys: shifted left by `shift` bits (keys over 32 bits, in a few
    runs of shared high bits), or, with shift None, scrambled over all 64 bits."""

    def __init__(self, shift):
        self.shift = shift
        self.game = TicTacToe()

    def __getattr__(self, name):
        if name == "game":
            raise AttributeError(name)
        return getattr(self.game, name)

    def _out(self, keys):
        keys = np.asarray(keys, np.uint64)
        if self.shift is None:
            return keys * np.uint64(_ODD)
        return keys << np.uint64(self.shift)

    def _in(self, keys):
        keys = np.asarray(keys, np.uint64)
        if self.shift is None:
            return keys * np.uint64(_INVERSE)
        return keys >> np.uint64(self.shift)

    def key(self, state):
        key = self.game.key(state)
        return key * _ODD & _MASK if self.shift is None else key << self.shift

    def expand_keys(self, keys):
        movers, counts, utilities, children = self.game.expand_keys(self._in(keys))
        return movers, counts, utilities, self._out(children)

    def layers(self, keys):
        return self.game.layers(self._in(keys))


def every_entry_agrees(table, reference, game):
    """True when `table` gives every position of `reference` its value and distance."""
    for section in reference.sections:
        states = game.from_keys(np.frombuffer(section.keys, np.uint64))  # all at once
        for state, value, distance in zip(states, section.values, section.distances, strict=True):
            if table._entry(state) != (value, distance):
                return False
    return True


@pytest.mark.parametrize(
    ("game", "parts"), [(TicTacToe(), 1), (ConnectFour(4, 4), 3)], ids=["tictactoe", "c4-4x4"]
)
def test_every_position_reads_as_in_todays_table(game, parts, tmp_path):
    path = tmp_path / "t.zt"
    size = compact.write(build(game, tmp_path / "work", partitions=parts), path)
    table = compact.load(path, game)
    assert isinstance(table, CompactTable) and size == path.stat().st_size
    reference = solve(game, workers=1)
    assert (table.counts, table.layers) == (reference.counts, reference.layers)
    assert table.initial() == reference.initial()
    assert every_entry_agrees(table, reference, game)


def test_connect4_4x4_takes_one_byte_of_value_and_four_of_key_a_position(tmp_path):
    path = tmp_path / "c.zt"
    compact.write(build(ConnectFour(4, 4), tmp_path / "work", partitions=2), path)
    header = compact.read_header(path)
    assert header["code"] == {"dtype": "u1", "lowest": -1, "values": 3, "endless": None}
    held = [section for section in header["sections"] if section["positions"]]
    assert {section["keys"] for section in held} == {"u4"}  # an empty one has none
    body = path.stat().st_size - header["positions"] * 5
    assert 0 < body < 8 * 1024  # the preamble, the header, the runs and the padding


@pytest.mark.parametrize(("shift", "kind"), [(16, "u4"), (None, "u8")], ids=["runs", "whole"])
def test_keys_over_32_bits_are_kept_in_runs_or_whole(shift, kind, tmp_path):
    game = Rekeyed(shift)
    path = tmp_path / "t.zt"
    compact.write(build(game, tmp_path / "work", partitions=2), path)
    header = compact.read_header(path)
    large = [section for section in header["sections"] if section["positions"] > 100]
    assert {section["keys"] for section in large} == {kind}
    if kind == "u4":
        assert max(section["runs"] for section in large) > 1
    table, reference = compact.load(path, game), solve(TicTacToe(), workers=1)
    for state, entry in ((s, reference.lookup(s)) for s in reachable_tictactoe()):
        assert table.lookup(state) == entry
    assert table.lookup((0b111, 0b111 << 3)) is None  # not a position of the game


def reachable_tictactoe():
    game, seen, stack = TicTacToe(), set(), [TicTacToe().initial_state()]
    while stack:
        state = stack.pop()
        if state not in seen:
            seen.add(state)
            if not game.is_terminal(state):
                stack.extend(game.result(state, move) for move in game.legal_moves(state))
    return seen


@pytest.fixture(scope="module")
def compact_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compact")
    path = folder / "ttt.zt"
    compact.write(build(TicTacToe(), folder / "work", partitions=2), path)
    return path


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[: len(data) // 2], "truncated table"),
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "corrupted table (checksum mismatch)"),
        (lambda data: data + b"x", "1 bytes too many after the table"),
        (lambda data: b"ZSPACKED", "truncated table"),
    ],
)
def test_a_damaged_compact_file_is_refused_in_one_line(damage, message, compact_file, tmp_path):
    bad = tmp_path / "bad.zt"
    bad.write_bytes(damage(compact_file.read_bytes()))
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compact.load(bad, TicTacToe())


def test_a_compact_file_of_another_game_is_refused(compact_file):
    with pytest.raises(ValueError, match="table built for TicTacToe\\(\\), not ConnectFour"):
        compact.load(compact_file, ConnectFour(3, 3))


def test_cli_builds_by_partitions_and_reads_the_compact_table(cli, tmp_path):
    path, work = tmp_path / "c.zt", tmp_path / "work"
    argv = ["tablebase", "build", "connect4", "--width", "4", "--height", "3", "-o", str(path)]
    report = cli.json(*argv, "--work-dir", str(work), progress=True)
    today = cli.json(*argv[:-1], str(tmp_path / "c.tb"), "--workers", "1", progress=True)
    same = ("positions", "terminal", "wins", "draws", "losses", "value", "plies", "layers")
    assert {key: report[key] for key in same} == {key: today[key] for key in same}
    assert report["partitions"] == 1 and report["passes_resumed"] == 0
    assert report["peak_mb_per_worker"] > 0
    again = cli.json(*argv, "--work-dir", str(work), progress=True)
    assert again["passes_resumed"] == 2 * len(report["layers"])
    info = cli.json("tablebase", "info", str(path))
    assert info["positions"] == today["positions"] and info["bytes"] == path.stat().st_size
    probe = cli.json("tablebase", "probe", str(path), "--position", "21")
    assert probe == {**cli.json("tablebase", "probe", str(tmp_path / "c.tb"), "--position", "21")}


def test_play_reads_a_compact_table(cli, compact_file):
    argv = ["play", "tictactoe", "XX.OO....", "--table", str(compact_file)]
    code, out, _ = cli(*argv, answers=["2"])
    assert code == 0 and "you win" in out


def test_bad_partitioned_builds_are_one_line_and_exit_2(cli, tmp_path, monkeypatch):
    out = str(tmp_path / "x.zt")
    argv = ["tablebase", "build", "connect4", "--width", "4", "--height", "3", "-o", out]
    afile = tmp_path / "file"
    afile.write_text("x")
    assert "as a work directory: it is a file" in cli.error(*argv, "--work-dir", str(afile))
    work = str(tmp_path / "work")
    assert "cannot hold one batch of 1,024 positions" in cli.error(
        *argv, "--work-dir", work, "--memory-per-worker", "64MB"
    )
    assert "bad memory size '8XB'" in cli.error(
        *argv, "--work-dir", work, "--memory-per-worker", "8XB"
    )
    assert "give --work-dir too" in cli.error(*argv, "--memory-per-worker", "8GB")
    assert "not both" in cli.error(
        *argv, "--work-dir", work, "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"
    )
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", "1s")
    assert "cannot reach the Dask scheduler" in cli.error(
        *argv, "--work-dir", work, "--scheduler", "tcp://127.0.0.1:9"
    )
    assert "Nim does not provide Layered" in cli.error(
        "tablebase", "build", "nim", "--heaps", "1,2", "-o", out, "--work-dir", work
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["file"]  # nothing made


def test_a_build_report_reads_as_json(cli, tmp_path):
    path = tmp_path / "t.zt"
    argv = ["tablebase", "build", "tictactoe", "-o", str(path), "--work-dir", str(tmp_path / "w")]
    code, out, err = cli(*argv)
    assert code == 0, err
    assert "5,478 positions" in out and "1 partition a layer" in out and "resumed" not in out
    code, out, err = cli(*argv)
    assert code == 0, err
    assert "resumed: 20 of the 20 passes over the layers (enumerating, solving) were found" in out
    assert json.loads(json.dumps(compact.read_header(path)))["positions"] == 5478
