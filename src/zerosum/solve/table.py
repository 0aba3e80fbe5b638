"""The table a retrograde analysis produces: every position's value, distance and best moves.

In memory a table is a list of *sections*, one per layer for a layered game (one in all for
another game), each holding three parallel arrays sorted by the game's key: the keys (unsigned
64-bit), the values for the side to move (signed 8-bit) and the distances to the end under
perfect play (unsigned 16-bit, `NO_END` for a draw held by endless play). A probe finds a key by
bisection: eleven bytes a position, nothing else, and the best moves are recomputed from the
children's entries when asked for.

On disk (format 1), all integers little-endian:

    offset  size  field
    0       8     magic b"ZSTABLE\\0"
    8       2     format version (uint16)
    10      4     header length H in bytes (uint32)
    14      32    SHA-256 of everything from offset 46 to the end (header and body)
    46      H     header: a UTF-8 JSON object: "format", "game" (module.Class), "parameters"
                  (the game's constructor arguments), "layered", the counts ("positions",
                  "terminal", "wins", "draws", "losses"), "initial" (value and distance of the
                  initial position, or null) and "sections" (per section: "layer" and its counts)
    46 + H  ...   body: for each section in header order, its n keys (uint64, ascending), then
                  its n values (int8), then its n distances (uint16)

A file is verified when loaded, in an order that bounds the work a damaged or foreign file can
cause: magic, version and the header's length (at most `MAX_HEADER_BYTES`) first; then the
checksum, read through the file in pieces; then the header, parsed only once its nesting is
known to be shallow (`MAX_HEADER_DEPTH`); then the file's size, the counts and the game it was
built for. Any mismatch is a one-line `ValueError` that says which, never a wrong answer, and
the file is only read.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import struct
import sys
import tempfile
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from itertools import accumulate
from pathlib import Path
from typing import IO, Any

from zerosum.game import Game, Keyed, Layered, require
from zerosum.solve.outcome import NO_END

MAGIC = b"ZSTABLE\0"
FORMAT = 1
PREAMBLE = struct.Struct("<8sHI32s")
BYTES_PER_POSITION = 8 + 1 + 2
MAX_HEADER_BYTES = 1 << 24
"""The longest header read (16 MiB): a table's header takes about 100 bytes a layer."""
MAX_HEADER_DEPTH = 32
"""The deepest nesting of lists and objects in a header read (a table's own header has 3; a
game's parameters may add a few): a deeper one is refused before it is parsed."""
READ_BYTES = 1 << 24
"""Bytes read at a time while the checksum is computed: memory stays bounded by this."""
_COUNTS = ("positions", "terminal", "wins", "draws", "losses")
# Byte value of an int8 -> 0 draw, 1 win, 2 loss: counts by value with bytes.translate/count.
_SIGN_CLASS = bytes(0 if b == 0 else 1 if b < 128 else 2 for b in range(256))


@dataclass(frozen=True)
class Probe:
    """A position's entry: `value` for the side to move, `distance` in plies to the end under
    perfect play (None for a draw held by endless play), and every move that keeps both."""

    value: int
    distance: int | None
    best_moves: tuple[Any, ...]


@dataclass(frozen=True)
class Counts:
    """How many positions a table (or one layer) holds, by value for the side to move."""

    positions: int
    terminal: int
    wins: int
    draws: int
    losses: int

    @classmethod
    def of(cls, values: array, distances: array) -> Counts:
        classes = values.tobytes().translate(_SIGN_CLASS)
        return cls(
            len(values), distances.count(0), classes.count(1), classes.count(0), classes.count(2)
        )

    def __add__(self, other: Counts) -> Counts:
        pairs = zip(vars(self).values(), vars(other).values(), strict=True)
        return Counts(*(a + b for a, b in pairs))


@dataclass(frozen=True)
class Section:
    """The positions of one layer (`layer` is None in a table of an unlayered game)."""

    layer: int | None
    keys: array  # 'Q', ascending
    values: array  # 'b'
    distances: array  # 'H'


def check_built_for(path: str | os.PathLike, header: dict[str, Any], game: Game) -> None:
    """ValueError, naming both games, unless the table whose `header` was read from `path`
    was built for `game` (its class and its parameters)."""
    name, parameters = identity(game)
    if (header["game"], header["parameters"]) != (name, parameters):
        built_for = describe_game(header["game"], header["parameters"])
        raise ValueError(
            f"{path}: table built for {built_for}, not {describe_game(name, parameters)}"
        )


