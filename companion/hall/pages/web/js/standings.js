// The league standings (/standings): rank, name, games, wins, points and rating (the ordinal, mu - 3 sigma),
// live; the CSV download is /standings.csv.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { follow, hallName, setupLanguage } from "./hall-data.js";
import { gameName } from "./table-card.js";

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
  drawCasual();
}

// Casual games (played outside a round's seating): kept and shown here, apart, never scored. A game the
// page cannot read is left out, never the page.
function drawCasual() {
  const games = Array.isArray(snapshot.casual) ? [...snapshot.casual].reverse() : [];
  const tables = new Map((snapshot.tables ?? []).map((table) => [table.id, table.name || table.id]));
  const items = games.map((game) => {
    try {
      const names = Object.fromEntries(game.players.map((p) => [p.id, String(p.name)]));
      const ranking = game.ranking.map((group) => group.map((pid) => names[pid] ?? String(pid)).join(" / ")).join(" > ");
      return el("li", { text: t("hall.casual.game", { table: String(tables.get(game.table) ?? game.table),
        game: gameName(String(game.game)), ranking: ranking || game.players.map((p) => String(p.name)).join(", ") }) });
    } catch {
      return null;
    }
  }).filter(Boolean);
  document.getElementById("casual-box").hidden = !items.length;
  document.getElementById("casual").replaceChildren(...items);
}

await setupLanguage("hall.standings.title", draw);
follow((snap) => {
  snapshot = snap;
  draw();
});
