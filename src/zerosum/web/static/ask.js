// What the matrix and tree pages share: a question put to the server (a JSON POST) while the
// page says it is waiting, then its answer shown, or the reason it gave none in #error.
"use strict";

// How many questions the page has asked: only the latest one's answer is shown, so an answer
// that arrives after a newer question (the page's first search, overtaken by a click) is dropped.
let questionsAsked = 0;

// POST `body` to `path`, the button `button` disabled and #waiting saying `waiting` meanwhile;
// hand the answer to `show`, or hide #answer and say why in #error (the server's one-line
// refusal, or that it did not answer). An answer overtaken by a newer question is dropped.
async function askServer(path, body, button, waiting, show) {
  const byId = (id) => document.getElementById(id);
  const question = ++questionsAsked;
  const overtaken = () => question !== questionsAsked;
  byId("error").textContent = "";
  byId("waiting").textContent = waiting;
  byId(button).disabled = true;
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (overtaken()) return;
    if (answer.error !== undefined) {
      byId("answer").hidden = true;
      byId("error").textContent = answer.error;
    } else {
      show(answer);
    }
  } catch (failure) {
    if (overtaken()) return;
    byId("answer").hidden = true;
    byId("error").textContent = "no answer from the server: is zerosum serve still running?";
  } finally {
    if (!overtaken()) {  // else the newer question clears these when its answer comes
      byId("waiting").textContent = "";
      byId(button).disabled = false;
    }
  }
}
