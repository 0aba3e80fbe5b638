"""Chess endgame tables built out of core (`zerosum tablebase build chess KRBvKR --work-dir
DIR`): the arrays of the build (`chess_tables.Arrays`) mapped from files in a work directory, a
checkpoint after each level, and a build stopped anywhere (a kill, Ctrl-C) resumed from its last
checkpoint to the table an uninterrupted build gives, bit for bit.

The level step is the in-memory build's (`chess_tables.settle`, its compiled kernels): only
where the arrays live differs. A material's work directory (`DIR/KRBvKR`):

    build.json       the material and this layout's format (written first)
    build.lock       the machine and process of the build running in it
    codes.npy        the smaller tables' entries, then the table's own (int16, mapped)
    wake.npy         the wake rows of the build (4 x the table's entries, int16, mapped)
    frontier.npy     the positions settled at a level (int32 an entry, mapped)
    following.npy    the positions the level finds won at the next (int32 an entry, mapped)
    won-0042.npy     the positions found won at level 43 when level 42 ended, as settled
    level.json       the checkpoint: the last level settled, its counts, the CRC-32 of the
                     table's own codes, of wake rows 1 to 3 and of the smaller tables' codes,
                     and the won file's shape, type and CRC-32

A level changes the mapped files in place; the checkpoint after level L is written once the
level is over (the won file, then `level.json`, each to a temporary name renamed into place).
A build stopped during level L + 1 left that level's writes in the files, and a resumed build
undoes them: the codes level L + 1 can write (a win in L + 1 or L + 2 plies, a loss in L + 1)
become unsettled again, and the wins in L + 1 that level L found are written back from the won
file; the table's codes are then what the checkpoint's CRC-32 says, or the build is refused,
naming the damaged file. Wake row 0 (which positions a level looks at) is not trusted but
rebuilt from the codes: the positions before those settled at level L are woken again. Rows 1
to 3, written at level 0 and only read after, are checked against their CRC-32. A table's last
checkpoint is the level that settles nothing; then the positions left are draws (`finish`,
which a resumed build does again). The files are not forced to the disk: a machine that
crashes may leave files whose checksums fail, refused as damaged (remove the directory and
build again).

Memory: the process holds the smaller tables (a few MB) and a chunk of entries at a time
(`chess_tables.CHUNK`); the mapped files (18 bytes a table entry on the disk, 6 GB for
KRBvKR) are the kernel's page cache, written back and dropped as memory is needed. The
directory's big files are removed once the table is written (`remove`).
"""

from __future__ import annotations

import os
import shutil
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from zerosum import faults
from zerosum.games.chess.endgame import Material
from zerosum.solve.chess_tables import (
    CHUNK,
    UNKNOWN,
    Arrays,
    Built,
    Level,
    Progress,
    counted,
    fill_smaller,
    settle,
    specs_of,
)
from zerosum.solve.workdir import (
    DamagedManifest,
    locked,
    read_json,
    save,
    what_is_wrong,
    write_json,
)

FORMAT = 1
"""The layout of a chess work directory, recorded in its `build.json`."""
BUILD, LEVEL = "build.json", "level.json"
CODES, WAKE, FRONTIER, FOLLOWING = "codes.npy", "wake.npy", "frontier.npy", "following.npy"
BYTES_PER_ENTRY = 2 + 4 * 2 + 4 + 4
"""The work directory's bytes for each entry of the table: its code, its wake rows, its place
in the frontier and in the following list."""


def check(material: Material) -> None:
    """Nothing; ValueError when the out-of-core build does not build `material`: a table of
    five pieces with pawns (its promotions reach tables of five pieces, which this build does
    not read from files)."""
    if len(material.pieces) == 5 and material.pawns:
        raise ValueError(
            f"{material.name}: tables of 5 pieces with pawns are not built here (a promotion"
            " reaches another table of 5 pieces); those without pawns are, e.g. KRBvKR"
        )


def solve(
    material: Material,
    smaller: list[Built],
    folder: Path,
    *,
    progress: Callable[[Progress], None] | None = None,
    note: Callable[[str], None] = lambda text: None,
) -> Built:
    """`material`'s table built in the work directory `folder` (made if missing), resumed from
    its last checkpoint when it holds one; its codes are mapped from `folder`'s `codes.npy`.
    ValueError when the directory is another material's, damaged, or the disk lacks room."""
    check(material)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"cannot use {str(folder)!r} as a work directory: it is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make work directory {str(folder)!r}: {error.strerror}") from None
    began = time.perf_counter()
    with locked(folder, note):
        _claim(folder, material)
        record = _checkpoint_record(folder)
        if record is None:
            arrays = _fresh(folder, material, smaller)
            begin = None
            fixed = {"smaller_crc32": _crc(arrays.codes[: arrays.start])}
        else:
            arrays, begin = _resumed(folder, material, smaller, record)
            fixed = {key: record[key] for key in ("smaller_crc32", "wake_crc32")}
            note(f"{folder}: resumed after level {begin.level}")

        def checkpoint(state: Level) -> None:
            faults.reached("level")  # settled, its checkpoint not yet written: the worst moment
            if state.level == 0:
                fixed["wake_crc32"] = _crc(arrays.wake[1:])
            _write_checkpoint(folder, arrays, state, fixed)

        end = settle(material, smaller, arrays, begin=begin, after=checkpoint, progress=progress)
        for name in (WAKE, FRONTIER, FOLLOWING):
            (folder / name).unlink(missing_ok=True)
    return counted(material, arrays.own, end.stalemates, time.perf_counter() - began)


