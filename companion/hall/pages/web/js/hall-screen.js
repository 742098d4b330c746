// The hall screen (/): every table as a card, live. On a wide screen (a TV) the cards are laid out in
// pages that fit the screen, turned every PAGE_SECONDS; on a phone they are one scrolling list. A seating
// made by the organiser shows on each card ("Next round: ...") and as a notice pointing to /seating.

import { t } from "./i18n.js";
import { follow, hallName, setupLanguage } from "./hall-data.js";
import { drawRoundClock } from "./round-clock.js";
import { safeCard, tick, ticking } from "./table-card.js";

const PAGE_SECONDS = 12;
const DENSE_FROM = 13; // tables: from this many the TV shows compact cards
const ROOMY_UP_TO = 6; // tables: up to this many the TV shows them all at once, large
let snapshot = null;
let page = 0;

function wide() {
  return window.matchMedia("(min-width: 1000px) and (min-height: 600px)").matches;
}

// A table's seat list of the round, shown until the table has started it ("Next round: ..."); once it
// has, the card says the round instead.
function seatsOf(seating, tables) {
  const out = {};
  for (const table of tables) {
    const seats = seating?.tables?.[table.id];
    const started = table.seated?.seating === seating?.seating && table.seated?.state === "applied";
    if (Array.isArray(seats) && !started) out[table.id] = seats;
  }
  return out;
}

function roundClock() {
  drawRoundClock(document.getElementById("round-clock"), snapshot?.seating);
}

// How many cards fit one page of the TV: measured from the first card and the grid's own box.
function perPage(grid) {
  const first = grid.querySelector(".table-card");
  if (!first) return 1;
  const style = getComputedStyle(grid);
  const gap = parseFloat(style.rowGap) || 0;
  const box = grid.getBoundingClientRect();
  const card = first.getBoundingClientRect();
  const cols = Math.max(1, Math.floor((box.width + gap) / (card.width + gap)));
  const rows = Math.max(1, Math.floor((window.innerHeight - box.top - 48 + gap) / (card.height + gap)));
  return cols * rows;
}

function draw() {
  if (!snapshot) return;
  hallName(snapshot);
  const grid = document.getElementById("tables");
  const tables = snapshot.tables ?? [];
  const seats = seatsOf(snapshot.seating, tables);
  document.body.classList.toggle("dense", tables.length >= DENSE_FROM);
  document.body.classList.toggle("tv", wide());
  // A few tables fill the TV in large type: 2 columns up to 4 tables, 3 up to 6, in as many rows.
  const roomy = tables.length > 0 && tables.length <= ROOMY_UP_TO;
  document.body.classList.toggle("roomy", roomy);
  if (roomy) {
    const cols = tables.length <= 4 ? Math.min(2, tables.length) : 3;
    document.body.style.setProperty("--cols", String(cols));
    document.body.style.setProperty("--rows", String(Math.ceil(tables.length / cols)));
  }
  const cards = tables.map((table) => safeCard(table, { news: tables.length >= DENSE_FROM ? 2 : 3, seats: seats[table.id] ?? null }));
  grid.replaceChildren(...cards);
  document.getElementById("empty").hidden = tables.length > 0;
  const notice = document.getElementById("seating-notice");
  notice.hidden = !snapshot.seating;
  if (snapshot.seating) notice.textContent = t("hall.seating.notice", { round: snapshot.seating.round });
  notice.hidden = !snapshot.seating || Object.keys(seats).length === 0;  // every table has started: no "find your seat"
  roundClock();
  const counter = document.getElementById("page-count");
  if (wide() && cards.length) {
    const size = perPage(grid);
    const pages = Math.max(1, Math.ceil(cards.length / size));
    page %= pages;
    cards.forEach((card, i) => { card.hidden = Math.floor(i / size) !== page; });
    counter.hidden = pages < 2;
    counter.textContent = t("hall.page", { page: page + 1, pages });
  } else {
    counter.hidden = true;
  }
  tick();
}

setInterval(() => {
  page += 1;
  draw();
}, PAGE_SECONDS * 1000);
window.addEventListener("resize", draw);

await setupLanguage("hall.title", draw);
follow((snap) => {
  snapshot = snap;
  draw();
});
ticking();
setInterval(roundClock, 250);
