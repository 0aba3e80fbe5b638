// The tree page: send the typed tree to /api/tree, then hand its drawing and steps to the
// stepper (the HTML animation's script, /stepper.js), which steps through them.
"use strict";

const byId = (id) => document.getElementById(id);
const TEXTBOOK_TREE = "[[3,12,8],[2,4,6],[14,5,2]]";
// The textbook's dice example: MAX chooses between two rolls, worth 6 and 5.5 on average.
const DICE_TREE = '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]';

// The order the command's --order takes: "", "best", "worst" or the moves typed ("2,0,1").
function order() {
  const kind = byId("order-kind").value;
  return kind === "typed" ? byId("order").value : kind;
}

function show(search) {
  const stage = byId("stage");
  // The drawing is the server's own SVG, built from numbers it has read: no typed text in it.
  stage.innerHTML = search.drawing;
  stage.dataset.value = search.value_text;
  byId("summary").textContent = search.summary;
  byId("leaves").textContent = search.leaves + " of " + search.tree_leaves;
  byId("answer").hidden = false;
  stage.dispatchEvent(new CustomEvent("steps", { detail: search.steps }));
}

async function search(event) {
  if (event) event.preventDefault();
  const question = { tree: byId("tree").value, algorithm: byId("algorithm").value, order: order() };
  await askServer("/api/tree", question, "search", "searching...", (answer) => {
    show(answer);
    document.activeElement.blur();  // the arrow keys now step through the search
  });
}

byId("tree-form").addEventListener("submit", search);
byId("algorithm").addEventListener("change", () => search());
byId("order-kind").addEventListener("change", () => {
  const typed = byId("order-kind").value === "typed";
  byId("order").hidden = !typed;
  if (typed) byId("order").focus(); else search();
});
byId("textbook").addEventListener("click", () => {
  byId("tree").value = TEXTBOOK_TREE;
  search();
});
byId("dice").addEventListener("click", () => {
  byId("tree").value = DICE_TREE;
  byId("algorithm").value = "expectiminimax";
  search();
});
search();  // the tree in the box (the textbook's at first), ready to step through
