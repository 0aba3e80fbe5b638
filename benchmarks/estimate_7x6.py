"""What building the 7x6 Connect Four table by partitions would take, from what was measured
here, and the same model checked against the builds it did not see.

    python benchmarks/estimate_7x6.py REPORT.json [REPORT.json ...]
        [--memory-per-worker 8GB] [--machines 16] [--cores 8]

Each REPORT is a measure that `partitioned.py --save DIR` kept (`DIR/5x5-w2.json`: each
layer's positions, moves and keys sent, the time, workers, peak memory and table size), or
the JSON that `zerosum tablebase build connect4 --width W --height H --work-dir DIR -o FILE
--json` printed, its workers given in its file name (`5x6-w2.json`), which has no moves.

The model, per layer k of n_k positions:

- *time*: positions / (positions a second a core), the rate of the largest build measured;
- *memory*: a worker holds its own memory (`OWN`, measured) and one partition of the
  widest layer at the bytes a position measured on the largest build (its peak past its own
  memory, over its widest partition), so the partitions a layer are the widest layer's bytes
  over the bound;
- *keys sent*: a child reached by d moves from positions spread at random over P partitions
  is sent by about P(1 - (1 - 1/P)^d) of them; with d taken as the layer's moves over its
  positions, sent_k = n_k P (1 - (1 - 1/P)^(m_k / n_k)) (an upper bound: the sum is concave in
  d). Each key sent crosses the network three times in a build (sent, asked again, answered),
  8 bytes each;
- *disk*: 13 bytes a position in the work directory (key, rank, mover), the compact table at
  its measured bytes a position, and each layer's expansion (its moves' keys) while kept.

For 7x6 the positions per ply are Tromp's (OEIS A212693, 4,531,985,219,092 in all); the moves
into each ply are not published, so the in-degree m_k / n_k is taken from the measured boards,
a share of the width at the same share of the board filled, scaled to 7 columns.

The check: every quantity the model predicts is also predicted for each measured build from
the largest smaller one (its rate and bytes a position; the keys sent from the build's own
moves), and printed beside what was measured: how far the model carries from one board to the
next larger.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np

SEVEN_BY_SIX = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101,
    30929111, 75437595, 176541259, 394591391, 858218743, 1763883894, 3568259802, 6746155945,
    12673345045, 22010823988, 38263228189, 60830813459, 97266114959, 140728569039,
    205289508055, 268057611944, 352626845666, 410378505447, 479206477733, 488906447183,
    496636890702, 433471730336, 370947887723, 266313901222, 183615682381, 104004465349,
    55156010773, 22695896495, 7811825938, 1459332899,
]  # fmt: skip
"""Legal 7x6 positions after each ply, 0 to 42 (Tromp, OEIS A212693)."""
BOCK_2025 = "47 hours on one core with 128 GB of memory, a table of 89.6 GB (win, draw, loss)"
"""The strong solution by binary decision diagrams: M. Böck, Strongly Solving 7x6 Connect-Four
on Consumer Grade Hardware, arXiv:2507.05267 (2025)."""
STORED = 13
"""Bytes a position in a work directory once solved: its key (8), rank (4) and mover (1)."""
CROSSINGS = 3
"""Times a key sent crosses between workers: sent, asked again, answered."""
OWN = 36 << 20
"""A worker's memory before any work, measured: Python, numpy and zerosum's build imported."""


class Measured:
    """One finished build: its board, layers (positions, moves, keys sent), time and peak."""

    def __init__(self, path: Path) -> None:
        record = json.loads(path.read_text())
        found = re.search(r"-w(\d+)", path.stem)
        self.workers = int(found.group(1)) if found else record.get("workers", 1)
        self.seconds, self.partitions = record["seconds"], record["partitions"]
        self.positions = record["positions"]
        self.moves: dict[int, int] = {}
        self.sent: dict[int, int] = {}
        if "board" in record:  # a measure of partitioned.py --save
            self.width, self.height = map(int, record["board"].split("x"))
            self.peak = record["peak_mb"] * 2**20
            self.table_bytes = record["table_bytes"]
            self.layers = [count for count, _, _ in record["layers"]]
            for layer, (_, moves, sent) in enumerate(record["layers"]):
                if sent:
                    self.moves[layer], self.sent[layer] = moves, sent
        else:  # the report of zerosum tablebase build --work-dir --json
            self.width = record["parameters"]["width"]
            self.height = record["parameters"]["height"]
            self.peak = record["peak_mb_per_worker"] * 2**20
            self.table_bytes = record["bytes"]
            self.layers = [layer["positions"] for layer in record["layers"]]
        self.name = f"{self.width}x{self.height}"
        if sum(self.layers) != self.positions:
            raise SystemExit(f"{path}: its layers do not add up to its positions")

    @property
    def rate(self) -> float:
        """Positions a second a core."""
        return self.positions / self.seconds / self.workers

    @property
    def bytes_a_position(self) -> float:
        """A worker's peak past its own memory (`OWN`) over the positions of its widest
        partition."""
        return (self.peak - OWN) / (max(self.layers) / self.partitions)

    def in_degree(self) -> dict[float, float]:
        """Moves into a layer over its positions and the width, by share of the board filled."""
        cells = self.width * self.height
        return {
            layer / cells: self.moves[layer] / self.layers[layer] / self.width
            for layer in self.moves
        }


def sent_estimate(positions: float, moves: float, partitions: int) -> float:
    """Keys sent to a layer of `positions` reached by `moves`, its parents spread at random
    over `partitions`."""
    if positions == 0:
        return 0.0
    degree = moves / positions
    return positions * partitions * (1 - (1 - 1 / partitions) ** degree)


def check(builds: list[Measured]) -> None:
    """Each build predicted from the largest smaller one, beside what it measured."""
    print("The model checked: each build predicted from the largest smaller one")
    print(f"{'board':<6}{'quantity':<30}{'predicted':>16}{'measured':>16}{'ratio':>8}")
    for build in builds:
        smaller = [other for other in builds if other.positions < build.positions]
        rows = []
        if smaller:
            basis = max(smaller, key=lambda other: (other.positions, -other.workers))
            rows += [
                ("seconds a core", build.positions / basis.rate, build.seconds * build.workers),
                ("peak MB a worker", (OWN + basis.bytes_a_position * max(build.layers)
                                      / build.partitions) / 2**20, build.peak / 2**20),
                ("table bytes", build.positions * basis.table_bytes / basis.positions,
                 build.table_bytes),
            ]  # fmt: skip
        if build.sent:
            predicted = sum(
                sent_estimate(build.layers[k], build.moves[k], build.partitions) for k in build.sent
            )
            rows.append((f"keys sent ({build.partitions} partitions)", predicted,
                         sum(build.sent.values())))  # fmt: skip
        for quantity, predicted, measured in rows:
            print(
                f"{build.name:<6}{quantity:<30}{predicted:>16,.0f}{measured:>16,.0f}"
                f"{predicted / measured:>8.2f}"
            )


def estimate(builds: list[Measured], memory: int, machines: int, cores: int) -> None:
    """The 7x6 build on `machines` machines of `cores` workers, `memory` bytes each."""
    largest = max(builds, key=lambda build: build.positions)
    degrees = sorted(
        (share, degree)
        for build in builds
        if build.moves
        for share, degree in build.in_degree().items()
    )
    if not degrees:
        raise SystemExit("no report has the moves of its layers: rebuild one with this zerosum")
    shares, values = np.array(degrees).T
    counts = np.array(SEVEN_BY_SIX, dtype=float)
    cells = len(counts) - 1
    moves = np.interp(np.arange(len(counts)) / cells, shares, values) * 7 * counts
    moves[0] = 0
    widest = counts.max()
    partitions = int(np.ceil(widest * largest.bytes_a_position / (memory - OWN)))
    partitions = max(partitions, machines * cores)
    sent = sum(sent_estimate(n, m, partitions) for n, m in zip(counts[1:], moves[1:], strict=True))
    positions = counts.sum()
    core_seconds = positions / largest.rate
    workers = machines * cores
    tb = 1e12
    print(f"\n7x6 by partitions, at the rate and bytes a position of {largest.name}:")
    rows = [
        ("positions (Tromp)", f"{positions:,.0f}"),
        ("widest layer (ply 33)", f"{widest:,.0f}"),
        ("moves (in-degree scaled to 7 columns)", f"{moves.sum():,.0f}"),
        (f"partitions a layer ({memory / 2**30:.0f} GB a worker)", f"{partitions:,}"),
        ("keys sent", f"{sent:,.0f}"),
        ("bytes between workers", f"{sent * 8 * CROSSINGS / tb:,.0f} TB"),
        ("work directory, solved", f"{positions * STORED / tb:,.0f} TB"),
        ("compact table", f"{positions * largest.table_bytes / largest.positions / tb:,.1f} TB"),
        ("core time", f"{core_seconds / 3600:,.0f} core-hours"),
        (f"on {machines} machines of {cores} cores", f"{core_seconds / workers / 3600:,.0f} hours"),
        ("the decision-diagram solution (Böck 2025)", BOCK_2025),
    ]
    for label, value in rows:
        print(f"  {label:<45}{value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--memory-per-worker", default="8GB")
    parser.add_argument("--machines", type=int, default=16)
    parser.add_argument("--cores", type=int, default=8)
    args = parser.parse_args()
    from zerosum.solve.partitioned import parse_bytes

    builds = [Measured(path) for path in args.reports]
    check(builds)
    estimate(builds, parse_bytes(args.memory_per_worker), args.machines, args.cores)


if __name__ == "__main__":
    main()
