// The last seating (/seating), for players looking for their table: every name (alphabetical) with its
// table, and each table with its players.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { follow, hallName, setupLanguage } from "./hall-data.js";
import { gameName } from "./table-card.js";
import { tableGame } from "./between.js";

let snapshot = null;

function draw() {
  if (!snapshot) return;
  hallName(snapshot);
  const seating = snapshot.seating;
  document.getElementById("none").hidden = Boolean(seating);
  document.getElementById("by-player").hidden = !seating;
  document.getElementById("round").textContent = seating
    ? t("hall.seating.round", { round: seating.round, game: gameName(seating.game) }) : "";
  const tableNames = Object.fromEntries((snapshot.tables ?? []).map((table) => [table.id, table.name || table.id]));
  const seats = Object.entries(seating?.tables ?? {});
  const everyone = seats.flatMap(([tid, players]) => players.map((p) => ({ name: p.name, table: tableNames[tid] ?? tid })));
  const order = new Intl.Collator(document.documentElement.lang);
  everyone.sort((a, b) => order.compare(a.name, b.name));
  document.getElementById("players").replaceChildren(...everyone.map((seat) => el("li", {},
    el("span", { class: "who", text: seat.name }), el("span", { class: "where", text: seat.table }))));
  document.getElementById("by-table").replaceChildren(...seats.map(([tid, players]) => el("section", { class: "card", "data-table": tid },
    el("h2", { text: tableNames[tid] ?? tid }), el("p", { class: "table-game", text: gameName(tableGame(seating, tid)) }), el("ol", {}, players.map((p) => el("li", { text: p.name }))))));
}

await setupLanguage("hall.seating.title", draw);
follow((snap) => {
  snapshot = snap;
  draw();
});
