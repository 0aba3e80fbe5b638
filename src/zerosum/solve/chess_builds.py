"""Chess endgame tables built in order: a material's table, and first every smaller one it needs
(the materials a capture or a promotion reaches), each read from the folder when it is there,
else built in memory (`zerosum.solve.chess_tables.solve`) or, for the table asked for with a
work directory, out of core (`zerosum.solve.chess_work`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from zerosum.games.chess.endgame import Material
from zerosum.solve import chess_tables, chess_work
from zerosum.solve.table import check_destination


def build(
    material: Material,
    folder: str | os.PathLike,
    *,
    progress: Callable[[chess_tables.Progress], None] | None = None,
    work_dir: str | os.PathLike | None = None,
    note: Callable[[str], None] = lambda text: None,
) -> list[chess_tables.Built]:
    """Build `material`'s table into `folder` (`KRvK.ztb`), and first every smaller table it
    needs that the folder lacks (the folder's are read, verified). With `work_dir`, the table
    of `material` is built out of core in `work_dir/KRvK` (`zerosum.solve.chess_work`:
    resumed from its last checkpoint, removed once the table is written; `note` hears of a
    resumed build), the smaller ones in memory. The tables built, smallest first; a table
    already in the folder is read, not built again."""
    made: list[chess_tables.Built] = []
    work = None if work_dir is None else Path(work_dir)
    _build(material, Path(folder), {}, made, progress, work, note)
    return made


def _build(
    material: Material,
    folder: Path,
    known: dict[Material, chess_tables.Built],
    made: list[chess_tables.Built],
    progress: Callable[[chess_tables.Progress], None] | None,
    work: Path | None = None,
    note: Callable[[str], None] = lambda text: None,
) -> chess_tables.Built:
    if material in known:
        return known[material]
    path = chess_tables.path_of(folder, material)
    if path.exists():
        table = chess_tables.load(path)
        if table.material != material:
            raise ValueError(f"{path}: a table of {table.material.name}, not {material.name}")
    elif work is not None:
        chess_work.check(material)
        smaller = [_build(sub, folder, known, made, progress) for sub in material.smaller()]
        where = work / material.name
        table = chess_work.solve(material, smaller, where, progress=progress, note=note)
        chess_tables.save(table, check_destination(path))
        chess_work.remove(where)
        made.append(table)
    else:
        smaller = [_build(sub, folder, known, made, progress) for sub in material.smaller()]
        table = chess_tables.solve(material, smaller, progress)
        chess_tables.save(table, check_destination(path))
        made.append(table)
    known[material] = table
    return table
