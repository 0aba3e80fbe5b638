"""The plan of a partitioned build (`zerosum.solve.partitioned`): how many partitions a layer is
cut into and how many positions a task expands at a time, so that each worker stays within its
memory bound (`plan`, from the sizes people write: `parse_bytes`), and whether the disk of the
work directory can hold the game's positions once solved (`check_disk`).

A task holds one partition (about `BYTES_PER_POSITION` a position) and one batch being expanded
(`BYTES_PER_EXPANDED` a position), beside what its process holds before any work
(`PROCESS_BYTES`); every layer is taken as large as the game says its widest can be
(`widest_layer_at_most`).
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path

from zerosum.game import Game
from zerosum.limits import NO_LIMIT
from zerosum.solve.retrograde import reachable_at_most

BYTES_PER_POSITION = 200
"""Memory a task takes per position of its partition, measured (5x4 Connect Four in one
partition: 162 MB at the peak for a widest layer of 620,337 positions, 40 MB of it the
process's own): its key, its children's keys, their ranks and movers, the expansion kept."""
BYTES_PER_EXPANDED = 512
"""Memory per position of a batch being expanded: the arrays of its children's keys (Connect
Four 7 columns wide: about five arrays of seven 8-byte keys)."""
PROCESS_BYTES = 160 << 20
"""What a worker process holds before any work: Python, numpy, Dask."""
MIN_BATCH = 1024
MAX_BATCH = 1 << 20
DEFAULT_MEMORY = 2 << 30
"""The memory per worker a build plans for when no bound is asked."""
TASKS_PER_WORKER = 2
"""Partitions per worker at least, so that a slow one holds up less."""


@dataclass(frozen=True)
class Plan:
    """How a build is cut: `partitions` per layer, `batch` positions expanded at a time."""

    partitions: int
    batch: int


def parse_bytes(text: str) -> int:
    """Bytes from `8GB`, `512MB`, `1.5 GiB`, `4096` (K, M, G, T: powers of 1024);
    ValueError otherwise."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    cleaned = text.strip().upper().replace(" ", "").removesuffix("B").removesuffix("I")
    number = cleaned.rstrip("KMGT")
    unit = cleaned[len(number) :]
    try:
        amount = float(number)
    except ValueError:
        amount = -1.0
    if unit not in units or not math.isfinite(amount) or amount <= 0:
        raise ValueError(f"bad memory size {text!r}: expected a size such as 8GB or 512MB")
    return int(amount * units[unit])


def _megabytes(count: int) -> str:
    return f"{count / (1 << 20):,.0f} MB"


def _size(count: int) -> str:
    """Bytes as a person reads them: `59 TB`, `14 GB`, `300 MB`."""
    for unit, power in (("TB", 40), ("GB", 30)):
        if count >= 1 << power:
            return f"{count / (1 << power):,.0f} {unit}"
    return _megabytes(count)


STORED_BYTES = 13
"""Disk a position takes in a finished work directory: its key (8), rank (4) and mover (1)."""


def check_disk(game: Game, folder: Path, *, no_limit: bool = False) -> None:
    """ValueError, before any work, when the positions the game says it reaches
    (`reachable_at_most`) would not fit, solved, on the disk of the work directory `folder`
    beside what it holds already (unless `no_limit`: the build then stops when the disk is
    full, its finished layers kept)."""
    bound = reachable_at_most(game)
    if bound is None or no_limit:
        return
    held = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    free = shutil.disk_usage(folder if folder.exists() else folder.parent).free + held
    needs = bound[0] * STORED_BYTES
    if needs > free:
        raise ValueError(
            f"{bound[0]:,} positions need about {_size(needs)} of disk in the work directory"
            f" ({STORED_BYTES} bytes each, solved); the disk of {str(folder)!r} has"
            f" {_size(free)} for it: give a work directory on a larger disk, or pass"
            f" {NO_LIMIT} to try anyway"
        )


def widest_layer_at_most(game: Game) -> int:
    """The most positions the game says one of its layers holds (`widest_layer_at_most()`),
    else the most it says it reaches in all (`reachable_at_most()`), else 0 (not known)."""
    widest = getattr(game, "widest_layer_at_most", None)
    if callable(widest):
        return int(widest())
    bound = getattr(game, "reachable_at_most", None)
    return int(bound()[0]) if callable(bound) else 0


def plan(
    game: Game, memory_per_worker: int | None, workers: int, partitions: int | None = None
) -> Plan:
    """The partitions and batch size that keep each of `workers` workers within
    `memory_per_worker` bytes (default `DEFAULT_MEMORY`), for the widest layer the game says it
    can have (`widest_layer_at_most`), at least two a worker and as many for each (unless
    `partitions` says how many). ValueError when the bound cannot hold one batch of
    `MIN_BATCH` positions."""
    memory = DEFAULT_MEMORY if memory_per_worker is None else memory_per_worker
    smallest = PROCESS_BYTES + 2 * MIN_BATCH * BYTES_PER_EXPANDED
    if memory < smallest:
        raise ValueError(
            f"a memory bound of {_megabytes(memory)} per worker cannot hold one batch of"
            f" {MIN_BATCH:,} positions: give at least {_megabytes(smallest)}"
        )
    budget = memory - PROCESS_BYTES
    batch = max(MIN_BATCH, min(MAX_BATCH, budget // 4 // BYTES_PER_EXPANDED))
    if partitions is None:
        positions = widest_layer_at_most(game)
        held = budget - batch * BYTES_PER_EXPANDED
        partitions = max(-(-positions * BYTES_PER_POSITION // held), 1)
        if workers > 1:  # as many a worker, so that none waits at the end of a step
            partitions = -(-max(partitions, TASKS_PER_WORKER * workers) // workers) * workers
    if partitions < 1:
        raise ValueError(f"partitions must be at least 1, got {partitions}")
    return Plan(partitions, batch)
