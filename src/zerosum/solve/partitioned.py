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
"""

from __future__ import annotations

import math
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.game import Game, Keyed, Layered, Restorable, Vectorized, has_chance, require
from zerosum.limits import NO_LIMIT
from zerosum.solve.layers import (
    best_of_children,
    by_owner,
    expand_layer,
    sorted_unique,
    split_by_owner,
)
from zerosum.solve.parallel import Mapper, mapper, peak_memory
from zerosum.solve.retrograde import Progress, reachable_at_most, section
from zerosum.solve.table import Table, describe_game, identity
from zerosum.solve.workdir import (
    LOCK,
    DamagedPartition,
    file_name,
    first_damage,
    fresh,
    layer_dir,
    load,
    locked,
    read_json,
    read_manifest,
    save,
    send,
    share_of,
    write_json,
)

__all__ = ["Build", "DamagedPartition", "Plan", "build", "open_build", "parse_bytes", "plan"]

FORMAT = 2
"""The layout of the work directory, recorded in its `build.json`."""
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
HERE_AT_MOST = 10_000
"""The fewest positions a step sends to the workers: a smaller step runs in this process. A
pool's round trip costs about a millisecond, a Dask cluster's tens: 5x4 Connect Four in four
partitions on two processes took 4.1 s with 10,000 here, 4.4 s with 100,000 (7.0 s on one)."""
KEEP_WHILE_FREE = 0.10
"""The share of the disk that must stay free for a build to keep a layer's expansion."""
SETTLED_AT_ONCE = 1 << 16
"""Positions valued at a time from their children: few enough that the arrays of their
children stay in the processor's cache (5x4 Connect Four: 20% faster than a batch of a
million)."""
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


