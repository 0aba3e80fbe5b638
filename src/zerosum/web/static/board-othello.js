// The Play page's Othello board: the green board in SVG, drawn as the game writes its squares
// (a1 at the top left, row 1 at the top), the discs, a dot on each square the person may play,
// the last disc placed and the engine's choice marked, the discs counted below, and a Pass
// button when passing is the only move. A click sends the server's own text of the move.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 100; // user units per square
  const MARGIN = 34; // room for the letters above and the numbers on the left
  const FILES = "abcdefghijklmnopqrstuvwxyz";
  const COLOURS = {
    board: "#1d7a46",
    lines: "#0e3f22",
    margin: "#14532f",
    label: "#d8e8dc",
    B: "#151515",
    W: "#f6f6f2",
    target: "rgba(0, 0, 0, 0.32)",
    last: "#e0322a",
    hint: "#ffc531",
  };

  function element(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  function draw(container, board, moves, options) {
    options = options || {};
    const size = board.size || 8;
    const cells = board.cells || [];
    const interactive = options.interactive !== false && typeof options.onMove === "function";
    const side = MARGIN + size * CELL;
    const byCell = new Map(); // cell -> the legal move that plays it
    let pass = null;
    for (const move of moves || []) {
      const target = move.place || {};
      if (target.pass) pass = move;
      else if (Number.isInteger(target.cell)) byCell.set(target.cell, move);
    }
    const centre = (cell) => [MARGIN + (cell % size) * CELL + CELL / 2, MARGIN + Math.floor(cell / size) * CELL + CELL / 2];

    const svg = element("svg", { viewBox: `0 0 ${side} ${side}`, class: "zerosum-board othello-board", role: "img", "aria-label": "Othello board" });
    Object.assign(svg.style, { display: "block", width: "100%", maxWidth: "560px", userSelect: "none" });
    element("rect", { x: 0, y: 0, width: side, height: side, fill: COLOURS.margin }, svg);
    element("rect", { x: MARGIN, y: MARGIN, width: size * CELL, height: size * CELL, fill: COLOURS.board }, svg);
    const labels = { "font-size": 22, "font-family": "DejaVu Sans, Verdana, sans-serif", fill: COLOURS.label, "text-anchor": "middle" };
    for (let index = 0; index <= size; index++) {
      const at = MARGIN + index * CELL;
      element("line", { x1: at, y1: MARGIN, x2: at, y2: side, stroke: COLOURS.lines, "stroke-width": 3 }, svg);
      element("line", { x1: MARGIN, y1: at, x2: side, y2: at, stroke: COLOURS.lines, "stroke-width": 3 }, svg);
      if (index < size) {
        element("text", { ...labels, x: at + CELL / 2, y: MARGIN - 9 }, svg).textContent = FILES[index];
        element("text", { ...labels, x: MARGIN / 2, y: at + CELL / 2 + 8 }, svg).textContent = String(index + 1);
      }
    }
    if (size === 8) {
      // The four dots where the lines between the inner and the outer squares cross.
      for (const [row, column] of [[2, 2], [2, 6], [6, 2], [6, 6]]) {
        element("circle", { cx: MARGIN + column * CELL, cy: MARGIN + row * CELL, r: 7, fill: COLOURS.lines }, svg);
      }
    }

    let black = 0;
    let white = 0;
    cells.forEach((colour, cell) => {
      if (colour !== "B" && colour !== "W") return;
      if (colour === "B") black += 1;
      else white += 1;
      const [cx, cy] = centre(cell);
      element("circle", {
        cx, cy, r: CELL * 0.41, fill: COLOURS[colour], stroke: "#000", "stroke-width": 2,
        class: "disc", "data-cell": cell, "data-colour": colour,
      }, svg);
    });
    if (Number.isInteger(board.last)) {
      const [cx, cy] = centre(board.last);
      element("circle", { cx, cy, r: CELL * 0.09, fill: COLOURS.last, class: "last", "data-cell": board.last }, svg);
    }
    if (interactive) {
      for (const cell of byCell.keys()) {
        const [cx, cy] = centre(cell);
        element("circle", { cx, cy, r: CELL * 0.13, fill: COLOURS.target, class: "target", "data-cell": cell }, svg);
      }
    }
    const hint = options.hint || null;
    if (hint && Number.isInteger(hint.cell)) {
      const [cx, cy] = centre(hint.cell);
      element("circle", {
        cx, cy, r: CELL * 0.4, fill: "none", stroke: COLOURS.hint, "stroke-width": 7, "stroke-dasharray": "14 8",
        class: "hint", "data-cell": hint.cell, "pointer-events": "none",
      }, svg);
    }

    let sent = false; // one move per drawing: the next position comes from the server
    function play(move) {
      if (sent) return;
      sent = true;
      options.onMove(move.move);
    }
    if (interactive && byCell.size > 0) {
      svg.style.cursor = "pointer";
      svg.addEventListener("click", (event) => {
        const box = svg.getBoundingClientRect();
        const x = ((event.clientX - box.left) / box.width) * side - MARGIN;
        const y = ((event.clientY - box.top) / box.height) * side - MARGIN;
        if (x < 0 || y < 0) return;
        const cell = Math.floor(y / CELL) * size + Math.floor(x / CELL);
        if (x < size * CELL && y < size * CELL && byCell.has(cell)) play(byCell.get(cell));
      });
    }

    const footer = document.createElement("div");
    footer.className = "othello-footer";
    Object.assign(footer.style, { display: "flex", gap: "16px", alignItems: "center", margin: "6px 0" });
    const counts = document.createElement("span");
    counts.className = "counts";
    counts.dataset.black = String(black);
    counts.dataset.white = String(white);
    counts.textContent = `Black (X) ${black} \u2013 White (O) ${white}`;
    footer.appendChild(counts);
    if (pass !== null || (hint && hint.pass)) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pass";
      button.textContent = "Pass";
      button.disabled = !(interactive && pass !== null);
      if (hint && hint.pass) {
        button.classList.add("hint");
        button.style.outline = `3px dashed ${COLOURS.hint}`;
      }
      button.addEventListener("click", () => {
        if (interactive && pass !== null) play(pass);
      });
      footer.appendChild(button);
    }

    container.replaceChildren(svg, footer);
  }

  window.zerosumBoards.othello = { draw };
})();
