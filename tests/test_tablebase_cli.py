"""`zerosum tablebase build|info|probe`: counts, values, best moves, errors as one line."""

import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from zerosum.cli import tablebase

HANG = 300  # seconds: a build of Connect Four 5x4 takes five; only a hang reaches this


def test_build_json_counts_tictactoe_positions_and_values(cli, tmp_path):
    path = tmp_path / "t.tb"
    argv = ["tablebase", "build", "tictactoe", "-o", str(path), "--workers", "1"]
    report = cli.json(*argv, progress=True)
    assert (report["positions"], report["terminal"]) == (5478, 958)
    assert (report["wins"], report["draws"], report["losses"]) == (2836, 1068, 1574)
    assert (report["value"], report["plies"]) == (0, 9)
    assert report["bytes"] == path.stat().st_size
    assert [layer["positions"] for layer in report["layers"]][:3] == [1, 9, 72]


def test_build_shows_its_phases_layers_and_memory_on_a_terminal(tmp_path):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "zerosum", "tablebase", "build", "connect4(width=5,height=4)", "-o",
         str(tmp_path / "c.tb")],
        encoding="utf-8",
        timeout=HANG,
        dimensions=(24, 200),
    )  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert re.search(r"enumerate: .*positions.*layer \d+, \d+ MB", child.before)
    assert re.search(r"propagate: .*/3.95M.*layer \d+, \d+ MB", child.before)
    assert "3,945,711 positions" in child.before


def test_build_prints_no_progress_where_stderr_is_no_terminal(cli, tmp_path):
    _, out, err = cli(
        "tablebase", "build", "tictactoe", "-o", str(tmp_path / "t.tb"), "--workers", "1"
    )
    assert err == ""
    assert "5,478 positions, 958 terminal" in out


def test_info_json_of_a_built_file(cli, tictactoe_table_file):
    report = cli.json("tablebase", "info", str(tictactoe_table_file))
    assert report["game"] == "tictactoe" and report["parameters"] == {}
    assert (report["positions"], report["terminal"], report["value"]) == (5478, 958, 0)


def test_probe_gives_value_plies_and_best_moves(cli, tictactoe_table_file):
    report = cli.json("tablebase", "probe", str(tictactoe_table_file), "--position", "XX.OO....")
    assert report == {
        "game": "tictactoe",
        "position": "XX.OO....",
        "to_move": 0,
        "value": 1,
        "plies": 1,
        "best_moves": ["2"],
    }
    code, out, _ = cli("tablebase", "probe", str(tictactoe_table_file), "--position", "X...O...X")
    assert code == 0
    assert "O to move: a draw in 6 plies" in out and "best moves: 1 3 5 7" in out


def test_connect4_3x3_build_probe_by_columns(cli, tmp_path):
    path = tmp_path / "c4.tb"
    report = cli.json(
        "tablebase",
        "build",
        "connect4",
        "--width",
        "3",
        "--height",
        "3",
        "-o",
        str(path),
        "--workers",
        "1",
        progress=True,
    )
    assert report["parameters"] == {"width": 3, "height": 3, "connect": 4}
    assert (report["value"], report["plies"]) == (0, 9)
    probe = cli.json("tablebase", "probe", str(path), "--position", "2")
    assert probe["to_move"] == 1 and probe["value"] == 0


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda data: data[: len(data) // 2], "truncated table"),
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "corrupted table"),
        (lambda data: b"", "not a zerosum table"),
    ],
)
def test_damaged_file_is_one_line_and_exit_2(cli, tictactoe_table_file, tmp_path, damage, message):
    bad = tmp_path / "bad.tb"
    bad.write_bytes(damage(tictactoe_table_file.read_bytes()))
    for action in (["info", str(bad)], ["probe", str(bad), "--position", "........."]):
        assert message in cli.error("tablebase", *action)  # one line, exit code 2


def test_missing_file_and_position_outside_are_exit_2(cli, tictactoe_table_file, tmp_path):
    assert "cannot read table" in cli.error("tablebase", "info", str(tmp_path / "none.tb"))
    assert "bad position" in cli.error(
        "tablebase", "probe", str(tictactoe_table_file), "--position", "XXX"
    )


def test_bad_build_options_are_exit_2(cli, tmp_path):
    out = str(tmp_path / "x.tb")
    assert "tictactoe has no option 'width' (its options: none)" in cli.error(
        "tablebase", "build", "tictactoe", "--width", "3", "-o", out
    )
    assert "width must be between 1 and 9 columns, got 0" in cli.error(
        "tablebase", "build", "connect4", "--width", "0", "-o", out
    )
    assert "chess has too many positions to enumerate into a table" in cli.error(
        "tablebase", "build", "chess", "-o", out
    )
    assert "workers must be at least 1" in cli.error(
        "tablebase", "build", "tictactoe", "-o", out, "--workers", "0"
    )
    assert "no directory" in cli.error(
        "tablebase", "build", "tictactoe", "-o", str(tmp_path / "no" / "x.tb")
    )
    assert not (tmp_path / "x.tb").exists()


def test_subprocess_build_then_info_then_a_damaged_file(cli, tmp_path):
    path = tmp_path / "ttt.tb"
    code, out, err = cli.process("tablebase", "build", "tictactoe", "-o", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["positions"] == 5478
    code, out, _ = cli.process("tablebase", "info", str(path))
    assert code == 0
    assert "initial position: a draw in 9 plies" in out
    path.write_bytes(path.read_bytes()[:100])
    code, _, err = cli.process("tablebase", "info", str(path))
    assert code == 2 and err.count("\n") == 1


def test_build_interrupted_midway_exits_130_and_writes_nothing(tmp_path, monkeypatch, cli):
    def interrupt(self, progress):
        if progress.phase == "propagate":
            raise KeyboardInterrupt

    monkeypatch.setattr(tablebase.BuildProgress, "__call__", interrupt)
    path = tmp_path / "ttt.tb"
    code, _, _ = cli("tablebase", "build", "tictactoe", "-o", str(path), "--workers", "1")
    assert code == 130
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("way", [(), ("--work-dir", "work")], ids=["memory", "partitioned"])
def test_build_takes_a_game_whose_moves_skip_layers(cli, tmp_path, monkeypatch, way):
    monkeypatch.chdir(tmp_path)
    game = f"{Path(__file__).parent / 'layered_games.py'}:TakeOneTwoFive(size=20,heaps=2)"
    report = cli.json("tablebase", "build", game, "-o", "t.zt", *way, progress=True)
    # 20 ^ 20 stones, each heap's Grundy value its stones mod 3: 2 ^ 2 = 0 loses for the mover
    assert (report["positions"], report["value"], report["plies"]) == (878, -1, 22)
    assert [layer["layer"] for layer in report["layers"]] == list(range(41))
    code, out, _ = cli("tablebase", "probe", "t.zt", game, "--position", "4 2 0")
    assert code == 0 and "a win in" in out  # 1 ^ 2 = 3: a win
