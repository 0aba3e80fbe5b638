"""Long jobs killed and resumed (docs/reliability.md): `zerosum tablebase build --work-dir`,
`zerosum train` and `zerosum cfr --save`, each a real process stopped by `kill -9` or Ctrl-C at
a point chosen by `ZEROSUM_FAULT` (`zerosum.faults`), never by a clock, then run again: the
table equals a clean build's byte for byte, the training run equals one never stopped, the
strategy file a clean run's; a damaged file of a work or run directory is refused in one line
naming it, or rebuilt where the design says so. `benchmarks/kill_resume.py` does the same at
random points."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.faults import VARIABLE, parse
from zerosum.solve.workdir import locked

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BOARD = "connect4(width=4,height=4)"
MANIFESTS = 70
"""The manifests the build of `BOARD` in 4 partitions writes: `build.json`, three a layer while
it enumerates (its keys, its outbox, what it sent), the end of the enumeration, one a layer
while it solves."""
HERE = Path(__file__).parent


def zerosum(*argv: str, fault: str | None = None, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m zerosum ARGV` as a process of its own, stopped where `fault` says."""
    env = {key: value for key, value in os.environ.items() if key != VARIABLE}
    if fault is not None:
        env[VARIABLE] = fault
    return subprocess.run(
        [sys.executable, "-m", "zerosum", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
        check=False,
    )


def stopped_as_asked(ran: subprocess.CompletedProcess, fault: str) -> None:
    """The process ended as `fault` asked: killed, or Ctrl-C told in one line, exit 130."""
    if parse(fault)[2] == signal.SIGKILL:
        assert ran.returncode == -signal.SIGKILL, ran.stderr
    else:
        assert ran.returncode == 130, ran.stderr
        assert ran.stderr.splitlines()[-1] == "zerosum: interrupted", ran.stderr
        assert "Traceback" not in ran.stderr


def refused(ran: subprocess.CompletedProcess, named: Path) -> str:
    """The one line of a refusal naming the file `named`, exit code 2."""
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.count("\n") == 1 and str(named) in ran.stderr, ran.stderr
    return ran.stderr


# The partitioned build


def build(work: Path, table: Path, *more: str, fault: str | None = None, board: str = BOARD):
    argv = ["tablebase", "build", board, "--work-dir", str(work), "-o", str(table), "--json"]
    return zerosum(*argv, *more, fault=fault, cwd=work.parent)


@pytest.fixture(scope="module")
def clean_table(tmp_path_factory) -> Callable[[str], bytes]:
    """`clean_table(workers)`: the table of `BOARD` built without a stop by `workers` processes
    (their number sets the partitions, which the table's layout follows)."""
    tables: dict[str, bytes] = {}

    def built(workers: str) -> bytes:
        if workers not in tables:
            folder = tmp_path_factory.mktemp("clean")
            ran = build(folder / "work", folder / "clean.tb", "--workers", workers)
            assert ran.returncode == 0, ran.stderr
            tables[workers] = (folder / "clean.tb").read_bytes()
        return tables[workers]

    return built


@pytest.mark.parametrize(
    "fault, workers",
    [
        ("manifest:2", "1"),  # build.json and the first layer written
        ("manifest:30", "2"),  # mid-enumeration, a layer's outbox written but not what it sent
        ("manifest:60:INT", "1"),  # Ctrl-C in the propagation
    ],
)
def test_a_build_stopped_at_a_manifest_resumes_to_the_clean_table(
    tmp_path, clean_table, fault, workers
):
    work, table = tmp_path / "work", tmp_path / "c4.tb"
    stopped_as_asked(build(work, table, "--workers", workers, fault=fault), fault)
    assert not table.exists()
    ran = build(work, table, "--workers", workers)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["passes_resumed"] > 0  # the finished layers were not redone
    assert table.read_bytes() == clean_table(workers)


def test_the_workers_of_a_killed_build_end_with_it(tmp_path):
    marker = tmp_path / "worker.pid"
    game = f"KillsItsParent(width=4,height=4,killing=12,marker={marker})"
    board = f"{HERE / 'dying_workers.py'}:{game}"
    work, table = tmp_path / "work", tmp_path / "c4.tb"
    # Its output to files, not pipes: an orphan holding a pipe would hang the test, not fail it.
    with open(tmp_path / "out", "w") as out:
        command = [sys.executable, "-m", "zerosum", "tablebase", "build", board,
                   "--work-dir", str(work), "-o", str(table), "--workers", "2"]  # fmt: skip
        parent = subprocess.Popen(command, stdout=out, stderr=out, cwd=tmp_path)
        assert parent.wait(timeout=600) == -signal.SIGKILL
    orphan = int(marker.read_text())
    try:
        assert ended_within(orphan, 10.0), "a worker outlived the build that started it"
    finally:
        if not ended_within(orphan, 0):
            os.kill(orphan, signal.SIGKILL)
    ran = build(work, table, "--workers", "2", board=board)  # the marker is there: no kill
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["positions"] == 161029


def ended_within(pid: int, seconds: float) -> bool:
    """Whether process `pid` has ended (gone, or a zombie no one reaped) within `seconds`: a
    bound on a wait, not a measure (the worker ends within `PARENT_POLL_SECONDS`)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def test_damaged_manifests_are_rebuilt_or_refused_in_one_line(tmp_path, clean_table):
    work, table = tmp_path / "work", tmp_path / "c4.tb"
    assert build(work, table, "--workers", "1", fault="manifest:66").returncode == -signal.SIGKILL
    # An edited layer manifest (its count of positions) is rebuilt, with a note naming it.
    edited = work / "layer-009" / "enumerated.json"
    edited.write_text(edited.read_text().replace('"positions": 9276', '"positions": 9275'))
    # A solved layer's manifest (before it) with a byte flipped: its values are rebuilt.
    flipped = work / "layer-005" / "solved.json"
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x04
    flipped.write_bytes(bytes(data))
    stray = work / "layer-003" / ".keys-0000.npy.4242.tmp"  # what a killed write leaves
    stray.write_bytes(b"half")
    ran = build(work, table, "--workers", "1")
    assert ran.returncode == 0, ran.stderr
    assert not stray.exists()
    notes = ran.stderr.splitlines()
    assert f"zerosum: note: {edited}: damaged or edited" in ran.stderr, notes
    assert any(str(flipped) in line and "values of layer 5 are rebuilt" in line for line in notes)
    assert table.read_bytes() == clean_table("1")
    # The record of the build, edited or cut short, is refused: it says what the directory is.
    record = work / "build.json"
    whole = record.read_text()
    record.write_text(whole.replace('"partitions": 1', '"partitions": 2'))
    assert "damaged or edited" in refused(build(work, table), record)
    record.write_text(whole[:20])
    assert "damaged (not JSON)" in refused(build(work, table), record)
    record.write_text(whole)
    assert build(work, table).returncode == 0


def test_a_lock_is_whole_when_seen_and_refuses_a_second_build(tmp_path):
    notes: list[str] = []
    with locked(tmp_path, notes.append):
        assert [path.name for path in tmp_path.iterdir()] == ["build.lock"]
        assert (tmp_path / "build.lock").read_text().endswith(f" {os.getpid()}")
        with pytest.raises(ValueError, match="in use by another build"), locked(tmp_path, print):
            pass
        assert [path.name for path in tmp_path.iterdir()] == ["build.lock"]
    assert list(tmp_path.iterdir()) == [] and notes == []


# The training run


def train(out: Path) -> list[str]:
    """The arguments of a small training run in `out`: 12 games, 4 a round."""
    return ["train", "tictactoe", "--out", str(out), "--simulations", "4", "--games-per-round",
            "4", "--hidden", "8", "--workers", "1", "--games", "12"]  # fmt: skip


ROUND_3 = 8
"""The log's line of round 3's training, after a start and the training, gate and evaluation
of rounds 1 and 2 (their gates accept the network, round 3's does not): a kill there leaves a
line past the kept round, and the resumed run keeps the best network it read from round 2's
files."""


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> Path:
    """A training run of `train`'s three rounds never stopped (run in this process)."""
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    run = tmp_path_factory.mktemp("training") / "run"
    assert main(train(run)) == 0
    return run


def weights_and_log(run: Path) -> tuple[dict, list[dict]]:
    """A run's kept files (each by its SHA-256) and its log without its time and `start` lines
    (a resumed run has one more, saying so): what equals between runs."""
    manifest = json.loads((run / "manifest.json").read_text())
    lines = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    for line in lines:
        line.pop("seconds")
    return manifest["files"], [line for line in lines if line["kind"] != "start"]


def test_a_training_run_killed_past_its_kept_round_resumes_equal_to_one_never_stopped(
    tmp_path, clean_run
):
    run, fault = tmp_path / "run", f"logged:{ROUND_3}"
    stopped_as_asked(zerosum(*train(run), fault=fault, cwd=tmp_path), fault)
    assert json.loads((run / "manifest.json").read_text())["progress"]["rounds"] == 2
    assert len((run / "log.jsonl").read_text().splitlines()) == ROUND_3  # one past round 2
    resume = [
        "train",
        "tictactoe",
        "--out",
        str(run),
        "--resume",
        "--games",
        "12",
        "--workers",
        "1",
    ]
    assert main(resume) == 0
    assert weights_and_log(run) == weights_and_log(clean_run)


def test_damaged_files_of_a_training_run_are_refused_in_one_line(
    cli, tmp_path, monkeypatch, clean_run
):
    shutil.copytree(clean_run, tmp_path / "run")
    monkeypatch.chdir(tmp_path)
    run = Path("run")  # as the command names it

    def resume_refused(named: Path) -> str:
        code, _, err = cli("train", "tictactoe", "--out", str(run), "--resume", "--games", "16")
        assert code == 2 and err.count("\n") == 1 and str(named) in err, err
        return err

    manifest = run / "manifest.json"
    whole = manifest.read_text()
    manifest.write_text(whole.replace('"rounds": 3', '"rounds": 2'))
    assert "damaged or edited" in resume_refused(manifest)
    manifest.write_text(whole[: len(whole) // 2])
    assert "is damaged" in resume_refused(manifest)
    manifest.write_text(whole)
    log = run / "log.jsonl"
    logged = log.read_bytes()
    log.write_bytes(logged[:-40])
    assert "shorter than" in resume_refused(log)
    log.write_bytes(logged)
    weights = run / json.loads(whole)["files"]["params"]["file"]
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0x01
    weights.write_bytes(bytes(data))
    resume_refused(weights)


# CFR's strategy file

CFR = ["cfr", "kuhn", "--iterations", "2000", "--save", "kuhn.json"]


def test_cfr_stopped_leaves_the_last_file_whole_and_a_rerun_writes_the_clean_one(tmp_path):
    clean, again = tmp_path / "clean", tmp_path / "again"
    clean.mkdir()
    again.mkdir()
    assert zerosum(*CFR, cwd=clean).returncode == 0
    stopped_as_asked(zerosum(*CFR, fault="iterations:3", cwd=again), "iterations:3")
    assert list(again.iterdir()) == []  # nothing half written, no temporary file left
    (again / "kuhn.json").write_text("an older strategy")
    stopped_as_asked(zerosum(*CFR, fault="iterations:3:INT", cwd=again), "iterations:3:INT")
    assert [path.name for path in again.iterdir()] == ["kuhn.json"]
    assert (again / "kuhn.json").read_text() == "an older strategy"  # untouched
    assert zerosum(*CFR, cwd=again).returncode == 0
    assert (again / "kuhn.json").read_bytes() == (clean / "kuhn.json").read_bytes()


# Ctrl-C while the command still imports

INTERRUPTED_IMPORTING = """
import os, signal, sys

def interrupt(event, args):
    if event == "import" and args[0] == {module!r}:
        os.kill(os.getpid(), signal.SIGINT)

sys.addaudithook(interrupt)
sys.argv = ["zerosum", "nim", "3", "4", "5"]
from zerosum.__main__ import run
sys.exit(run())
"""


@pytest.mark.parametrize(
    "module",
    [
        "zerosum.cli.common",  # while `zerosum.cli` imports: `zerosum.__main__.run` answers
        "zerosum.theory.nim",  # while the command's module imports: `zerosum.cli.main` does
    ],
)
def test_ctrl_c_while_the_command_imports_is_one_line_and_130(tmp_path, module):
    probe = textwrap.dedent(INTERRUPTED_IMPORTING).format(module=module)
    ran = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (130, "", "zerosum: interrupted\n")


def test_a_fault_that_names_no_point_is_refused():
    for wrong in ("manifest", "manifest:0", "nowhere:3", "kept:2:TERM"):
        with pytest.raises(ValueError, match="expected POINT:N"):
            parse(wrong)
    assert parse("kept:2") == ("kept", 2, signal.SIGKILL)


def test_a_run_killed_before_its_round_0_was_kept_starts_over(tmp_path):
    from zerosum.games.tictactoe import TicTacToe
    from zerosum.learn import training

    run = tmp_path / "run"
    run.mkdir()
    (run / "params-000000.npz").write_bytes(b"whole")
    (run / ".best-000000.npz.x1y2").write_bytes(b"half")  # a write stopped midway
    plan = training.Plan("tictactoe", hidden=(8,))
    started = training.start(str(run), plan, TicTacToe())
    assert training.resume(str(run)).progress == started.progress
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="is not empty"):
        training.start(str(tmp_path / "other"), plan, TicTacToe())


def test_a_build_killed_while_writing_its_record_starts_again(tmp_path):
    from zerosum.games.tictactoe import TicTacToe
    from zerosum.solve.partitioned import build as partitioned_build

    work = tmp_path / "work"
    work.mkdir()
    (work / ".build.json.x1y2").write_text('{"form')  # its first file, cut by a kill
    assert partitioned_build(TicTacToe(), work, partitions=1).positions == 5478
    assert not (work / ".build.json.x1y2").exists()
