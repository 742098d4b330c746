// One table for a spectator's phone (/table/<id>): its public card, bigger, live.

import { follow, hallName, setupLanguage } from "./hall-data.js";
import { safeCard, tick, ticking } from "./table-card.js";

const wanted = decodeURIComponent(location.pathname.slice("/table/".length));
let snapshot = null;

function draw() {
  if (!snapshot) return;
  hallName(snapshot);
  const table = (snapshot.tables ?? []).find((entry) => entry.id === wanted);
  const seats = snapshot.seating?.tables?.[wanted] ?? null;
  document.getElementById("unknown").hidden = Boolean(table);
  document.getElementById("table").replaceChildren(...(table ? [safeCard(table, { news: 10, seats, link: false })] : []));
  tick();
}

await setupLanguage("hall.title", draw);
follow((snap) => {
  snapshot = snap;
  draw();
});
ticking();