def identity(game: Game) -> tuple[str, dict[str, Any]]:
    """The game's class as `module.Class` and its constructor arguments read back from it."""
    cls = type(game)
    parameters = {}
    for parameter in inspect.signature(cls).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if hasattr(game, parameter.name):
            parameters[parameter.name] = getattr(game, parameter.name)
    try:
        parameters = json.loads(json.dumps(parameters))
    except (TypeError, ValueError):
        raise ValueError(f"the parameters of {cls.__name__} cannot be written as JSON") from None
    return f"{cls.__module__}.{cls.__qualname__}", parameters


class Table:
    """A solved game: look up any position's value, distance and best moves."""

    def __init__(self, game: Game, sections: Sequence[Section]) -> None:
        require(game, Keyed, "a table of positions")
        assert isinstance(game, Keyed)  # as `require` has just checked, for the type checker
        self.game = game
        self.sections = tuple(sections)
        self.layered = bool(self.sections) and self.sections[0].layer is not None
        self._by_layer = {section.layer: section for section in self.sections}
        # Bound once: every probe keys the position, and in a table by layers finds its layer.
        self._key = game.key
        self._layer = game.layer if self.layered and isinstance(game, Layered) else None
        self.layers = {
            section.layer: Counts.of(section.values, section.distances) for section in self.sections
        }
        self.counts = sum(self.layers.values(), Counts(0, 0, 0, 0, 0))  # all layers together

    def __len__(self) -> int:
        return self.counts.positions

    def __contains__(self, state: Any) -> bool:
        return self._entry(state) is not None

    def _entry(self, state: Any) -> tuple[int, int] | None:
        """(value, raw distance) of `state` if the table holds it."""
        key = self._key(state)
        sections: Sequence[Section]
        if self._layer is not None:
            section = self._by_layer.get(self._layer(state))
            sections = () if section is None else (section,)
        else:
            sections = self.sections
        for section in sections:
            keys = section.keys
            index = bisect_left(keys, key)
            if index < len(keys) and keys[index] == key:
                return section.values[index], section.distances[index]
        return None

    def lookup(self, state: Any) -> tuple[int, int | None] | None:
        """(value for the side to move, distance in plies, None for a draw held by endless
        play) of `state`, None if absent: the table as a `zerosum.game.Tablebase`.

        The cheap part of `probe`, without the best moves: what a search needs at every node.
        """
        entry = self._entry(state)
        if entry is None:
            return None
        value, distance = entry
        return value, (None if distance == NO_END else distance)

    def probe(self, state: Any) -> Probe:
        """The entry of `state`: value for the side to move, distance, best moves.

        ValueError when the table does not hold `state`.
        """
        return probe_entries(self.game, state, self._entry)

    def initial(self) -> Probe | None:
        """The entry of the game's initial position, None when the table does not hold it."""
        state = self.game.initial_state()
        return self.probe(state) if state in self else None

    def header(self) -> dict[str, Any]:
        """The JSON header this table is saved with."""
        name, parameters = identity(self.game)
        start = self.initial()
        return {
            "format": FORMAT,
            "game": name,
            "parameters": parameters,
            "layered": self.layered,
            **asdict(self.counts),
            "initial": None
            if start is None
            else {"value": start.value, "distance": start.distance},
            "sections": [
                {"layer": layer, **asdict(counts)} for layer, counts in self.layers.items()
            ],
        }

    def save(self, path: str | os.PathLike) -> int:
        """Write the table to `path` atomically (a temporary file renamed into place); its size."""
        path = check_destination(path)
        header = json.dumps(self.header(), separators=(",", ":")).encode()
        body = (
            _little_endian(column)
            for section in self.sections
            for column in (section.keys, section.values, section.distances)
        )
        return write_file(path, MAGIC, FORMAT, header, body)

    @classmethod
    def load(cls, path: str | os.PathLike, game: Game) -> Table:
        """The table saved in `path`, verified whole and checked to be built for `game`."""
        with open_file(path) as file:
            header, body = verified_header(path, file)
            check_built_for(path, header, game)
            file.seek(body)
            sections = []
            for entry in header["sections"]:
                n = entry["positions"]
                columns = []
                for typecode, width in (("Q", 8), ("b", 1), ("H", 2)):
                    column = array(typecode)
                    column.frombytes(file.read(n * width))
                    if sys.byteorder == "big":
                        column.byteswap()
                    columns.append(column)
                sections.append(Section(entry["layer"], *columns))
        table = cls(game, sections)
        stored = {key: header[key] for key in asdict(table.counts)}
        if stored != asdict(table.counts):
            raise ValueError(f"{path}: the header's counts do not match the table")
        return table


