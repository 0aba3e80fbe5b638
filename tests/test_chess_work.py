"""Chess endgame tables built out of core (`zerosum.solve.chess_work`): the same bytes as the
in-memory build, after a kill at any level too, and a damaged checkpoint refused by name. KPK
stands for the 5-piece tables: small, with pawns and promotions into smaller tables."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from zerosum import faults
from zerosum.games.chess.endgame import Material
from zerosum.solve import chess_builds, chess_tables, chess_work

KPK = Material.parse("KPK")
LAST_LEVEL = 57
"""KPK's last level: its longest mate is 56 plies, and level 57 settles nothing."""


@pytest.fixture(scope="module")
def in_memory(tmp_path_factory):
    """KPK's table and those its promotions reach, built in memory."""
    where = tmp_path_factory.mktemp("in-memory")
    chess_builds.build(KPK, where)
    return where


def _zerosum(*arguments, kill_at=None):
    environment = dict(os.environ)
    environment.pop(faults.VARIABLE, None)
    if kill_at is not None:  # level kill_at is settled the (kill_at + 1)-th time
        environment[faults.VARIABLE] = f"level:{kill_at + 1}"
    return subprocess.run(
        [sys.executable, "-m", "zerosum", "tablebase", "build", "chess", *arguments],
        capture_output=True,
        text=True,
        env=environment,
    )


def _same_tables(folder, in_memory):
    for path in sorted(in_memory.glob("*.ztb")):
        assert (folder / path.name).read_bytes() == path.read_bytes(), path.name


def test_the_out_of_core_build_is_the_in_memory_build_byte_for_byte(in_memory, tmp_path):
    out, work = tmp_path / "out", tmp_path / "work"
    out.mkdir()
    levels: list[chess_tables.Progress] = []
    built = chess_builds.build(KPK, out, work_dir=work, progress=levels.append)
    assert [table.material.name for table in built][-1] == "KPvK"
    assert max(report.level for report in levels if report.material == "KPvK") == LAST_LEVEL
    _same_tables(out, in_memory)
    assert not (work / "KPvK").exists()  # removed once the table is written


@pytest.mark.parametrize("level", [0, 24, LAST_LEVEL])
def test_a_build_killed_after_a_level_resumes_to_the_same_bytes(in_memory, tmp_path, level):
    """Killed once `level` is settled, before its checkpoint (the level's writes are in the
    mapped files, the checkpoint is the level's before): the build run again undoes them,
    resumes, and writes the table an uninterrupted build writes. (KPK's wins take odd plies,
    its losses even ones: an even level writes losses and the next level's wins.)"""
    out, work = tmp_path / "out", tmp_path / "work"
    killed = _zerosum("KPK", "-o", str(out), "--work-dir", str(work), kill_at=level)
    assert killed.returncode == -9, killed.stderr
    assert not (out / "KPvK.ztb").exists()
    again = _zerosum("KPK", "-o", str(out), "--work-dir", str(work))
    assert again.returncode == 0, again.stderr
    if level > 0:
        assert f"resumed after level {level - 1}" in again.stderr
    _same_tables(out, in_memory)


def test_wake_row_0_is_not_trusted_but_rebuilt_from_the_codes(in_memory, tmp_path):
    """A resumed build rebuilds the positions a level looks at from the codes: the row
    zeroed in the file, the table is the same. (Killed at level 10: the wins of level 9 woke
    the positions level 10 looks at for its losses.)"""
    out, work = tmp_path / "out", tmp_path / "work"
    assert _zerosum("KPK", "-o", str(out), "--work-dir", str(work), kill_at=10).returncode == -9
    wake = np.load(work / "KPvK" / chess_work.WAKE, mmap_mode="r+")
    wake[0] = 0
    wake.flush()
    del wake
    assert _zerosum("KPK", "-o", str(out), "--work-dir", str(work)).returncode == 0
    _same_tables(out, in_memory)


def test_a_build_stopped_after_its_last_checkpoint_only_writes_the_draws_again(in_memory, tmp_path):
    """`chess_work.solve` leaves the work directory (the caller removes it once the table is
    written): run again on it, as after a kill before the table was written, it finds the last
    checkpoint, and the codes, the draws written again, are the table's."""
    smaller = [chess_tables.load(chess_tables.path_of(in_memory, sub)) for sub in KPK.smaller()]
    first = chess_work.solve(KPK, smaller, tmp_path / "work")
    assert not (tmp_path / "work" / chess_work.WAKE).exists()
    notes: list[str] = []
    again = chess_work.solve(KPK, smaller, tmp_path / "work", note=notes.append)
    assert notes == [f"{tmp_path / 'work'}: resumed after level {LAST_LEVEL}"]
    expected = chess_tables.load(chess_tables.path_of(in_memory, KPK)).codes
    assert np.array_equal(first.codes, expected) and np.array_equal(again.codes, expected)


def _flip_last_byte(path):
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))


def _cut_short(path):
    path.write_bytes(path.read_bytes()[:-100])


def _garble(path):
    path.write_text("{not json")


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """A KPK build killed at level 5: its work directory holds level 4's checkpoint."""
    where = tmp_path_factory.mktemp("killed")
    done = _zerosum("KPK", "-o", str(where / "out"), "--work-dir", str(where / "work"), kill_at=5)
    assert done.returncode == -9
    assert json.loads((where / "work" / "KPvK" / "level.json").read_text())["level"] == 4
    return where


@pytest.mark.parametrize(
    ("name", "damage", "problem"),
    [
        ("codes.npy", _flip_last_byte, "checksum mismatch"),
        ("wake.npy", _flip_last_byte, "checksum mismatch"),
        ("wake.npy", _cut_short, "unreadable or cut short"),
        ("won-0004.npy", _flip_last_byte, "checksum mismatch"),
        ("level.json", _garble, "unreadable or edited"),
    ],
)
def test_a_damaged_checkpoint_is_refused_in_one_line_naming_the_file(
    killed, tmp_path, name, damage, problem
):
    out, work = tmp_path / "out", tmp_path / "work"
    shutil.copytree(killed / "out", out)
    shutil.copytree(killed / "work", work)
    damage(work / "KPvK" / name)
    again = _zerosum("KPK", "-o", str(out), "--work-dir", str(work))
    assert again.returncode == 2
    errors = [line for line in again.stderr.splitlines() if not line.startswith("zerosum: note")]
    assert errors == [
        f"zerosum: error: {work / 'KPvK' / name}: damaged checkpoint ({problem}): remove"
        f" {work / 'KPvK'} to build the table again"
    ]


def test_a_work_directory_of_another_material_is_refused(tmp_path):
    krk = Material.parse("KRK")
    chess_work.solve(krk, [], tmp_path / "work")
    with pytest.raises(ValueError, match="holds a build of KRvK, not KQvK"):
        chess_work.solve(Material.parse("KQK"), [], tmp_path / "work")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["KRBKR"], "5 is over the limit of 4: each piece more"),
        (["KRBKR"], "give --work-dir DIR to build one without pawns out of core"),
        (["KRPKR", "--work-dir", "W"], "KRPvKR: tables of 5 pieces with pawns are not built"),
    ],
)
def test_five_pieces_need_a_work_dir_and_no_pawns(tmp_path, arguments, message):
    done = _zerosum(*arguments, "-o", str(tmp_path / "t"))
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1
