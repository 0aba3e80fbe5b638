"""Where the benchmarks' external data lives: `shared/oracles/` beside the repository (or beside
one of its parents), with the full Connect Four test sets and chess suites the tests keep only
samples of (tests/data)."""

from __future__ import annotations

from pathlib import Path


def find_oracle(*parts: str) -> Path | None:
    """The path of `shared/oracles/PARTS...`, or None where it is not found."""
    for folder in Path(__file__).resolve().parents:
        candidate = folder.joinpath("shared", "oracles", *parts)
        if candidate.exists():
            return candidate
    return None


def oracle(*parts: str) -> Path:
    """The path of `shared/oracles/PARTS...`; the benchmark stops, saying what is missing."""
    found = find_oracle(*parts)
    if found is None:
        raise SystemExit(f"shared/oracles/{'/'.join(parts)} not found beside the repository")
    return found
