// The Play page's chess board: the position of a FEN drawn in SVG with the pieces of pieces/
// (drawn for zerosum). A person moves by a click on a piece then on a square, or by dragging
// the piece; the squares the picked piece can reach are marked, a pawn reaching the last rank
// asks which piece it becomes. The move sent is the server's own text for it: a click only
// picks one of the legal moves the server listed, by the squares its place joins.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const SQUARE = 100; // user units per square: the board is 800 x 800
  const FILES = "abcdefgh";
  // The pieces' folder beside this script (the page serves both from /static/).
  const PIECES = document.currentScript
    ? new URL("pieces/", document.currentScript.src).href
    : "/static/pieces/";
  const PROMOTIONS = ["q", "r", "b", "n"];
  const DRAG_PIXELS = 4; // a pointer moving less than this between press and release clicks
  const COLOURS = {
    light: "#efe3c8",
    dark: "#a87d58",
    last: "rgba(232, 196, 52, 0.5)",
    picked: "rgba(64, 128, 208, 0.5)",
    target: "rgba(24, 48, 24, 0.35)",
    hint: "rgba(16, 104, 196, 0.72)",
    check: "#e0322a",
  };
  let drawings = 0; // numbers the check's gradient, unique among the boards of a page

  function element(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Whether a square is light: a1 is dark, h1 light.
  function light(square) {
    return (FILES.indexOf(square[0]) + Number(square[1])) % 2 === 0;
  }

  // The piece on each square of a FEN's first field, as the name of its file ("wK", "bP").
  function placement(fen) {
    const pieces = new Map();
    const ranks = String(fen).split(" ")[0].split("/");
    ranks.forEach((row, index) => {
      let file = 0;
      for (const symbol of row) {
        if (/[1-8]/.test(symbol)) {
          file += Number(symbol);
        } else {
          const colour = symbol === symbol.toUpperCase() ? "w" : "b";
          pieces.set(FILES[file] + (8 - index), colour + symbol.toUpperCase());
          file += 1;
        }
      }
    });
    return pieces;
  }

  function draw(container, board, moves, options) {
    options = options || {};
    const flip = Boolean(board.flip);
    const interactive = options.interactive !== false && typeof options.onMove === "function";
    const pieces = placement(board.fen);
    const number = ++drawings;

    // The legal moves by their square of departure (the text of each is the server's).
    const byFrom = new Map();
    for (const move of moves || []) {
      const target = move.place || {};
      if (!target.from || !target.to) continue;
      if (!byFrom.has(target.from)) byFrom.set(target.from, []);
      byFrom.get(target.from).push(move);
    }

    // Where a square is drawn: its column and row on the screen, White at the bottom unless flipped.
    function place(square) {
      const file = FILES.indexOf(square[0]);
      const rank = Number(square[1]) - 1;
      return [flip ? 7 - file : file, flip ? rank : 7 - rank];
    }
    function corner(square) {
      const [column, row] = place(square);
      return [column * SQUARE, row * SQUARE];
    }
    function centre(square) {
      const [x, y] = corner(square);
      return [x + SQUARE / 2, y + SQUARE / 2];
    }

    const svg = element("svg", {
      viewBox: `0 0 ${8 * SQUARE} ${8 * SQUARE}`,
      class: "zerosum-board chess-board",
      role: "img",
      "aria-label": "chess board",
    });
    Object.assign(svg.style, {
      display: "block",
      width: "100%",
      maxWidth: "560px",
      touchAction: "none",
      userSelect: "none",
    });
    const defs = element("defs", {}, svg);
    const squares = element("g", { class: "squares" }, svg);
    const marks = element("g", { class: "marks", "pointer-events": "none" }, svg);
    const targets = element("g", { class: "targets", "pointer-events": "none" }, svg);
    const men = element("g", { class: "pieces", "pointer-events": "none" }, svg);
    const arrows = element("g", { class: "hints", "pointer-events": "none" }, svg);
    const overlay = element("g", { class: "chooser" }, svg);

    for (let rank = 1; rank <= 8; rank++) {
      for (const file of FILES) {
        const square = file + rank;
        const [x, y] = corner(square);
        element("rect", {
          x, y, width: SQUARE, height: SQUARE,
          fill: light(square) ? COLOURS.light : COLOURS.dark,
          class: "square", "data-square": square,
        }, squares);
      }
    }
    // Coordinates inside the squares of the left column and of the bottom row.
    for (let index = 0; index < 8; index++) {
      const file = FILES[flip ? 7 - index : index];
      const rank = flip ? index + 1 : 8 - index;
      // Each label in the colour of the other squares, on the square it stands on.
      const fileColour = light(file + (flip ? 8 : 1)) ? COLOURS.dark : COLOURS.light;
      const rankColour = light((flip ? "h" : "a") + rank) ? COLOURS.dark : COLOURS.light;
      const labels = { "font-size": 18, "font-family": "DejaVu Sans, Verdana, sans-serif", "pointer-events": "none" };
      element("text", { ...labels, x: index * SQUARE + SQUARE - 6, y: 8 * SQUARE - 6, "text-anchor": "end", fill: fileColour, class: "file" }, squares)
        .textContent = file;
      element("text", { ...labels, x: 5, y: index * SQUARE + 20, fill: rankColour, class: "rank" }, squares)
        .textContent = String(rank);
    }

    for (const square of board.last || []) {
      const [x, y] = corner(square);
      element("rect", { x, y, width: SQUARE, height: SQUARE, fill: COLOURS.last, class: "last", "data-square": square }, marks);
    }
    if (board.check) {
      const id = `zerosum-check-${number}`;
      const glow = element("radialGradient", { id }, defs);
      element("stop", { offset: "0%", "stop-color": COLOURS.check, "stop-opacity": 1 }, glow);
      element("stop", { offset: "45%", "stop-color": COLOURS.check, "stop-opacity": 0.8 }, glow);
      element("stop", { offset: "100%", "stop-color": COLOURS.check, "stop-opacity": 0 }, glow);
      const [x, y] = corner(board.check);
      element("rect", { x, y, width: SQUARE, height: SQUARE, fill: `url(#${id})`, class: "check", "data-square": board.check }, marks);
    }

    const images = new Map(); // square -> the image of its piece
    function show(image, square) {
      const [x, y] = corner(square);
      image.setAttribute("x", x);
      image.setAttribute("y", y);
      image.dataset.square = square;
    }
    for (const [square, piece] of pieces) {
      const image = element("image", {
        href: PIECES + piece + ".svg", width: SQUARE, height: SQUARE,
        class: "piece", "data-piece": piece,
      }, men);
      show(image, square);
      images.set(square, image);
    }

    if (options.hint && options.hint.from && options.hint.to) drawArrow(options.hint);

    // The engine's move: an arrow from the centre of its square to the centre of the other.
    function drawArrow(hint) {
      const [x1, y1] = centre(hint.from);
      const [x2, y2] = centre(hint.to);
      const length = Math.hypot(x2 - x1, y2 - y1) || 1;
      const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
      const head = 34;
      const [bx, by] = [x2 - ux * head, y2 - uy * head];
      const group = element("g", { class: "hint", "data-from": hint.from, "data-to": hint.to, fill: COLOURS.hint }, arrows);
      element("line", {
        x1, y1, x2: bx, y2: by, stroke: COLOURS.hint, "stroke-width": 14, "stroke-linecap": "round",
      }, group);
      const points = [[x2, y2], [bx - uy * 22, by + ux * 22], [bx + uy * 22, by - ux * 22]];
      element("polygon", { points: points.map((p) => p.join(",")).join(" ") }, group);
    }

    // -- moving ------------------------------------------------------------------------------
    let picked = null; // the square of the piece picked, its targets marked
    let drag = null; // the piece held by the pointer
    let chooser = null; // the promotion being chosen: {from, to, image}
    let sent = false; // a move was sent: nothing more until the next position is drawn

    function targetsOf(square) {
      return new Set((byFrom.get(square) || []).map((move) => move.place.to));
    }

    function pick(square) {
      picked = square;
      targets.replaceChildren();
      if (square === null) return;
      const [x, y] = corner(square);
      element("rect", { x, y, width: SQUARE, height: SQUARE, fill: COLOURS.picked, class: "picked", "data-square": square }, targets);
      for (const to of targetsOf(square)) {
        const [cx, cy] = centre(to);
        if (pieces.has(to)) {
          element("circle", { cx, cy, r: 44, fill: "none", stroke: COLOURS.target, "stroke-width": 8, class: "target", "data-square": to }, targets);
        } else {
          element("circle", { cx, cy, r: 15, fill: COLOURS.target, class: "target", "data-square": to }, targets);
        }
      }
    }

    function squareAt(event) {
      const box = svg.getBoundingClientRect();
      const column = Math.floor(((event.clientX - box.left) / box.width) * 8);
      const row = Math.floor(((event.clientY - box.top) / box.height) * 8);
      if (column < 0 || column > 7 || row < 0 || row > 7) return null;
      return FILES[flip ? 7 - column : column] + (flip ? row + 1 : 8 - row);
    }

    function pointAt(event) {
      const box = svg.getBoundingClientRect();
      return [((event.clientX - box.left) / box.width) * 8 * SQUARE, ((event.clientY - box.top) / box.height) * 8 * SQUARE];
    }

    // The move from `from` to `to`: sent at once, or after the promotion is chosen.
    function choose(from, to) {
      const candidates = byFrom.get(from).filter((move) => move.place.to === to);
      if (candidates.length === 1) send(candidates[0]);
      else openChooser(from, to, candidates);
    }

    function send(move) {
      sent = true;
      pick(null);
      overlay.replaceChildren();
      const { from, to, promotion } = move.place;
      const image = images.get(from);
      if (images.has(to) && to !== from) images.get(to).remove();
      if (image) {
        show(image, to);
        if (promotion) image.setAttribute("href", PIECES + image.dataset.piece[0] + promotion.toUpperCase() + ".svg");
      }
      options.onMove(move.move);
    }

    function openChooser(from, to, candidates) {
      chooser = { from, to };
      pick(null);
      const colour = pieces.get(from)[0];
      const [column, row] = place(to);
      const step = row < 4 ? 1 : -1; // towards the middle of the board
      element("rect", { x: 0, y: 0, width: 8 * SQUARE, height: 8 * SQUARE, fill: "rgba(255, 255, 255, 0.55)" }, overlay);
      PROMOTIONS.forEach((promotion, index) => {
        const move = candidates.find((candidate) => candidate.place.promotion === promotion);
        if (!move) return;
        const [x, y] = [column * SQUARE, (row + step * index) * SQUARE];
        const choice = element("g", { class: "promotion", "data-promotion": promotion, cursor: "pointer" }, overlay);
        element("circle", { cx: x + SQUARE / 2, cy: y + SQUARE / 2, r: 47, fill: "#fff", stroke: "#555", "stroke-width": 3 }, choice);
        element("image", { href: PIECES + colour + promotion.toUpperCase() + ".svg", x, y, width: SQUARE, height: SQUARE }, choice);
        choice.addEventListener("pointerdown", (event) => {
          event.stopPropagation();
          event.preventDefault();
          chooser = null;
          send(move);
        });
      });
    }

    function closeChooser() {
      const image = images.get(chooser.from);
      if (image) show(image, chooser.from);
      chooser = null;
      overlay.replaceChildren();
    }

    if (interactive) {
      for (const square of byFrom.keys()) {
        const image = images.get(square);
        if (image) image.style.cursor = "grab";
      }
      svg.addEventListener("pointerdown", (event) => {
        if (sent || event.button > 0) return;
        if (chooser) {
          closeChooser(); // a press beside the four pieces: no promotion after all
          return;
        }
        const square = squareAt(event);
        if (square === null) return;
        if (picked !== null && targetsOf(picked).has(square)) {
          event.preventDefault();
          choose(picked, square);
          return;
        }
        if (!byFrom.has(square)) {
          pick(null);
          return;
        }
        event.preventDefault();
        const wasPicked = picked === square;
        pick(square);
        const image = images.get(square);
        men.appendChild(image); // above the other pieces while it moves
        drag = { from: square, image, pointer: event.pointerId, x: event.clientX, y: event.clientY, moved: false, wasPicked };
        svg.setPointerCapture(event.pointerId);
      });
      svg.addEventListener("pointermove", (event) => {
        if (drag === null || event.pointerId !== drag.pointer) return;
        if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PIXELS) return;
        drag.moved = true;
        const [x, y] = pointAt(event);
        drag.image.setAttribute("x", x - SQUARE / 2);
        drag.image.setAttribute("y", y - SQUARE / 2);
      });
      svg.addEventListener("pointerup", (event) => {
        if (drag === null || event.pointerId !== drag.pointer) return;
        const held = drag;
        drag = null;
        if (!held.moved) {
          if (held.wasPicked) pick(null); // a second click on the piece puts it down
          return;
        }
        const square = squareAt(event);
        if (square !== null && square !== held.from && targetsOf(held.from).has(square)) {
          show(held.image, square);
          choose(held.from, square);
        } else {
          show(held.image, held.from);
        }
      });
      svg.addEventListener("pointercancel", () => {
        if (drag !== null) show(drag.image, drag.from);
        drag = null;
      });
    }

    container.replaceChildren(svg);
  }

  window.zerosumBoards.chess = { draw };
})();
