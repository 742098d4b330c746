// One table as the hall shows it: its name, game, phase or round and turn, running timers counting down
// to their deadline on the hall's clock, players, online or not, and the last public announcements in
// words, as the phone page says them (i18n.js `describe`). A table that is offline is greyed, with the
// hall time since when (`offline_since_ms` if the hall gives it, else since this page first saw it so).

import { el } from "./dom.js";
import { describe, t } from "./i18n.js";
import { hallNow } from "./hall-data.js";
import { formatMs, timerName } from "./render.js";

const offlineSeen = new Map(); // table id -> hall ms when this page first saw it offline

export function gameName(game) {
  if (!game) return t("hall.no_game");
  const id = `game.${game}.title`;
  const shown = t(id);
  return shown === id ? game : shown;
}

function names(table) {
  return Object.fromEntries((table.players ?? []).map((p) => [p.id, p.name]));
}

function stage(table) {
  if (table.ended) {
    const who = names(table);
    const ranking = (table.ranking ?? []).map((group) => group.map((p) => who[p] ?? p).join(" / "));
    return [t("phone.game_over"), ranking.length ? t("phone.ranking", { ranking: ranking.join(" > ") }) : ""]
      .filter(Boolean).join(" ");
  }
  const parts = [];
  if (table.phase) {
    const key = `phase.${table.game}.${table.phase}`;
    parts.push(t("phone.phase", { phase: t(key) === key ? table.phase : t(key) }));
  }
  if (table.round !== null && table.round !== undefined) parts.push(t("hall.round", { round: table.round }));
  if (table.turn) parts.push(t("phone.turn", { name: names(table)[table.turn] ?? table.turn }));
  return parts.join(" · ");
}

function offlineSince(table) {
  if (table.online) {
    offlineSeen.delete(table.id);
    return null;
  }
  if (table.status !== "offline") return null;
  const since = table.offline_since_ms ?? offlineSeen.get(table.id) ?? hallNow();
  offlineSeen.set(table.id, since);
  const clock = new Date(since).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
  return t("hall.offline_since", { time: clock });
}

function timer(table, entry) {
  const state = entry.running ? "running" : entry.remaining_ms <= 0 ? "expired" : "paused";
  return el("li", { class: "timer-item" },
    el("span", { class: "name", text: timerName(table.game, entry.name) }),
    el("span", { class: "timer", "data-state": state, "data-deadline": entry.running ? entry.deadline_ms : null,
      text: formatMs(entry.running ? entry.deadline_ms - hallNow() : entry.remaining_ms) }));
}

// The card of `table`; `news` announcements at most; `seats` the players the last seating put here,
// `nextGame` the game it seated there.
export function tableCard(table, { news: count = 3, seats = null, link = true, nextGame = null } = {}) {
  const status = table.status ?? (table.online ? "online" : "offline");
  const title = table.name || table.id;
  const since = offlineSince(table);
  const players = table.players ?? [];
  const announcements = news([...(table.announcements ?? [])].reverse().slice(0, count), players);
  return el("article", { class: "table-card", "data-table": table.id, "data-status": status },
    el("header", {},
      el("h2", {}, link ? el("a", { href: `/table/${encodeURIComponent(table.id)}`, text: title }) : title),
      el("span", { class: "status", "data-status": status, text: t(`hall.status.${status}`) })),
    since ? el("p", { class: "offline-since", text: since }) : null,
    el("p", { class: "game" }, el("span", { class: "game-name", text: gameName(table.game) }),
      table.number ? el("span", { class: "number", text: t("hall.game_number", { number: table.number }) }) : null),
    el("p", { class: "stage", text: stage(table) }),
    (table.timers ?? []).length ? el("ul", { class: "timers" }, table.timers.map((entry) => timer(table, entry))) : null,
    el("p", { class: "players", text: players.length ? players.map((p) => p.name).join(", ") : t("hall.no_players") }),
    seats ? el("p", { class: "seated", text: nextGame
      ? t("hall.seated_next_game", { game: gameName(nextGame), players: seats.map((p) => p.name).join(", ") })
      : t("hall.seated_next", { players: seats.map((p) => p.name).join(", ") }) }) : null,
    announcements.length ? el("ol", { class: "news" }, announcements) : null);
}

// A table's words, from the hall's snapshot: a field that is not what the hall promises (the hall leaves
// out what it cannot check, but a page must not trust that) shows as missing; one bad announcement is
// left out, never the card, and one bad card never the page: `safeCard` draws a plain card saying its
// view cannot be shown, so every other table stays on the screen.
function safe(fn, fallback) {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

function news(announcements, players) {
  return announcements.map((a) => safe(() => el("li", { text: describe(a, players) }), null)).filter(Boolean);
}

export function safeCard(table, options = {}) {
  return safe(() => tableCard(table, options), (() => {
    const id = typeof table?.id === "string" ? table.id : "";
    const title = typeof table?.name === "string" && table.name ? table.name : id;
    return el("article", { class: "table-card", "data-table": id, "data-status": "unreadable" },
      el("header", {}, el("h2", { text: title })),
      el("p", { class: "stage", text: t("hall.card_unreadable") }));
  })());
}

// Count the running timers on the page down to their deadlines, on the hall's clock.
export function tick() {
  const now = hallNow();
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    node.textContent = formatMs(Number(node.dataset.deadline) - now);
  }
}

export function ticking() {
  setInterval(tick, 250);
}
