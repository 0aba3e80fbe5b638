"""Connect Four's opening book: the exact score of every position of at most `plies` stones,
built by our own solver, so that the solver answers them at once and stops its searches there.

Scores are the solver's (`zerosum.solve.connect4`): from the point of view of the player to
move, 0 a draw, `cells // 2 + 1 - n` for a win with their stone number `n`, negative when the
opponent wins. A score names the stone that wins, whoever looks at it, so a position's score
is the largest of its moves' `-score(child)` (a win with the very next stone for a move that
wins at once, 0 for a move that fills the board): the negamax of exact scores is exact.

A position is kept once with its mirror image (columns right to left), under the smaller of
their two keys, the solver's `position + mask` (`canonical_key`): the book holds only positions
that are still being played (nobody has won yet), every one reachable from the empty board.

How it is built (`zerosum.solve.connect4.build_book`, beside the solver it runs): the positions of
`plies` stones, the frontier, are solved one by one by the solver, in the order a depth-first walk
from the empty board meets them (centre first), sharing one transposition table so that a position's
search reuses its cousins'; then the positions of fewer stones are scored from their children's
scores, a ply at a time, down to the empty board. The frontier is solved in chunks, each written to
the work directory when it is done (atomically, with its checksum): a build that is stopped goes on
from its last whole chunk when it is run again.

On disk, the project's verified table file (`zerosum.solve.table.write_file`: magic, version,
SHA-256 of the rest, a JSON header with the counts), magic `b"ZSC4BOOK"`, format 1: the header
names the game, its parameters and `plies`, and has one section a ply (its counts); the body
holds, for each section in order, its keys (uint64, ascending) then its scores (int8), all
little-endian: 9 bytes a position.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.games.connect4 import ConnectFour, State
from zerosum.limits import Limit
from zerosum.solve import workdir
from zerosum.solve.table import (
    begins_with,
    check_built_for,
    check_destination,
    identity,
    open_file,
    verified_header,
    write_file,
)

MAGIC = b"ZSC4BOOK"
FORMAT = 1
BYTES_PER_POSITION = 8 + 1
SUFFIX = ".zbook"

CHUNK = 64
"""Frontier positions solved between two checkpoints of a build."""

BUILD_TABLE_MB = 1024.0
"""The transposition table a build's solver shares across the frontier of the 7x6 board:
larger than a single solve's, since it carries what one position's search proved to its
cousins'. A board of at most `SMALL_BOARD_CELLS` cells takes `SMALL_BOARD_TABLE_MB`, which holds
its whole search."""

SMALL_BOARD_CELLS, SMALL_BOARD_TABLE_MB = 30, 16.0

PLIES = Limit(
    "the plies of a Connect Four opening book",
    8,
    "its frontier is solved position by position: 568 positions of 4 stones took about an hour"
    " here, 91,295 of 8 stones take about 0.6 s each (15 hours), and each ply more has about"
    " three times as many",
)

SHIPPED = {(7, 6): "connect4-7x6.zbook"}
"""The books that come with the package (in `zerosum/data`), by board (width, height)."""


def canonical_key(game: ConnectFour, position: int, mask: int) -> int:
    """The key under which the solver and the book keep a position and its mirror image: the
    smaller of `position + mask` (`position` the stones of the player to move) and its mirror's."""
    key = position + mask
    return min(key, mirror_key(key, game.width, game.stride))


def mirror_key(key: int, width: int, stride: int) -> int:
    """The key of the position's mirror image (columns right to left)."""
    column_bits = (1 << stride) - 1
    image = 0
    for column in range(width):
        image |= (key >> column * stride & column_bits) << (width - 1 - column) * stride
    return image


def check_board(game: ConnectFour) -> None:
    """ValueError unless the book can be kept for `game`: four in a row (the solver's game) on
    a board whose keys fit in 64 bits."""
    if game.connect != 4:
        raise ValueError(f"an opening book is the solver's, for four in a row, not {game.connect}")
    if game.width * game.stride > 64:
        raise ValueError(
            f"a {game.width}x{game.height} board's keys do not fit in 64 bits: an opening book"
            " needs width * (height + 1) <= 64"
        )


def positions_by_ply(game: ConnectFour, plies: int) -> list[dict[int, State]]:
    """For each number of stones from 0 to `plies`, the positions still being played (nobody
    has won, the board not full), one of each pair of mirror images, by canonical key, in the
    order a depth-first walk from the empty board meets them, centre first."""
    layers: list[dict[int, State]] = [{0: game.initial_state()}]
    for _ in range(plies):
        following: dict[int, State] = {}
        for state in layers[-1].values():
            for column in game.legal_moves(state):
                child = game.result(state, column)
                if game.is_terminal(child):
                    continue
                following.setdefault(canonical_key(game, child[0], child[1]), child)
        layers.append(following)
    return layers


