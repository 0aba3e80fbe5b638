"""Evaluations shipped with the OpenSpiel adapter, for games OpenSpiel gives none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Evaluation = Callable[[Any, int], float]


def shipped(name: str, spiel: Any) -> Evaluation | None:
    """The evaluation zerosum ships for OpenSpiel's game `name`, or None."""
    return None