def probe_entries(
    game: Any, state: Any, entry_of: Callable[[Any], tuple[int, int] | None]
) -> Probe:
    """The `Probe` of `state` from a table's entries (`entry_of` gives a position's value for
    its side to move and raw distance, None when absent): the best moves are those whose child
    keeps the value and is one ply nearer the end. ValueError when the table lacks `state` or
    one of its children."""
    entry = entry_of(state)
    if entry is None:
        raise ValueError("the position is not in the table")
    value, distance = entry
    if distance == 0:
        return Probe(value, 0, ())
    mover = game.to_move(state)
    best = []
    for move in game.legal_moves(state):
        child = game.result(state, move)
        child_entry = entry_of(child)
        if child_entry is None:
            raise ValueError(
                "the table lacks a successor of the position: was it built"
                " from other start positions?"
            )
        child_value, child_distance = child_entry
        seen = child_value if game.to_move(child) == mover else -child_value
        if seen == value and (
            distance == NO_END or (child_distance != NO_END and child_distance + 1 == distance)
        ):
            best.append(move)
    return Probe(value, None if distance == NO_END else distance, tuple(best))


def read_header(path: str | os.PathLike) -> dict[str, Any]:
    """The JSON header of the table file `path`, once the file is verified (magic, version,
    checksum, size and the header's own form); ValueError saying what is wrong otherwise."""
    with open_file(path) as file:
        return verified_header(path, file)[0]


def write_file(path: Path, magic: bytes, version: int, header: bytes, body: Iterable[bytes]) -> int:
    """Write a table file to `path` atomically (a temporary file, forced to the disk, renamed
    into place): the preamble (`magic`, the format `version`, the header's length and the
    SHA-256 of all
    that follows it), the `header`, then the pieces of `body`. Its size; ValueError saying why
    when it cannot be written, or when the header is longer than a table may have."""
    if len(header) > MAX_HEADER_BYTES:
        raise ValueError(f"the table's header would take {len(header):,} bytes, over the"
                         f" {MAX_HEADER_BYTES:,} a table file may have")  # fmt: skip
    digest = hashlib.sha256(header)
    temporary = None
    try:
        with tempfile.NamedTemporaryFile(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
        ) as handle:
            temporary = handle.name
            handle.write(PREAMBLE.pack(magic, version, len(header), bytes(32)))
            handle.write(header)
            for data in body:
                digest.update(data)
                handle.write(data)
            handle.seek(0)
            handle.write(PREAMBLE.pack(magic, version, len(header), digest.digest()))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o666 & ~umask())  # a temporary file is private; a table not
        os.replace(temporary, path)
    except BaseException as error:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise ValueError(f"cannot write table {str(path)!r}: {reason(error)}") from None
        raise
    return path.stat().st_size


def check_destination(path: str | os.PathLike) -> Path:
    """`path` as a `Path`, checked to be a file this process can write (atomically: a new file
    in its folder, renamed into place); ValueError saying why not. Nothing is left behind: the
    trial file is removed, an existing file at `path` is not touched."""
    target = Path(path)
    if not str(path) or not target.name:
        raise ValueError(f"cannot write a table to {str(path)!r}: give a file name")
    if target.is_dir():
        raise ValueError(f"cannot write a table to {str(path)!r}: it is a directory")
    folder = target.parent
    if not folder.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: no directory {str(folder)!r}")
    try:
        handle, trial = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise ValueError(f"cannot write {str(path)!r}: {reason(error)}") from None
    os.close(handle)
    os.unlink(trial)
    return target


def reason(error: OSError) -> str:
    """Why a file operation failed, in words (`strerror`), without the paths Python adds."""
    return (error.strerror or type(error).__name__).lower()


def begins_with(path: str | os.PathLike, magic: bytes) -> bool:
    """Whether the file at `path` begins with `magic` (False when it cannot be read)."""
    try:
        with open(path, "rb") as file:
            return file.read(len(magic)) == magic
    except OSError:
        return False


def open_file(path: str | os.PathLike) -> IO[bytes]:
    try:
        return open(path, "rb")  # noqa: SIM115 (the caller's `with` closes it)
    except OSError as error:
        raise ValueError(f"cannot read table {str(path)!r}: {reason(error)}") from None


