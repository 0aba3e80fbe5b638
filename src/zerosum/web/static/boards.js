// The Play page's boards: one drawer a kind of board (the server's board["kind"]).
//
// zerosumBoards[kind].draw(container, board, moves, options) draws `board` in `container`;
// `moves` are the legal moves [{move, place}] (highlighted; a click on a move's place calls
// options.onMove(move) when options.interactive); options.hint is the place of the engine's
// best move so far (marked), options.cursor the place the arrow keys have chosen (optional);
// the text board, whose moves have no place, marks options.hintMove and options.cursorMove.
// Chess and Othello add their drawers from board-chess.js and board-othello.js.
"use strict";

window.zerosumBoards = window.zerosumBoards || {};

(function (boards) {
  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  // Whether two targets name the same place ({cell: 4} and {cell: 4}).
  function same(a, b) {
    if (!a || !b) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
  }

  // The legal move whose target is `target`, or undefined.
  function moveAt(moves, target) {
    return moves.find((move) => same(move.place, target));
  }

  // Make `node` play `move` on a click (and mark it legal), when the board takes clicks.
  function clickable(node, move, options) {
    if (!move) return;
    node.classList.add("legal");
    if (!options.interactive) return;
    node.classList.add("playable");
    node.addEventListener("click", () => options.onMove(move.move));
  }

  function mark(node, target, options) {
    if (same(options.hint, target)) node.classList.add("hint");
    if (same(options.cursor, target)) node.classList.add("cursor");
  }

  boards.tictactoe = {
    draw(container, board, moves, options) {
      const grid = element("div", "board-tictactoe");
      board.cells.forEach((mark_, index) => {
        const cell = element("div", "cell", mark_);
        cell.dataset.cell = index;
        if (mark_) cell.classList.add(mark_ === "X" ? "first" : "second");
        if (board.last === index) cell.classList.add("last");
        const target = { cell: index };
        clickable(cell, moveAt(moves, target), options);
        mark(cell, target, options);
        grid.appendChild(cell);
      });
      container.replaceChildren(grid);
    },
  };

  boards.connect4 = {
    draw(container, board, moves, options) {
      const grid = element("div", "board-connect4");
      grid.style.gridTemplateColumns = `repeat(${board.width}, 44px)`;
      for (let column = 0; column < board.width; column++) {
        const stack = element("div", "column");
        stack.dataset.column = column;
        const target = { column: column };
        const label = element("div", "label", String(column + 1));
        stack.appendChild(label);
        board.cells.forEach((row, rowIndex) => {
          const stone = element("div", "cell");
          const mark_ = row[column];
          if (mark_) stone.classList.add(mark_ === "X" ? "first" : "second");
          if (board.last && board.last[0] === rowIndex && board.last[1] === column) {
            stone.classList.add("last");
          }
          stack.appendChild(stone);
        });
        clickable(stack, moveAt(moves, target), options);
        mark(stack, target, options);
        grid.appendChild(stack);
      }
      container.replaceChildren(grid);
    },
  };

  // Nim: a row of objects a heap; a click on an object takes it and every one to its right.
  boards.nim = {
    draw(container, board, moves, options) {
      const heaps = element("div", "board-nim");
      board.heaps.forEach((size, heap) => {
        const row = element("div", "heap");
        row.appendChild(element("span", "label", `heap ${heap + 1}`));
        for (let index = 0; index < size; index++) {
          const target = { heap: heap, take: size - index };
          const object = element("span", "object");
          object.dataset.heap = heap;
          object.dataset.take = size - index;
          object.title = `take ${size - index} from heap ${heap + 1}`;
          clickable(object, moveAt(moves, target), options);
          if (options.hint && options.hint.heap === heap && index >= size - options.hint.take) {
            object.classList.add("hint");
          }
          if (same(options.cursor, target)) object.classList.add("cursor");
          row.appendChild(object);
        }
        row.appendChild(element("span", "size", `(${size})`));
        heaps.appendChild(row);
      });
      container.replaceChildren(heaps);
    },
  };

  // Any other game: its own drawing as text, and its moves as buttons.
  boards.text = {
    draw(container, board, moves, options) {
      const drawing = element("pre", "board-text", board.text);
      const buttons = element("div", "moves");
      moves.forEach((move) => {
        const button = element("button", "move", move.move);
        button.type = "button";
        button.disabled = !options.interactive;
        if (options.interactive) button.addEventListener("click", () => options.onMove(move.move));
        if (options.hintMove === move.move) button.classList.add("hint");
        if (options.cursorMove === move.move) button.classList.add("cursor");
        buttons.appendChild(button);
      });
      container.replaceChildren(drawing, buttons);
    },
  };
})(window.zerosumBoards);
