"""A searched tree as one self-contained HTML page that replays the search step by step.

The page holds the SVG drawing of `zerosum.show.svg`, the search's steps as JSON and a small
script, and fetches nothing. At the start every node is faint; each step lights the node it
happened at: a window appears when a node is entered, a score when a leaf is reached or a node
returns, and at a cut-off the branches the search will never look at go dark. A chance node
(expectiminimax) shows its expectation so far, in italics, rising as each outcome is valued,
until it returns. Under the tree:
the score MAX has secured at the root so far, the value once the search is over, and what the
step did. Previous / next / play buttons, or the keyboard: → and ← step, space plays and
pauses, Home and End jump to the first and last frame.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF
from zerosum.show.searched import SearchedNode, SearchedTree, Step, format_score
from zerosum.show.svg import LEGEND_TEXT, svg

PAGE_STYLE = """
body { font-family: 'DejaVu Sans', Verdana, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 8px; }
"""

STEPPER_STYLE = """
#controls { margin: 8px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 14px; padding: 4px 12px; }
#status { margin: 6px 0; font-size: 15px; }
#status b { display: inline-block; min-width: 2em; }
#caption { min-height: 1.4em; margin: 4px 0 10px; color: #333; }
#stage svg { max-width: 100%; height: auto; }
.anim .node .value, .anim .node .window, .anim .node .more { visibility: hidden; }
.anim .node.entered .window { visibility: visible; }
.anim .node.valued .value, .anim .node.valued .more { visibility: visible; }
.anim .node.pruned .value { visibility: hidden; }
.anim .node:not(.entered):not(.valued):not(.dark) { opacity: 0.3; }
.anim .edge:not(.seen):not(.dark) { opacity: 0.3; }
.anim .node.pruned .shape { stroke-dasharray: none; }
.anim .max.pruned .shape { fill: #dbe8fb; stroke: #1f4e8c; }
.anim .min.pruned .shape { fill: #fde2cf; stroke: #9a4a12; }
.anim .leaf.pruned .shape { fill: #fff; stroke: #333; }
.anim .chance.pruned .shape { fill: #e3f2df; stroke: #2e6b30; }
.anim .edge.pruned line { stroke: #888; stroke-dasharray: none; }
.anim .edge line.cross { visibility: hidden; }
.anim .node.dark .shape { fill: #3b3b3b; stroke: #1b1b1b; }
.anim .edge.dark line { stroke: #3b3b3b; stroke-dasharray: 4 3; }
.anim .edge.dark line.cross { visibility: visible; stroke: #c0392b; stroke-dasharray: none; }
.anim:not(.done) .principal .shape { stroke-width: 1.5; }
.anim:not(.done) .max.principal .shape { stroke: #1f4e8c; }
.anim:not(.done) .min.principal .shape { stroke: #9a4a12; }
.anim:not(.done) .leaf.principal .shape { stroke: #333; }
.anim:not(.done) .edge.principal line { stroke: #888; stroke-width: 1.5; }
.anim .node.current .shape { stroke: #e67e00; stroke-width: 4; }
.anim .node.partial .value { visibility: visible; font-style: italic; fill: #2e6b30; }
"""
"""How the stepper draws a search: the controls, and the marks that light the tree's nodes."""

STEPPER_SCRIPT = """
(function () {
  "use strict";
  const stage = document.getElementById("stage");
  const el = (id) => document.getElementById(id);
  const marks = ["entered", "valued", "dark", "current", "seen", "partial"];
  let steps = [];
  let frame = 0;
  let timer = null;

  function mark(index, name) {
    const node = el("n" + index);
    const edge = el("e" + index);
    if (node) node.classList.add(name);
    if (edge) edge.classList.add(name === "dark" ? "dark" : "seen");
  }

  function render() {
    for (const g of stage.querySelectorAll("g.node, g.edge")) g.classList.remove(...marks);
    // A chance node's label: its value once it returns, its expectation so far until then.
    for (const label of stage.querySelectorAll("g.chance .value")) {
      if (label.dataset.value === undefined) label.dataset.value = label.textContent;
      label.textContent = label.dataset.value;
    }
    const expected = {};
    for (let i = 0; i < frame; i++) {
      const step = steps[i];
      const seen = { enter: "entered", cutoff: "seen" }[step.kind] || "valued";
      mark(step.node, seen);
      for (const index of step.dark) mark(index, "dark");
      if (step.expectation) expected[step.expectation.node] = step.expectation.value_text;
    }
    for (const [index, value] of Object.entries(expected)) {
      const node = el("n" + index);
      const label = node && node.querySelector(".value");
      if (!label || node.classList.contains("valued")) continue;
      label.textContent = value;
      node.classList.add("partial");
    }
    const last = frame > 0 ? steps[frame - 1] : null;
    if (last) {
      const current = el("n" + last.node);
      current.classList.add("current");
      current.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    const done = frame === steps.length;
    stage.classList.toggle("done", done);
    el("secured").textContent = last && last.secured !== null ? last.secured : "nothing yet";
    el("value").textContent = done ? stage.dataset.value : "?";
    el("caption").textContent = last ? last.text : "Before the search: press → or Play.";
    el("counter").textContent = "step " + frame + " of " + steps.length;
    el("previous").disabled = frame === 0;
    el("next").disabled = done;
  }

  function go(to) {
    frame = Math.max(0, Math.min(steps.length, to));
    render();
  }

  function play() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    } else {
      if (frame === steps.length) frame = 0;
      timer = setInterval(function () {
        if (frame >= steps.length) play(); else go(frame + 1);
      }, 800);
    }
    el("play").textContent = timer === null ? "Play" : "Pause";
  }

  el("previous").addEventListener("click", () => go(frame - 1));
  el("next").addEventListener("click", () => go(frame + 1));
  el("play").addEventListener("click", play);
  document.addEventListener("keydown", function (event) {
    if (event.target.closest("input, textarea, select")) return;  // typing, not stepping
    const keys = {
      ArrowRight: () => go(frame + 1), ArrowLeft: () => go(frame - 1),
      Home: () => go(0), End: () => go(steps.length), " ": play,
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  // A new search to step through: its steps, once its drawing is in the stage.
  function load(newSteps) {
    if (timer !== null) play();  // pause
    steps = newSteps;
    frame = 0;
    render();
  }

  stage.addEventListener("steps", (event) => load(event.detail));
  const inline = el("steps");
  load(inline ? JSON.parse(inline.textContent) : []);
})();
"""
"""The stepper's script: → and ← step, space plays and pauses, Home and End jump. It steps
through the JSON steps of the element `#steps` when the page has one; a page that fetches its
search sends the steps as the detail of a `steps` event on `#stage`."""


@dataclass(frozen=True)
class SteppedSearch:
    """What the stepper shows of a search: the drawing, every step as JSON, the value."""

    drawing: str
    """The SVG drawing of the searched tree, without tooltips (they would tell the scores
    before the search reaches them), scaled up when small."""
    steps: list[dict[str, Any]]
    """Each step: its kind, its node's index, the nodes it darkens, what MAX has secured at the
    root so far, under a chance node the expectation so far (`expectation`: the chance node and
    its `value_text`), and a sentence saying what happened (`describe_step`)."""
    value: str
    """The value at the root, for MAX, as the page writes it."""
    summary: str
    """One line: the value and what the search did and skipped (`SearchedTree.summary`)."""


def stepped_search(tree: SearchedTree) -> SteppedSearch:
    """The stepper's view of the search of `tree` (scores for MAX)."""
    names = _names(tree)
    steps = [_step_json(tree, step, names) for step in tree.steps]
    drawing = svg(tree, caption=False, titles=False)
    size = re.search(r'width="([0-9.]+)" height="([0-9.]+)"', drawing)
    if size is None:
        raise ValueError("the drawing of the search has no width and height")
    width, height = float(size.group(1)), float(size.group(2))
    # A small tree is drawn larger, up to twice its size, to fill about 900 by 640 pixels.
    scale = max(1, min(2, 900 / width, 640 / height))
    drawing = drawing.replace("<svg ", f'<svg style="width: {scale * width:.0f}px" ', 1)
    return SteppedSearch(drawing, steps, format_score(tree.result.value), tree.summary())


def html(tree: SearchedTree, title: str = "How the search went") -> str:
    """A standalone HTML page animating the search of `tree` (scores for MAX)."""
    stepped = stepped_search(tree)
    data = json.dumps(stepped.steps, ensure_ascii=False).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>{PAGE_STYLE}{STEPPER_STYLE}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<p>{escape(stepped.summary)}</p>
<div id="controls">
<button id="previous" type="button">Previous</button>
<button id="play" type="button">Play</button>
<button id="next" type="button">Next</button>
<span id="counter"></span>
<span>(keys: ← → step, space plays, Home / End)</span>
</div>
<div id="status">MAX has secured: <b id="secured"></b> &nbsp;
value at the root: <b id="value"></b></div>
<div id="caption"></div>
<div id="stage" class="anim" data-value="{escape(stepped.value)}">
{stepped.drawing}</div>
<p>{escape(LEGEND_TEXT)}</p>
<script type="application/json" id="steps">{data}</script>
<script>{STEPPER_SCRIPT}</script>
</body>
</html>
"""


def _step_json(tree: SearchedTree, step: Step, names: list[str]) -> dict:
    expected = None
    if step.expected is not None:  # the expectation of the chance node above, so far
        expected = {
            "node": tree.nodes[step.node].parent,
            "value_text": format_score(step.expected),
        }
    return {
        "kind": step.kind,
        "node": step.node,
        "dark": list(step.dark),
        "secured": None if step.secured is None else format_score(step.secured),
        "expectation": expected,
        "text": describe_step(tree, step, names[step.node]),
    }


def describe_step(tree: SearchedTree, step: Step, name: str | None = None) -> str:
    """What one step of the search did, in a sentence (`name`: the node's, if known)."""
    node = tree.nodes[step.node]
    if name is None:
        name = _name(tree, node)
    role = "Chance" if node.chance else "MAX" if node.maximizing else "MIN"
    value = format_score(step.value)
    share = ""
    if step.expected is not None and node.parent is not None:  # an outcome of a chance node
        share = (
            f" With probability {format_score(node.probability)}, it brings the expectation"
            f" of chance node {_name(tree, tree.nodes[node.parent])} to"
            f" {format_score(step.expected)}."
        )
    again = ""
    if step.again:
        earlier = format_score(node.earlier[-1] if node.earlier else None)
        again = f" again (a first, cheaper search returned {earlier})"
    if step.kind == ENTER:
        window = ""
        if step.alpha is not None:
            window = f" with α={format_score(step.alpha)}, β={format_score(step.beta)}"
        if node.chance:
            chances = " + ".join(
                f"{format_score(tree.nodes[i].probability)}×?" for i in node.children
            )
            return (
                f"Chance node {name} is entered: nobody chooses, its value is the expectation"
                f" {chances or 'of its outcomes'}, each outcome searched in turn."
            )
        return f"{role} node {name} is entered{again}{window}."
    if step.kind == LEAF:
        return f"Leaf {name} is examined{again}: {value}.{share}"
    if step.kind == HIT:
        return f"Node {name} is found in the table{again}: {value}."
    if step.kind == CUTOFF:
        bound = step.beta if node.maximizing else step.alpha  # the score reached it
        relation = "≥ β" if node.maximizing else "≤ α"
        darkened = len([i for i in step.dark if tree.nodes[i].parent == node.index])
        branches = "1 branch goes" if darkened == 1 else f"{darkened} branches go"
        return (
            f"{role} node {name} stops: {value} {relation}={format_score(bound)},"
            f" so {branches} dark without being looked at."
        )
    if step.kind == EXIT:
        if node.chance:
            terms = " + ".join(
                f"{format_score(tree.nodes[i].probability)}×{format_score(tree.nodes[i].value)}"
                for i in node.children
            )
            return f"Chance node {name} returns its expectation {terms} = {value}.{share}"
        return f"{role} node {name} returns {value}.{share}"
    raise ValueError(f"unknown step kind {step.kind!r}")


def _name(tree: SearchedTree, node: SearchedNode) -> str:
    """A node named by the moves from the root: `at the root`, or `after 1 0`."""
    moves = []
    while node.parent is not None:
        moves.append(node.move_text)
        node = tree.nodes[node.parent]
    return "at the root" if not moves else "after " + " ".join(reversed(moves))


def _names(tree: SearchedTree) -> list[str]:
    """Every node's `_name`, each found from its parent's: linear in what they hold."""
    lines: list[str] = []  # the moves from the root to each node
    for node in tree.nodes:  # a parent comes before its children
        if node.parent is None:
            lines.append("")
        elif tree.nodes[node.parent].parent is None:
            lines.append(node.move_text)
        else:
            lines.append(f"{lines[node.parent]} {node.move_text}")
    return [
        "at the root" if node.parent is None else "after " + line
        for node, line in zip(tree.nodes, lines, strict=True)
    ]
