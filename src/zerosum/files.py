"""Files the library writes: whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
