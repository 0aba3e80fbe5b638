"""The run of a partitioned build (`zerosum.solve.partitioned`): `Run` checks what an earlier
run left finished in the work directory (`verify`), then makes its two passes over the layers,
each step a map of tasks over the partitions of a layer (`zerosum.solve.partition_tasks`):

- the enumeration (`enumerate`), from the first layer on: each layer's positions expanded and
  their children routed to the partitions of the later layers they are in (`route`), which
  gather them from every layer that sent them some (`gather`), the next layer a move reaches
  first;
- the propagation (`propagate`), from the last layer back: each layer's children asked of the
  later layers (`route`, unless the enumeration kept its expansion), answered there
  (`answer`), and every position valued from its children's answers (`settle`).

A layer's manifest is written once all its partitions are, and what it sent each later layer
(`routed.json`: the moves and distinct keys by layer) once all its partitions have routed; an
outbox is kept while a layer not yet gathered needs it. The run reports its progress and the
largest peak memory of a worker, and reads the sizes of the layers and the keys they were
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
from zerosum.solve.parallel import Mapper, Poll, peak_memory, serial
from zerosum.solve.partition_tasks import answer, gather, place, route, settle
from zerosum.solve.retrograde import Progress
from zerosum.solve.workdir import (
    ASKED,
    ASKED_MANIFEST,
    ENUMERATED,
    ROUTED,
    SOLVED,
    DamagedManifest,
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


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The manifest in `path` and None; (None, None) when there is none; (None, what is wrong)
    when it is damaged."""
    try:
        return read_json(path), None
    except DamagedManifest as error:
        return None, str(error)


