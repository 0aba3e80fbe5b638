"""The textbook's experiments as functions that return their numbers.

Each function computes the numbers once; the tests assert them and the charts
(`zerosum.show.charts`) draw them, so a chart can never disagree with a test.
"""

from zerosum.experiments.growth import GrowthPoint, growth_experiment, minimal_tree_leaves
from zerosum.experiments.ordering import OrderingRun, ordering_experiment

__all__ = [
    "GrowthPoint",
    "OrderingRun",
    "growth_experiment",
    "minimal_tree_leaves",
    "ordering_experiment",
]