@dataclass(frozen=True)
class Counts:
    """How many positions a book (or one of its plies) holds, by score for the player to move."""

    positions: int
    wins: int
    draws: int
    losses: int

    @classmethod
    def of(cls, scores: np.ndarray) -> Counts:
        wins, losses = int(np.count_nonzero(scores > 0)), int(np.count_nonzero(scores < 0))
        return cls(len(scores), wins, len(scores) - wins - losses, losses)

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.positions + other.positions, self.wins + other.wins,
                      self.draws + other.draws, self.losses + other.losses)  # fmt: skip

    def as_header(self) -> dict[str, int]:
        """The counts as a table file's header has them (no position of a book is over)."""
        return {"positions": self.positions, "terminal": 0, "wins": self.wins,
                "draws": self.draws, "losses": self.losses}  # fmt: skip


class OpeningBook:
    """The exact scores of a Connect Four board's positions of at most `plies` stones, each for
    the player to move in the solver's convention (see the module)."""

    def __init__(
        self, game: ConnectFour, plies: int, keys: list[np.ndarray], scores: list[np.ndarray]
    ) -> None:
        """A book of `game`'s board from its plies' sorted canonical `keys` (uint64) and their
        `scores` (int8), one array each a ply, 0 to `plies`."""
        check_board(game)
        self.game, self.plies = game, plies
        self.layers = [Counts.of(layer) for layer in scores]
        self.counts = sum(self.layers, Counts(0, 0, 0, 0))  # every ply together
        self.ply_keys, self.ply_scores = keys, scores
        order = np.argsort(np.concatenate(keys), kind="stable") if keys else np.empty(0, int)
        # one sorted array for probing (a key says its number of stones: no two plies share one)
        self.keys = np.concatenate(keys)[order] if keys else np.empty(0, np.uint64)
        self.scores = np.concatenate(scores)[order] if scores else np.empty(0, np.int8)

    def __len__(self) -> int:
        return self.counts.positions

    def score(self, state: State) -> int | None:
        """The exact score of `state` for its player to move, None when the book lacks it (more
        stones than its plies, or a game already over)."""
        position, mask, moves, won = state
        if moves > self.plies or won:
            return None
        return self.score_of_key(canonical_key(self.game, position, mask))

    def score_of_key(self, key: int) -> int | None:
        """The score of the position whose canonical key is `key`, None when the book lacks it."""
        at = int(np.searchsorted(self.keys, np.uint64(key)))
        if at < len(self.keys) and int(self.keys[at]) == key:
            return int(self.scores[at])
        return None

    def header(self) -> dict[str, Any]:
        """The JSON header this book is saved with."""
        name, parameters = identity(self.game)
        return {
            "format": FORMAT,
            "game": name,
            "parameters": parameters,
            "plies": self.plies,
            **self.counts.as_header(),
            "sections": [
                {"layer": ply, **counts.as_header()} for ply, counts in enumerate(self.layers)
            ],
        }

    def save(self, path: str | os.PathLike) -> int:
        """Write the book to `path` atomically (a temporary file renamed into place); its size
        in bytes. ValueError saying why when it cannot be written."""
        target = check_destination(path)
        header = json.dumps(self.header(), separators=(",", ":")).encode()
        body = (
            np.ascontiguousarray(column, dtype).tobytes()
            for keys, scores in zip(self.ply_keys, self.ply_scores, strict=True)
            for column, dtype in ((keys, "<u8"), (scores, "<i1"))
        )
        return write_file(target, MAGIC, FORMAT, header, body)

    @classmethod
    def load(cls, path: str | os.PathLike, game: ConnectFour) -> OpeningBook:
        """The book saved in `path`, verified whole (magic, version, SHA-256, header, size,
        counts) and checked to be built for `game`'s board; ValueError in one line saying what
        is wrong otherwise."""
        with open_file(path) as file:
            header, body = verified_header(path, file, MAGIC, FORMAT, _body_bytes)
            check_built_for(path, header, game)
            file.seek(body)
            keys, scores = [], []
            for section in header["sections"]:
                count = section["positions"]
                keys.append(np.frombuffer(file.read(8 * count), "<u8").astype(np.uint64))
                scores.append(np.frombuffer(file.read(count), "<i1").astype(np.int8))
        book = cls(game, header["plies"], keys, scores)
        stored = [{k: s[k] for k in ("positions", "wins", "draws", "losses")}
                  for s in header["sections"]]  # fmt: skip
        if stored != [vars(counts) for counts in book.layers]:
            raise ValueError(f"{path}: the header's counts do not match the book")
        if any(np.any(np.diff(layer.astype(np.int64)) <= 0) for layer in keys if len(layer) > 1):
            raise ValueError(f"{path}: corrupted book (keys out of order)")
        return book


def _body_bytes(header: dict[str, Any]) -> int:
    """The bytes of a book's body, from its header; ValueError when the header is not a book's."""
    plies = header.get("plies")
    if not isinstance(plies, int) or isinstance(plies, bool) or plies < 0:
        raise ValueError("plies")
    if [section["layer"] for section in header["sections"]] != list(range(plies + 1)):
        raise ValueError("sections")
    return int(header["positions"]) * BYTES_PER_POSITION


