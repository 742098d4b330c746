// The organiser's page (/organiser?key=...): choose a game, the players present and the tables to use,
// then "Seat the next round" (POST /seating, the key in a header). The hall checks every field; a refusal
// comes back as a message id with its params and is shown in this page's language.

import { el } from "./dom.js";
import { describe, t } from "./i18n.js";
import { follow, setupLanguage } from "./hall-data.js";
import { fixes } from "./organiser-fix.js";
import { gameName } from "./table-card.js";

const KEY_HEADER = "X-Organiser-Key";
const key = new URLSearchParams(location.search).get("key") ?? "";
let data = null;
let snapshot = null;
let answersDrawn = "";

// What each table of the last seating made of it (its `seated` answer in the hall's snapshot): started,
// waiting for its game under way, refused (in the table's own words), or no answer yet.
function drawAnswers() {
  const seating = snapshot?.seating;
  const box = document.getElementById("answers");
  box.hidden = !seating;
  if (!seating) return;
  document.getElementById("answers-title").textContent = t("hall.organiser.answers_title", { round: seating.round });
  const out = Array.isArray(seating.byes) ? seating.byes.map((p) => String(p?.name ?? "")).filter(Boolean) : [];
  const byes = document.getElementById("byes-list");
  byes.hidden = !out.length;
  byes.textContent = out.length ? t("hall.organiser.byes_list", { names: out.join(", ") }) : "";
  const tables = new Map((snapshot.tables ?? []).map((table) => [table.id, table]));
  const key = JSON.stringify([seating, Object.keys(seating.tables ?? {}).map((id) => [tables.get(id)?.name, tables.get(id)?.seated]),
    fix.state(), document.documentElement.lang]);
  if (key === answersDrawn) return;  // drawn again only when it changed: never under a finger
  answersDrawn = key;
  document.getElementById("answers-list").replaceChildren(...Object.keys(seating.tables ?? {}).map((id) => {
    const table = tables.get(id);
    const name = String(table?.name || id);
    const seated = table?.seated?.seating === seating.seating ? table.seated : null;
    const state = ["applied", "pending", "refused"].includes(seated?.state) ? seated.state : "sent";
    let reason = "";
    if (state === "refused") {
      try {
        reason = describe(seated.reason ?? { code: "hall.reject.cannot_seat" });
      } catch {
        reason = t("hall.reject.cannot_seat");
      }
    }
    const li = el("li", { "data-table": id, "data-state": state },
      el("span", { class: "answer", text: t(`hall.organiser.answer.${state}`, { table: name, reason }) }));
    fix.tableControls(li, seating, id);
    return li;
  }));
}

function checkbox(name, value, label, checked) {
  return el("label", { class: "choice" }, el("input", { type: "checkbox", name, value, checked }), el("span", { text: label }));
}

function chosen(name) {
  return [...document.querySelectorAll(`input[name='${name}']:checked`)].map((input) => input.value);
}

function count() {
  document.getElementById("present-count").textContent = t("hall.organiser.present_count", { count: chosen("present").length });
}

// The players-per-table fields follow the game chosen: its own counts, unless the organiser changed them.
function podLimits() {
  const game = data?.games.find((g) => g.id === document.getElementById("game").value);
  if (!game) return;
  for (const [id, value] of [["pod-low", game.low], ["pod-high", game.high]]) {
    const input = document.getElementById(id);
    input.min = game.low;
    input.max = game.high;
    if (input.dataset.game !== game.id) {
      input.value = value;
      input.dataset.game = game.id;
    }
  }
}

function whole(id) {
  const text = document.getElementById(id).value.trim();
  return text === "" ? null : Number(text);
}