def remove(folder: Path) -> None:
    """Remove a finished build's work directory (its table written)."""
    shutil.rmtree(folder, ignore_errors=True)


def _claim(folder: Path, material: Material) -> None:
    record = read_json(folder / BUILD)
    if record is None:
        if any(path.name != "build.lock" for path in folder.iterdir()):
            raise ValueError(
                f"cannot use {str(folder)!r} as a work directory: it holds other files and no"
                " zerosum chess build"
            )
        write_json(folder / BUILD, {"format": FORMAT, "material": material.name})
        return
    if record.get("format") != FORMAT:
        raise ValueError(f"{folder}: not a chess work directory of this zerosum")
    if record.get("material") != material.name:
        raise ValueError(
            f"{folder} holds a build of {record.get('material')}, not {material.name}: give"
            " another work directory"
        )


def _checkpoint_record(folder: Path) -> dict[str, Any] | None:
    """The checkpoint of `folder`, None when it has none yet; ValueError naming the file when it
    is there but unreadable, or edited (its seal does not match)."""
    path = folder / LEVEL
    if not path.exists():
        return None
    try:
        record = read_json(path)
    except DamagedManifest:
        raise _damaged(path, "unreadable or edited") from None
    keys = (
        "level", "settled", "won", "positions", "stalemates", "over",
        "codes_crc32", "smaller_crc32", "wake_crc32",
    )  # fmt: skip
    if record is None or not all(isinstance(record.get(key), int) for key in keys):
        raise _damaged(path, "unreadable or edited")
    return record


def _damaged(path: Path, problem: str) -> ValueError:
    return ValueError(
        f"{path}: damaged checkpoint ({problem}): remove {path.parent} to build the table again"
    )


def _fresh(folder: Path, material: Material, smaller: list[Built]) -> Arrays:
    """New files for the build (any left by a build stopped before its first checkpoint are
    made again), the smaller tables' entries copied in. Their blocks are allocated at once: a
    disk that fills is an error here, not a crash when a mapped page is first written."""
    size = material.entries
    start = sum(len(table.codes) for table in smaller)
    _check_room(folder, size)
    open_memmap = np.lib.format.open_memmap
    try:
        codes = np.asarray(open_memmap(folder / CODES, "w+", np.int16, (start + size,)))
        wake = np.asarray(open_memmap(folder / WAKE, "w+", np.int16, (4, size)))
        frontier = np.asarray(open_memmap(folder / FRONTIER, "w+", np.int32, (size,)))
        following = np.asarray(open_memmap(folder / FOLLOWING, "w+", np.int32, (size,)))
        for name in (CODES, WAKE, FRONTIER, FOLLOWING):  # the disk's room, taken now
            with open(folder / name, "r+b") as file:
                os.posix_fallocate(file.fileno(), 0, os.fstat(file.fileno()).st_size)
    except OSError as error:
        raise ValueError(f"cannot write in {folder}: {(error.strerror or '').lower()}") from None
    fill_smaller(codes, smaller)
    return Arrays(codes, wake, frontier, following, start)


def _check_room(folder: Path, size: int) -> None:
    needed = BYTES_PER_ENTRY * size
    free = shutil.disk_usage(folder).free
    if free < needed:
        raise ValueError(
            f"{folder}: the build needs {needed / 1e9:.1f} GB of disk ({BYTES_PER_ENTRY} bytes"
            f" an entry), and {free / 1e9:.1f} GB are free"
        )


