"""What a partitioned build (`zerosum.solve.partitioned`) may run on, and its claim of a work
directory: a game it can build (`check_game`: layered, keyed, without dice, its positions
rebuilt from their keys), a directory it can use (`usable_work_dir`), and the record of the
game, its parameters and the partitions in the directory's `build.json` (`claim`), written
when the directory is new and checked when a rerun finds it (`check_same_game`): a directory
made for another game, another board or another layout (`FORMAT`) is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zerosum.game import Game, Keyed, Layered, Restorable, Vectorized, has_chance, require
from zerosum.solve.table import describe_game, identity
from zerosum.solve.workdir import BUILD, LOCK, DamagedManifest, read_json, write_json

FORMAT = 4
"""The layout of the work directory, recorded in its `build.json` (4: its manifests sealed)."""


def check_game(game: Game) -> None:
    """Nothing; ValueError when a partitioned build cannot solve `game`: one that is not keyed
    or layered, has dice, or cannot rebuild its positions from their keys."""
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


def usable_work_dir(work_dir: str | os.PathLike, *, make: bool) -> Path:
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


def read_record(folder: Path) -> dict[str, Any] | None:
    """The `build.json` record of `folder`, None when there is none. ValueError naming it when
    it is damaged or edited (`DamagedManifest`), or one of another layout (`FORMAT`), which
    an older zerosum did not seal."""
    try:
        return read_json(folder / BUILD)
    except DamagedManifest as damaged:
        try:
            found = json.loads((folder / BUILD).read_text(errors="replace")).get("format")
        except (OSError, ValueError, AttributeError, RecursionError):
            raise damaged from None
        if found != FORMAT:
            raise ValueError(
                f"{folder}: not a work directory of this zerosum (format {found})"
            ) from None
        raise


def claim(folder: Path, game: Game, partitions: int, note: Callable[[str], None]) -> int:
    """The partitions of the build in `folder`: those recorded when it was made for `game`,
    else `partitions`, recorded now. ValueError for a directory of another game's build, or
    one that holds other files."""
    record = read_record(folder)
    if record is None:
        # (a temporary file, `.NAME...`, is what a build killed while writing this left)
        if any(path.name != LOCK and not path.name.startswith(".") for path in folder.iterdir()):
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
    check_same_game(folder, record, game)
    if record["partitions"] != partitions:
        note(f"{folder} was made with {record['partitions']} partitions a layer: kept")
    return int(record["partitions"])


def check_same_game(folder: Path, record: dict[str, Any], game: Game) -> None:
    """Nothing; ValueError when the `build.json` `record` of `folder` is not of this layout
    (`FORMAT`) or not of `game` and its parameters."""
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
