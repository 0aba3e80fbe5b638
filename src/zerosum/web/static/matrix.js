// The matrix page: send the typed matrix to /api/matrix and show the answer (or the message).
"use strict";

const byId = (id) => document.getElementById(id);
const rowName = (i) => "R" + (i + 1);
const columnName = (j) => "C" + (j + 1);

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

// The strategies played with positive probability: "R1 3/5, R2 2/5".
function mixture(name, probabilities, floats) {
  return probabilities
    .map((p, k) => [name(k), p, floats[k]])
    .filter(([, , weight]) => weight > 0)
    .map(([label, p]) => label + " " + p)
    .join(", ");
}

const SHOWN = 20;  // the most saddle points a line names, as the command's

// The first SHOWN of `items`, named, joined by commas, and how many there are in all.
function first(items, name) {
  const named = items.slice(0, SHOWN).map(name).join(", ");
  if (items.length <= SHOWN) return named;
  return named + ", ... (" + items.length.toLocaleString("en") + " in all)";
}

function showPayoffs(answer) {
  const table = byId("payoffs");
  table.replaceChildren();
  const [rows, columns] = answer.shape;
  byId("table-size").textContent = answer.cells === null
    ? rows + " rows x " + columns + " columns: a table is drawn up to 50 rows and 20 columns"
    : "";
  if (answer.cells === null) return;
  const saddles = new Set(answer.saddle_points.map(([i, j]) => i + "," + j));
  const head = table.insertRow();
  head.append(element("th", ""));
  answer.cells[0].forEach((_, j) => head.append(element("th", columnName(j))));
  head.append(element("th", "row min"));
  answer.cells.forEach((row, i) => {
    const line = table.insertRow();
    line.append(element("th", rowName(i)));
    row.forEach((cell, j) => line.append(element("td", cell, saddles.has(i + "," + j) ? "saddle" : "")));
    line.append(element("td", answer.row_minima[i], "margin"));
  });
  const foot = table.insertRow();
  foot.append(element("th", "col max"));
  answer.column_maxima.forEach((high) => foot.append(element("td", high, "margin")));
}

function showDominance(dominance) {
  const list = byId("dominance");
  list.replaceChildren();
  for (const step of dominance.eliminations) {
    const name = step.player === "row" ? rowName : columnName;
    const why = step.player === "row" ? "pays the row player less than " : "concedes more than ";
    list.append(element("li", name(step.eliminated) + " " + why + name(step.dominated_by) + " against every remaining strategy"));
  }
  if (dominance.eliminations.length === 0) list.append(element("li", "no strategy is strictly dominated"));
  byId("dominance-left").textContent =
    "left: rows " + dominance.rows.map(rowName).join(", ") + "; columns " + dominance.columns.map(columnName).join(", ");
}

function show(answer) {
  const exact = answer.exact;
  showPayoffs(answer);
  byId("lower-value").textContent = String(answer.lower_value);
  byId("upper-value").textContent = String(answer.upper_value);
  byId("saddle-points").textContent =
    first(answer.saddle_points, ([i, j]) => "(" + rowName(i) + ", " + columnName(j) + ")") || "none";
  const value = exact ? answer.value_exact : String(answer.value);
  byId("value").textContent = value;
  byId("row-strategy").textContent = mixture(rowName, exact ? answer.row_strategy_exact : answer.row_strategy, answer.row_strategy);
  byId("column-strategy").textContent = mixture(columnName, exact ? answer.column_strategy_exact : answer.column_strategy, answer.column_strategy);
  byId("precision").textContent = exact
    ? "Exact: the strategies and the value are fractions, proved optimal."
    : "In floating point: the matrix is too large to solve exactly in the time allowed, or has cells that are not exact.";
  showDominance(answer.dominance);
  // The picture is the server's SVG, made of numbers it computed and names it wrote (R1, C1):
  // no text typed on the page is in it.
  byId("picture").innerHTML = answer.picture || "";
  byId("picture-note").textContent = answer.picture_note;
  byId("answer").hidden = false;
}

async function solve(event) {
  event.preventDefault();
  await askServer("/api/matrix", { matrix: byId("matrix").value }, "solve", "solving...", show);
}

byId("matrix-form").addEventListener("submit", solve);
