// What the matrix and tree pages share: a question put to the server (a JSON POST) while the
// page says it is waiting, then its answer shown, or the reason it gave none in #error.
"use strict";

// POST `body` to `path`, the button `button` disabled and #waiting saying `waiting` meanwhile;
// hand the answer to `show`, or hide #answer and say why in #error (the server's one-line
// refusal, or that it did not answer).
async function askServer(path, body, button, waiting, show) {
  const byId = (id) => document.getElementById(id);
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
    if (answer.error !== undefined) {
      byId("answer").hidden = true;
      byId("error").textContent = answer.error;
    } else {
      show(answer);
    }
  } catch (failure) {
    byId("answer").hidden = true;
    byId("error").textContent = "no answer from the server: is zerosum serve still running?";
  } finally {
    byId("waiting").textContent = "";
    byId(button).disabled = false;
  }
}
