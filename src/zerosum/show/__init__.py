"""Pictures of a search: a text tree, an SVG drawing, a step-by-step HTML animation, charts.

`searched_tree(game, state)` runs a search with a trace and returns what it looked at; `text`,
`svg` and `html` each turn that into one self-contained string. `charts` (which needs the
optional `matplotlib`, `pip install 'zerosum[charts]'`) draws the seeds' experiments as PNG.
"""

from zerosum.show.searched import SearchedNode, SearchedTree, Step, searched_tree

__all__ = ["SearchedNode", "SearchedTree", "Step", "searched_tree"]
