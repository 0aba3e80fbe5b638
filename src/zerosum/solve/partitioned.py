"""Retrograde analysis out of core: every layer split by a hash of the key into partitions kept
as files, so that no process ever holds a whole layer.

The same two passes as `zerosum.solve.retrograde`, on a `Layered` game whose positions travel as
keys (`Vectorized`, or `Restorable`), with every rank from the point of view of the side to
move (see `zerosum.solve.outcome`). Partition `p` of a layer holds the positions whose keys
`zerosum.solve.layers.owner` gives to `p`; every step is a task on one partition, run in this
process, in a pool of processes on this machine or on a Dask cluster, the tasks exchanging
files only (on a shared filesystem when the cluster spans machines):

- *Enumeration*, layer k to k + 1: each partition P of layer k expands its positions (in
  batches) and writes its children's distinct keys in one file, a share for each owner in
  layer k + 1 (`layer-k/asked/from-P.npy`); then each partition Q of layer k + 1 reads its
  share of every such file and merges them, each position once, into its keys in order. While
  the disk has room, the expansion is kept beside them (`asked/expanded-P.*.npy`, about 30
  bytes a position) for the propagation.
- *Propagation*, from the last layer back: each partition P of layer k asks the owners in
  layer k + 1 for its children's ranks with the files of its enumeration (or expands its
  positions again when they were not kept); each owner Q answers every asker with their ranks
  and movers, in one file (`answered/from-Q.npy`), in the order asked; each partition of layer
  k then reads its answers in the order it sent its keys, where its expansion recorded each
  child's place, and takes for each position the best of its children's ranks as seen from
  it. A step writes one file a partition, not one for each pair of partitions.

The work directory:

    build.json                  the game, its parameters, the partitions (written first)
    build.lock                  the machine and process of the build running in it
    layer-007/keys-0003.npy     the keys of partition 3 of layer 7, ascending (uint64)
    layer-007/enumerated.json   the layer's files: shape, dtype and CRC-32 of each
    layer-007/ranks-0003.npy    their ranks (int32) and movers (uint8), once solved
    layer-007/solved.json       the solved layer's files, as `enumerated.json`
    enumerated.json             the last layer, once the enumeration is over
    layer-007/asked/, asked.json  what layer 7 asks of layer 8, and its expansion, kept
    layer-007/answered/         what layer 8 answers, while layer 7 is solved

Every file is written to a temporary name and renamed into place, and a layer's manifest is
written last, once all its partitions are: a layer is finished when its manifest is. A rerun
with the same directory verifies the finished layers (each file's shape, dtype and checksum),
skips them, and rebuilds from the first damaged or unfinished one, saying so; a directory made
for another game, or another board, is refused.

Memory: a task holds one partition (its keys, its children's keys and their ranks: about
`BYTES_PER_POSITION` a position) and one batch of positions being expanded. `plan` chooses the
partitions and the batch so that both fit in the bound asked per worker, every layer taken as
large as the game says its widest can be (`widest_layer_at_most`: Connect Four counts the ways
of stacking its stones, 900,900 for 5x4 whose widest layer holds 620,337), else as the whole
game (`reachable_at_most`): more partitions than needed rather than fewer.

This module is the entry point: `build`, `open_build` and the `Build` they give. The plan of a
build is in `zerosum.solve.partition_plan`, the claim of its work directory in
`zerosum.solve.workdir_claim`, the files of that directory in `zerosum.solve.workdir`, the run
of its two passes in `zerosum.solve.partition_passes`, and the tasks that run on one partition
in `zerosum.solve.partition_tasks`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from zerosum.game import Game
from zerosum.solve.parallel import mapper
from zerosum.solve.partition_passes import Run
from zerosum.solve.partition_plan import BYTES_PER_EXPANDED as BYTES_PER_EXPANDED
from zerosum.solve.partition_plan import BYTES_PER_POSITION as BYTES_PER_POSITION
from zerosum.solve.partition_plan import MIN_BATCH, Plan, check_disk, parse_bytes, plan
from zerosum.solve.partition_plan import PROCESS_BYTES as PROCESS_BYTES
from zerosum.solve.retrograde import Progress, section
from zerosum.solve.table import Table
from zerosum.solve.workdir import (
    ENUMERATED,
    SOLVED,
    DamagedPartition,
    file_name,
    layer_dir,
    load,
    locked,
    read_json,
    read_manifest,
)
from zerosum.solve.workdir_claim import (
    check_game,
    check_same_game,
    claim,
    read_record,
    usable_work_dir,
)
from zerosum.stopping import stop_points

__all__ = ["Build", "DamagedPartition", "Plan", "build", "open_build", "parse_bytes", "plan"]

HERE_AT_MOST = 10_000
"""The fewest positions a step sends to the workers: a smaller step runs in this process. A
pool's round trip costs about a millisecond, a Dask cluster's tens: 5x4 Connect Four in four
partitions on two processes took 4.1 s with 10,000 here, 4.4 s with 100,000 (7.0 s on one)."""


@dataclass(frozen=True)
class Build:
    """A finished partitioned build: its work directory, the `partitions` of every layer, the
    positions of each layer (`layers`), the largest peak resident memory of a worker in bytes
    (`peak_memory`, of this process when it ran alone), how many passes over a layer (its
    enumeration, its solving) were found finished in the directory and skipped (`resumed`),
    and what was found damaged and rebuilt (`notes`). `traffic` gives, for each layer after
    the first, the moves that reach it and the keys sent to its partitions (`Run.traffic`):
    what a cluster's workers exchange, as a file of keys and one of their answers (8 bytes a
    key each)."""

    game: Game
    work_dir: Path
    partitions: int
    layers: dict[int, int]
    peak_memory: int
    resumed: int
    notes: tuple[str, ...]
    traffic: dict[int, tuple[int, int]]

    @property
    def positions(self) -> int:
        return sum(self.layers.values())

    def partition(self, layer: int, partition: int) -> tuple[np.ndarray, np.ndarray]:
        """The keys (ascending) and ranks (for the side to move) of one partition of a layer,
        verified."""
        folder = layer_dir(self.work_dir, layer)
        keys = read_manifest(folder / ENUMERATED)["files"]
        solved = read_manifest(folder / SOLVED)["files"]
        name = file_name("keys", partition)
        ranks = file_name("ranks", partition)
        return load(folder / name, keys[name]), load(folder / ranks, solved[ranks])

    def table(self) -> Table:
        """The whole build as an in-memory `Table` (for boards that fit in memory): the same
        sections, key by key, as `zerosum.solve.solve` gives."""
        sections = []
        for layer in self.layers:
            parts = [self.partition(layer, p) for p in range(self.partitions)]
            keys = np.concatenate([keys for keys, _ in parts])
            ranks = np.concatenate([ranks for _, ranks in parts]).astype(np.int64)
            order = np.argsort(keys, kind="stable")
            sections.append(section(layer, keys[order], ranks[order]))
        return Table(self.game, sections)


def build(
    game: Game,
    work_dir: str | os.PathLike,
    *,
    memory_per_worker: int | None = None,
    partitions: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[Progress], None] | None = None,
    notice: Callable[[str], None] | None = None,
    keep_expansions: bool | None = None,
    no_limit: bool = False,
) -> Build:
    """The `Build` of every position reachable from the initial position of a layered `game`,
    each valued for its side to move, solved partition by partition in the work directory
    `work_dir`.

    Runs in this process (the default), in a pool of `workers` processes, or on
    the Dask cluster whose scheduler listens at `scheduler` (every worker then sees
    `work_dir` at the same path: a shared filesystem). `memory_per_worker` (bytes) bounds each
    worker (see `plan`); `partitions` forces their number. `progress` is called as the build
    advances, `notice` with each finding of a rerun (a damaged file, the layers rebuilt).
    `keep_expansions` keeps (True) or drops (False) each layer's expansion between its
    enumeration and its propagation, which then need not expand it again; by default it is
    kept while more than `KEEP_WHILE_FREE` of the disk is free (about 30 bytes a position).

    Rerun with the same `work_dir`, a build skips every finished layer. ValueError for a game
    that is not layered or sends no keys, a `work_dir` that is a file, one made for another
    game, or one on a disk too small for the game's positions (`check_disk`, unless
    `no_limit`)."""
    check_game(game)
    folder = usable_work_dir(work_dir, make=False)  # refused before a cluster is started
    plan(game, memory_per_worker, 1, partitions)  # a bound too small, likewise
    check_disk(game, folder, no_limit=no_limit)  # a disk too small, likewise
    notes: list[str] = []

    def note(text: str) -> None:
        notes.append(text)
        if notice is not None:
            notice(text)

    with ExitStack() as stack:
        # Ctrl-C answered between tasks and while waiting for the workers, never inside numpy
        # (which turned it into a TypeError in the middle of np.load)
        poll = stack.enter_context(stop_points())
        mapping = stack.enter_context(
            mapper(1 if workers is None else workers, scheduler, poll=poll)
        )
        chosen = plan(game, memory_per_worker, mapping.width, partitions)
        usable_work_dir(folder, make=True)
        stack.enter_context(locked(folder, note))
        parts = claim(folder, game, chosen.partitions, note)
        run = Run(
            game, folder, parts, chosen.batch, mapping, progress, keep_expansions, HERE_AT_MOST,
            poll,
        )  # fmt: skip
        resumed = run.verify(note)
        run.enumerate()
        run.propagate()
    return Build(game, folder, parts, run.sizes(), run.peak, resumed, tuple(notes), run.traffic())


def open_build(game: Game, work_dir: str | os.PathLike) -> Build:
    """The finished build in `work_dir` for `game`; ValueError when it is not one, or not
    finished."""
    folder = Path(work_dir)
    record = read_record(folder)
    if record is None:
        raise ValueError(f"{folder}: no partitioned build here")
    check_same_game(folder, record, game)
    run = Run(game, folder, record["partitions"], MIN_BATCH, None, None)
    last = read_json(folder / ENUMERATED)
    if last is None or any(
        read_json(layer_dir(folder, layer) / SOLVED) is None
        for layer in range(run.first, last["last"] + 1)
    ):
        raise ValueError(f"{folder}: the build is not finished (rerun it to finish it)")
    return Build(game, folder, run.parts, run.sizes(), 0, 0, (), run.traffic())
