// The Play page's Go board: the wooden board in SVG, its lines and star points, the column
// letters and row numbers as the Go Text Protocol writes them (A1 at the bottom left, no I),
// the stones, the last stone marked, the engine's choice ringed, and while MCTS searches its
// visits on the points (shaded, the count written), the point the arrow keys chose framed, the
// areas and the komi below, a Pass button, and the final score once the game is over. A click on a point sends the server's own
// text of the move there.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 100; // user units between two lines
  const MARGIN = 60; // room for the letters and the numbers around the board
  const COLUMNS = "ABCDEFGHJKLMNOPQRST";
  const COLOURS = {
    board: "#dcb35c",
    lines: "#3b2a10",
    label: "#3b2a10",
    B: "#161616",
    W: "#f7f7f2",
    last: "#e0322a",
    hint: "#1565c0",
    visits: "21, 101, 192", // the hint's colour, as r, g, b for a shade of it
  };

  function element(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  // A count of visits in at most four characters: 950, 9.5k, 95k, 1.2M.
  function short(count) {
    if (count < 1000) return String(count);
    if (count < 10000) return `${(count / 1000).toFixed(1)}k`;
    if (count < 1000000) return `${Math.round(count / 1000)}k`;
    return `${(count / 1000000).toFixed(1)}M`;
  }

  function draw(container, board, moves, options) {
    options = options || {};
    const size = board.size;
    const cells = board.cells || [];
    const interactive = options.interactive !== false && typeof options.onMove === "function";
    const side = 2 * MARGIN + size * CELL;
    const byPoint = new Map(); // point -> the legal move that plays it
    let pass = null;
    for (const move of moves || []) {
      const target = move.place || {};
      if (target.pass) pass = move;
      else if (Number.isInteger(target.point)) byPoint.set(target.point, move);
    }
    // Point `size * row + column`, row 0 at the bottom: where its lines cross.
    const centre = (point) => [
      MARGIN + (point % size) * CELL + CELL / 2,
      MARGIN + (size - 1 - Math.floor(point / size)) * CELL + CELL / 2,
    ];

    const svg = element("svg", { viewBox: `0 0 ${side} ${side}`, class: "zerosum-board go-board", role: "img", "aria-label": `Go board, ${size}x${size}` });
    Object.assign(svg.style, { display: "block", width: "100%", maxWidth: "560px", userSelect: "none" });
    element("rect", { x: 0, y: 0, width: side, height: side, fill: COLOURS.board }, svg);
    const first = MARGIN + CELL / 2;
    const last = side - MARGIN - CELL / 2;
    const labels = { "font-size": 30, "font-family": "DejaVu Sans, Verdana, sans-serif", fill: COLOURS.label, "text-anchor": "middle" };
    for (let index = 0; index < size; index++) {
      const at = first + index * CELL;
      element("line", { x1: at, y1: first, x2: at, y2: last, stroke: COLOURS.lines, "stroke-width": 3 }, svg);
      element("line", { x1: first, y1: at, x2: last, y2: at, stroke: COLOURS.lines, "stroke-width": 3 }, svg);
      for (const y of [MARGIN / 2 + 10, side - MARGIN / 2 + 10]) {
        element("text", { ...labels, x: at, y: y }, svg).textContent = COLUMNS[index];
      }
      for (const x of [MARGIN / 2, side - MARGIN / 2]) {
        element("text", { ...labels, x: x, y: at + 10 }, svg).textContent = String(size - index);
      }
    }
    for (const star of board.stars || []) {
      const [cx, cy] = centre(star);
      element("circle", { cx, cy, r: 9, fill: COLOURS.lines, class: "star", "data-point": star }, svg);
    }

    // MCTS's visits so far: each point shaded by its share of the most visited, its count on it.
    let passVisits = null;
    const visits = (options.visits || []).filter((entry) => entry.place && entry.visits > 0);
    const most = Math.max(1, ...visits.map((entry) => entry.visits));
    for (const entry of visits) {
      if (entry.place.pass) {
        passVisits = entry.visits;
        continue;
      }
      const point = entry.place.point;
      if (!Number.isInteger(point) || cells[point]) continue;
      const [cx, cy] = centre(point);
      const shade = 0.08 + 0.62 * (entry.visits / most);
      const mark = element("g", { class: "visits", "data-point": point, "data-visits": entry.visits, "pointer-events": "none" }, svg);
      element("circle", { cx, cy, r: CELL * 0.38, fill: `rgba(${COLOURS.visits}, ${shade.toFixed(3)})` }, mark);
      element("text", { ...labels, x: cx, y: cy + 10, "font-size": 28, fill: shade > 0.45 ? "#fff" : "#0b2545" }, mark).textContent = short(entry.visits);
    }

    let black = 0;
    let white = 0;
    cells.forEach((colour, point) => {
      if (colour !== "B" && colour !== "W") return;
      if (colour === "B") black += 1;
      else white += 1;
      const [cx, cy] = centre(point);
      element("circle", {
        cx, cy, r: CELL * 0.47, fill: COLOURS[colour], stroke: "#000", "stroke-width": 2,
        class: "stone", "data-point": point, "data-colour": colour,
      }, svg);
    });
    if (Number.isInteger(board.last)) {
      const [cx, cy] = centre(board.last);
      const ring = cells[board.last] === "B" ? "#f7f7f2" : COLOURS.last;
      element("circle", { cx, cy, r: CELL * 0.2, fill: "none", stroke: ring, "stroke-width": 6, class: "last", "data-point": board.last }, svg);
    }
    const hint = options.hint || null;
    if (hint && Number.isInteger(hint.point)) {
      const [cx, cy] = centre(hint.point);
      element("circle", {
        cx, cy, r: CELL * 0.46, fill: "none", stroke: COLOURS.hint, "stroke-width": 7, "stroke-dasharray": "14 8",
        class: "hint", "data-point": hint.point, "pointer-events": "none",
      }, svg);
    }
    const cursor = options.cursor || null;
    if (cursor && Number.isInteger(cursor.point)) {
      const [cx, cy] = centre(cursor.point);
      element("rect", {
        x: cx - CELL / 2 + 4, y: cy - CELL / 2 + 4, width: CELL - 8, height: CELL - 8, fill: "none",
        stroke: COLOURS.hint, "stroke-width": 5, class: "cursor", "data-point": cursor.point, "pointer-events": "none",
      }, svg);
    }
    if (interactive) {
      // A click area on each legal point; the stone to be played shows under the pointer.
      const ghost = board.to_move === 1 ? "rgba(247, 247, 242, 0.6)" : "rgba(22, 22, 22, 0.45)";
      for (const point of byPoint.keys()) {
        const [cx, cy] = centre(point);
        const area = element("circle", { cx, cy, r: CELL * 0.47, fill: "transparent", class: "target", "data-point": point }, svg);
        area.addEventListener("mouseenter", () => area.setAttribute("fill", ghost));
        area.addEventListener("mouseleave", () => area.setAttribute("fill", "transparent"));
      }
    }

    let sent = false; // one move per drawing: the next position comes from the server
    function play(move) {
      if (sent) return;
      sent = true;
      options.onMove(move.move);
    }
    if (interactive && byPoint.size > 0) {
      svg.style.cursor = "pointer";
      svg.addEventListener("click", (event) => {
        const box = svg.getBoundingClientRect();
        const x = ((event.clientX - box.left) / box.width) * side - MARGIN;
        const y = ((event.clientY - box.top) / box.height) * side - MARGIN;
        if (x < 0 || y < 0 || x >= size * CELL || y >= size * CELL) return;
        const point = (size - 1 - Math.floor(y / CELL)) * size + Math.floor(x / CELL);
        if (byPoint.has(point)) play(byPoint.get(point));
      });
    }

    const footer = document.createElement("div");
    footer.className = "go-footer";
    Object.assign(footer.style, { display: "flex", gap: "16px", alignItems: "center", flexWrap: "wrap", margin: "6px 0" });
    const [blackArea, whiteArea] = board.area || [0, 0];
    const counts = document.createElement("span");
    counts.className = "counts";
    counts.dataset.black = String(black);
    counts.dataset.white = String(white);
    counts.textContent = `area: Black (X) ${blackArea}, White (O) ${whiteArea}; komi ${board.komi}`;
    footer.appendChild(counts);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pass";
    button.textContent = passVisits === null ? "Pass" : `Pass (${short(passVisits)})`;
    button.disabled = !(interactive && pass !== null);
    if (hint && hint.pass) {
      button.classList.add("hint");
      button.style.outline = `3px dashed ${COLOURS.hint}`;
    }
    if (cursor && cursor.pass) button.classList.add("cursor");
    button.addEventListener("click", () => {
      if (interactive && pass !== null) play(pass);
    });
    footer.appendChild(button);
    if (board.passed) footer.appendChild(Object.assign(document.createElement("span"), { className: "passed", textContent: "the last move was a pass" }));
    if (board.score) {
      const score = document.createElement("strong");
      score.className = "score";
      score.textContent = `final score ${board.score}`;
      footer.appendChild(score);
    }

    container.replaceChildren(svg, footer);
  }

  window.zerosumBoards.go = { draw };
})();
