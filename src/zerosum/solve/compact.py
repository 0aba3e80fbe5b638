"""The compact table: a partitioned build's every position in a few bytes, memory-mapped.

`write(build, path)` turns a finished `zerosum.solve.partitioned.Build` into one file;
`CompactTable.load(path, game)` verifies it and maps it into memory, reading nothing more
until probed, and answers as `zerosum.solve.table.Table` does (`lookup`, `probe`, `initial`,
the counts), each value for the side to move.

What a position keeps: its outcome as one small code, `distance * values + (value -
lowest)`, where `values` is how many values the table's games end with (3 for win, draw and
loss) and `distance` its plies to the end (one more than the longest for a draw by endless
play). The code takes the fewest bytes that hold the largest: one byte for Connect Four (3
values, at most 42 plies: 129 codes), so the distance is kept at no cost, and play from the
table needs it (a winning side that never gets nearer the end never wins).

How a position is found: no perfect index (Connect Four's keys, stones plus mask, spread
over 35 bits for 5x6's billion positions; ranking them densely is left for later), but the
build's own sections: the positions of one partition of one layer, keys in order, found by
bisection after the layer (`layer(state)`) and the partition (the hash of the key, as the
build routed it). A section stores only the low 32 bits of each key, in runs that share their
high bits (each run's high bits and where it begins), when the runs are few (at most one for
`RUN_SPAN` keys); else whole 64-bit keys. Connect Four 5x6: 4 bytes of key and 1 of code a
position, about 5.2 GB for its 1,044,334,437 positions.

On disk (format 1, all integers little-endian):

    offset  size  field
    0       8     magic b"ZSPACKED"
    8       2     format version (uint16)
    10      4     header length H in bytes (uint32)
    14      32    SHA-256 of everything from offset 46 to the end
    46      H     header: UTF-8 JSON, padded with spaces to a multiple of 8 bytes in all:
                  "format", "game", "parameters", "layered", the counts ("positions",
                  "terminal", "wins", "draws", "losses"), "initial" (value and distance),
                  "partitions", "code" ("dtype", "lowest", "values", "endless") and "sections"
                  (per section: "layer", "partition", its counts, "keys" ("u4" or "u8") and
                  "runs")
    46 + H  ...   body: for each section in header order, its runs' high bits (uint64), the
                  runs' starts (uint64, one more than the runs), its keys (uint32 or uint64,
                  ascending) and its codes; each array padded with zeros to 8 bytes

A file is verified when loaded as a table of format 1 is (magic, version, the header's length,
the SHA-256 read in pieces, the header's form, the file's size against the sections), and only
then mapped; any mismatch is one line.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from bisect import bisect_left
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

import numpy as np

from zerosum.game import Game
from zerosum.solve.layers import owner
from zerosum.solve.outcome import NO_END, outcomes
from zerosum.solve.partitioned import Build
from zerosum.solve.table import (
    MAX_HEADER_BYTES,
    PREAMBLE,
    Counts,
    Probe,
    Table,
    check_built_for,
    check_destination,
    identity,
    open_file,
    probe_entries,
    reason,
    umask,
    verified_header,
)
from zerosum.solve.table import read_header as read_table_header

__all__ = ["CompactTable", "load", "read_header", "write"]

MAGIC = b"ZSPACKED"
FORMAT = 1
RUN_SPAN = 8
"""Keys a run of shared high bits must hold on average for a section to store 32-bit keys."""
_LOW = (1 << 32) - 1
_CODE_TYPES = ("u1", "u2", "u4")


def _padded(count: int) -> int:
    return -(-count // 8) * 8


def _section_bytes(section: dict[str, Any], itemsize: int) -> int:
    """The bytes of one section in the body, from its header entry."""
    runs, positions = int(section["runs"]), int(section["positions"])
    width = {"u4": 4, "u8": 8}[section["keys"]]
    if runs < 0 or (runs > 0) != (section["keys"] == "u4"):
        raise ValueError("bad runs")
    return (
        8 * runs
        + (8 * (runs + 1) if runs else 0)
        + _padded(width * positions)
        + _padded(itemsize * positions)
    )


def _body_bytes(header: dict[str, Any]) -> int:
    code = header["code"]
    if code["dtype"] not in _CODE_TYPES:
        raise ValueError("bad code")
    itemsize = np.dtype(code["dtype"]).itemsize
    return sum(_section_bytes(section, itemsize) for section in header["sections"])


def write(build: Build, path: str | os.PathLike) -> int:
    """Write the finished `build` to `path` as a compact table, atomically (a temporary file
    renamed into place); its size in bytes. Reads each partition twice (once to size the
    codes, once to write them), one at a time."""
    target = check_destination(path)
    game = build.game
    lowest, highest, longest, endless = 0, 0, 0, False
    start = game.key(game.initial_state())  # type: ignore[attr-defined]
    first = min(build.layers)
    initial = None
    sections = []
    for layer in build.layers:
        for partition in range(build.partitions):
            keys, ranks = build.partition(layer, partition)
            values, distances = outcomes(ranks.astype(np.int64))
            finite = distances[distances != NO_END]
            endless = endless or len(finite) < len(distances)
            if len(values):
                lowest, highest = min(lowest, int(values.min())), max(highest, int(values.max()))
                longest = max(longest, int(finite.max()) if len(finite) else 0)
            if layer == first and owner(start, build.partitions) == partition:
                index = int(np.searchsorted(keys, np.uint64(start)))
                initial = {"value": int(values[index]), "distance": _distance(distances[index])}
            runs = _runs(keys)
            counts = Counts(
                len(values),
                int(np.count_nonzero(distances == 0)),
                int(np.count_nonzero(values > 0)),
                int(np.count_nonzero(values == 0)),
                int(np.count_nonzero(values < 0)),
            )
            sections.append(
                {
                    "layer": layer,
                    "partition": partition,
                    **asdict(counts),
                    "keys": "u8" if runs is None else "u4",
                    "runs": 0 if runs is None else len(runs[0]),
                }
            )
    kinds = highest - lowest + 1
    codes = (longest + 1 + endless) * kinds
    dtype = next(kind for kind in _CODE_TYPES if codes <= np.iinfo(kind).max + 1)
    total = sum((Counts(**_counts(section)) for section in sections), Counts(0, 0, 0, 0, 0))
    name, parameters = identity(game)
    header = {
        "format": FORMAT,
        "game": name,
        "parameters": parameters,
        "layered": True,
        **asdict(total),
        "initial": initial,
        "partitions": build.partitions,
        "code": {
            "dtype": dtype,
            "lowest": lowest,
            "values": kinds,
            "endless": (longest + 1) if endless else None,
        },
        "sections": sections,
    }
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(PREAMBLE.size + len(text)) % 8)  # the body starts 8-byte aligned
    if len(text) > MAX_HEADER_BYTES:
        raise ValueError(f"the table's header would take {len(text):,} bytes, over the"
                         f" {MAX_HEADER_BYTES:,} a table file may have")  # fmt: skip
    return _write_file(target, text, build, header)


def _counts(section: dict[str, Any]) -> dict[str, int]:
    return {key: section[key] for key in ("positions", "terminal", "wins", "draws", "losses")}


def _distance(distance: Any) -> int | None:
    return None if distance == NO_END else int(distance)


def _runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The runs of keys that share their high 32 bits (their high bits, and where each begins,
    with the end last), or None when they are too many to be worth storing."""
    if not len(keys):
        return None
    highs = keys >> np.uint64(32)
    new_run = np.ones(len(keys), bool)
    np.not_equal(highs[1:], highs[:-1], out=new_run[1:])
    begins = np.flatnonzero(new_run)
    if len(begins) * RUN_SPAN > max(len(keys), RUN_SPAN):
        return None
    starts = np.append(begins.astype(np.uint64), np.uint64(len(keys)))
    return highs[begins], starts


