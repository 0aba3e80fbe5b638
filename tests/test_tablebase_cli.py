"""`zerosum tablebase build|info|probe`: counts, values, best moves, errors as one line."""

import json
import subprocess
import sys

import pytest

from zerosum.cli import main, tablebase


@pytest.fixture(scope="module")
def ttt(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "ttt.tb"
    assert main(["tablebase", "build", "tictactoe", "-o", str(path), "--workers", "1"]) == 0
    return path


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_build_json_counts_tictactoe_positions_and_values(capsys, tmp_path):
    path = tmp_path / "t.tb"
    report = run_json(capsys, "tablebase", "build", "tictactoe", "-o", str(path), "--workers", "1")
    assert (report["positions"], report["terminal"]) == (5478, 958)
    assert (report["wins"], report["draws"], report["losses"]) == (2836, 1068, 1574)
    assert (report["value"], report["plies"]) == (0, 9)
    assert report["bytes"] == path.stat().st_size
    assert [layer["positions"] for layer in report["layers"]][:3] == [1, 9, 72]


def test_build_reports_progress_on_stderr(capsys, tmp_path):
    main(["tablebase", "build", "tictactoe", "-o", str(tmp_path / "t.tb"), "--workers", "1"])
    captured = capsys.readouterr()
    assert "enumerate layer 0: 1 positions" in captured.err
    assert "propagate layer 9: 78 positions" in captured.err
    assert "5,478 positions, 958 terminal" in captured.out


def test_info_json_of_a_built_file(capsys, ttt):
    report = run_json(capsys, "tablebase", "info", str(ttt))
    assert report["game"] == "tictactoe" and report["parameters"] == {}
    assert (report["positions"], report["terminal"], report["value"]) == (5478, 958, 0)


def test_probe_gives_value_plies_and_best_moves(capsys, ttt):
    report = run_json(capsys, "tablebase", "probe", str(ttt), "--position", "XX.OO....")
    assert report == {
        "game": "tictactoe",
        "position": "XX.OO....",
        "to_move": 0,
        "value": 1,
        "plies": 1,
        "best_moves": ["2"],
    }
    assert main(["tablebase", "probe", str(ttt), "--position", "X...O...X"]) == 0
    out = capsys.readouterr().out
    assert "O to move: a draw in 6 plies" in out and "best moves: 1 3 5 7" in out


def test_connect4_3x3_build_probe_by_columns(capsys, tmp_path):
    path = tmp_path / "c4.tb"
    report = run_json(
        capsys,
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
    )
    assert report["parameters"] == {"width": 3, "height": 3, "connect": 4}
    assert (report["value"], report["plies"]) == (0, 9)
    probe = run_json(capsys, "tablebase", "probe", str(path), "--position", "2")
    assert probe["to_move"] == 1 and probe["value"] == 0


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda data: data[: len(data) // 2], "truncated table"),
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "corrupted table"),
        (lambda data: b"", "not a zerosum table"),
    ],
)
def test_damaged_file_is_one_line_and_exit_2(capsys, ttt, tmp_path, damage, message):
    bad = tmp_path / "bad.tb"
    bad.write_bytes(damage(ttt.read_bytes()))
    for action in (["info", str(bad)], ["probe", str(bad), "--position", "........."]):
        assert main(["tablebase", *action]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1


def test_missing_file_and_position_outside_are_exit_2(capsys, ttt, tmp_path):
    assert main(["tablebase", "info", str(tmp_path / "none.tb")]) == 2
    assert "cannot read table" in capsys.readouterr().err
    assert main(["tablebase", "probe", str(ttt), "--position", "XXX"]) == 2
    assert "bad position" in capsys.readouterr().err


def test_bad_build_options_are_exit_2(capsys, tmp_path):
    out = str(tmp_path / "x.tb")
    assert main(["tablebase", "build", "tictactoe", "--width", "3", "-o", out]) == 2
    assert "tictactoe has no option 'width' (its options: none)" in capsys.readouterr().err
    assert main(["tablebase", "build", "connect4", "--width", "0", "-o", out]) == 2
    assert "width must be between 1 and 9 columns, got 0" in capsys.readouterr().err
    assert main(["tablebase", "build", "chess", "-o", out]) == 2
    assert "chess has too many positions to enumerate into a table" in capsys.readouterr().err
    assert main(["tablebase", "build", "tictactoe", "-o", out, "--workers", "0"]) == 2
    assert "workers must be at least 1" in capsys.readouterr().err
    assert main(["tablebase", "build", "tictactoe", "-o", str(tmp_path / "no" / "x.tb")]) == 2
    assert "no directory" in capsys.readouterr().err
    assert not (tmp_path / "x.tb").exists()


def test_subprocess_build_then_info_then_a_damaged_file(tmp_path):
    path = tmp_path / "ttt.tb"
    command = [sys.executable, "-m", "zerosum", "tablebase"]
    built = subprocess.run(
        [*command, "build", "tictactoe", "-o", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    assert json.loads(built.stdout)["positions"] == 5478
    info = subprocess.run(
        [*command, "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert info.returncode == 0
    assert "initial position: a draw in 9 plies" in info.stdout
    path.write_bytes(path.read_bytes()[:100])
    broken = subprocess.run(
        [*command, "info", str(path)], capture_output=True, text=True, timeout=120
    )
    assert broken.returncode == 2 and broken.stderr.count("\n") == 1


def test_build_interrupted_midway_exits_130_and_writes_nothing(tmp_path, monkeypatch, capsys):
    def interrupt(self, progress):
        if progress.phase == "propagate":
            raise KeyboardInterrupt

    monkeypatch.setattr(tablebase.ProgressLine, "__call__", interrupt)
    path = tmp_path / "ttt.tb"
    assert main(["tablebase", "build", "tictactoe", "-o", str(path), "--workers", "1"]) == 130
    assert list(tmp_path.iterdir()) == []
