// A big screen that shows the tables one after another (/cycle), `?seconds=` each (3 to 300; 8 if not said),
// under the round's clock; between rounds (between.js) the next round's pairings and the standings instead.

import { t } from "./i18n.js";
import { follow, hallName, setupLanguage } from "./hall-data.js";
import { drawBetween, phaseOf } from "./between.js";
import { drawRoundClock } from "./round-clock.js";
import { safeCard, tick, ticking } from "./table-card.js";

const asked = Number(new URLSearchParams(location.search).get("seconds"));
const SECONDS = Number.isFinite(asked) && asked >= 3 ? Math.min(asked, 300) : 8;
let snapshot = null;
let shown = 0;

function draw() {
  if (!snapshot) return;
  hallName(snapshot);
  drawRoundClock(document.getElementById("round-clock"), snapshot.seating);
  const phase = phaseOf(snapshot);
  const between = document.getElementById("between");
  const showing = (phase === "pairings" || phase === "over") && drawBetween(between, snapshot, phase);
  between.hidden = !showing;
  document.body.classList.toggle("between-rounds", showing);
  if (showing) {
    document.getElementById("table").replaceChildren();
    document.getElementById("empty").hidden = true;
    document.getElementById("position").textContent = "";
    return;
  }
  const tables = snapshot.tables ?? [];
  document.getElementById("empty").hidden = tables.length > 0;
  shown = tables.length ? shown % tables.length : 0;
  const table = tables[shown];
  const seats = table ? snapshot.seating?.tables?.[table.id] ?? null : null;
  document.getElementById("table").replaceChildren(...(table ? [safeCard(table, { news: 6, seats, link: false })] : []));
  document.getElementById("position").textContent = tables.length
    ? t("hall.cycle.position", { index: shown + 1, count: tables.length, seconds: SECONDS }) : "";
  tick();
}

setInterval(() => {
  shown += 1;
  draw();
}, SECONDS * 1000);

await setupLanguage("hall.title", draw);
follow((snap) => {
  snapshot = snap;
  draw();
});
ticking();
setInterval(() => drawRoundClock(document.getElementById("round-clock"), snapshot?.seating), 250);