class Run:
    """One run of a build: the steps over the layers, each a map of tasks over partitions, on
    `mapping` (None for a build only read); a step of fewer than `here_at_most` positions in
    all runs in this process, `poll()` (`zerosum.stopping.stop_points`) before each task."""

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
        poll: Poll | None = None,
    ) -> None:
        self.game, self.folder, self.parts, self.batch = game, folder, parts, batch
        self.keep, self.here_at_most, self.poll = keep, here_at_most, poll
        self.mapping, self.progress = mapping, progress
        self.first = int(game.layer(game.initial_state()))  # type: ignore[attr-defined]
        self.peak = peak_memory()
        self.phase, self.done, self.began = "", 0, time.perf_counter()

    # Finding what is finished

    def layers(self) -> list[int]:
        """The enumerated layers, in order (a move may skip layers: they need not follow)."""
        found = (path for path in self.folder.glob("layer-*") if (path / ENUMERATED).exists())
        return sorted(int(path.name.removeprefix("layer-")) for path in found)

    def verify(self, note: Callable[[str], None]) -> int:
        """Check every finished layer's manifests and files; drop the first damaged enumerated
        layer and every one after it, any damaged outbox, record of what a layer sent (the
        enumeration then walks the layers again to route it anew) or solved layer, each
        rebuilt with a note; remove what a write stopped midway left (a temporary file: the
        directory is this build's, no other write runs in it). The layers kept (enumerated and
        solved)."""
        for stray in self.folder.rglob(".*"):
            if stray.is_file():
                stray.unlink()
        kept = 0
        top = self.folder / ENUMERATED
        damage = _read(top)[1]
        if damage is not None:
            note(f"{damage}: the end of the enumeration is found again")
            top.unlink()
        for layer in self.layers():
            folder = layer_dir(self.folder, layer)
            manifest, damage = _read(folder / ENUMERATED)
            damage = damage or first_damage(folder, manifest or {})
            if damage is not None:
                note(f"{damage}: layer {layer} and the layers after it are rebuilt")
                self._drop_from(layer)
                break
            kept += 1
            damage = _read(folder / ROUTED)[1]
            if damage is not None:
                note(f"{damage}: layer {layer} is routed again")
                (folder / ROUTED).unlink()
                top.unlink(missing_ok=True)
            outbox, damage = _read(folder / ASKED_MANIFEST)
            damage = damage or (first_damage(folder, outbox) if outbox else None)
            if damage is not None:
                note(f"{damage}: layer {layer} is expanded again")
                (folder / ASKED_MANIFEST).unlink()
            solved, damage = _read(folder / SOLVED)
            damage = damage or (first_damage(folder, solved) if solved else None)
            if damage is not None:
                note(f"{damage}: the values of layer {layer} are rebuilt")
                (folder / SOLVED).unlink()
            elif solved is not None:
                kept += 1
        return kept

    def _drop_from(self, layer: int) -> None:
        """Remove layer `layer` and every one after it, and the end of the enumeration."""
        (self.folder / ENUMERATED).unlink(missing_ok=True)
        for path in self.folder.glob("layer-*"):
            if int(path.name.removeprefix("layer-")) >= layer:
                shutil.rmtree(path)

    def sizes(self) -> dict[int, int]:
        """The positions of each enumerated layer, by layer."""
        return {layer: manifest["positions"] for layer, manifest in self._manifests()}

    def traffic(self) -> dict[int, tuple[int, int]]:
        """For each layer after the first: the moves that reach it from the earlier layers,
        and the keys its partitions were sent for it (each partition sends a child once, so
        between the layer's positions and those moves)."""
        return {
            layer: (manifest["moves"], manifest["sent"])
            for layer, manifest in self._manifests()
            if "sent" in manifest
        }

    def _manifests(self) -> Iterator[tuple[int, dict[str, Any]]]:
        for layer in self.layers():
            yield layer, read_manifest(layer_dir(self.folder, layer) / ENUMERATED)

    def _routed(self, layer: int) -> dict[int, tuple[int, int]] | None:
        """What layer `layer` sent each later layer, by layer: the moves that reach it and the
        distinct keys sent there; None before the layer is routed."""
        record = read_json(layer_dir(self.folder, layer) / ROUTED)
        if record is None:
            return None
        return {int(later): (moves, sent) for later, (moves, sent) in record["sent"].items()}

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
            if self._routed(layer) is None:
                self._route(layer, self._room_to_keep())
            following = self._following(layer)
            if following is None:
                write_json(self.folder / ENUMERATED, {"last": layer})
                break
            if read_json(layer_dir(self.folder, following) / ENUMERATED) is None:
                self._gather(following)
            self._release(following)
            layer = following

    def _sources(self, target: int) -> dict[int, tuple[int, int]]:
        """The earlier layers that sent layer `target` keys, each with the moves and keys."""
        found = {}
        for layer in self.layers():
            if layer >= target:
                break
            sent = (self._routed(layer) or {}).get(target)
            if sent is not None:
                found[layer] = sent
        return found

    def _following(self, layer: int) -> int | None:
        """The first layer after `layer` that a move from it or an earlier layer reaches (the
        next to gather), None when there is none: the enumeration is over."""
        later = [
            target
            for earlier in self.layers()
            if earlier <= layer
            for target in self._routed(earlier) or {}
            if target > layer
        ]
        return min(later, default=None)

    def _route(self, layer: int, keep: bool) -> None:
        """Send the children of layer `layer` to the later layers' partitions (its outbox,
        with its expansion when `keep`), and record what went to each layer."""
        folder = layer_dir(self.folder, layer)
        manifest = read_manifest(folder / ENUMERATED)
        (folder / ASKED_MANIFEST).unlink(missing_ok=True)
        outbox = fresh(folder / ASKED)
        tasks = [
            (self.game, layer, str(folder), manifest["files"][file_name("keys", p)], p, self.parts,
             self.batch, str(outbox), keep)
            for p in range(self.parts)
        ]  # fmt: skip
        sent: dict[int, list[int]] = {}
        written: dict[str, Any] = {}
        size = manifest["positions"]
        for positions, moves, distinct, peak, files in self._map(route, tasks, size):
            for later, count in moves.items():
                sent.setdefault(later, [0, 0])[0] += count
            for later, count in distinct.items():
                sent[later][1] += count
            written.update(files)
            self.peak = max(self.peak, peak)
            if self.phase == "enumerate":  # in the propagation, a layer counts once solved
                self._advance(layer, positions, peak)
        write_json(folder / ASKED_MANIFEST, {"layer": layer, "files": written, "expanded": keep})
        write_json(folder / ROUTED, {"layer": layer, "sent": sent})

    def _gather(self, target: int) -> None:
        """Write layer `target` from the keys the earlier layers sent it, routing again any
        whose outbox is gone (dropped once gathered, or found damaged)."""
        sources = self._sources(target)
        for layer in sources:
            if read_json(layer_dir(self.folder, layer) / ASKED_MANIFEST) is None:
                self._route(layer, self._room_to_keep())
        folder = layer_dir(self.folder, target)
        folder.mkdir(exist_ok=True)
        boxes = [
            (str(layer_dir(self.folder, layer) / ASKED), place(layer, target, 0, self.parts))
            for layer in sources
        ]
        moves = sum(count for count, _ in sources.values())
        gathering = [(str(folder), p, self.parts, boxes) for p in range(self.parts)]
        gathered = list(self._map(gather, gathering, moves))  # at most one position a move
        files = {file_name("keys", p): entry for p, (entry, _, _) in enumerate(gathered)}
        for _, _, peak in gathered:
            self.peak = max(self.peak, peak)
        write_json(
            folder / ENUMERATED,
            {"layer": target, "positions": sum(count for _, count, _ in gathered),
             "files": files, "moves": moves, "sent": sum(sent for _, sent in sources.values())},
        )  # fmt: skip

    def _release(self, gathered: int) -> None:
        """Remove the outboxes that no layer after `gathered` needs, but the expansions kept
        for the propagation."""
        for layer in self.layers():
            if layer >= gathered:
                break
            folder = layer_dir(self.folder, layer)
            outbox = read_json(folder / ASKED_MANIFEST)
            if outbox is None or outbox.get("expanded"):
                continue
            if max(self._routed(layer) or {}, default=layer) <= gathered:
                (folder / ASKED_MANIFEST).unlink()
                shutil.rmtree(folder / ASKED, ignore_errors=True)

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
        for layer in reversed(self.layers()):
            folder = layer_dir(self.folder, layer)
            if read_json(folder / SOLVED) is None:
                self._propagate_layer(layer)
            else:
                self._advance(layer, read_manifest(folder / ENUMERATED)["positions"], 0)

    def _propagate_layer(self, layer: int) -> None:
        """Solve layer `layer` from the solved layers its moves reach (none from the last):
        from the expansion its enumeration kept, else expanding each partition again, ask the
        owners of its children for their ranks."""
        folder = layer_dir(self.folder, layer)
        keys = read_manifest(folder / ENUMERATED)["files"]
        size = read_manifest(folder / ENUMERATED)["positions"]
        outbox = read_json(folder / ASKED_MANIFEST)
        if outbox is None or not outbox.get("expanded"):
            self._route(layer, keep=True)
        asked, answered = folder / ASKED, fresh(folder / "answered")
        places: list[int] = []
        for later in sorted(self._routed(layer) or {}):
            above = layer_dir(self.folder, later)
            files = {
                **read_manifest(above / ENUMERATED)["files"],
                **read_manifest(above / SOLVED)["files"],
            }
            first = place(layer, later, 0, self.parts)
            questions = [
                (str(above), files, q, self.parts, str(asked), str(answered), first)
                for q in range(self.parts)
            ]
            above_size = read_manifest(above / ENUMERATED)["positions"]
            for peak in self._map(answer, questions, above_size):
                self.peak = max(self.peak, peak)
            places.extend(range(first, first + self.parts))
        settling = [
            (str(folder), keys[file_name("keys", p)], p, str(asked), str(answered), places)
            for p in range(self.parts)
        ]
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
            return serial(function, tasks, self.poll)
        return self.mapping(function, tasks)

    def _start(self, phase: str) -> None:
        self.phase, self.done, self.began = phase, 0, time.perf_counter()

    def _advance(self, layer: int, positions: int, peak: int) -> None:
        self.done += positions
        self.peak = max(self.peak, peak, peak_memory())
        if self.progress is not None:
            elapsed = max(time.perf_counter() - self.began, 1e-9)
            self.progress(Progress(self.phase, layer, self.done, self.done / elapsed, self.peak))
