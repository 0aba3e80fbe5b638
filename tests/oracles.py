"""Where the shared test data lives: `shared/oracles/` beside the repository (or a parent of it)."""

from __future__ import annotations

from pathlib import Path

import pytest


def oracle_path(*parts: str) -> Path:
    """The path of an oracle file; the test is skipped, saying why, when the data is absent."""
    for folder in Path(__file__).resolve().parents:
        candidate = folder.joinpath("shared", "oracles", *parts)
        if candidate.exists():
            return candidate
    pytest.skip(f"oracle data shared/oracles/{'/'.join(parts)} not found beside the repository")


def oracle_lines(name: str, count: int) -> list[tuple[str, int]]:
    """The first `count` positions of a Connect Four test set, as (moves, score)."""
    lines = oracle_path("connect4", name).read_text().splitlines()[:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]