def read_header(path: str | os.PathLike) -> dict[str, Any]:
    """The JSON header of the book file `path`, once the file is verified; ValueError in one
    line saying what is wrong otherwise."""
    with open_file(path) as file:
        return verified_header(path, file, MAGIC, FORMAT, _body_bytes)[0]


def is_book(path: str | os.PathLike) -> bool:
    """Whether the file at `path` begins as an opening book does (its magic)."""
    return begins_with(path, MAGIC)


def shipped_path(game: ConnectFour) -> Path | None:
    """The file of the book that comes with the package for `game`'s board, None if none does."""
    if game.connect != 4:
        return None
    name = SHIPPED.get((game.width, game.height))
    if name is None:
        return None
    path = Path(__file__).resolve().parent.parent / "data" / name
    return path if path.exists() else None


def shipped(game: ConnectFour) -> OpeningBook | None:
    """The book that comes with the package for `game`'s board (loaded and verified once), None
    if none does; ValueError when its file is damaged."""
    if game.connect != 4:
        return None
    return _shipped_book(game.width, game.height)


@cache
def _shipped_book(width: int, height: int) -> OpeningBook | None:
    game = ConnectFour(width, height)
    path = shipped_path(game)
    return None if path is None else OpeningBook.load(path, game)


@dataclass(frozen=True)
class BuildProgress:
    """How far a build has gone: frontier positions `solved` of `frontier` (`resumed` of them
    found solved in the work directory), its `nodes` searched and `seconds` so far."""

    solved: int
    frontier: int
    resumed: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Built:
    """A finished build: the `book`, and what solving its frontier cost, in this run and in the
    runs before it that left chunks in the work directory (their `nodes` and `seconds`)."""

    book: OpeningBook
    frontier: int
    resumed: int
    nodes: int
    seconds: float


def back_up(
    game: ConnectFour, layers: list[dict[int, State]], keys: np.ndarray, scores: np.ndarray
) -> OpeningBook:
    """The book from the exact `scores` of the last layer's positions (by their canonical
    `keys`): each earlier position scored as the best of its moves for its player to move."""
    known = dict(zip(keys.tolist(), scores.tolist(), strict=True))
    ply_keys, ply_scores = [_sorted(keys, scores)[0]], [_sorted(keys, scores)[1]]
    cells = game.cells
    for ply in range(len(layers) - 2, -1, -1):
        win_now = (cells + 1 - ply) // 2  # a win with the very next stone
        scored: dict[int, int] = {}
        for key, state in layers[ply].items():
            best = -cells
            for column in game.legal_moves(state):
                child = game.result(state, column)
                if child[3]:
                    value = win_now
                elif game.is_terminal(child):  # the last cell: a draw
                    value = 0
                else:
                    value = -known[canonical_key(game, child[0], child[1])]
                best = max(best, value)
            scored[key] = best
        ply_key = np.fromiter(scored, np.uint64, len(scored))
        ply_score = np.fromiter(scored.values(), np.int8, len(scored))
        sorted_keys, sorted_scores = _sorted(ply_key, ply_score)
        ply_keys.insert(0, sorted_keys)
        ply_scores.insert(0, sorted_scores)
        known = scored
    return OpeningBook(game, len(layers) - 1, ply_keys, ply_scores)


def _sorted(keys: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(keys, kind="stable")
    return keys[order].astype(np.uint64), scores[order].astype(np.int8)


def _chunk_name(game: ConnectFour, plies: int, first: int) -> str:
    return f"frontier-{game.width}x{game.height}-ply{plies}-{first:08d}"


def save_chunk(
    folder: Path,
    game: ConnectFour,
    plies: int,
    first: int,
    keys: np.ndarray,
    scores: np.ndarray,
    record: dict[str, Any],
) -> None:
    """Checkpoint a solved chunk: its keys and scores (one int64 array), then the record of it
    (the array's checksum, the nodes and seconds it took), each written atomically."""
    name = _chunk_name(game, plies, first)
    pairs = np.stack([keys.astype(np.int64), scores.astype(np.int64)], axis=1)
    entry = workdir.save(folder / f"{name}.npy", pairs)
    workdir.write_json(folder / f"{name}.json", {**record, "array": entry})


def finished_chunk(
    folder: Path, game: ConnectFour, plies: int, first: int, keys: np.ndarray
) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The scores and record of a chunk a build in `folder` finished, None when it has not (or
    its files are damaged, or hold other positions: it is then solved again)."""
    name = _chunk_name(game, plies, first)
    try:
        record = workdir.read_json(folder / f"{name}.json")
    except workdir.DamagedManifest:
        return None
    if record is None or not isinstance(record.get("array"), dict):
        return None
    pairs = workdir.what_is_wrong(folder / f"{name}.npy", record["array"])
    if isinstance(pairs, str) or pairs.ndim != 2 or len(pairs) != len(keys):
        return None
    if not np.array_equal(pairs[:, 0].astype(np.uint64), keys):
        return None
    return pairs[:, 1].astype(np.int8), record
