"""Files the library writes: whole or not at all (`write_atomically`), and JSON records sealed
with their checksum, so that a damaged or edited one is told on reading (`sealed_json`)."""

from __future__ import annotations

import json
import os
import tempfile
import zlib
from pathlib import Path
from typing import Any


def write_atomically(path: str, data: str | bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder, then rename it.

    A reader sees the old file or the whole new one, never half of it. ValueError (one line)
    when the file cannot be written.
    """
    target = Path(path)
    content = data.encode() if isinstance(data, str) else data
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise ValueError(f"cannot write {path}: {error.strerror}") from None


SEAL = "crc32"
"""The field of a sealed JSON record that holds its checksum (`sealed_json`)."""


def sealed_json(record: dict[str, Any], indent: int | None = None) -> str:
    """`record` as JSON text with one field more, `SEAL`: the CRC-32 of the record's canonical
    text (its keys sorted, no spaces), so that a reader tells a whole, unchanged record from
    a damaged or edited one (`unsealed_json`). The record must not hold `SEAL` itself."""
    if SEAL in record:
        raise ValueError(f"a record to seal cannot hold a field {SEAL!r}")
    as_read = json.loads(json.dumps(record, allow_nan=False))  # its keys as text, as read back
    return json.dumps({**as_read, SEAL: _crc(as_read)}, indent=indent)


def unsealed_json(path: str, text: str) -> dict[str, Any]:
    """The record of `sealed_json`'s `text` (read from `path`), without its seal; ValueError
    in one line naming `path` when it is not a JSON object, holds no seal, or its seal does not
    match (damaged or edited)."""
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError(f"{path}: damaged (not JSON)") from None
    if not isinstance(record, dict):
        raise ValueError(f"{path}: damaged (not a JSON object)")
    seal = record.pop(SEAL, None)
    if seal is None:
        raise ValueError(f"{path}: not sealed (no {SEAL} field: edited, or not zerosum's)")
    if seal != _crc(record):
        raise ValueError(f"{path}: damaged or edited (its {SEAL} does not match its content)")
    return record


def _crc(record: dict[str, Any]) -> int:
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return zlib.crc32(canonical.encode())
