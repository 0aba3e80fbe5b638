"""Chess endgame tables built here by retrograde analysis: distance to mate for every position
of a material of few pieces, both sides to move, and the tables that read them.

A material's positions move among themselves (quiet moves) and out of it (a capture, a promotion, a
capture that promotes: a smaller material, whose table is built first: `zerosum.solve.chess_builds`
builds the materials a table needs before it). The build settles the positions level by level, as
`zerosum.solve.retrograde` settles any game's, but over the whole index of the table at once
(`zerosum.games.chess.endgame`): level 0 marks the checkmates and stalemates, and level d the
positions won in d plies (a move reaches a position lost in d - 1) and lost in d plies (every move
reaches a position won, the slowest in d - 1), reading the smaller tables for the moves that leave
the material. A level that settles nothing, past the longest mate of the smaller tables, ends the
build: the positions left are draws (endless play, or a move into a drawn smaller table). Castling
never arises (no rook nor king has its rights in an endgame table); en passant does, after a double
step beside an enemy pawn: that position's value is the best of the position without it and of the
capture (the entries hold positions without en passant rights, as Syzygy's do). The fifty-move rule
is not applied: a mate is a mate however long. The build runs in memory (`solve`) or out of core
(`zerosum.solve.chess_work`: the same level step, `settle`, over arrays mapped from files, with
a checkpoint after each level), which builds the tables of five pieces.

A table file is the project's verified format (`zerosum.solve.table.write_file`: magic,
version, SHA-256, a JSON header with the counts), named after its material (`KRvK.ztb`); its
body is one entry a place of the index, one byte (two when a mate takes more than 126 plies):
0 a draw, d > 0 a win in d plies, -(d + 1) a loss in d plies, the lowest value no position.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import numpy as np

from zerosum.games.chess.endgame import Material
from zerosum.games.chess.rules import WIN, Position
from zerosum.limits import Limit
from zerosum.solve.table import (
    begins_with,
    open_file,
    verified_header,
    write_file,
)

MAGIC = b"ZSCHESS\0"
FORMAT = 1
SUFFIX = ".ztb"
THREE = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"]
FOUR = [
    "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK", "KRRvK", "KRBvK", "KRNvK", "KRPvK", "KBBvK",
    "KBNvK", "KBPvK", "KNNvK", "KNPvK", "KPPvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KQvKP",
    "KRvKR", "KRvKB", "KRvKN", "KRvKP", "KBvKB", "KBvKN", "KBvKP", "KNvKN", "KNvKP", "KPvKP",
]  # fmt: skip
"""Every material of three and of four pieces, as Syzygy names them."""
GROUPS = {"all3": THREE, "all4": THREE + FOUR}
INVALID = np.int16(-32768)
"""The entry of a place of the index that holds no position."""
UNKNOWN = np.int16(32767)
"""The entry of a position not settled yet, while a table is built (`compiled_chess_tables`)."""
PIECES = Limit(
    "the pieces of a chess endgame table",
    4,
    "each piece more multiplies the index by 64: a table of 5 pieces has 335 million entries"
    " (1.07 billion with pawns), and its build in memory holds 18 bytes an entry (6 to 19 GB);"
    " give --work-dir DIR to build one without pawns out of core",
)


@dataclass(frozen=True)
class Built:
    """A material's table as built or loaded: its entries' codes and what they count."""

    material: Material
    codes: np.ndarray  # int16, one a place of the index
    positions: int
    wins: int
    draws: int
    losses: int
    checkmates: int
    stalemates: int
    longest: int  # plies of the longest mate
    seconds: float = 0.0

    def header(self) -> dict[str, Any]:
        counts = {
            "positions": self.positions,
            "terminal": self.checkmates + self.stalemates,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }
        return {
            "format": FORMAT,
            "game": "chess",
            "parameters": {"material": self.material.name},
            "layered": False,
            **counts,
            "checkmates": self.checkmates,
            "stalemates": self.stalemates,
            "longest": self.longest,
            "entries": len(self.codes),
            "entry_bytes": _entry_bytes(self.longest),
            "sections": [{"layer": None, **counts}],
        }


@dataclass(frozen=True)
class Progress:
    """Where a build is: the material, the level settled last and what it settled."""

    material: str
    level: int
    settled: int
    positions: int


def materials(names: Iterable[str]) -> list[Material]:
    """The materials `names` name (`all3`, `all4` for every one of 3 or 4 pieces); ValueError
    with the reason for a name that names none."""
    found: list[Material] = []
    for name in names:
        for one in GROUPS.get(name.lower(), [name]):
            material = Material.parse(one)
            if material not in found:
                found.append(material)
    return found


def path_of(folder: str | os.PathLike, material: Material) -> Path:
    return Path(folder) / f"{material.name}{SUFFIX}"


@dataclass(frozen=True)
class Level:
    """A build between two levels: the last level settled (0: the checkmates and stalemates),
    how many positions it settled, how many the next one finds won already (listed first in
    the frontier), the positions and stalemates of the table, and whether the build is over."""

    level: int
    settled: int
    won: int
    positions: int
    stalemates: int
    over: bool


@dataclass(frozen=True)
class Arrays:
    """Where a build settles a table (`compiled_chess_tables`): `codes`, the smaller tables'
    entries then the table's own (its own from `start`); `wake` (4 rows of the table's
    entries); `frontier` and `following`, the positions settled at a level and those won at
    the next (one int32 an entry). In memory (`solve`) or mapped from files (`chess_work`)."""

    codes: np.ndarray
    wake: np.ndarray
    frontier: np.ndarray
    following: np.ndarray
    start: int

    @classmethod
    def allocate(cls, material: Material, smaller: list[Built]) -> Arrays:
        """The arrays in memory, the smaller tables' entries copied in."""
        size = material.entries
        codes = np.empty(sum(len(table.codes) for table in smaller) + size, np.int16)
        start = fill_smaller(codes, smaller)
        wake = np.zeros((4, size), np.int16)
        return cls(codes, wake, np.empty(size, np.int32), np.empty(size, np.int32), start)

    @property
    def own(self) -> np.ndarray:
        return self.codes[self.start :]


