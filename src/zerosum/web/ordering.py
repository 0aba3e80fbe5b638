"""The tree page's chart: the textbook's move-ordering experiment on tic-tac-toe, run live.

The page asks for the list of orders, then for each order's run in turn, and draws a bar as
each answer comes: the runs are `zerosum.experiments.ordering`'s own (`zerosum chart
ordering`), the first `CHART_SHUFFLES` random orders of its twenty. A run's search is bounded by
`RUN_NODES`, and a finished run is kept: the same order is never searched twice.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from typing import Any

from zerosum.experiments.ordering import named_orders, ordering_run
from zerosum.limits import Limit

CHART_SHUFFLES = range(5)
"""The random orders the chart shows: the experiment's first five."""

RUN_NODES = Limit(
    "the nodes of one run of the ordering experiment",
    100_000,
    "the server searches for the page; tic-tac-toe's worst order here takes 42,094",
    liftable=False,
)
"""The budget of one run's search (the page cannot lift it)."""

ORDERS = tuple(named_orders(CHART_SHUFFLES))
"""The chart's orders, by name, in the order their bars are drawn."""


def chart_orders() -> dict[str, Any]:
    """The chart's orders: each one's name and squares, in the order to run them."""
    return {"orders": [{"name": name, "order": list(order)} for name, order in ORDERS]}


def chart_run(index: Any) -> dict[str, Any]:
    """Run `index` of the chart (from 0): its name, order, value for X, leaves and nodes.
    ValueError for an index that names no run."""
    if type(index) is not int or not 0 <= index < len(ORDERS):
        raise ValueError(f"the chart's runs are numbered 0 to {len(ORDERS) - 1}")
    return _run(index)


@cache
def _run(index: int) -> dict[str, Any]:
    name, order = ORDERS[index]
    return asdict(ordering_run(name, order, RUN_NODES)) | {"order": list(order)}