@dataclass(frozen=True)
class Build:
    """A finished partitioned build: its work directory, the `partitions` of every layer, the
    positions of each layer (`layers`), the largest peak resident memory of a worker in bytes
    (`peak_memory`, of this process when it ran alone), how many passes over a layer (its
    enumeration, its solving) were found finished in the directory and skipped (`resumed`),
    and what was found damaged and rebuilt (`notes`). `traffic` gives, for each layer after
    the first, the moves that reach it and the keys sent to its partitions (`_Run.traffic`):
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


ENUMERATED, SOLVED, BUILD = "enumerated.json", "solved.json", "build.json"
ASKED, ASKED_MANIFEST = "asked", "asked.json"
EXPANSION = ("movers", "counts", "ranks", "children")
"""What `route` keeps of a partition's expansion for `settle`: each position's mover, number of
moves and terminal rank, and its children one position after another, each as its place among
the keys the partition sent (`from-P.npy`, owner after owner), where the owners' answers put
its rank."""


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
    _check_game(game)
    folder = _work_dir(work_dir, make=False)  # refused before a cluster is started
    plan(game, memory_per_worker, 1, partitions)  # a bound too small, likewise
    check_disk(game, folder, no_limit=no_limit)  # a disk too small, likewise
    notes: list[str] = []

    def note(text: str) -> None:
        notes.append(text)
        if notice is not None:
            notice(text)

    with ExitStack() as stack, mapper(1 if workers is None else workers, scheduler) as mapping:
        chosen = plan(game, memory_per_worker, mapping.width, partitions)
        _work_dir(folder, make=True)
        stack.enter_context(locked(folder, note))
        parts = _claim(folder, game, chosen.partitions, note)
        run = _Run(game, folder, parts, chosen.batch, mapping, progress, keep_expansions)
        resumed = run.verify(note)
        run.enumerate()
        run.propagate()
    return Build(game, folder, parts, run.sizes(), run.peak, resumed, tuple(notes), run.traffic())


def open_build(game: Game, work_dir: str | os.PathLike) -> Build:
    """The finished build in `work_dir` for `game`; ValueError when it is not one, or not
    finished."""
    folder = Path(work_dir)
    record = read_json(folder / BUILD)
    if record is None:
        raise ValueError(f"{folder}: no partitioned build here")
    _same_game(folder, record, game)
    run = _Run(game, folder, record["partitions"], MIN_BATCH, None, None)
    last = read_json(folder / ENUMERATED)
    if last is None or any(
        read_json(layer_dir(folder, layer) / SOLVED) is None
        for layer in range(run.first, last["last"] + 1)
    ):
        raise ValueError(f"{folder}: the build is not finished (rerun it to finish it)")
    return Build(game, folder, run.parts, run.sizes(), 0, 0, (), run.traffic())


def _check_game(game: Game) -> None:
    require(game, Keyed, "a partitioned build")
    require(game, Layered, "a partitioned build")
    if has_chance(game):
        raise ValueError(
            f"{type(game).__name__} has dice: retrograde analysis solves games without chance"
        )
    if not isinstance(game, Vectorized | Restorable):
        raise ValueError(
            f"{type(game).__name__} cannot rebuild positions from keys (from_keys): a partitioned"
            " build sends positions between workers as keys"
        )


def _work_dir(work_dir: str | os.PathLike, *, make: bool) -> Path:
    """`work_dir` as a directory that exists or can be made (in a directory that exists), made
    when `make` says so; ValueError otherwise."""
    folder = Path(work_dir)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"cannot use {str(folder)!r} as a work directory: it is a file")
    if not folder.parent.is_dir():
        raise ValueError(
            f"cannot make work directory {str(folder)!r}: no directory {str(folder.parent)!r}"
        )
    if make and not folder.exists():
        try:
            folder.mkdir()
        except OSError as error:
            raise ValueError(
                f"cannot make work directory {str(folder)!r}: {error.strerror}"
            ) from None
    return folder


def _claim(folder: Path, game: Game, partitions: int, note: Callable[[str], None]) -> int:
    """The partitions of the build in `folder`: those recorded when it was made for `game`,
    else `partitions`, recorded now. ValueError for a directory of another game's build, or
    one that holds other files."""
    record = read_json(folder / BUILD)
    if record is None:
        if any(path.name != LOCK for path in folder.iterdir()):
            raise ValueError(
                f"cannot use {str(folder)!r} as a work directory: it holds other files"
                " and no zerosum build"
            )
        name, parameters = identity(game)
        record = {
            "format": FORMAT,
            "game": name,
            "parameters": parameters,
            "partitions": partitions,
        }
        write_json(folder / BUILD, record)
        return partitions
    _same_game(folder, record, game)
    if record["partitions"] != partitions:
        note(f"{folder} was made with {record['partitions']} partitions a layer: kept")
    return int(record["partitions"])


def _same_game(folder: Path, record: dict[str, Any], game: Game) -> None:
    name, parameters = identity(game)
    if record.get("format") != FORMAT or not isinstance(record.get("partitions"), int):
        raise ValueError(
            f"{folder}: not a work directory of this zerosum (format {record.get('format')})"
        )
    if (record.get("game"), record.get("parameters")) != (name, parameters):
        if not isinstance(record.get("parameters"), dict):
            raise ValueError(f"{folder}: an unreadable {BUILD}")
        raise ValueError(
            f"{folder} holds a build of {describe_game(record['game'], record['parameters'])},"
            f" not {describe_game(name, parameters)}: give another work directory"
        )


class _Run:
    """One run of a build: the steps over the layers, each a map of tasks over partitions."""

    def __init__(
        self,
        game: Game,
        folder: Path,
        parts: int,
        batch: int,
        mapping: Mapper | None,
        progress: Callable[[Progress], None] | None,
        keep: bool | None = None,
    ) -> None:
        self.game, self.folder, self.parts, self.batch = game, folder, parts, batch
        self.keep = keep
        self.mapping, self.progress = mapping, progress
        self.first = int(game.layer(game.initial_state()))  # type: ignore[attr-defined]
        self.peak = peak_memory()
        self.phase, self.done, self.began = "", 0, time.perf_counter()

    # Finding what is finished

    def verify(self, note: Callable[[str], None]) -> int:
        """Check every finished layer's files; drop the first damaged enumerated layer and
        every one after it, and any damaged solved layer. The layers kept (enumerated and
        solved)."""
        kept, layer = 0, self.first
        while (manifest := read_json(layer_dir(self.folder, layer) / ENUMERATED)) is not None:
            damage = first_damage(layer_dir(self.folder, layer), manifest)
            if damage is not None:
                note(f"{damage}: layer {layer} and the layers after it are rebuilt")
                self._drop_from(layer)
                break
            kept += 1
            expansion = read_json(layer_dir(self.folder, layer) / ASKED_MANIFEST)
            if expansion is not None:
                damage = first_damage(layer_dir(self.folder, layer), expansion)
                if damage is not None:
                    note(f"{damage}: layer {layer} is expanded again")
                    (layer_dir(self.folder, layer) / ASKED_MANIFEST).unlink()
            solved = read_json(layer_dir(self.folder, layer) / SOLVED)
            if solved is not None:
                damage = first_damage(layer_dir(self.folder, layer), solved)
                if damage is None:
                    kept += 1
                else:
                    note(f"{damage}: the values of layer {layer} are rebuilt")
                    (layer_dir(self.folder, layer) / SOLVED).unlink()
            layer += 1
        last = read_json(self.folder / ENUMERATED)
        if last is not None and last.get("last", -1) >= layer:
            (self.folder / ENUMERATED).unlink()
        return kept

    def _drop_from(self, layer: int) -> None:
        (self.folder / ENUMERATED).unlink(missing_ok=True)
        while layer_dir(self.folder, layer).exists():
            shutil.rmtree(layer_dir(self.folder, layer))
            layer += 1

    def sizes(self) -> dict[int, int]:
        """The positions of each enumerated layer, by layer."""
        return {layer: manifest["positions"] for layer, manifest in self._manifests()}

    def traffic(self) -> dict[int, tuple[int, int]]:
        """For each layer after the first: the moves that reach it from the layer before, and
        the keys its partitions were sent for it (each partition sends a child once, so
        between the layer's positions and those moves)."""
        return {
            layer: (manifest["moves"], manifest["sent"])
            for layer, manifest in self._manifests()
            if "sent" in manifest
        }

    def _manifests(self) -> Iterator[tuple[int, dict[str, Any]]]:
        layer = self.first
        while (manifest := read_json(layer_dir(self.folder, layer) / ENUMERATED)) is not None:
            yield layer, manifest
            layer += 1

    # Enumeration

    def enumerate(self) -> None:
        self._start("enumerate")
        folder = layer_dir(self.folder, self.first)
        if read_json(folder / ENUMERATED) is None:
            key = np.array([self.game.key(self.game.initial_state())], np.uint64)  # type: ignore[attr-defined]
            folder.mkdir(exist_ok=True)
            files = {}
            for partition, keys in enumerate(split_by_owner(key, self.parts)):
                name = file_name("keys", partition)
                held = np.empty(0, np.uint64) if keys is None else keys
                files[name] = save(folder / name, held)
            write_json(folder / ENUMERATED, {"layer": self.first, "positions": 1, "files": files})
        layer = self.first
        while read_json(self.folder / ENUMERATED) is None:
            following = layer_dir(self.folder, layer + 1)
            if read_json(following / ENUMERATED) is None and not self._enumerate_layer(layer):
                write_json(self.folder / ENUMERATED, {"last": layer})
                break
            layer += 1

    def _enumerate_layer(self, layer: int) -> int:
        """Write layer + 1 from layer `layer`; its positions (0: the enumeration is over)."""
        source, target = layer_dir(self.folder, layer), layer_dir(self.folder, layer + 1)
        manifest = read_manifest(source / ENUMERATED)
        (source / ASKED_MANIFEST).unlink(missing_ok=True)
        outbox = fresh(source / ASKED)
        target.mkdir(exist_ok=True)
        keep = self._room_to_keep()
        tasks = [
            (self.game, layer, str(source), manifest["files"][file_name("keys", p)], p, self.parts,
             self.batch, str(outbox), keep)
            for p in range(self.parts)
        ]  # fmt: skip
        size = manifest["positions"]
        moves, sent, written = 0, 0, {}
        for positions, found, distinct, peak, files in self._map(route, tasks, size):
            moves += found
            sent += distinct
            written.update(files)
            self._advance(layer, positions, peak)
        gathering = [(str(target), p, self.parts, str(outbox)) for p in range(self.parts)]
        gathered = list(self._map(gather, gathering, moves))  # at most one position a move
        positions = sum(count for _, count, _ in gathered)
        if keep:  # what the propagation of this layer would compute again
            write_json(source / ASKED_MANIFEST, {"layer": layer, "files": written})
        else:
            shutil.rmtree(outbox)
        if not positions:
            shutil.rmtree(target)
            return 0
        files = {file_name("keys", p): entry for p, (entry, _, _) in enumerate(gathered)}
        for _, _, peak in gathered:
            self.peak = max(self.peak, peak)
        write_json(
            target / ENUMERATED,
            {"layer": layer + 1, "positions": positions, "files": files, "moves": moves,
             "sent": sent},
        )  # fmt: skip
        return positions

    def _room_to_keep(self) -> bool:
        """Whether to keep a layer's expansion on disk for its propagation: as `keep` says,
        else while more than `KEEP_WHILE_FREE` of the disk is free."""
        if self.keep is not None:
            return self.keep
        usage = shutil.disk_usage(self.folder)
        return usage.free > KEEP_WHILE_FREE * usage.total

    # Propagation

    def propagate(self) -> None:
        self._start("propagate")
        last = read_manifest(self.folder / ENUMERATED)["last"]
        for layer in range(last, self.first - 1, -1):
            folder = layer_dir(self.folder, layer)
            if read_json(folder / SOLVED) is None:
                self._propagate_layer(layer, last)
            else:
                self._advance(layer, read_manifest(folder / ENUMERATED)["positions"], 0)

    def _propagate_layer(self, layer: int, last: int) -> None:
        """Solve layer `layer` from the solved layer after it (none after the last): from the
        expansion its enumeration kept, else expanding each partition again, ask the owners of
        its children for their ranks."""
        folder = layer_dir(self.folder, layer)
        keys = read_manifest(folder / ENUMERATED)["files"]
        size = read_manifest(folder / ENUMERATED)["positions"]
        asked, answered = folder / ASKED, fresh(folder / "answered")
        if read_json(folder / ASKED_MANIFEST) is None:
            fresh(asked)
            tasks = [
                (self.game, layer, str(folder), keys[file_name("keys", p)], p, self.parts,
                 self.batch, str(asked), True)
                for p in range(self.parts)
            ]  # fmt: skip
            for _, _, _, peak, _ in self._map(route, tasks, size):
                self.peak = max(self.peak, peak)
        if layer < last:
            above = layer_dir(self.folder, layer + 1)
            files = {
                **read_manifest(above / ENUMERATED)["files"],
                **read_manifest(above / SOLVED)["files"],
            }
            questions = [
                (str(above), files, q, self.parts, str(asked), str(answered))
                for q in range(self.parts)
            ]
            above_size = read_manifest(above / ENUMERATED)["positions"]
            for peak in self._map(answer, questions, above_size):
                self.peak = max(self.peak, peak)
        settling = [
            (str(folder), keys[file_name("keys", p)], p, self.parts, str(asked), str(answered))
            for p in range(self.parts)
        ]  # fmt: skip
        files = {}
        for entries, positions, peak in self._map(settle, settling, size):
            files.update(entries)
            self._advance(layer, positions, peak)
        write_json(folder / SOLVED, {"layer": layer, "files": files})
        (folder / ASKED_MANIFEST).unlink(missing_ok=True)
        shutil.rmtree(asked)
        shutil.rmtree(answered)

    # Reporting

    def _map(
        self, function: Callable[..., Any], tasks: list[tuple], positions: int
    ) -> Iterator[Any]:
        """The results of `function` on every task, on the cluster; in this process when the
        step handles fewer than `HERE_AT_MOST` positions in all (a round trip to the workers
        would cost more: this process sees the work directory as they do)."""
        assert self.mapping is not None  # a build being read has no mapper, and runs no task
        if positions < HERE_AT_MOST:
            return (function(*task) for task in tasks)
        return self.mapping(function, tasks)

    def _start(self, phase: str) -> None:
        self.phase, self.done, self.began = phase, 0, time.perf_counter()

    def _advance(self, layer: int, positions: int, peak: int) -> None:
        self.done += positions
        self.peak = max(self.peak, peak, peak_memory())
        if self.progress is not None:
            elapsed = max(time.perf_counter() - self.began, 1e-9)
            self.progress(Progress(self.phase, layer, self.done, self.done / elapsed, self.peak))


# The tasks: each reads and writes files only, and returns counts and its process's peak memory.


def route(
    game: Any,
    layer: int,
    source: str,
    entry: dict[str, Any],
    partition: int,
    parts: int,
    batch: int,
    outbox: str,
    keep: bool = False,
) -> tuple[int, int, int, int, dict[str, Any]]:
    """Expand partition `partition` of layer `layer` (in `source`) and send its children's
    distinct keys to their owners among `parts`, ascending within each owner's share: one file
    in `outbox` (`from-P.npy`, see `_send`). With `keep`, the expansion is kept there too for
    `settle` (`expanded-P.KIND.npy`, see `EXPANSION`). Its positions, their moves, their
    distinct children (the keys sent), this process's peak memory and the manifest entries of
    the files written (named from the layer's directory)."""
    keys = load(Path(source) / file_name("keys", partition), entry)
    children, expanded, moves = [], [], 0
    for start in range(0, len(keys), batch):
        columns = expand_layer(game, layer, keys[start : start + batch])
        moves += len(columns[3])
        children.append(sorted_unique(columns[3]))
        if keep:
            expanded.append(columns)
    if len(children) == 1:
        merged = children[0]
    else:
        merged = sorted_unique(np.concatenate(children), runs=True) if children else _NO_KEYS
    del children
    order, bounds = by_owner(merged, parts)
    box = Path(outbox)
    written = {
        file_name("from", partition): send(
            box / file_name("from", partition), merged[order], bounds
        )
    }
    if keep:
        if not expanded:  # an empty partition
            expanded.append(expand_layer(game, layer, _NO_KEYS))
        movers, counts, ranks, child_keys = (np.concatenate(c) for c in zip(*expanded, strict=True))
        del expanded
        sent_at = np.empty(len(order), np.uint32 if len(order) < 1 << 32 else np.uint64)
        sent_at[order] = np.arange(len(order))  # where each key of `merged` was sent
        places = sent_at[np.searchsorted(merged, child_keys)]
        del child_keys, sent_at
        columns = (movers, counts.astype(np.uint32), ranks.astype(np.int32), places)
        for kind, column in zip(EXPANSION, columns, strict=True):
            name = file_name(f"expanded-{kind}", partition)
            written[name] = save(box / name, column)
    entries = {f"{box.name}/{name}": entry for name, entry in written.items()}
    return len(keys), moves, len(merged), peak_memory(), entries


_NO_KEYS = np.empty(0, np.uint64)
_NO_ANSWERS = np.empty(0, np.int64)


def gather(folder: str, partition: int, parts: int, outbox: str) -> tuple[dict[str, Any], int, int]:
    """Partition `partition` of the layer in `folder` from the keys each of the `parts`
    partitions of the layer before sent it (in that layer's `outbox`), each position once,
    written in order: its manifest entry, its positions and this process's peak memory."""
    box = Path(outbox)
    sent = [share_of(box / file_name("from", source), partition, parts) for source in range(parts)]
    sent = [share for share in sent if len(share)]
    if len(sent) == 1:  # already distinct and in order
        keys = sent[0]
    else:
        keys = sorted_unique(np.concatenate(sent), runs=True) if sent else _NO_KEYS
    del sent
    return save(Path(folder) / file_name("keys", partition), keys), len(keys), peak_memory()


def answer(
    above: str, files: dict[str, Any], partition: int, parts: int, asked: str, answered: str
) -> int:
    """Answer, for partition `partition` of the solved layer in `above`, every key each of the
    `parts` partitions of the layer before asked of it (in `asked`) with its rank and mover,
    packed as `rank * 2 + mover`, in the order asked: one file in `answered` (`from-Q.npy`,
    see `_send`). This process's peak memory."""
    folder = Path(above)
    keys, ranks, movers = (
        load(folder / file_name(kind, partition), files[file_name(kind, partition)])
        for kind in ("keys", "ranks", "movers")
    )
    answers, sizes = [], np.zeros(parts + 1, np.int64)
    for source in range(parts):
        path = Path(asked) / file_name("from", source)
        wanted = share_of(path, partition, parts)
        if len(wanted) == len(keys) and np.array_equal(wanted, keys):
            answers.append(ranks.astype(np.int64) * 2 + movers)  # asked for all, in order
        else:
            index = np.searchsorted(keys, wanted)
            if len(wanted) and (index[-1] >= len(keys) or not np.array_equal(keys[index], wanted)):
                raise ValueError(
                    f"{path}: a child the layer above does not hold (a damaged build?)"
                )
            answers.append(ranks[index].astype(np.int64) * 2 + movers[index])
        sizes[source + 1] = len(wanted)
    send(Path(answered) / file_name("from", partition), np.concatenate(answers), np.cumsum(sizes))
    return peak_memory()


def settle(
    source: str,
    entry: dict[str, Any],
    partition: int,
    parts: int,
    asked: str,
    answered: str,
) -> tuple[dict[str, Any], int, int]:
    """Solve partition `partition` of a layer (in `source`) from its expansion (kept by
    `route` in `asked`, checked by the run that found it there) and its children's ranks and
    movers (answered by their owners among `parts`, in `answered`): each position's rank for
    its side to move and its mover, written beside its keys. Their manifest entries, its
    positions and this process's peak memory."""
    folder = Path(source)
    count = entry["shape"][0]
    movers, counts, ranks, children = (
        np.load(Path(asked) / file_name(f"expanded-{kind}", partition)) for kind in EXPANSION
    )
    if len(movers) != count:
        raise ValueError(f"{asked}: the expansion of partition {partition} is not whole")
    # The ranks and movers of the keys this partition sent, in the order it sent them: each
    # owner answered its share in the order it was asked (none was asked of the last layer).
    shares = range(parts) if len(children) else ()
    packed = np.concatenate(
        [_NO_ANSWERS]
        + [share_of(Path(answered) / file_name("from", q), partition, parts) for q in shares]
    )
    child_ranks, child_movers = (packed >> 1).astype(np.int32), (packed & 1).astype(np.uint8)
    del packed
    solved = ranks.copy()
    edges = np.zeros(count + 1, np.intp)
    np.cumsum(counts, out=edges[1:])
    for start in range(0, count, SETTLED_AT_ONCE):
        stop = min(start + SETTLED_AT_ONCE, count)
        index = children[edges[start] : edges[stop]]
        solved[start:stop] = best_of_children(
            movers[start:stop],
            counts[start:stop].astype(np.intp),
            ranks[start:stop],
            child_movers[index],
            child_ranks[index],
        )
    entries = {
        file_name(kind, partition): save(folder / file_name(kind, partition), column)
        for kind, column in (("ranks", solved), ("movers", movers))
    }
    return entries, count, peak_memory()