def fill_smaller(codes: np.ndarray, smaller: list[Built]) -> int:
    """Copy the smaller tables' entries to the start of `codes`, one after the other; where
    the table's own begin."""
    start = 0
    for table in smaller:
        codes[start : start + len(table.codes)] = table.codes
        start += len(table.codes)
    return start


def solve(
    material: Material,
    smaller: list[Built],
    progress: Callable[[Progress], None] | None = None,
) -> Built:
    """`material`'s table, in memory, reading the smaller tables its captures and promotions
    reach."""
    began = time.perf_counter()
    arrays = Arrays.allocate(material, smaller)
    end = settle(material, smaller, arrays, progress=progress)
    own = arrays.own
    return counted(material, own.copy(), end.stalemates, time.perf_counter() - began)


def settle(
    material: Material,
    smaller: list[Built],
    arrays: Arrays,
    *,
    begin: Level | None = None,
    after: Callable[[Level], None] | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Level:
    """Settle `material`'s entries in `arrays` level by level, from level 0 or from after
    `begin` (a build resumed: the arrays as they were when it was settled), calling `after`
    after each level (the kernels' step, whose arrays are in memory or mapped from files);
    then the positions never settled are draws. Returns the last level."""
    from zerosum.solve import compiled_chess_tables as kernel

    specs = specs_of([*(table.material for table in smaller), material])
    m = len(smaller)
    codes, wake, frontier, following = (
        arrays.codes, arrays.wake, arrays.frontier, arrays.following,
    )  # fmt: skip
    deepest = max((table.longest for table in smaller), default=0)
    state = begin
    if state is None:
        positions, stalemates, won = kernel.settle_first(specs, codes, m, wake, frontier, following)
        state = Level(0, 0, won, positions, stalemates, over=False)
        if progress is not None:
            progress(Progress(material.name, 0, 0, positions))
        if after is not None:
            after(state)
    while not state.over:
        level = state.level + 1
        count, won = kernel.settle_level(
            specs, codes, m, level, wake, frontier, following, state.won
        )
        over = count == 0 and level > deepest + 1
        state = Level(level, count, won, state.positions, state.stalemates, over)
        if progress is not None:
            progress(Progress(material.name, level, count, state.positions))
        if after is not None:
            after(state)
    own = arrays.own
    kernel.finish(own, 0, len(own))
    return state


def specs_of(tables: list[Material]) -> np.ndarray:
    """The kernel's `specs` of `tables`, their entries one after the other in `codes`
    (`compiled_chess_tables`: signature, pieces, pawns, offset, each piece's type and side)."""
    from zerosum.solve import compiled_chess_tables as kernel

    specs = np.zeros((len(tables), kernel.SPEC_WIDTH), np.int64)
    offset = 0
    for m, of in enumerate(tables):
        pieces = of.pieces
        types = np.array([piece for piece, _ in pieces], np.int64)
        sides = np.array([side for _, side in pieces], np.int64)
        specs[m, kernel.SPEC_SIGNATURE] = kernel.signature(types, sides, len(pieces), 0)
        specs[m, kernel.SPEC_COUNT] = len(pieces)
        specs[m, kernel.SPEC_PAWNS] = int(of.pawns)
        specs[m, kernel.SPEC_OFFSET] = offset
        for i, (piece, side) in enumerate(pieces):
            specs[m, kernel.SPEC_PIECES + 2 * i] = piece
            specs[m, kernel.SPEC_PIECES + 2 * i + 1] = side
        offset += of.entries
    return specs


CHUNK = 1 << 24
"""Entries a pass over a table takes at once (a table mapped from a file is never read whole)."""


def counted(material: Material, codes: np.ndarray, stalemates: int, seconds: float = 0.0) -> Built:
    """The table of `codes` with its counts, read a chunk at a time."""
    wins = losses = positions = checkmates = longest = 0
    for begin in range(0, len(codes), CHUNK):
        part = np.asarray(codes[begin : begin + CHUNK])
        valid = part != INVALID
        wins += int(np.count_nonzero(part > 0))
        losses += int(np.count_nonzero(valid & (part < 0)))
        positions += int(np.count_nonzero(valid))
        checkmates += int(np.count_nonzero(part == -1))
        longest = max(longest, int(part.max(initial=0)), -1 - int(part[valid].min(initial=0)))
    return Built(
        material,
        codes,
        positions=positions,
        wins=wins,
        draws=positions - wins - losses,
        losses=losses,
        checkmates=checkmates,
        stalemates=stalemates,
        longest=max(longest, 0),
        seconds=seconds,
    )


def _entry_bytes(longest: int) -> int:
    return 1 if longest <= 126 else 2


def save(table: Built, path: Path) -> int:
    """Write `table` to `path` atomically, a chunk of its entries at a time; its size in
    bytes."""
    header = _json(table.header())
    return write_file(path, MAGIC, FORMAT, header, _body(table.codes, table.longest))


def _body(codes: np.ndarray, longest: int) -> Iterable[bytes]:
    for begin in range(0, len(codes), CHUNK):
        part = np.asarray(codes[begin : begin + CHUNK])
        if _entry_bytes(longest) == 1:
            yield np.where(part == INVALID, -128, part).astype("<i1").tobytes()
        else:
            yield part.astype("<i2").tobytes()


def _json(header: dict[str, Any]) -> bytes:
    import json

    return json.dumps(header, separators=(",", ":")).encode()


def _body_bytes(header: dict[str, Any]) -> int:
    if header["entry_bytes"] not in (1, 2):
        raise ValueError("entry_bytes")
    material = Material.parse(header["parameters"]["material"])
    if material.entries != header["entries"]:
        raise ValueError("entries")
    return int(header["entries"]) * int(header["entry_bytes"])


def load(path: str | os.PathLike) -> Built:
    """The table in `path`, verified (preamble, checksum, header, size, counts); ValueError
    with the reason when it is not a chess endgame table or is damaged."""
    with open_file(path) as file:
        header, body = verified_header(path, file, MAGIC, FORMAT, _body_bytes)
        file.seek(body)
        data = file.read()
    material = Material.parse(header["parameters"]["material"])
    if header["entry_bytes"] == 1:
        raw = np.frombuffer(data, "<i1")
        codes = raw.astype(np.int16)
        codes[raw == -128] = np.int16(-32768)
    else:
        codes = np.frombuffer(data, "<i2").astype(np.int16)
    table = counted(material, codes, header["stalemates"])
    stored = (header["positions"], header["wins"], header["draws"], header["losses"])
    if stored != (table.positions, table.wins, table.draws, table.losses):
        raise ValueError(f"{path}: the header's counts do not match the table")
    return table


def table_files(folder: str | os.PathLike) -> list[Path]:
    """The chess tables (`*.ztb`) in `folder`; ValueError when it cannot be read."""
    try:
        return sorted(Path(folder).glob(f"*{SUFFIX}"))
    except OSError as error:
        raise ValueError(f"{str(folder)!r} unreadable: {error.strerror}") from None


def endgame_tables(path: str) -> Any:
    """Chess's endgame tables at `path` (folders separated by the OS path separator): ours
    (`ChessTables`) where the folders hold any, else Syzygy's; ValueError with the reason."""
    if any(table_files(folder) for folder in filter(None, path.split(os.pathsep))):
        return ChessTables.open(path)
    from zerosum.games.chess.syzygy import Syzygy

    return Syzygy.open(path)


def is_table(path: str | os.PathLike) -> bool:
    """Whether `path` begins as a chess endgame table does (its magic)."""
    return begins_with(path, MAGIC)


class ChessTables:
    """Our chess endgame tables in a folder as an engine's `tablebase`: `lookup(state)` gives
    (value, distance to mate in plies) for the player to move, `best_move(position)` the move
    that keeps the value soonest; `probes` and `hits` count the lookups."""

    def __init__(self, tables: dict[Material, Built]) -> None:
        self.tables = tables
        self.pieces = max((len(material.pieces) for material in tables), default=0)
        self.probes = self.hits = 0

    @classmethod
    def open(cls, path: str) -> ChessTables:
        """The tables (`*.ztb`) in the folders of `path`, each verified; ValueError when none
        holds one."""
        tables = {}
        for folder in filter(None, path.split(os.pathsep)):
            for name in table_files(folder):
                table = load(name)
                tables[table.material] = table
        if not tables:
            raise ValueError(f"{path!r} holds no zerosum chess tables ({SUFFIX})")
        return cls(tables)

    def code(self, board: chess.Board) -> int | None:
        """The entry of `board` (its en passant capture weighed in), None where no table holds
        it. 0 a draw, d > 0 a win in d plies, -(d + 1) a loss in d plies."""
        if board.castling_rights or chess.popcount(board.occupied) > self.pieces:
            return None
        if chess.popcount(board.occupied) == 2:
            return 0
        material, _ = Material.of_board(board)
        table = self.tables.get(material)
        if table is None:
            return None
        squares, turn = material.position_of(board)
        code = int(table.codes[material.index(squares, turn)])
        if board.ep_square is not None and board.has_legal_en_passant():
            for move in board.legal_moves:
                if board.is_en_passant(move):
                    board.push(move)
                    child = self.code(board)
                    board.pop()
                    if child is None:
                        return None
                    option = _seen_by_parent(child)
                    if _rank(option) > _rank(code):
                        code = option
        return code

    def lookup(self, state: Position) -> tuple[int, int | None] | None:
        """(WIN, plies) or (-WIN, plies) for a mate, (0, None) for a draw; None where no table
        holds the position, or where the fifty-move rule could come first (the mate's plies
        and the halfmove clock passing 100)."""
        board = state.board
        self.probes += 1
        code = self.code(board)
        if code is None:
            return None
        if code == 0:
            self.hits += 1
            return 0, None
        plies = code if code > 0 else -code - 1
        if board.halfmove_clock + plies > 100:
            return None
        self.hits += 1
        return (WIN if code > 0 else -WIN), plies

    def best_moves(self, position: Position) -> list[chess.Move]:
        """Every move that keeps the position's value, one ply nearer the end (a draw: every
        move that keeps the draw); empty where no table holds it or the game is over."""
        board = position.board.copy(stack=False)
        code = self.code(board)
        found = []
        for move in board.legal_moves:
            board.push(move)
            child = self.code(board)
            board.pop()
            if child is not None and code is not None and _seen_by_parent(child) == code:
                found.append(move)
        return found

    def best_move(self, position: Position) -> tuple[chess.Move, int] | None:
        """The table's best move and its value for the player to move (2 a win, 0 a draw, -2 a
        loss): the quickest mate, the longest defence. None where no table holds it."""
        board = position.board.copy(stack=False)
        best: tuple[int, chess.Move] | None = None
        for move in board.legal_moves:
            board.push(move)
            child = self.code(board)
            board.pop()
            if child is None:
                return None
            option = _rank(_seen_by_parent(child))
            if best is None or option > best[0]:
                best = (option, move)
        if best is None:
            return None
        return best[1], 2 if best[0] > 0 else -2 if best[0] < 0 else 0

    def close(self) -> None:
        self.tables = {}


def _seen_by_parent(code: int) -> int:
    """A child's entry as its parent sees it (`compiled_chess_tables.seen_by_parent`)."""
    if code == 0:
        return 0
    return -(code + 2) if code > 0 else -code


def _rank(code: int) -> int:
    """Larger for the outcome the side to move prefers."""
    if code > 0:
        return 100000 - code
    if code < 0:
        return -100000 - code
    return 0


def describe(code: int) -> str:
    """`a win in 5 plies`, `a loss in 4 plies`, `a draw`."""
    if code == 0:
        return "a draw"
    plies = code if code > 0 else -code - 1
    return f"{'a win' if code > 0 else 'a loss'} in {plies} {'ply' if plies == 1 else 'plies'}"
