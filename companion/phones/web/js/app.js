// The phone page: join (from the QR code's link, or the seat kept from before), then show the table and
// this seat's own view, and send the prompts' forms. Nothing secret goes to the console.

import { el } from "./dom.js";
import { entered, form, promptKey, restore } from "./forms.js";
import { describe, load, t, translatePage } from "./i18n.js";
import { Link } from "./link.js";
import { draw, setClockOffset, tick } from "./render.js";
import * as seats from "./seat.js";

const LANG_KEY = "companion.lang";
const TOAST_MS = 4000;
const CLOCK_SYNC_MS = 60000;

const page = {
  seat: null, kind: null, link: null, publicView: null, seatView: null, newest: null, languages: null,
  promptsKey: null, formStates: new Map(), linkState: "connecting", refereeOnline: true,
};

function $(id) {
  return document.getElementById(id);
}

function pickLanguage(info, seat) {
  const known = Object.keys(info.languages);
  const chosen = localStorage.getItem(LANG_KEY);
  if (known.includes(chosen)) return chosen;
  if (seat?.lang && known.includes(seat.lang)) return seat.lang;
  for (const wanted of navigator.languages ?? []) {
    const base = wanted.toLowerCase().split("-")[0];
    if (known.includes(base)) return base;
  }
  return info.default;
}

async function setLanguage(lang) {
  await load(lang);
  $("lang").value = lang;
  translatePage();
  showLink();
  page.promptsKey = null; // labels change: draw the forms again
  redraw();
}

function showLink() {
  $("link").dataset.state = page.linkState;
  const word = { connecting: "phone.connecting", online: "phone.online", reconnecting: "phone.reconnecting",
    refused: "phone.login_refused" }[page.linkState];
  $("link").textContent = page.linkState === "refused" ? "" : t(word);
}

function toast(text, ok) {
  const node = $("toast");
  node.textContent = text;
  node.dataset.ok = String(ok);
  node.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { node.hidden = true; }, TOAST_MS);
}

function drawForms(view) {
  const prompts = view.prompts ?? [];
  const key = JSON.stringify(prompts.map(promptKey));
  if (key === page.promptsKey) return;
  page.promptsKey = key;
  const holder = $("forms");
  const before = new Map([...holder.querySelectorAll("form.prompt")].map((f) => [f.dataset.key, entered(f)]));
  const forms = prompts.map((p) => form(p, (move, args) => page.link.send(move, args), page.formStates));
  holder.replaceChildren(...(forms.length ? forms : [el("p", { class: "meta", text: t("phone.no_actions") })]));
  for (const f of forms) if (before.has(f.dataset.key)) restore(f, before.get(f.dataset.key));
}

function redraw() {
  const view = page.newest;
  if (!view || !page.seat) return;
  draw(view, page.kind);
  $("actions").hidden = page.kind.kind === "spectator";
  if (page.seatView) drawForms(page.seatView);
  $("referee-offline").hidden = page.refereeOnline;
}

function onReply(reply) {
  const state = page.formStates.get(reply.id);
  const text = reply.ok ? t("phone.accepted") : t("phone.rejected", { reason: describe(reply.reason ?? {}, page.newest?.players ?? []) });
  if (state) {
    state.textContent = text;
    state.dataset.ok = String(Boolean(reply.ok));
    page.formStates.delete(reply.id);
  }
  toast(text, Boolean(reply.ok));
}

function showJoin(problem) {
  $("seat").hidden = true;
  $("join").hidden = false;
  $("join-problem").hidden = !problem;
  if (problem) $("join-problem").textContent = t(problem);
}

function join(seat) {
  page.seat = seat;
  page.kind = seats.kind(seat);
  $("join").hidden = true;
  $("seat").hidden = false;
  page.link = new Link(seat, {
    state: (name) => {
      page.linkState = name;
      showLink();
      if (name === "refused") {
        seats.forget(seat);
        page.seat = null;
        showJoin("phone.login_refused");
      }
      console.info(`companion: link ${name}`);
    },
    status: (word) => {
      page.refereeOnline = word === "online" || word === "headless"; // headless: the table has no screen
      $("referee-offline").hidden = page.refereeOnline;
      $("no-screen").hidden = word !== "headless";
    },
    // A seat's own view holds the public view too and changes whenever it does: once it has come, it is
    // what the page draws; the public view is for spectators and for the moment before it comes.
    publicView: (view) => {
      page.publicView = view;
      if (!page.seatView) {
        page.newest = view;
        redraw();
      }
    },
    seatView: (view) => { page.seatView = view; page.newest = view; redraw(); },
    reply: onReply,
  });
  page.link.start();
}

async function syncClock() {
  try {
    const sent = Date.now();
    const response = await fetch("/clock", { cache: "no-store" });
    const { now } = await response.json();
    const back = Date.now();
    setClockOffset(now + (back - sent) / 2 - back);
    tick();
  } catch {
    // keep the last offset; the timers still count down on this phone's clock
  }
}

async function main() {
  const seat = seats.fromFragment() ?? seats.stored();
  page.languages = await (await fetch("/i18n/languages.json", { cache: "no-cache" })).json();
  const select = $("lang");
  select.replaceChildren(...Object.entries(page.languages.languages).map(([code, name]) => el("option", { value: code, text: name })));
  select.addEventListener("change", () => { localStorage.setItem(LANG_KEY, select.value); setLanguage(select.value); });
  await setLanguage(pickLanguage(page.languages, seat));
  $("leave").addEventListener("click", () => {
    page.link?.stop();
    seats.forget(page.seat);
    page.seat = null;
    showJoin(null);
  });
  if (!seat) {
    showJoin(null);
    return;
  }
  join(seat);
  syncClock();
  setInterval(syncClock, CLOCK_SYNC_MS);
  setInterval(tick, 250);
  const wake = () => {
    page.link?.wake();
    syncClock();
  };
  document.addEventListener("visibilitychange", () => { if (!document.hidden) wake(); });
  window.addEventListener("online", wake);
}

main();
