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

function showDominance(dominance, listId = "dominance", leftId = "dominance-left", note = "") {
  const list = byId(listId);
  list.replaceChildren();
  if (!dominance) {  // past the server's limit: the reason instead of the steps
    list.append(element("li", note));
    byId(leftId).textContent = "";
    return;
  }
  for (const step of dominance.eliminations) {
    const name = step.player === "row" ? rowName : columnName;
    // In a bimatrix game the column player is judged by its own payoffs, not by what it concedes.
    const columnWhy = listId === "dominance" ? "concedes more than " : "pays the column player less than ";
    const why = step.player === "row" ? "pays the row player less than " : columnWhy;
    list.append(element("li", name(step.eliminated) + " " + why + name(step.dominated_by) + " against every remaining strategy"));
  }
  if (dominance.eliminations.length === 0) list.append(element("li", "no strategy is strictly dominated"));
  byId(leftId).textContent =
    "left: rows " + dominance.rows.map(rowName).join(", ") + "; columns " + dominance.columns.map(columnName).join(", ");
}

// A bimatrix game: the pairs, the pure equilibria, every extreme equilibrium with the
// Lemke-Howson starts that reach it, the best-response picture (2 x 2) and dominance.
function showBimatrix(answer) {
  const table = byId("pairs");
  table.replaceChildren();
  const [rows, columns] = answer.shape;
  byId("pairs-size").textContent = answer.cells === null
    ? rows + " rows x " + columns + " columns: a table is drawn up to 50 rows and 20 columns"
    : "";
  if (answer.cells !== null) {
    const pure = new Set(answer.pure_equilibria.map(([i, j]) => i + "," + j));
    const head = table.insertRow();
    head.append(element("th", ""));
    answer.cells[0].forEach((_, j) => head.append(element("th", columnName(j))));
    answer.cells.forEach((row, i) => {
      const line = table.insertRow();
      line.append(element("th", rowName(i)));
      row.forEach((cell, j) => line.append(element("td", cell, pure.has(i + "," + j) ? "saddle" : "")));
    });
  }
  byId("pure-equilibria").textContent =
    first(answer.pure_equilibria, ([i, j]) => "(" + rowName(i) + ", " + columnName(j) + ")") || "none";
  byId("bimatrix-value").textContent = answer.zero_sum
    ? answer.value_exact + " (each pair adds up to 0: the value of the row player's matrix)"
    : "not zero-sum";
  const count = answer.equilibria.length;
  byId("degenerate").textContent = answer.degenerate
    ? "The game is degenerate (a strategy has more pure best responses than it plays strategies): its equilibria may form continua, and these are its " + count + " extreme equilibria, every equilibrium a mix of extreme ones of one set."
    : "The game is nondegenerate: these are all its " + count + " equilibria (vertex enumeration).";
  const label = (k) => (k < rows ? rowName(k) : columnName(k - rows));
  const list = byId("equilibria");
  list.replaceChildren();
  const head = list.insertRow();
  for (const title of ["", "row player", "column player", "payoffs", "Lemke-Howson from"]) head.append(element("th", title));
  answer.equilibria.forEach((e, k) => {
    const line = list.insertRow();
    line.append(element("th", String(k + 1)));
    line.append(element("td", mixture(rowName, e.row_strategy_exact, e.row_strategy)));
    line.append(element("td", mixture(columnName, e.column_strategy_exact, e.column_strategy)));
    line.append(element("td", e.row_payoff_exact + " and " + e.column_payoff_exact));
    line.append(element("td", e.labels.map(label).join(", ") || "-"));
  });
  // The picture is the server's SVG, made of numbers it computed and names it wrote.
  byId("best-responses").innerHTML = answer.picture || "";
  byId("best-responses-note").textContent = answer.picture_note;
  showDominance(answer.dominance, "bimatrix-dominance", "bimatrix-dominance-left");
  byId("zero-sum-answer").hidden = true;
  byId("bimatrix-answer").hidden = false;
  byId("answer").hidden = false;
}

function show(answer) {
  if (answer.bimatrix) {
    showBimatrix(answer);
    return;
  }
  byId("bimatrix-answer").hidden = true;
  byId("zero-sum-answer").hidden = false;
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
  showDominance(answer.dominance, "dominance", "dominance-left", answer.dominance_note);
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
