"""Pictures of a search: a text tree, an SVG drawing, a step-by-step HTML animation, charts.

`searched_tree(game, state)` runs an exact search with a trace and returns what it looked at
(`engine_tree(game, state, depth)`: the engine's last iteration); `text`, `svg` and `html` each
turn that into one self-contained string. `charts` (which needs the
optional `matplotlib`, `pip install 'zerosum[charts]'`) draws the textbook's experiments as PNG.
"""

from zerosum.show.searched import SearchedNode, SearchedTree, Step, engine_tree, searched_tree

__all__ = ["SearchedNode", "SearchedTree", "Step", "engine_tree", "searched_tree"]