function draw() {
  if (!data) return;
  const game = document.getElementById("game");
  const picked = game.value;
  game.replaceChildren(...data.games.map((g) => el("option", { value: g.id,
    text: t("hall.organiser.game_choice", { game: gameName(g.id), low: g.low, high: g.high }) })));
  if (picked) game.value = picked;
  const present = new Set(chosen("present"));
  const tables = new Set(chosen("tables"));
  const first = !document.querySelector("input[name='tables']");
  const dropped = new Set(data.dropped ?? []);
  const here = new Set(data.checked_in ?? []);
  document.getElementById("present").replaceChildren(...data.players.map((p) => checkbox("present", p.id,
    dropped.has(p.id) ? t("hall.organiser.dropped", { name: p.name })
      : here.has(p.id) ? t("hall.organiser.checked_in_name", { name: p.name }) : p.name,
    present.has(p.id) && !dropped.has(p.id))));
  drawCheckin(here);
  document.getElementById("tables").replaceChildren(...data.tables.map((table) => checkbox("tables", table.id,
    `${table.name || table.id}${table.online ? "" : ` (${t("hall.status.offline")})`}`, first ? table.online : tables.has(table.id))));
  count();
  podLimits();
  drawCorrections();
  drawAnswers();
}

// The scoring: a rule and its tiebreakers, saved as a correction (logged).
const TIEBREAK_CHOICES = [["rating"], ["opponents", "rating"], ["head_to_head", "rating"], ["opponents", "head_to_head", "rating"]];

function drawCorrections() {
  if (!data?.results) return;
  fix.draw();
  const scoring = data.scoring ?? { rule: "placing", custom: [], tiebreakers: ["rating"] };
  const rule = document.getElementById("scoring-rule");
  if (!rule.dataset.shown) {
    rule.value = scoring.rule;
    document.getElementById("scoring-custom").value = (scoring.custom ?? []).join(", ");
    rule.dataset.shown = "1";
  }
  const tiebreakers = document.getElementById("tiebreakers");
  const current = tiebreakers.value || (scoring.tiebreakers ?? ["rating"]).join(",");
  tiebreakers.replaceChildren(...TIEBREAK_CHOICES.map((choice) => el("option", { value: choice.join(","),
    text: choice.map((tb) => t(`hall.organiser.tiebreak.${tb}`)).join(", ") })));
  tiebreakers.value = current;
}

// "Re-seat" on a table of the round: the form holds that table's players, the other tables, and
// "re-seat within the round"; the organiser checks it and seats.
function reseatForm(players, table) {
  pickAll(false);
  for (const pid of players) {
    const box = document.querySelector(`input[name='present'][value='${CSS.escape(pid)}']`);
    if (box) box.checked = true;
  }
  for (const box of document.querySelectorAll("input[name='tables']")) box.checked = box.value !== table && box.checked;
  document.getElementById("reseat").checked = true;
  count();
  show("done", t("hall.organiser.reseat_ready", { table: fix.tableName(table) }));
  document.getElementById("seat-form").scrollIntoView({ block: "start" });
}

const fix = fixes({ key, keyHeader: KEY_HEADER, getData: () => data, getSnapshot: () => snapshot, reload, reseatForm });

async function reload() {
  const response = await fetch("/organiser.json", { cache: "no-cache", headers: { [KEY_HEADER]: key } });
  if (response.ok) {
    data = await response.json();
    draw();
  }
}

async function saveScoring(event) {
  event.preventDefault();
  const custom = document.getElementById("scoring-custom").value.split(/[\s,]+/).filter(Boolean).map(Number);
  await fix.send("scoring", { scoring: { rule: document.getElementById("scoring-rule").value, custom,
    tiebreakers: document.getElementById("tiebreakers").value.split(",") } });
}

function show(id, text) {
  for (const other of ["problem", "done"]) {
    const node = document.getElementById(other);
    node.hidden = other !== id;
    if (other !== id) node.textContent = "";
  }
  document.getElementById(id).textContent = text;
}

