"""The files of a partitioned build's work directory (`zerosum.solve.partitioned`).

Arrays are numpy `.npy` files, each written under a temporary name and renamed into place, and
described by a manifest entry (shape, dtype, CRC-32 of the data) that a reader checks before
using it; what one partition sends every other in a step is one file of shares (`send`,
`share_of`); manifests are small JSON files written the same way, each sealed with its
checksum (`zerosum.files.sealed_json`) and refused when damaged or edited (`DamagedManifest`);
a lock file holds the directory for the build running in it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from zerosum import faults
from zerosum.files import sealed_json, unsealed_json, write_atomically

# The names in a work directory (its layout: `zerosum.solve.partitioned`): the manifests of a
# layer's keys and of its ranks (`enumerated.json` at the top too, once the enumeration is
# over), the record of the build, its lock, what a layer asks of the later layers (with its
# manifest), and the counts of what it sent each of them.
ENUMERATED, SOLVED, BUILD, LOCK = "enumerated.json", "solved.json", "build.json", "build.lock"
ASKED, ASKED_MANIFEST, ROUTED = "asked", "asked.json", "routed.json"


class DamagedPartition(ValueError):
    """A partition file that is not what its layer's manifest recorded."""


class DamagedManifest(ValueError):
    """A manifest that is not whole, not sealed, or not what was written (edited)."""


@contextmanager
def locked(folder: Path, note: Callable[[str], None]) -> Iterator[None]:
    """Hold the work directory for this build while it runs: a lock file naming this machine
    and process, made whole at once (written aside, then linked into place: another build sees
    no lock or this one, never an empty file), removed at the end. ValueError when another
    build that is still running (or one on another machine, whose end cannot be seen from
    here) holds it; a lock left by a build of this machine that has ended is taken over, with
    a note."""
    path = folder / LOCK
    mine = f"{socket.gethostname()} {os.getpid()}"
    while not _made(path, mine):
        try:
            held = path.read_text(errors="replace")
        except FileNotFoundError:  # its build ended meanwhile
            continue
        host, _, pid = held.partition(" ")
        if host != socket.gethostname():
            raise ValueError(
                f"{folder} is in use by a build on {host or 'another machine'}: if it has"
                f" ended, remove {path}"
            )
        if pid.isdigit() and running(int(pid)):
            raise ValueError(
                f"{folder} is in use by another build (process {pid}): wait for it to end"
            )
        note(f"{path}: left by a build that has ended: taken over")
        _remove_if_held(path, held)
    try:
        yield
    finally:
        _remove_if_held(path, mine)


def _made(path: Path, content: str) -> bool:
    """Make the file `path` holding `content`, whole at once; False when it exists."""
    handle, aside = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w") as file:
            file.write(content)
        os.link(aside, path)
    except FileExistsError:
        return False
    finally:
        os.unlink(aside)
    return True


def _remove_if_held(path: Path, held: str) -> None:
    """Remove the lock `path` if it still holds `held`: it is moved aside first, and put back
    if another build took it meanwhile."""
    aside = path.with_name(f".{path.name}.{os.getpid()}.removed")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return
    try:
        if aside.read_text(errors="replace") != held:
            with contextlib.suppress(FileExistsError):
                os.link(aside, path)
    finally:
        aside.unlink()


def running(pid: int) -> bool:
    """True when a process `pid` runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        return True
    return True


def layer_dir(folder: Path, layer: int) -> Path:
    return folder / f"layer-{layer:03d}"


def file_name(kind: str, partition: int) -> str:
    return f"{kind}-{partition:04d}.npy"


def fresh(folder: Path) -> Path:
    """An empty directory at `folder` (what a step interrupted before left there removed)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def send(path: Path, shares: np.ndarray, bounds: np.ndarray) -> dict[str, Any]:
    """Write what one partition sends its receivers as one file: how many receivers, the
    bounds of each one's share in `shares` (`bounds[q]:bounds[q + 1]`, one more than the
    receivers), then the shares end to end, all as the type of `shares`. Its manifest entry."""
    header = np.concatenate([[len(bounds) - 1], bounds]).astype(shares.dtype)
    return save(path, np.concatenate([header, shares]))


