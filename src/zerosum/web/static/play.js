// The Play page: a game against the program over the websocket /ws/play (the protocol is in
// docs/web.md). The server keeps the game; the page draws what it is sent (the position, the
// program's thinking as it comes) and sends what the person does (a new game, a move, a
// take-back, "move now").
"use strict";

const byId = (id) => document.getElementById(id);

const UNITS = { time: "seconds", mcts: "seconds", depth: "plies" };
const DEFAULT_AMOUNT = { time: 1, mcts: 1, depth: 6 };

let socket = null;
let games = {}; // name -> {summary, names, strengths, default}
let position = null; // the last "position" message
let hint = null; // the engine's best move so far: {place, move}
let visits = null; // MCTS's root moves so far, [{place, visits}], for a board that shows them
let cursor = -1; // the legal move the arrow keys have chosen (an index of position.moves)
let thinking = false;
let countdown = null; // the timer counting the budget down
let started = 0; // games started on this page (body's data-game: which game is drawn)
let starting = false; // a new game asked for, its first position not yet come

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function send(message) {
  byId("error").textContent = "";
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// -- the form -------------------------------------------------------------------------------

function fillGames(listed, first) {
  games = {};
  const select = byId("game");
  select.replaceChildren();
  for (const game of listed) {
    games[game.name] = game;
    const option = element("option", game.name);
    option.value = game.name;
    option.title = game.summary;
    select.appendChild(option);
  }
  if (first && games[first]) select.value = first; // zerosum serve --network: the run's game
  gameChosen();
}

function gameChosen() {
  const game = games[byId("game").value];
  if (!game) return;
  const side = byId("side");
  side.replaceChildren();
  game.names.forEach((name, seat) => {
    const order = seat === 0 ? "first" : "second";
    const option = element("option", name === order ? name : `${name} (${order})`);
    option.value = seat;
    side.appendChild(option);
  });
  for (const option of byId("strength").options) {
    option.disabled = !game.strengths.includes(option.value);
  }
  const chosen = game.default;
  byId("strength").value = chosen.kind;
  if (chosen.kind === "network") {
    byId("network").value = chosen.directory; // zerosum serve --network DIR
    byId("simulations").value = chosen.simulations;
  } else {
    byId("amount").value = chosen.seconds || chosen.plies || DEFAULT_AMOUNT.time;
  }
  byId("game").title = game.summary;
  strengthChosen();
}

function strengthChosen() {
  const kind = byId("strength").value;
  byId("amount-label").hidden = kind === "perfect" || kind === "network";
  byId("network-fields").hidden = kind !== "network";
  byId("amount-unit").textContent = UNITS[kind] || "";
  if (kind === "depth" && !Number.isInteger(Number(byId("amount").value))) {
    byId("amount").value = DEFAULT_AMOUNT.depth;
  }
}

function strength() {
  const kind = byId("strength").value;
  const amount = Number(byId("amount").value);
  if (kind === "depth") return { kind: kind, plies: amount };
  if (kind === "time" || kind === "mcts") return { kind: kind, seconds: amount };
  if (kind === "network") {
    const simulations = Number(byId("simulations").value);
    return { kind: kind, directory: byId("network").value.trim(), simulations: simulations };
  }
  return { kind: kind };
}

function newGame(event) {
  if (event) event.preventDefault();
  if (document.activeElement) document.activeElement.blur(); // the keys now play
  starting = true;
  send({
    type: "new",
    game: byId("game").value,
    position: byId("position").value.trim() || null,
    human: Number(byId("side").value),
    strength: strength(),
  });
}

// -- the board ------------------------------------------------------------------------------

function drawBoard() {
  if (!position) return;
  const board = position.board;
  const drawer = window.zerosumBoards[board.kind] || window.zerosumBoards.text;
  const chosen = cursor >= 0 ? position.moves[cursor] : null;
  drawer.draw(byId("board"), board, position.moves, {
    onMove: (text) => send({ type: "move", move: text }),
    hint: hint ? hint.place : null,
    hintMove: hint ? hint.move : null,
    visits: visits,
    cursor: chosen ? chosen.place : null,
    cursorMove: chosen ? chosen.move : null,
    interactive: position.moves.length > 0,
  });
}

function showPosition(message) {
  if (starting) {
    starting = false;
    started += 1;
    document.body.dataset.game = started;
    hint = null;
    visits = null;
    clearAnalysis();
    clearBar();
  }
  position = message;
  cursor = -1;
  if (message.moves.length > 0) hint = visits = null; // the person's turn: the board is theirs
  stopThinking();
  drawBoard();
  const record = byId("record");
  record.replaceChildren(...message.record.map((text) => element("li", text)));
  byId("undo").disabled = !message.can_undo;
  const result = message.result;
  byId("result").textContent = result ? resultText(message) : "";
  byId("status").textContent = result
    ? "Game over."
    : message.human[message.to_move]
      ? `Your move (${message.names[message.to_move]}).`
      : `The program (${message.names[message.to_move]}) is to move.`;
}

function resultText(message) {
  const result = message.result;
  if (result.winner === null) return "The game is drawn.";
  const who = message.human[result.winner] ? "you win" : "the program wins";
  return `${result.text}: ${who}.`;
}

// -- the program's thinking -----------------------------------------------------------------

function clearAnalysis() {
  for (const id of ["iterations", "mcts", "columns"]) {
    byId(id).hidden = true;
    byId(id).tBodies[0].replaceChildren();
  }
  byId("mcts-summary").textContent = "";
  byId("scores-note").textContent = "";
}

function clearBar() {
  byId("bar-first").style.width = "50%";
  byId("bar-label").textContent = "";
}

function startThinking(message) {
  thinking = true;
  hint = visits = null;
  clearAnalysis();
  byId("stop").disabled = false;
  byId("status").textContent = "The program is thinking...";
  if (message.player === "solver") {
    byId("scores-note").textContent = "Perfect play: the game's own solver chooses the move.";
  }
  const started = performance.now();
  const tell = () => {
    let text = `thinking... (${message.player}, ${message.budget})`;
    if (message.seconds_left !== null && message.seconds_left !== undefined) {
      const left = Math.max(0, message.seconds_left - (performance.now() - started) / 1000);
      text += `, at most ${left.toFixed(1)} s left`;
    }
    byId("waiting").textContent = text;
  };
  tell();
  clearInterval(countdown);
  countdown = setInterval(tell, 100);
}

// The server runs a few searches at once: this one waits in line for its turn.
function waitForSlot(message) {
  thinking = true;
  clearInterval(countdown);
  countdown = null;
  byId("stop").disabled = false;
  byId("status").textContent = "The program waits for the server...";
  byId("waiting").textContent = message.text;
}

function stopThinking() {
  thinking = false;
  clearInterval(countdown);
  countdown = null;
  byId("waiting").textContent = "";
  byId("stop").disabled = true;
}

// The evaluation bar: the first player's share (bar, from -1 to 1) and the server's words.
function setBar(message) {
  if (message.bar === null || message.bar === undefined || !position) return;
  byId("bar-first").style.width = `${((message.bar + 1) / 2) * 100}%`;
  byId("bar-label").textContent = message.bar_text;
}

function setHint(place, move) {
  if (!move) return;
  hint = { place: place, move: move };
  drawBoard();
}

function row(cells, className) {
  const made = element("tr", undefined, className);
  for (const cell of cells) made.appendChild(element("td", cell));
  return made;
}

function showIteration(message) {
  const table = byId("iterations");
  table.hidden = false;
  const mover = position ? position.names[position.to_move] : "";
  byId("scores-note").textContent = `Scores are for ${mover}, the player to move.`;
  table.tBodies[0].appendChild(
    row(
      [
        String(message.depth) + (message.complete ? "" : "*"),
        message.value_text,
        message.nodes.toLocaleString("en"),
        message.nps.toLocaleString("en"),
        message.pv.join(" "),
      ],
      message.exact ? "exact" : "",
    ),
  );
  setBar(message);
  setHint(message.place, message.best_move);
}

function showMcts(message) {
  const table = byId("mcts");
  table.hidden = false;
  table.tBodies[0].replaceChildren(
    ...message.moves.map((move) =>
      row([
        move.move,
        move.visits.toLocaleString("en"),
        move.proven !== null ? `${move.proven} (proven)` : move.value.toFixed(3),
      ]),
    ),
  );
  const mover = position ? position.names[position.to_move] : "";
  byId("mcts-summary").textContent =
    `${message.iterations.toLocaleString("en")} iterations, ${message.nodes.toLocaleString("en")}` +
    ` nodes; values for ${mover}, the player to move.`;
  setBar(message);
  visits = message.moves.map((move) => ({ place: move.place, visits: move.visits }));
  setHint(message.place, message.best_move);
}

function showColumns(message) {
  const table = byId("columns");
  table.hidden = false;
  table.tBodies[0].replaceChildren(
    ...message.moves.map((move) =>
      row([move.move, move.score === null ? "?" : String(move.score), move.note]),
    ),
  );
  const mover = position ? position.names[position.to_move] : "";
  byId("scores-note").textContent =
    `Exact scores for ${mover}, the player to move: positive wins, sooner the larger.`;
  setBar(message);
  const proven = message.moves.filter((move) => move.score !== null);
  if (proven.length > 0) {
    const best = proven.reduce((a, b) => (b.score > a.score ? b : a));
    setHint(best.place, best.move);
  }
}

// -- the connection -------------------------------------------------------------------------

function receive(event) {
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "games":
      fillGames(message.entries, message.game);
      byId("status").textContent = "Choose a game and press New game.";
      newGame();
      break;
    case "position":
      showPosition(message);
      break;
    case "waiting":
      waitForSlot(message);
      break;
    case "thinking":
      startThinking(message);
      break;
    case "iteration":
      showIteration(message);
      break;
    case "mcts":
      showMcts(message);
      break;
    case "columns":
      showColumns(message);
      break;
    case "error":
      starting = false;
      byId("error").textContent = message.message;
      if (thinking) {
        stopThinking();
        byId("status").textContent = "The program could not move: start a new game.";
      }
      break;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/play`);
  socket.addEventListener("message", receive);
  socket.addEventListener("close", () => {
    stopThinking();
    byId("status").textContent = "No connection to the server: is zerosum serve still running?";
  });
}

// -- the keyboard ---------------------------------------------------------------------------

function typing(event) {
  const target = event.target;
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement;
}

document.addEventListener("keydown", (event) => {
  if (typing(event) || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === " ") {
    if (thinking) send({ type: "stop" });
    event.preventDefault();
  } else if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && position) {
    const count = position.moves.length;
    if (count === 0) return;
    const step = event.key === "ArrowRight" ? 1 : -1;
    cursor = cursor < 0 ? (step > 0 ? 0 : count - 1) : (cursor + step + count) % count;
    drawBoard();
    event.preventDefault();
  } else if (event.key === "Enter" && position && cursor >= 0) {
    send({ type: "move", move: position.moves[cursor].move });
    event.preventDefault();
  }
});

byId("new-game").addEventListener("submit", newGame);
byId("game").addEventListener("change", gameChosen);
byId("strength").addEventListener("change", strengthChosen);
byId("undo").addEventListener("click", () => send({ type: "undo" }));
byId("stop").addEventListener("click", () => send({ type: "stop" }));
connect();