def _write_file(target: Path, text: bytes, build: Build, header: dict[str, Any]) -> int:
    code = header["code"]
    dtype = np.dtype(code["dtype"]).newbyteorder("<")
    digest = hashlib.sha256(text)
    temporary = None
    try:
        with tempfile.NamedTemporaryFile(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False
        ) as handle:
            temporary = handle.name
            handle.write(PREAMBLE.pack(MAGIC, FORMAT, len(text), bytes(32)))
            handle.write(text)
            for section in header["sections"]:
                keys, ranks = build.partition(section["layer"], section["partition"])
                values, distances = outcomes(ranks.astype(np.int64))
                if code["endless"] is not None:
                    distances = np.where(distances == NO_END, code["endless"], distances)
                codes = (distances * code["values"] + (values - code["lowest"])).astype(dtype)
                runs = _runs(keys) if section["keys"] == "u4" else None
                if runs is None:
                    arrays = [keys.astype("<u8")]
                else:
                    lows = (keys & np.uint64(_LOW)).astype("<u4")
                    arrays = [runs[0].astype("<u8"), runs[1].astype("<u8"), lows]
                for array in (*arrays, codes):
                    data = array.tobytes()
                    data += bytes(-len(data) % 8)
                    digest.update(data)
                    handle.write(data)
            handle.seek(0)
            handle.write(PREAMBLE.pack(MAGIC, FORMAT, len(text), digest.digest()))
        os.chmod(temporary, 0o666 & ~umask())  # a temporary file is private; a table not
        os.replace(temporary, target)
    except BaseException as error:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise ValueError(f"cannot write table {str(target)!r}: {reason(error)}") from None
        raise
    return target.stat().st_size


