"""Long jobs stopped at random points and run again (issue 35, docs/reliability.md).

Each of `--points` trials (100 by default) starts one of three jobs as a process of its own,
stops it after a random time within the job's clean duration, by `kill -9` of the process or
by Ctrl-C to its process group (as a terminal sends it), then runs it again to its end, as a
person would (`--resume` for a training run that kept a round), and compares the result with
a clean run's:

- `tablebase`: `zerosum tablebase build connect4(width=4,height=4) --work-dir W --workers 2`,
  the table byte for byte;
- `cfr`: `zerosum cfr kuhn --iterations 20000 --save F`, the strategy file byte for byte;
- `train`: `zerosum train tictactoe` (4 simulations, 4 games a round, 12 games), the kept
  weights (by SHA-256) and the log (but its times and `start` lines).

It counts, for each job: the trials stopped before their end (the others had finished), the
results equal to the clean one, a stop that printed a traceback or more than one line for
Ctrl-C, a rerun refused, the worker processes alive 3 s after their build was killed, and the
temporary files a kill left behind that the rerun did not remove. It stops by itself and
prints one table.

    python benchmarks/kill_resume.py [--points 100] [--seed 1] [--jobs tablebase,cfr,train]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

SHARE = {"tablebase": 0.6, "cfr": 0.3, "train": 0.1}
"""The share of the trials each job gets (a training run takes ten times a build)."""

ROWS = ("trials", "ended before the stop", "stopped by KILL", "stopped by INT",
        "ran to its end after the stop", "Ctrl-C not one line and 130", "traceback",
        "orphans alive 3 s after", "rerun refused", "temporary files left after the rerun",
        "equal to the clean run", "different from the clean run")  # fmt: skip
"""The counts of the table, each shown even when 0, in this order."""

JOBS = {
    "tablebase": ["tablebase", "build", "connect4(width=4,height=4)", "--work-dir", "work",
                  "-o", "c4.tb", "--workers", "2"],
    "cfr": ["cfr", "kuhn", "--iterations", "20000", "--save", "kuhn.json"],
    "train": ["train", "tictactoe", "--out", "run", "--simulations", "4", "--games-per-round",
              "4", "--hidden", "8", "--workers", "1", "--games", "12"],
}  # fmt: skip


def zerosum(argv: list[str], cwd: Path) -> subprocess.Popen:
    """`python -m zerosum ARGV` in a session of its own (its workers with it)."""
    return subprocess.Popen(
        [sys.executable, "-m", "zerosum", *argv],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def result(job: str, folder: Path) -> object:
    """What must equal between a clean run and a stopped one run again."""
    if job == "tablebase":
        return (folder / "c4.tb").read_bytes()
    if job == "cfr":
        return (folder / "kuhn.json").read_bytes()
    manifest = json.loads((folder / "run" / "manifest.json").read_text())
    lines = [json.loads(line) for line in (folder / "run" / "log.jsonl").read_text().splitlines()]
    for line in lines:
        line.pop("seconds")
    return manifest["files"], [line for line in lines if line["kind"] != "start"]


def rerun_argv(job: str, folder: Path) -> list[str]:
    """The command a person runs again after the stop."""
    if job == "train" and (folder / "run" / "manifest.json").exists():
        return ["train", "tictactoe", "--out", "run", "--resume", "--games", "12", "--workers", "1"]
    return JOBS[job]


def session_alive(session: int) -> int:
    """How many processes of session `session` still run (not zombies)."""
    alive = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] not in ("Z", "X") and int(fields[3]) == session:
            alive += 1
    return alive


def temporaries(folder: Path) -> int:
    """Files a write stopped midway left under a temporary name."""
    return sum(1 for path in folder.rglob(".*") if path.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", default=",".join(JOBS))
    args = parser.parse_args()
    # Ctrl-C handled here, so that the jobs may handle it too: started in the background, this
    # process was given SIGINT ignored, and an ignored signal stays ignored through exec.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    draw = random.Random(args.seed)
    jobs = args.jobs.split(",")
    shares = {job: SHARE[job] for job in jobs}
    plan = [
        job for job in jobs for _ in range(round(args.points * shares[job] / sum(shares.values())))
    ]
    draw.shuffle(plan)
    root = Path(tempfile.mkdtemp(prefix="kill-resume-"))
    clean: dict[str, object] = {}
    took: dict[str, float] = {}
    for job in jobs:
        folder = root / f"clean-{job}"
        folder.mkdir()
        began = time.perf_counter()
        process = zerosum(JOBS[job], folder)
        _, err = process.communicate()
        took[job] = time.perf_counter() - began
        assert process.returncode == 0, err
        clean[job] = result(job, folder)
        print(f"{job}: clean run {took[job]:.1f} s", file=sys.stderr)
    counts: dict[str, Counter] = {job: Counter() for job in jobs}
    began = time.perf_counter()
    for number, job in enumerate(plan):
        folder = root / f"{number:03d}-{job}"
        folder.mkdir()
        count = counts[job]
        count["trials"] += 1
        way = draw.choice(["KILL", "INT"])
        wait = draw.uniform(0.0, took[job])
        process = zerosum(JOBS[job], folder)
        print(f"{folder}: {way} after {wait:.2f} s", file=sys.stderr)
        try:
            process.wait(wait)
            finished = True
        except subprocess.TimeoutExpired:
            finished = False
            if way == "KILL":
                process.kill()  # the parent alone, as `kill -9 PID`
            else:
                os.killpg(process.pid, signal.SIGINT)  # the group, as a terminal's Ctrl-C
        _, err = process.communicate()
        if finished:
            count["ended before the stop"] += 1
        elif process.returncode == 0:
            count["ran to its end after the stop"] += 1
        else:
            count[f"stopped by {way}"] += 1
            if "Traceback" in err:
                count["traceback"] += 1
            told = err.splitlines()[-1:] == ["zerosum: interrupted"]
            if way == "INT" and (process.returncode != 130 or not told):
                count["Ctrl-C not one line and 130"] += 1
                print(f"{folder}: exit {process.returncode}: {err[-800:]}", file=sys.stderr)
            if way == "KILL":
                time.sleep(3.0)
                count["orphans alive 3 s after"] += session_alive(process.pid)
        again = zerosum(rerun_argv(job, folder), folder)
        _, err = again.communicate()
        if again.returncode != 0:
            count["rerun refused"] += 1
            print(f"{folder}: rerun refused: {err.strip()}", file=sys.stderr)
            continue
        count["temporary files left after the rerun"] += temporaries(folder)
        if result(job, folder) == clean[job]:
            count["equal to the clean run"] += 1
        else:
            count["different from the clean run"] += 1
            print(f"{folder}: different from the clean run (kept)", file=sys.stderr)
            continue
        shutil.rmtree(folder)
    seconds = time.perf_counter() - began
    names = [*ROWS, *sorted({name for count in counts.values() for name in count} - set(ROWS))]
    print(f"| count | {' | '.join(jobs)} |")
    print(f"|---|{'---:|' * len(jobs)}")
    for name in names:
        print(f"| {name} | {' | '.join(str(counts[job][name]) for job in jobs)} |")
    print(f"\n{len(plan)} trials in {seconds:.0f} s; seed {args.seed}; left in {root}")


if __name__ == "__main__":
    main()
