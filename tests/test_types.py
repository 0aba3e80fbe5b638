"""The package's types check: mypy, as pyproject.toml configures it, finds no error in src/."""

import gc
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error_in_the_package(monkeypatch):
    monkeypatch.chdir(ROOT)  # the configuration names the files to check relative to the root
    thresholds = gc.get_threshold()
    try:  # mypy raises the collector's thresholds for its run, and leaves them raised
        report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    finally:
        gc.set_threshold(*thresholds)
    assert status == 0, f"mypy exited with {status}:\n{report}{errors}"
