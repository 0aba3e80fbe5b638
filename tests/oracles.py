"""Where the facts the tests check against live: `tests/data/` (its README names each source)."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"


def oracle_path(*parts: str) -> Path:
    """The path of a file or folder of `tests/data`; the test fails, naming it, when it is
    missing: a test that needs the facts never passes or skips without them."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"test data tests/data/{'/'.join(parts)} is missing", pytrace=False)
    return path


def oracle_lines(name: str, count: int) -> list[tuple[str, int]]:
    """The first `count` positions of a Connect Four test set, as (moves, score); a failure when
    `tests/data` holds fewer."""
    lines = oracle_path("connect4", name).read_text().splitlines()[:count]
    if len(lines) < count:
        pytest.fail(f"tests/data/connect4/{name} holds {len(lines)} positions, not {count}")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]
