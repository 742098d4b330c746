// The league standings (/standings): rank, name, games, wins, points and rating (the ordinal, mu - 3 sigma),
// live; the CSV download is /standings.csv.

import { el } from "./dom.js";
import { follow, hallName, setupLanguage } from "./hall-data.js";

let snapshot = null;

function draw() {
  if (!snapshot) return;
  hallName(snapshot);
  const rows = snapshot.standings ?? [];
  document.getElementById("empty").hidden = rows.length > 0;
  document.getElementById("rows").replaceChildren(...rows.map((row) => el("tr", { "data-player": row.id },
    el("td", { class: "num", text: row.rank }), el("td", { text: row.name }),
    el("td", { class: "num", text: row.games }), el("td", { class: "num", text: row.wins }),
    el("td", { class: "num", text: row.points }), el("td", { class: "num", text: Number(row.ordinal).toFixed(1) }))));
}

await setupLanguage("hall.standings.title", draw);
follow((snap) => {
  snapshot = snap;
  draw();
});