def verified_header(
    path: str | os.PathLike,
    file: IO[bytes],
    magic_expected: bytes = MAGIC,
    version_expected: int = FORMAT,
    body_bytes: Callable[[dict[str, Any]], int] | None = None,
) -> tuple[dict[str, Any], int]:
    """The header of the open table file and the offset of its body, once the file is verified:
    preamble (`magic_expected`, `version_expected`), the header's size, the checksum (read in
    pieces), the header parsed within bounds, then the file's size against the size of the
    body the header describes (`body_bytes`, by default format 1's: its positions times
    `BYTES_PER_POSITION`; a `ValueError` from it means a corrupted header)."""
    size_of = body_bytes or _body_bytes
    size = os.fstat(file.fileno()).st_size
    preamble = file.read(PREAMBLE.size)
    if len(preamble) < PREAMBLE.size:
        if not preamble:
            raise ValueError(f"{path}: an empty file, not a zerosum table")
        if magic_expected.startswith(preamble[: len(magic_expected)]):
            raise ValueError(f"{path}: truncated table ({len(preamble)} bytes)")
        raise ValueError(f"{path}: not a zerosum table")
    magic, version, length, checksum = PREAMBLE.unpack(preamble)
    if magic != magic_expected:
        raise ValueError(f"{path}: not a zerosum table")
    if version != version_expected:
        raise ValueError(
            f"{path}: table format {version}, this zerosum reads format {version_expected}"
        )
    if length > MAX_HEADER_BYTES:
        raise ValueError(
            f"{path}: corrupted table (a header of {length:,} bytes, over the"
            f" {MAX_HEADER_BYTES:,} a table has at most)"
        )
    body = PREAMBLE.size + length
    if body > size:
        raise ValueError(f"{path}: truncated table (the header is cut short)")
    text = file.read(length)
    digest = hashlib.sha256(text)
    while piece := file.read(READ_BYTES):
        digest.update(piece)
    if digest.digest() != checksum:
        header = _parsed_header(text)  # only to say whether the file was cut short
        if header is not None:
            _check_size(path, size, body, header, size_of)
        raise ValueError(f"{path}: corrupted table (checksum mismatch)")
    header = _parsed_header(text)
    if header is None:
        raise ValueError(f"{path}: corrupted table (unreadable header)")
    _check_size(path, size, body, header, size_of)
    return header, body


def _body_bytes(header: dict[str, Any]) -> int:
    """The bytes of a format 1 table's body: 11 a position."""
    return int(header["positions"]) * BYTES_PER_POSITION


def _check_size(
    path: str | os.PathLike,
    size: int,
    body: int,
    header: dict[str, Any],
    body_bytes: Callable[[dict[str, Any]], int],
) -> None:
    """ValueError unless the file's `size` is what its header says, the body at offset `body`."""
    try:
        expected = body + body_bytes(header)
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{path}: corrupted table (unreadable header)") from None
    if size < expected:
        raise ValueError(f"{path}: truncated table ({size:,} of {expected:,} bytes)")
    if size > expected:
        raise ValueError(f"{path}: {size - expected:,} bytes too many after the table")


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def _nesting(text: bytes) -> int:
    """How deep lists and objects nest in the JSON `text` (brackets inside strings ignored)."""
    brackets = _JSON_STRING.sub(b"", text).translate(None, _NOT_BRACKETS)
    steps = (1 if bracket in b"[{" else -1 for bracket in brackets)
    return max(accumulate(steps), default=0)


def _parsed_header(text: bytes) -> dict[str, Any] | None:
    """The header `text` as a dict of the expected shape, or None when it is not one. Parsed
    only when its nesting is shallow, so that no header can exhaust the parser."""
    if _nesting(text) > MAX_HEADER_DEPTH:
        return None
    try:
        header = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not (
        isinstance(header, dict)
        and isinstance(header.get("game"), str)
        and isinstance(header.get("parameters"), dict)
        and isinstance(header.get("sections"), list)
        and all(_count(header.get(key)) for key in _COUNTS)
        and all(_section_entry(entry) for entry in header["sections"])
    ):
        return None
    if sum(entry["positions"] for entry in header["sections"]) != header["positions"]:
        return None
    return header


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _section_entry(entry: Any) -> bool:
    """True when `entry` is a section of a header: its layer (an integer or null), its counts."""
    return (
        isinstance(entry, dict)
        and (entry.get("layer") is None or _count(entry.get("layer")))
        and all(_count(entry.get(key)) for key in _COUNTS)
    )


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _little_endian(column: array) -> bytes:
    if sys.byteorder == "big":
        column = array(column.typecode, column)
        column.byteswap()
    return column.tobytes()


def describe_game(name: str, parameters: dict[str, Any]) -> str:
    """A game as a person reads it: `ConnectFour(width=5, height=4, connect=4)`."""
    arguments = ", ".join(f"{key}={value!r}" for key, value in parameters.items())
    return f"{name.rsplit('.', 1)[-1]}({arguments})"