async function seat(event) {
  event.preventDefault();
  const body = { game: document.getElementById("game").value, present: chosen("present"), tables: chosen("tables"),
    byes: document.getElementById("byes").checked, reseat: document.getElementById("reseat").checked };
  const low = whole("pod-low");
  const high = whole("pod-high");
  if (low !== null || high !== null) body.pods = [low ?? high, high ?? low];
  const minutes = whole("minutes");
  if (minutes !== null) body.minutes = minutes;
  const button = document.getElementById("seat");
  button.disabled = true;
  try {
    const response = await fetch("/seating", { method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", [KEY_HEADER]: key } });
    const answer = await response.json();
    if (!response.ok) {
      show("problem", describe(answer.error ?? { code: "hall.reject.cannot_seat" }));
      return;
    }
    const round = answer.seating?.round;
    document.getElementById("reseat").checked = false;  // a re-seating is one deliberate act, not the next round's
    show("done", round ? t("hall.organiser.seated_round", { round }) : t("hall.organiser.seated"));
    await reload();
  } catch {
    show("problem", t("hall.link.lost"));
  } finally {
    button.disabled = false;
  }
}

// The last answer was to the form as it was: gone once the form changes, its line kept (hall.css) so that
// nothing below moves under a finger (a field left for a button: the button's tap was lost).
function clearAnswer() {
  for (const id of ["problem", "done"]) document.getElementById(id).hidden = true;
}

function pickAll(on) {  // "Everyone": every player but those who dropped
  const dropped = new Set(data?.dropped ?? []);
  for (const input of document.querySelectorAll("input[name='present']")) input.checked = on && !dropped.has(input.value);
  count();
  clearAnswer();
}

// A late entry: added to the roster (logged) and ticked as present.
async function addPlayer() {
  const input = document.getElementById("new-player");
  const name = input.value.trim();
  if (!name) return;
  const button = document.getElementById("add-player");
  button.disabled = true;
  try {
    const response = await fetch("/player", { method: "POST", body: JSON.stringify({ name }),
      headers: { "Content-Type": "application/json", [KEY_HEADER]: key } });
    const answer = await response.json();
    if (!response.ok) {
      show("problem", describe(answer.error ?? { code: "hall.correction.bad_name" }));
      return;
    }
    input.value = "";
    await reload();
    const box = document.querySelector(`input[name='present'][value='${CSS.escape(answer.id)}']`);
    if (box) box.checked = true;
    count();
  } catch {
    show("problem", t("hall.link.lost"));
  } finally {
    button.disabled = false;
  }
}

// A new table: its name; the hall answers with the lines its owner puts in the table's config file (its
// login: keep it secret), shown here with a Copy button; the table is then offered for the next round.
async function addTable() {
  const input = document.getElementById("new-table");
  const name = input.value.trim();
  if (!name) return;
  const button = document.getElementById("add-table");
  button.disabled = true;
  try {
    const response = await fetch("/table", { method: "POST", body: JSON.stringify({ name }),
      headers: { "Content-Type": "application/json", [KEY_HEADER]: key } });
    const answer = await response.json();
    if (!response.ok) {
      show("problem", describe(answer.error ?? { code: "hall.reject.bad_request", params: { field: "name" } }));
      return;
    }
    input.value = "";
    document.getElementById("table-added").hidden = false;
    document.getElementById("table-added-text").textContent = t("hall.organiser.table_added", { name, id: answer.id });
    document.getElementById("table-config").textContent = answer.config;
    await reload();
  } catch {
    show("problem", t("hall.link.lost"));
  } finally {
    button.disabled = false;
  }
}

async function copyConfig() {
  const button = document.getElementById("copy-config");
  try {
    await navigator.clipboard.writeText(document.getElementById("table-config").textContent);
    button.textContent = t("hall.organiser.copied");
  } catch {
    button.textContent = t("hall.organiser.copy_failed");
  }
}

// Check-in: the QR code of tonight's check-in link (players tap their own name on it), how many checked
// in, "Tick those checked in" for the seating form, and "New check-in" (two taps: a new code, nobody in).
let newArmed = false;

function drawCheckin(here) {
  if (!data?.checkin_code) return;
  document.getElementById("checkin").hidden = false;
  const qr = document.getElementById("checkin-qr");
  const wanted = `/checkin-qr.svg?key=${encodeURIComponent(key)}&code=${encodeURIComponent(data.checkin_code)}`;
  if (qr.getAttribute("src") !== wanted) qr.src = wanted;  // a new code: a new picture
  const link = `${location.origin}/checkin?code=${encodeURIComponent(data.checkin_code)}`;
  const anchor = document.getElementById("checkin-link");
  anchor.href = link;
  anchor.textContent = link;
  const names = data.players.filter((p) => here.has(p.id)).map((p) => p.name);
  document.getElementById("checkin-count").textContent = names.length
    ? t("hall.organiser.checked_in", { count: names.length, names: names.join(", ") }) : t("hall.organiser.nobody_checked_in");
  const button = document.getElementById("new-checkin");
  button.textContent = t(newArmed ? "hall.organiser.new_checkin_confirm" : "hall.organiser.new_checkin");
  if (newArmed) button.dataset.armed = "1";
  else delete button.dataset.armed;
}

function tickChecked() {
  const here = new Set(data?.checked_in ?? []);
  const dropped = new Set(data?.dropped ?? []);
  for (const input of document.querySelectorAll("input[name='present']")) input.checked = here.has(input.value) && !dropped.has(input.value);
  count();
  clearAnswer();
}

async function newCheckin() {
  if (!newArmed) {
    newArmed = true;
    drawCheckin(new Set(data?.checked_in ?? []));
    setTimeout(() => { newArmed = false; drawCheckin(new Set(data?.checked_in ?? [])); }, 5000);
    return;
  }
  newArmed = false;
  const response = await fetch("/checkin/new", { method: "POST", body: "{}",
    headers: { "Content-Type": "application/json", [KEY_HEADER]: key } });
  if (!response.ok) show("problem", describe((await response.json()).error ?? { code: "hall.reject.bad_request" }));
  await reload();
}

document.getElementById("seat-form").addEventListener("submit", seat);
document.getElementById("tick-checked").addEventListener("click", tickChecked);
document.getElementById("new-checkin").addEventListener("click", newCheckin);
document.getElementById("add-table").addEventListener("click", addTable);
document.getElementById("copy-config").addEventListener("click", copyConfig);
document.getElementById("add-player").addEventListener("click", addPlayer);
document.getElementById("scoring-form").addEventListener("submit", saveScoring);
document.getElementById("game").addEventListener("change", podLimits);
document.getElementById("present").addEventListener("change", count);
document.getElementById("seat-form").addEventListener("change", clearAnswer);
document.getElementById("all-players").addEventListener("click", () => pickAll(true));
document.getElementById("no-players").addEventListener("click", () => pickAll(false));
await setupLanguage("hall.organiser.title", () => {
  draw();
  drawAnswers();
});
let seenVersion = null;
let seenCheckins = null;
follow((snap) => {
  snapshot = snap;
  drawAnswers();
  const checkins = snap.hall?.checked_in ?? 0;
  if (seenCheckins !== null && checkins !== seenCheckins) reload();  // a player checked in: shown at once
  seenCheckins = checkins;
  const results = (snap.standings ?? []).reduce((n, r) => n + (r.games ?? 0), 0) + (snap.casual ?? []).length;
  if (seenVersion !== null && results !== seenVersion) reload();  // a result came in: the list to correct
  seenVersion = results;
});
const response = await fetch("/organiser.json", { cache: "no-cache", headers: { [KEY_HEADER]: key } });
if (response.ok) {
  data = await response.json();
  draw();
} else {
  show("problem", describe((await response.json()).error ?? { code: "hall.reject.not_organiser" }));
}
