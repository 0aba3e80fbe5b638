"""Pictures of a search: a text tree, an SVG drawing, a step-by-step HTML animation, charts.

The caller runs a search with a `zerosum.search.Trace`; `from_trace(game, state, trace,
result)` rebuilds what it looked at (`engine_picture`: the engine's last iteration), and
`text`, `svg` and `html` each turn that into one self-contained string. `charts` (which needs
the optional `matplotlib`, `pip install 'zerosum[charts]'`) draws the textbook's experiments.
"""

from zerosum.show.searched import SearchedNode, SearchedTree, Step, engine_picture, from_trace

__all__ = ["SearchedNode", "SearchedTree", "Step", "engine_picture", "from_trace"]
