// Between rounds on the TV (/cycle): the next round's pairings (each table, its players in seat order,
// who sits out) beside the standings, from the hall's public snapshot only. A round is "between" from
// its seating until every table of it has started its game (a table whose seating the organiser
// cancelled is left out); once every table of it has finished, the standings stay up until the next
// seating. Anything the page cannot read shows as missing, never stops the screen.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const STANDINGS_SHOWN = 16;

function seatedTables(snapshot) {
  const seating = snapshot?.seating;
  const gone = new Set(Array.isArray(seating?.cancelled) ? seating.cancelled : []);
  return Object.keys(seating?.tables ?? {}).filter((id) => !gone.has(id));
}

// "pairings" (a seating not yet started everywhere), "over" (every table of it finished), "play" (the
// round under way) or "none" (no seating yet).
export function phaseOf(snapshot) {
  const seating = snapshot?.seating;
  const ids = seatedTables(snapshot);
  if (!seating || !ids.length) return "none";
  const tables = new Map((snapshot.tables ?? []).map((table) => [table.id, table]));
  const started = (id) => {
    const table = tables.get(id);
    return table?.seated?.seating === seating.seating && table.seated.state === "applied";
  };
  if (!ids.every(started)) return "pairings";
  return ids.every((id) => tables.get(id)?.ended) ? "over" : "play";
}

function pairings(snapshot) {
  const seating = snapshot.seating;
  const names = new Map((snapshot.tables ?? []).map((table) => [table.id, String(table.name || table.id)]));
  const blocks = seatedTables(snapshot).map((id) => {
    const chairs = Array.isArray(seating.tables[id]) ? seating.tables[id] : [];
    return el("section", { class: "pairing", "data-table": id }, el("h3", { text: names.get(id) ?? id }),
      el("ol", {}, ...chairs.map((p, seat) => el("li", { "data-seat": seat + 1,
        text: t("hall.between.seat", { seat: seat + 1, name: String(p?.name ?? "") }) }))));
  });
  const byes = Array.isArray(seating.byes) ? seating.byes.map((p) => String(p?.name ?? "")).filter(Boolean) : [];
  return [el("h2", { text: t("hall.between.pairings_title", { round: seating.round }) }),
    el("div", { class: "pairings" }, ...blocks),
    byes.length ? el("p", { class: "byes", text: t("hall.between.byes", { names: byes.join(", ") }) }) : null];
}

function standings(snapshot) {
  const rows = (Array.isArray(snapshot.standings) ? snapshot.standings : []).slice(0, STANDINGS_SHOWN);
  return [el("h2", { text: t("hall.between.standings_title") }),
    el("table", { class: "standings-table" },
      el("thead", {}, el("tr", {}, ...["rank", "name", "games", "points"].map((c) => el("th", { text: t(`hall.standings.${c}`) })))),
      el("tbody", {}, ...rows.map((row) => el("tr", { "data-player": row?.id },
        el("td", { class: "num", text: row?.rank ?? "" }), el("td", { text: String(row?.name ?? "") }),
        el("td", { class: "num", text: row?.games ?? "" }), el("td", { class: "num", text: row?.points ?? "" }))))),
    (snapshot.standings ?? []).length > STANDINGS_SHOWN
      ? el("p", { class: "meta", text: t("hall.between.more", { count: snapshot.standings.length - STANDINGS_SHOWN }) }) : null];
}

// Fills `box` for `phase` ("pairings" or "over"); false when the snapshot could not be read.
export function drawBetween(box, snapshot, phase) {
  try {
    const left = phase === "pairings" ? pairings(snapshot)
      : [el("h2", { text: t("hall.between.over", { round: snapshot.seating.round }) })];
    box.replaceChildren(el("div", { class: "between-left" }, ...left), el("div", { class: "between-right" }, ...standings(snapshot)));
    box.dataset.phase = phase;
    return true;
  } catch {
    return false;
  }
}