class CompactTable:
    """A compact table file, verified and memory-mapped: look up any position's value for the
    side to move, its distance and its best moves, as `Table` does."""

    layered = True

    def __init__(self, game: Game, path: str | os.PathLike, header: dict[str, Any], body: int):
        self.game, self.path, self.header = game, Path(path), header
        self._key = game.key  # type: ignore[attr-defined]
        self._layer = game.layer  # type: ignore[attr-defined]
        self.partitions = int(header["partitions"])
        code = header["code"]
        self._lowest, self._values = int(code["lowest"]), int(code["values"])
        self._endless = code["endless"]
        dtype = np.dtype(code["dtype"]).newbyteorder("<")
        # A plain view of the map: slicing a `memmap` itself costs more than the bisection.
        data = np.memmap(path, np.uint8, mode="r").view(np.ndarray)
        self._sections: dict[tuple[int, int], tuple[Any, ...]] = {}
        self.layers: dict[int, Counts] = {}
        offset = body
        for section in header["sections"]:
            runs, n = int(section["runs"]), int(section["positions"])

            def take(kind: str, count: int) -> np.ndarray:
                nonlocal offset
                width = np.dtype(kind).itemsize
                array = data[offset : offset + width * count].view(kind)
                offset += _padded(width * count)
                return array

            if section["keys"] == "u4":
                highs = take("<u8", runs).tolist()
                starts = take("<u8", runs + 1).tolist()
                keys = take("<u4", n)
            else:
                highs = starts = None
                keys = take("<u8", n)
            codes = take(dtype.str, n)
            place = (int(section["layer"]), int(section["partition"]))
            self._sections[place] = (highs, starts, keys, codes, n)
            counts = Counts(**_counts(section))
            layer = place[0]
            self.layers[layer] = self.layers.get(layer, Counts(0, 0, 0, 0, 0)) + counts
        self.counts = Counts(**_counts(header))

    @classmethod
    def load(cls, path: str | os.PathLike, game: Game) -> CompactTable:
        """The compact table in `path`, verified whole and checked to be built for `game`."""
        with open_file(path) as file:
            header, body = _verified(path, file)
        check_built_for(path, header, game)
        return cls(game, path, header, body)

    def __len__(self) -> int:
        return self.counts.positions

    def __contains__(self, state: Any) -> bool:
        return self._entry(state) is not None

    def _entry(self, state: Any) -> tuple[int, int] | None:
        """(value, raw distance) of `state` if the table holds it."""
        key = self._key(state)
        section = self._sections.get((self._layer(state), owner(key, self.partitions)))
        if section is None:
            return None
        highs, starts, keys, codes, end = section
        begin, wanted = 0, np.uint64(key)
        if highs is not None:
            run = bisect_left(highs, key >> 32)
            if run == len(highs) or highs[run] != key >> 32:
                return None
            begin, end, wanted = starts[run], starts[run + 1], np.uint32(key & _LOW)  # type: ignore[assignment]
        # The key as the array's own type: a Python int would have numpy convert the array.
        index = begin + int(keys[begin:end].searchsorted(wanted))
        if index == end or keys[index] != wanted:
            return None
        distance, value = divmod(int(codes[index]), self._values)
        if distance == self._endless:
            distance = NO_END
        return value + self._lowest, distance

    def lookup(self, state: Any) -> tuple[int, int | None] | None:
        """(value for the side to move, distance in plies, None for a draw held by endless
        play) of `state`, None if absent."""
        entry = self._entry(state)
        if entry is None:
            return None
        value, distance = entry
        return value, (None if distance == NO_END else distance)

    def probe(self, state: Any) -> Probe:
        """The entry of `state`: value for the side to move, distance, best moves; ValueError
        when the table does not hold `state`."""
        return probe_entries(self.game, state, self._entry)

    def initial(self) -> Probe | None:
        """The entry of the game's initial position, None when the table does not hold it."""
        state = self.game.initial_state()
        return self.probe(state) if state in self else None


def _verified(path: str | os.PathLike, file: IO[bytes]) -> tuple[dict[str, Any], int]:
    header, body = verified_header(path, file, MAGIC, FORMAT, _body_bytes)
    if not isinstance(header.get("partitions"), int) or header["partitions"] < 1:
        raise ValueError(f"{path}: corrupted table (unreadable header)")
    return header, body


def is_compact(path: str | os.PathLike) -> bool:
    """True when the file at `path` starts as a compact table does."""
    with open_file(path) as file:
        return file.read(len(MAGIC)) == MAGIC


def read_header(path: str | os.PathLike) -> dict[str, Any]:
    """The JSON header of a table file of either format, once the file is verified."""
    if is_compact(path):
        with open_file(path) as file:
            return _verified(path, file)[0]
    return read_table_header(path)


def load(path: str | os.PathLike, game: Game) -> Table | CompactTable:
    """The table in `path`, whichever its format, verified and checked to be built for
    `game`."""
    if is_compact(path):
        return CompactTable.load(path, game)
    return Table.load(path, game)
