"""How soon the command answers: the wall time of whole `zerosum` processes, beside Python's own
start (`python -c pass`) in the same run.

Each command runs once to warm the caches (numba's compiled searches, Python's bytecode, the
disk), then `--runs` times in turn with the others; the median is kept. Python writes its
bytecode as a `pip install` leaves it (`PYTHONDONTWRITEBYTECODE` is taken out of the
environment: with it set, every module of an editable install is compiled again at each start).

The targets of the command's start: `--help` and `games` under 0.25 s over Python's start,
`solve tictactoe` under 0.5 s, `analyze connect4 4453 --time 1` within 1.3 s of wall time
(`--time` counts the loading of the compiled engine). The last rows compare the two engines on
searches too small to pay for the compiled one's loading, which `analyze` then leaves out
(`LOAD_SECONDS`, `LOAD_NODES` in `zerosum.cli.analyze`).

Run by hand: python benchmarks/startup.py [--runs 9] [--json].
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

PYTHON = "python -c pass"

COMMANDS: tuple[tuple[str, float | None, str], ...] = (
    # the command, its target (seconds), and whether the target is over Python's start or wall
    (PYTHON, None, ""),
    ("zerosum --help", 0.25, "over Python"),
    ("zerosum games", 0.25, "over Python"),
    ("zerosum solve tictactoe", 0.5, "wall"),
    ("zerosum analyze connect4 4453 --time 1", 1.3, "wall"),
    ("zerosum analyze connect4 4453 --depth 8", None, ""),
    ("zerosum analyze connect4 4453 --depth 8 --engine python", None, ""),
    ("zerosum analyze connect4 4453 --depth 12", None, ""),
    ("zerosum analyze connect4 4453 --depth 12 --engine python", None, ""),
    ("zerosum analyze connect4 4453 --nodes 10000", None, ""),
    ("zerosum analyze connect4 4453 --nodes 10000 --engine compiled", None, ""),
)


def argv(command: str) -> list[str]:
    """The process to start for `command`: the installed `zerosum` script, else `python -m`."""
    words = command.split()
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    script = shutil.which("zerosum")
    return [script, *words[1:]] if script else [sys.executable, "-m", "zerosum", *words[1:]]


def wall(command: str, environment: dict[str, str]) -> float:
    """Seconds from starting `command` to its exit (it must succeed)."""
    began = time.perf_counter()
    subprocess.run(argv(command), env=environment, check=True, capture_output=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for command, _, _ in COMMANDS:  # warm: bytecode written, kernels in numba's cache
        wall(command, environment)
    times: dict[str, list[float]] = {command: [] for command, _, _ in COMMANDS}
    for _ in range(options.runs):
        for command in times:
            times[command].append(wall(command, environment))
    median = {command: statistics.median(values) for command, values in times.items()}
    python = median[PYTHON]
    rows = []
    for command, target, kind in COMMANDS:
        measured = median[command] - python if kind == "over Python" else median[command]
        rows.append(
            {
                "command": command,
                "median_seconds": round(median[command], 3),
                "over_python": round(median[command] - python, 3),
                "target": None if target is None else f"{kind} < {target:g} s",
                "met": None if target is None else measured < target,
            }
        )
    if options.json:
        print(json.dumps({"runs": options.runs, "rows": rows}, indent=2))
        return
    print(f"{'command':<58} {'median':>8} {'over Python':>12}  target")
    for row in rows:
        met = "" if row["met"] is None else ("met" if row["met"] else "MISSED")
        target = f"{row['target']} {met}" if row["target"] else ""
        print(
            f"{row['command']:<58} {row['median_seconds']:>7.3f}s {row['over_python']:>11.3f}s"
            f"  {target}"
        )


if __name__ == "__main__":
    main()
