"""The extras: every `bench-*` extra of pyproject.toml can be installed from PyPI, and the
features' own (`openspiel`, `pettingzoo`) are part of the test extra, whose installation (the
README's test command, CI's first step) resolves them already.

pip resolves them for real, dependencies included (`--dry-run`: nothing is installed), since
that is where a conflict lies: aima3 pins networkx 1.11, nashpy needs networkx 3 or later. An
extra that another one includes (`bench-search` holds easyAI, OpenSpiel and aima3) is resolved
as part of it: what installs together installs apart. The extras are read from pyproject.toml,
so a new one is checked without a change here.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEERS = "bench-"  # the prefix of the peers' extras
HANG = 900  # seconds; one resolution takes 10 to 60 s, so only a hang reaches this


FEATURES = ("openspiel", "pettingzoo", "learn")
"""The extras of libraries a feature uses (the adapters): the test extra holds them, so CI tests
the features."""


def extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["optional-dependencies"]


def peer_extras() -> list[str]:
    return sorted(name for name in extras() if name.startswith(PEERS))


def included(extra: str) -> set[str]:
    """The extras that `extra` names as `zerosum[...]` among its requirements."""
    names: set[str] = set()
    for requirement in extras()[extra]:
        if requirement.startswith("zerosum["):
            names.update(requirement[len("zerosum[") :].split("]")[0].split(","))
    return names


def outermost_peer_extras() -> list[str]:
    """The peers' extras that no other extra includes: resolving these resolves every one."""
    inside = set().union(*(included(name) for name in extras()))
    return [name for name in peer_extras() if name not in inside]


def test_the_features_extras_are_in_the_test_extra():
    assert set(FEATURES) <= set(extras())
    assert f"zerosum[{','.join(FEATURES)}]" in extras()["test"]


def test_the_benchmarks_peers_have_extras_to_check():
    assert {"bench-nashpy", "bench-aima"} <= set(peer_extras())


def test_every_peer_extra_is_resolved_alone_or_inside_another():
    outermost = outermost_peer_extras()
    assert "bench-aima" in included("bench-search") and "bench-aima" not in outermost
    covered = set(outermost).union(*(included(name) for name in outermost))
    assert covered == set(peer_extras())


@pytest.mark.parametrize("extra", outermost_peer_extras())
def test_extra_resolves_with_its_dependencies(extra):
    resolution = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"]
        + [f".[{extra}]"],  # from the repository's root, as a user installs it
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    errors = [line for line in resolution.stderr.splitlines() if not line.startswith("WARNING")]
    rerun = f"pip install --dry-run --ignore-installed '.[{extra}]' says which packages conflict"
    assert resolution.returncode == 0, "\n".join([*errors[-20:], rerun])
