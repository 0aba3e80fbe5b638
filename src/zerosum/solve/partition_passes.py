"""The run of a partitioned build (`zerosum.solve.partitioned`): `Run` checks what an earlier
run left finished in the work directory (`verify`), then makes its two passes over the layers,
each step a map of tasks over the partitions of a layer (`zerosum.solve.partition_tasks`):

- the enumeration (`enumerate`), from the first layer on: each layer's positions expanded and
  their children routed to the partitions of the next (`route`), which gather them (`gather`);
- the propagation (`propagate`), from the last layer back: each layer's children asked of the
  layer after it (`route`, unless the enumeration kept its expansion), answered there
  (`answer`), and every position valued from its children's answers (`settle`).

Each layer's manifest is written once all its partitions are; the run reports its progress and
the largest peak memory of a worker, and reads the sizes of the layers and the keys they were
sent back from their manifests.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.game import Game
from zerosum.solve.layers import split_by_owner
from zerosum.solve.parallel import Mapper, peak_memory
from zerosum.solve.partition_tasks import answer, gather, route, settle
from zerosum.solve.retrograde import Progress
from zerosum.solve.workdir import (
    ASKED,
    ASKED_MANIFEST,
    ENUMERATED,
    SOLVED,
    file_name,
    first_damage,
    fresh,
    layer_dir,
    read_json,
    read_manifest,
    save,
    write_json,
)

KEEP_WHILE_FREE = 0.10
"""The share of the disk that must stay free for a build to keep a layer's expansion."""


class Run:
    """One run of a build: the steps over the layers, each a map of tasks over partitions, on
    `mapping` (None for a build only read); a step of fewer than `here_at_most` positions in
    all runs in this process."""

    def __init__(
        self,
        game: Game,
        folder: Path,
        parts: int,
        batch: int,
        mapping: Mapper | None,
        progress: Callable[[Progress], None] | None,
        keep: bool | None = None,
        here_at_most: int = 0,
    ) -> None:
        self.game, self.folder, self.parts, self.batch = game, folder, parts, batch
        self.keep, self.here_at_most = keep, here_at_most
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
        step handles fewer than `here_at_most` positions in all (a round trip to the workers
        would cost more: this process sees the work directory as they do)."""
        assert self.mapping is not None  # a build being read has no mapper, and runs no task
        if positions < self.here_at_most:
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