def _mapped(path: Path, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
    """The array of `path`, mapped for reading and writing (as a plain array, which the
    compiled kernels take); ValueError naming the file when it is missing, cut short or not of
    the shape the build made. (Its size is checked first: numpy would lengthen a file cut
    short.)"""
    fmt = np.lib.format
    try:
        with open(path, "rb") as file:
            version = fmt.read_magic(file)
            read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            header = read(file)  # shape, Fortran order, dtype
            body = file.tell()
    except FileNotFoundError:
        raise _damaged(path, "missing") from None
    except (OSError, ValueError):
        raise _damaged(path, "unreadable or cut short") from None
    if header[0] != shape or header[2] != np.dtype(dtype) or header[1]:
        raise _damaged(path, "not the shape or type of the build")
    if path.stat().st_size != body + np.dtype(dtype).itemsize * int(np.prod(shape)):
        raise _damaged(path, "unreadable or cut short")
    return np.asarray(np.load(path, mmap_mode="r+", allow_pickle=False))


def _resumed(
    folder: Path, material: Material, smaller: list[Built], record: dict[str, Any]
) -> tuple[Arrays, Level]:
    """The arrays as the checkpoint `record` left them, and its level; ValueError naming the
    first damaged file."""
    size = material.entries
    start = sum(len(table.codes) for table in smaller)
    codes = _mapped(folder / CODES, np.int16, (start + size,))
    fill_smaller(codes, smaller)
    if _crc(codes[:start]) != record.get("smaller_crc32"):
        raise ValueError(
            f"{folder}: the smaller tables are not those the build began with: remove {folder}"
            " to build the table again"
        )
    begin = Level(
        record["level"],
        record["settled"],
        record["won"],
        record["positions"],
        record["stalemates"],
        bool(record["over"]),
    )
    if begin.over:  # only the codes are left: the draws are written again
        empty = np.empty(0, np.int32)
        arrays = Arrays(codes, np.empty((4, 0), np.int16), empty, empty, start)
        if _crc(arrays.own, finished=True) != record["codes_crc32"]:
            raise _damaged(folder / CODES, "checksum mismatch")
        return arrays, begin
    wake = _mapped(folder / WAKE, np.int16, (4, size))
    frontier = _mapped(folder / FRONTIER, np.int32, (size,))
    following = _mapped(folder / FOLLOWING, np.int32, (size,))
    arrays = Arrays(codes, wake, frontier, following, start)
    won_path = folder / str(record.get("won_file"))
    won = what_is_wrong(won_path, record.get("won_entry") or {})
    if isinstance(won, str) or len(won) != begin.won:
        raise _damaged(won_path, won if isinstance(won, str) else "not the count recorded")
    _undo_level(arrays.own, begin.level + 1, won)
    if _crc(arrays.own) != record["codes_crc32"]:
        raise _damaged(folder / CODES, "checksum mismatch")
    if _crc(wake[1:]) != record.get("wake_crc32"):
        raise _damaged(folder / WAKE, "checksum mismatch")
    frontier[: len(won)] = won
    _wake_again(folder, material, smaller, arrays, begin)
    return arrays, begin


def _undo_level(own: np.ndarray, level: int, won: np.ndarray) -> None:
    """Undo what settling `level` may have written in the table's codes: its wins and losses
    and the wins in `level` + 1 found at its end become unsettled; the wins in `level` found
    before it (`won`) are written back."""
    undone = (np.int16(level), np.int16(level + 1), np.int16(-(level + 1)))
    for begin in range(0, len(own), CHUNK):
        part = own[begin : begin + CHUNK]
        part[np.isin(part, undone)] = UNKNOWN
    own[won] = level


def _wake_again(
    folder: Path, material: Material, smaller: list[Built], arrays: Arrays, state: Level
) -> None:
    """Wake row 0 as the level of `state` left it, for the positions still unsettled: those a
    quiet move before a position settled at that level (the kernel's `wake_predecessors` on
    them, listed in `following`). The positions before its losses were all won at its end (the
    won list, at the head of the frontier): finding one unsettled means damaged codes."""
    from zerosum.solve import compiled_chess_tables as kernel

    own, row, level = arrays.own, arrays.wake[0], state.level
    wanted = [np.int16(-(level + 1))] + ([np.int16(level)] if level > 0 else [])
    count = 0
    for begin in range(0, len(own), CHUNK):
        row[begin : begin + CHUNK] = 0
        found = np.flatnonzero(np.isin(own[begin : begin + CHUNK], wanted)) + begin
        arrays.following[count : count + len(found)] = found
        count += len(found)
    spec = specs_of([*(table.material for table in smaller), material])[len(smaller)]
    room = arrays.frontier[state.won :]
    if kernel.wake_predecessors(
        spec, arrays.codes, arrays.wake, arrays.following, count, level + 1, room
    ):
        raise _damaged(folder / CODES, "the codes do not follow from one level to the next")


def _write_checkpoint(folder: Path, arrays: Arrays, state: Level, fixed: dict[str, Any]) -> None:
    """The checkpoint after `state`'s level: the won file, then `level.json` (naming it), then
    the won file of the checkpoint before removed."""
    name = f"won-{state.level:04d}.npy"
    entry = save(folder / name, np.array(arrays.frontier[: state.won]))
    before = read_json(folder / LEVEL)
    write_json(
        folder / LEVEL,
        {
            "level": state.level,
            "settled": state.settled,
            "won": state.won,
            "positions": state.positions,
            "stalemates": state.stalemates,
            "over": int(state.over),
            "codes_crc32": _crc(arrays.own, finished=state.over),
            "won_file": name,
            "won_entry": entry,
            **fixed,
        },
    )
    if before is not None and before.get("won_file") not in (None, name):
        (folder / str(before["won_file"])).unlink(missing_ok=True)


def _crc(array: np.ndarray, *, finished: bool = False) -> int:
    """The CRC-32 of `array`'s bytes, a chunk at a time; with `finished`, as the codes are
    once the positions never settled are draws."""
    flat = array.reshape(-1)
    crc = 0
    for begin in range(0, len(flat), CHUNK):
        part = np.ascontiguousarray(flat[begin : begin + CHUNK])
        if finished:
            part = np.where(part == UNKNOWN, np.int16(0), part)
        crc = zlib.crc32(part.data.cast("B"), crc)
    return crc
