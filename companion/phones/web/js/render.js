// The views, drawn: who you are, phase and turn, timers (counting down from table.timers on the table's
// clock), the toolkit's ballots, counters, roles and dice, a game's summary lines (the "You" card from the
// seat's own `lines`, the table's from `table_lines`), and the announcements. Generic: a game without
// ballots simply has no ballot section. Private parts are marked as only-for-you.

import { card, el } from "./dom.js";
import { header } from "./header.js";
import { describe, inWords, t, translatePage } from "./i18n.js";
import { moderatedNotice, moderatorCard } from "./moderator.js";

const NEWS_SHOWN = 10;

function names(view) {
  return Object.fromEntries((view.players ?? []).map((p) => [p.id, p.name]));
}

export function formatMs(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function whoLine(view, seatKind) {
  if (seatKind.kind === "host") return t("phone.host_seat");
  if (seatKind.kind === "spectator") return t("phone.spectator_seat");
  return t("phone.you_are", { name: names(view)[seatKind.pid] ?? seatKind.pid });
}

export function statusLine(view, seatKind) {
  if (view.ended) {
    const who = names(view);
    const ranking = (view.result?.ranking ?? []).map((group) => group.map((p) => who[p] ?? p).join(" / "));
    return [t("phone.game_over"), ranking.length ? t("phone.ranking", { ranking: ranking.join(" > ") }) : ""]
      .filter(Boolean).join(" ");
  }
  const parts = [];
  if (view.phase) {
    const key = `phase.${view.game}.${view.phase}`; // a game's own phase words (its catalog), else the phase's id
    parts.push(t("phone.phase", { phase: t(key) === key ? view.phase : t(key) }));
  }
  if (view.turn) {
    parts.push(view.turn === seatKind.pid ? t("phone.your_turn") : t("phone.turn", { name: names(view)[view.turn] ?? view.turn }));
  }
  return parts.join(" · ");
}

const TIMER_WORDS = { running: "phone.timer.running", paused: "phone.timer.paused", expired: "phone.timer.expired",
  ready: "phone.timer.ready" };

// A timer's name as the kiosk shows it: a game's timer has its own message id, else it is shown as named.
export function timerName(game, name) {
  const id = `timer.${game}.${name}`;
  const shown = t(id);
  return shown === id ? name : shown;
}

// A role as this phone's language says it: the toolkit's preset roles have words, a typed one is as typed.
export function roleName(role, view = {}) {
  const word = view.names?.roles?.[role];
  if (word !== undefined) return inWords(word);
  const id = `toolkit.role.${role}`;
  const shown = t(id);
  return shown === id ? role : shown;
}

// A vote's, counter's or deal's name as the host gave it, in words (the view's `names`: companion/naming.py).
function thingName(view, kind, name) {
  const word = view.names?.[kind]?.[name];
  return word === undefined ? name : inWords(word);
}

function timers(table, game) {
  const entries = Object.entries(table.timers ?? {});
  if (!entries.length) return null;
  return card("timers", "phone.section.timers", entries.map(([name, timer]) => {
    // `started` says whether it ran (a paused timer extended past its duration is paused, not ready);
    // a view without it (an older table) falls back on the time left
    const started = typeof timer.started === "boolean" ? timer.started : timer.remaining < timer.duration;
    const state = timer.running ? "running" : timer.expired ? "expired" : started ? "paused" : "ready";
    return el("div", { class: "item", "data-timer": name },
      el("div", { class: "name", text: timerName(game, name) }),
      el("div", { class: "timer", "data-state": state, "data-deadline": timer.running ? timer.deadline : null,
        text: formatMs(timer.running ? timer.deadline - Date.now() : timer.remaining) }),
      el("div", { class: "meta", text: t(TIMER_WORDS[state]) }));
  }));
}

function nameList(pids, view) {
  const who = names(view);
  return pids.map((pid) => who[pid] ?? pid);
}

// Who has voted (never what): only the host's view says it (who it still waits for); the public view
// counts the votes and names no one.
function votedLine(name, b, view) {
  const waiting = view.host?.ballots_waiting_for?.[name];
  if (!Array.isArray(waiting) || !b.open) return null;
  const voted = (b.voters ?? []).filter((pid) => !waiting.includes(pid)); // none named when who votes is secret
  return voted.length ? el("div", { class: "meta voted", text: t("phone.ballot.voted", { names: nameList(voted, view) }) }) : null;
}

function ballots(table, mine, view) {
  const entries = Object.entries(table.ballots ?? {});
  if (!entries.length) return null;
  const who = names(view);
  const said = (option) => who[option] ?? option; // a vote among the seated players: their names
  return card("ballots", "phone.section.ballots", entries.map(([name, b]) => {
    const own = mine?.ballots?.[name];
    const result = b.result;
    let ownLine = null;
    if (own) {
      ownLine = !own.eligible ? el("div", { class: "meta", text: t("phone.ballot.not_eligible") })
        : own.my_vote !== null && own.my_vote !== undefined
          ? el("div", { class: "secret my-vote", title: t("phone.secret"), text: t("phone.ballot.my_vote", { option: said(own.my_vote) }) })
          : el("div", { class: "meta", text: t("phone.ballot.not_voted") });
    }
    let outcome = null;
    if (result) {
      const verdict = result.winner !== null ? t("phone.ballot.winner", { winner: said(result.winner) })
        : result.awaiting_host ? t("phone.ballot.awaiting_host") : t("phone.ballot.no_winner");
      outcome = [
        el("ul", { class: "totals" }, b.options.map((option) => [option, result.totals[option] ?? 0]).map(([option, total]) =>
          el("li", { class: option === result.winner ? "winner" : "" }, el("span", { text: said(option) }), el("span", { text: total })))),
        el("div", { class: "winner", text: verdict }),
      ];
    }
    return el("div", { class: "item ballot", "data-ballot": name },
      el("div", { class: "name", text: thingName(view, "ballots", name) }),
      el("div", { class: "meta", text: `${t(b.open ? "phone.ballot.open" : "phone.ballot.closed")} · ${t("phone.ballot.cast", { cast: b.cast, voters: b.voter_count })}` }),
      votedLine(name, b, view), ownLine, outcome);
  }));
}

function counters(table, mine, view) {
  const entries = Object.entries(table.counters ?? {});
  if (!entries.length) return null;
  const who = names(view);
  return card("counters", "phone.section.counters", entries.map(([name, c]) => {
    const own = mine?.counters?.[name];
    return el("div", { class: "item counter" },
      el("div", { class: "name", text: thingName(view, "counters", name) }),
      el("div", { class: "meta", text: `${t("phone.counter.bounds", { low: c.low, high: c.high })}${c.revealed ? "" : ` · ${t("phone.counter.hidden")}`}` }),
      own !== undefined && own !== null ? el("div", { class: "secret", title: t("phone.secret"), text: t("phone.counter.mine", { value: own }) }) : null,
      c.values ? el("ul", { class: "totals" }, Object.entries(c.values).map(([pid, v]) =>
        el("li", {}, el("span", { text: who[pid] ?? pid }), el("span", { text: v })))) : null);
  }));
}

function roles(table, mine, view) {
  const entries = Object.entries(table.deals ?? {});
  if (!entries.length) return null;
  const who = names(view);
  return card("roles", "phone.section.roles", entries.map(([name, d]) => {
    const own = mine?.roles?.[name];
    return el("div", { class: "item" },
      el("div", { class: "name", text: thingName(view, "deals", name) }),
      own ? el("div", { class: "secret", title: t("phone.secret"), text: t("phone.role.mine", { role: roleName(own, view) }) }) : null,
      el("div", { class: "meta", text: t("phone.role.pool", { roles: d.pool.map((r) => roleName(r, view)) }) }),
      Object.entries(d.revealed ?? {}).map(([pid, role]) =>
        el("div", { text: t("phone.role.revealed", { name: who[pid] ?? pid, role: roleName(role, view) }) })));
  }));
}

function rolls(table, view) {
  const list = table.rolls ?? [];
  if (!list.length) return null;
  const who = names(view);
  return card("rolls", "phone.section.rolls", [...list].reverse().map((r) => {
    const by = r.by.startsWith("player:") ? (who[r.by.slice(7)] ?? r.by) : t(`sender.${r.by}`);
    return el("div", { class: "item", text: t("phone.roll", { by, values: r.values }) });
  }));
}

// Who has acted or is ready (never what), where a game's public view says it: `ready` (Lockdown's setup:
// who has prepared), `program.waiting_for` (Room 25: who has not programmed yet; the living others have).
function acted(view) {
  const table = view.table ?? {};
  const lines = [];
  if (Array.isArray(table.ready) && table.ready.length) {
    lines.push(t("phone.acted.ready", { names: nameList(table.ready, view) }));
  }
  const waiting = table.program?.waiting_for;
  if (Array.isArray(waiting) && waiting.length) {
    const done = Object.entries(table.people ?? {}).filter(([pid, p]) => p.status === "alive" && !waiting.includes(pid))
      .map(([pid]) => pid);
    if (done.length) lines.push(t("phone.acted.programmed", { names: nameList(done, view) }));
    lines.push(t("phone.acted.waiting", { names: nameList(waiting, view) }));
  }
  return lines.length ? card("acted", "phone.section.acted", lines.map((text) => el("div", { class: "item", text }))) : null;
}

// Message-id lines ({msg, params}) as the mirror builds them (companion.summaries), player ids as names.
function lineItems(lines, view, secret) {
  return lines.map((line) => el("div", { class: secret ? "item secret line" : "item line",
    title: secret ? t("phone.secret") : null, text: describe(line, view.players ?? []) }));
}

function you(view) {
  const lines = view.lines ?? [];
  return lines.length ? card("you", "summary.you", lineItems(lines, view, true)) : null;
}

function summary(view) {
  const lines = view.table_lines ?? [];
  return lines.length ? card("summary", "summary.table", lineItems(lines, view, false)) : null;
}

// Draw everything but the forms into the page. `view` is the newest view (the seat's, or the public one).
export function draw(view, seatKind) {
  const table = view.table ?? {};
  const mine = view.private ?? null;
  document.getElementById("who").textContent = whoLine(view, seatKind);
  document.getElementById("status-line").textContent = statusLine(view, seatKind);
  const holder = document.getElementById("table");
  holder.replaceChildren(...[moderatedNotice(view, seatKind), moderatorCard(view, roleName), you(view), acted(view), summary(view), timers(table, view.game), ballots(table, mine, view), counters(table, mine, view), roles(table, mine, view),
    rolls(table, view)].filter(Boolean));
  translatePage(holder);
  // newest first, not numbered (a numbered list would count 1, 2, 3 from the newest)
  const news = [...(view.announcements ?? [])].reverse().slice(0, NEWS_SHOWN);
  document.getElementById("news-list").replaceChildren(...news.map((a) => el("li", { text: describe(a, view.players ?? []) })));
  story(view);
  header(view, seatKind);
  tick();
}

// A finished game's whole story (issue 31): every announcement from the first, in order, numbered as the
// kiosk numbers them, folded under one tap (it runs to hundreds). The view carries it (`story`) only once
// the game has ended; it is built from announcements only, which are public. The list is rebuilt only
// when what it says changes (another language, a correction), so a reader's place in it stays put.
let storyShown = "";

function story(view) {
  const told = view.ended && Array.isArray(view.story) ? view.story : [];
  document.getElementById("story").hidden = told.length === 0;
  if (!told.length) return;
  const first = Math.max(1, (view.announced ?? told.length) - told.length + 1);
  const texts = told.map((a) => describe(a, view.players ?? []));
  const said = JSON.stringify([first, texts]);
  if (said === storyShown) return;
  storyShown = said;
  document.getElementById("story-open").textContent = t("phone.story.open", { count: first - 1 + told.length });
  const list = document.getElementById("story-list");
  list.start = first;
  list.replaceChildren(...texts.map((text) => el("li", { text })));
}

let clockOffset = 0; // the table's clock minus this phone's clock, in ms

export function setClockOffset(ms) {
  clockOffset = ms;
}

// Count running timers down on the table's clock.
export function tick() {
  const now = Date.now() + clockOffset;
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    node.textContent = formatMs(Number(node.dataset.deadline) - now);
  }
}
