// The tree page's chart: the move-ordering experiment on tic-tac-toe, one order after
// another (each a request to /api/ordering, answered when its search is over), each run a bar
// of an SVG chart drawn here, the leaves alpha-beta reached written at its end.
"use strict";

(function () {
  const byId = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const NAME = 150;  // room for the orders' names, left of the bars
  const LENGTH = 420;  // the longest bar
  const ROW = 26;

  function made(tag, attributes, text) {
    const element = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // The chart of `orders`, the bars of the `runs` finished so far (scaled to the longest).
  function draw(orders, runs) {
    const most = Math.max(1, ...runs.map((run) => run.leaves));
    const chart = made("svg", {
      width: NAME + LENGTH + 80, height: ROW * orders.length + 10, class: "bars",
      role: "img", "aria-label": "finished games alpha-beta reaches, by move order",
    });
    orders.forEach((order, i) => {
      const y = 5 + ROW * i;
      const run = runs[i];
      const row = made("g", { class: run ? "bar done" : "bar waiting", "data-name": order.name });
      row.append(made("text", { x: NAME - 8, y: y + 16, "text-anchor": "end", class: "name" }, order.name));
      if (run) {
        const width = Math.max(1, (LENGTH * run.leaves) / most);
        row.append(made("rect", { x: NAME, y: y + 3, width: width.toFixed(1), height: ROW - 8 }));
        row.append(made("text", { x: NAME + width + 6, y: y + 16, class: "count" }, run.leaves.toLocaleString("en")));
      } else {
        row.append(made("text", { x: NAME + 6, y: y + 16, class: "pending" }, "searching..."));
      }
      chart.append(row);
    });
    byId("ordering-chart").replaceChildren(chart);
  }

  async function answer(response) {
    const body = await response.json();
    if (body.error !== undefined) throw new Error(body.error);
    return body;
  }

  async function run() {
    const button = byId("ordering-run");
    button.disabled = true;
    byId("ordering-error").textContent = "";
    const runs = [];
    try {
      const { orders } = await answer(await fetch("/api/ordering"));
      draw(orders, runs);
      for (let i = 0; i < orders.length; i++) {  // one search at a time
        byId("ordering-waiting").textContent = "searching: " + orders[i].name + "...";
        runs.push(await answer(await fetch("/api/ordering", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ run: i }),
        })));
        draw(orders, runs);
      }
      byId("ordering-waiting").textContent = "done: a draw in every order";
    } catch (failure) {
      byId("ordering-waiting").textContent = "";
      byId("ordering-error").textContent = failure instanceof TypeError
        ? "no answer from the server: is zerosum serve still running?"
        : failure.message;
    } finally {
      button.disabled = false;
    }
  }

  byId("ordering-run").addEventListener("click", run);
})();
