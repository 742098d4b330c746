// The second step of a destructive action (leave a seat, release a seat, end the game): a question that
// says the consequence in the player's language, and two buttons side by side, "yes" and "no". The
// first tap only opens this step; nothing is sent until "yes" is tapped.

import { el } from "./dom.js";

export function confirmStep({ question, yes, no, onYes, onNo }) {
  return el("div", { class: "confirm", role: "alertdialog" },
    el("p", { class: "confirm-question", text: question }),
    el("div", { class: "confirm-buttons" },
      el("button", { type: "button", class: "confirm-no", text: no, onclick: onNo }),
      el("button", { type: "button", class: "confirm-yes danger", text: yes, onclick: onYes })));
}