def share_of(path: Path, receiver: int) -> np.ndarray:
    """The share of receiver `receiver` in a file written by `send`, read alone (the file is
    mapped, not read whole); empty for a receiver past the file's."""
    sent = np.load(path, mmap_mode="r")
    count = int(sent[0])
    if receiver >= count:
        return np.empty(0, sent.dtype)
    begin, end = int(sent[1 + receiver]), int(sent[2 + receiver])
    return np.array(sent[count + 2 + begin : count + 2 + end])


def checksum(array: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(array).data.cast("B"))


def save(path: Path, array: np.ndarray) -> dict[str, Any]:
    """Write `array` to `path` atomically (a temporary file renamed into place); its manifest
    entry: shape, dtype and CRC-32 of its data. Not forced to the disk (no fsync): a file a
    crash lost or cut short fails its checksum when the build is rerun, and is rebuilt."""
    _atomically(path, lambda handle: np.save(handle, array, allow_pickle=False))
    return {"shape": list(array.shape), "dtype": array.dtype.str, "crc32": checksum(array)}


def _atomically(path: Path, write: Callable[[Any], None]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise ValueError(f"cannot write {path}: {(error.strerror or str(error)).lower()}") from None


def load(path: Path, entry: dict[str, Any]) -> np.ndarray:
    """The array in `path`, checked against its manifest entry; `DamagedPartition` saying what
    is wrong otherwise."""
    problem = what_is_wrong(path, entry)
    if isinstance(problem, str) and problem == "missing":  # a worker that does not see it
        raise ValueError(
            f"{path}: not found from {socket.gethostname()}: is the work directory on a"
            " filesystem every worker shares, at the same path?"
        )
    if isinstance(problem, str):
        raise DamagedPartition(f"{path}: damaged partition ({problem})")
    return problem


def what_is_wrong(path: Path, entry: dict[str, Any]) -> np.ndarray | str:
    """The array in `path` if it is what `entry` records, else what is wrong with it."""
    try:
        array = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        return "missing"
    except (OSError, ValueError, EOFError):
        return "unreadable"
    if list(array.shape) != entry.get("shape") or array.dtype.str != entry.get("dtype"):
        return "not the shape or type its layer recorded"
    if checksum(array) != entry.get("crc32"):
        return "checksum mismatch"
    return array


def first_damage(folder: Path, manifest: dict[str, Any]) -> str | None:
    """What is wrong with the first damaged file of a layer's manifest, None when all are
    whole."""
    files = manifest.get("files")
    if not isinstance(files, dict):
        return f"{folder}: unreadable manifest"
    for name, entry in files.items():
        problem = what_is_wrong(folder / name, entry)
        if isinstance(problem, str):
            return f"{folder / name}: damaged partition ({problem})"
    return None


def write_json(path: Path, record: dict[str, Any]) -> None:
    """Write the manifest `record` to `path` atomically, sealed with its checksum
    (`zerosum.files.sealed_json`)."""
    write_atomically(str(path), sealed_json(record))
    faults.reached("manifest")


def read_json(path: Path) -> dict[str, Any] | None:
    """The manifest in `path`, None when there is none; `DamagedManifest` naming it when it is
    not whole, not sealed, or not what was written (edited)."""
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise DamagedManifest(f"{path}: unreadable ({error.strerror})") from None
    try:
        return unsealed_json(str(path), text)
    except ValueError as error:
        raise DamagedManifest(str(error)) from None


def read_manifest(path: Path) -> dict[str, Any]:
    record = read_json(path)
    if record is None:
        raise ValueError(f"{path}: missing (rerun the build to rebuild it)")
    return record
