// The phone page: take the seat of the QR code's link (claim it with a password of this phone's own), or
// rejoin the seat kept from before, then show the table and this seat's own view, and send the prompts'
// forms. Nothing secret goes to the console.

import { el } from "./dom.js";
import { entered, form, promptWords, restore, settled } from "./forms.js";
import { describe, load, t, translatePage } from "./i18n.js";
import { claimSeat } from "./claim.js";
import { Link } from "./link.js";
import { confirmStep } from "./confirm.js";
import { hostControls } from "./host-controls.js";
import { hostPin, hostPinReply } from "./host-pin.js";
import { newGame } from "./new-game.js";
import { phoneSeats } from "./phone-seats.js";
import { draw, setClockOffset, tick } from "./render.js";
import * as seats from "./seat.js";

const LANG_KEY = "companion.lang";
const TOAST_MS = 4000;
const CLOCK_SYNC_MS = 60000;

const page = {
  seat: null, kind: null, link: null, publicView: null, seatView: null, newest: null, languages: null,
  promptsKey: null, formStates: new Map(), linkState: "connecting", refereeOnline: true, leaving: null,
  wasOnline: false,
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
  if (page.linkState === "online") page.wasOnline = true;
  // the link lost after it was up: say so at the top and dim what may be out of date
  const stale = page.wasOnline && page.linkState !== "online" && page.linkState !== "refused";
  document.body.dataset.stale = String(stale);
  $("link-lost").hidden = !stale;
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
  const players = view.players ?? [];
  const key = JSON.stringify(prompts.map((p) => promptWords(p, players)));
  if (key === page.promptsKey) return;
  page.promptsKey = key;
  const holder = $("forms");
  const before = new Map([...holder.querySelectorAll("form.prompt")].map((f) => [f.dataset.key, entered(f)]));
  const forms = prompts.map((p) => form(p, (move, args) => page.link.send(move, args), page.formStates, players));
  if (page.promptsKey !== null && forms.some((f) => !before.has(f.dataset.key))) bringIntoView(holder); // a new prompt
  holder.replaceChildren(...(forms.length ? forms : [el("p", { class: "meta", text: t("phone.no_actions") })]));
  for (const f of forms) if (before.has(f.dataset.key)) restore(f, before.get(f.dataset.key));
}

function redraw() {
  const view = page.newest;
  if (!view || !page.seat) return;
  draw(view, page.kind);
  $("actions").hidden = page.kind.kind === "spectator";
  if (page.seatView) drawForms(page.seatView);
  const seatsCard = page.kind.kind === "host" && page.seatView
    ? phoneSeats(page.seatView, (pid) => page.link.send("seat.release", { player: pid }), page.seat) : null;
  $("phone-seats").replaceChildren(...(seatsCard ? [seatsCard] : []));
  const controlsCard = page.kind.kind === "host" && page.seatView
    ? hostControls(page.seatView, (move, args) => page.link.send(move, args)) : null;
  $("host-controls").replaceChildren(...(controlsCard ? [controlsCard] : []));
  const newGameCard = page.kind.kind === "host" && page.seatView
    ? newGame(page.seatView, (move, args) => page.link.send(move, args), redraw) : null;
  if ($("new-game-holder").firstChild !== newGameCard) $("new-game-holder").replaceChildren(...(newGameCard ? [newGameCard] : []));
  const pinCard = page.kind.kind === "host" && page.seatView
    ? hostPin(page.seatView, (move, args) => page.link.send(move, args, { secret: true })) : null;
  if ($("host-pin-holder").firstChild !== pinCard) $("host-pin-holder").replaceChildren(...(pinCard ? [pinCard] : []));
  $("referee-offline").hidden = page.refereeOnline;
}

function onReply(reply) {
  settled(reply.id);
  if (page.leaving && reply.id === page.leaving) {
    left(reply);
    return;
  }
  const pinWords = hostPinReply(reply, (reason) => describe(reason, page.newest?.players ?? []));
  if (pinWords) {
    toast(pinWords, Boolean(reply.ok));
    return;
  }
  const text = reply.ok ? t("phone.accepted") : t("phone.rejected", { reason: describe(reply.reason ?? {}, page.newest?.players ?? []) });
  for (const state of page.formStates.get(reply.id) ?? []) {
    state.textContent = text;
    state.dataset.ok = String(Boolean(reply.ok));
  }
  page.formStates.delete(reply.id);
  toast(text, Boolean(reply.ok));
}

// A command made while the link was down, dropped because the table changed meanwhile: say so where
// it was made, and ask again (the form is there, drawn from the new view).
function onStale(command) {
  settled(command.id);
  if (hostPinReply({ id: command.id, ok: false, reason: { code: "phone.stale_command" } }, (r) => t(r.code))) return;
  const text = t("phone.stale_command");
  for (const state of page.formStates.get(command.id) ?? []) {
    state.textContent = text;
    state.dataset.ok = "false";
  }
  page.formStates.delete(command.id);
  toast(text, false);
  bringIntoView($("actions"));
}

// What changed for this phone comes into view (a new form, a dropped command) when none of it is on
// the screen, unless the player is typing into a form. Never on the host's page: its controls must not
// move under a finger (the host's own new forms come from the host's own taps).
function bringIntoView(node) {
  if (!node || node.hidden || page.kind?.kind === "host" || document.activeElement?.closest?.("form")) return;
  const box = node.getBoundingClientRect();
  if (box.bottom > 0 && box.top < window.innerHeight) return; // some of it is on the screen already
  node.scrollIntoView({ block: "start", behavior: "smooth" });
}

// Undo and corrections, said on the phones they touch: the host undid or amended an input (the view's
// `corrections` count grew: the table is told how many, never which) and this seat's view changed with
// it beyond the news.
function sayUndone(before, view) {
  if (!before || before.number !== view.number || !((view.corrections ?? 0) > (before.corrections ?? 0))) return;
  const rest = (v) => JSON.stringify({ ...v, corrections: 0, announced: 0, announcements: [] });
  if (rest(before) !== rest(view)) toast(t("phone.undone"), true);
}

// The join screen, with why the phone is there (translated text) if there is a reason.
function showJoin(problem, claiming = false) {
  $("seat").hidden = true;
  $("join").hidden = false;
  $("claiming").hidden = !claiming;
  $("join-help").hidden = claiming;
  $("join-problem").hidden = !problem;
  if (problem) $("join-problem").textContent = problem;
  $("take-back").hidden = true;
  document.body.dataset.stale = "false";
  $("link-lost").hidden = true;
}

// The phone's own "Leave this seat", after its second step: the table frees the seat (its code stays),
// so this phone (or anyone with the code) can take it back while it is free.
function leaveSeat() {
  const seat = page.seat;
  if (!seat) return;
  if (page.kind.kind === "spectator" || !page.link) {
    forgetSeat(seat);
    showJoin(null);
    return;
  }
  page.leaving = page.link.send("seat.leave", {});
  $("leave-state").textContent = t("phone.leaving");
}

function forgetSeat(seat) {
  page.link?.stop();
  page.link = null;
  seats.forget(seat);
  page.seat = null;
  page.publicView = page.seatView = page.newest = null;
  page.promptsKey = null;
}

function left(reply) {
  page.leaving = null;
  $("leave-state").textContent = "";
  if (!reply.ok) {
    toast(t("phone.rejected", { reason: describe(reply.reason ?? {}, page.newest?.players ?? []) }), false);
    return;
  }
  const code = seats.codeOf(page.seat);
  forgetSeat(page.seat);
  showJoin(t("phone.left"));
  if (code) {
    $("take-back").hidden = false;
    $("take-back").onclick = () => takeSeat(seats.claimWith(code));
  }
}

// Claim the code's seat; once granted, log in as the seat with this phone's own password.
async function takeSeat(claim) {
  page.linkState = "connecting";
  showLink();
  showJoin(null, true);
  console.info("companion: claiming a seat");
  const result = await claimSeat(claim);
  if (result.ok) {
    join(seats.bind(claim), null, true);
    return;
  }
  seats.forgetClaim();
  page.linkState = "refused";
  showLink();
  console.info(`companion: claim ${result.refused ? "refused" : result.reason.code}`);
  if (result.refused) showJoin(t("phone.login_refused"));
  else showJoin(describe(result.reason, []));
}

// The table started another game (a view with a newer `number`): log in as the new game's seat.
function followGame(seat, number) {
  if (page.seat !== seat || !(number > seats.gameOf(seat))) return false;
  console.info("companion: the table started another game");
  page.link?.stop();
  page.publicView = page.seatView = page.newest = null;
  page.promptsKey = null;
  join(seats.following(seat, number), null, true); // fresh: the broker may not have the new seats yet
  return true;
}

// Log in as `seat`; if the broker refuses it (released, or a new game), claim `fallback` if there is one.
// A refusal is first tried once against the next game's seat: the host may have started another game
// while this phone slept (its seat goes on there with the same password if its player plays on).
function join(seat, fallback = null, fresh = false, probing = false) {
  page.seat = seat;
  page.kind = seats.kind(seat);
  // a spectator watches, holds no seat: "Stop watching", never "Leave this seat"
  $("leave").dataset.t = page.kind.kind === "spectator" ? "phone.watch_stop" : "phone.leave";
  $("leave").textContent = t($("leave").dataset.t);
  $("join").hidden = true;
  $("seat").hidden = false;
  page.link = new Link(seat, {
    state: (name) => {
      page.linkState = name;
      showLink();
      if (name === "online") probing = false; // the seat logs in: a later refusal may be another new game
      if (name === "refused" && page.leaving) {
        // the table freed the seat (its password changed) before its reply reached this phone: left
        left({ id: page.leaving, ok: true });
        return;
      }
      if (name === "refused") {
        if (!probing && seats.gameOf(seat) !== null) {
          join(seats.following(seat, seats.gameOf(seat) + 1), fallback, true, true);
          return;
        }
        seats.forget(seat);
        page.seat = null;
        if (fallback) takeSeat(fallback);
        else showJoin(t("phone.seat_released"));
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
      if (followGame(seat, view.number)) return;
      page.publicView = view;
      if (!page.seatView) {
        page.newest = view;
        redraw();
      }
    },
    seatView: (view) => {
      if (followGame(seat, view.number)) return;
      sayUndone(page.seatView, view);
      page.seatView = view; page.newest = view; redraw();
    },
    reply: onReply,
    stale: onStale,
  }, fresh);
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
  // a seat's link opened in this very tab (the QR code scanned again): start afresh with it
  window.addEventListener("hashchange", () => { if (location.hash.startsWith("#v=")) location.reload(); });
  const link = seats.fromFragment();
  const seat = link ? link.seat : seats.stored();
  const claim = link ? link.claim : (seat ? null : seats.storedClaim()); // a reload in the middle of a claim
  page.languages = await (await fetch("/i18n/languages.json", { cache: "no-cache" })).json();
  const select = $("lang");
  select.replaceChildren(...Object.entries(page.languages.languages).map(([code, name]) => el("option", { value: code, text: name })));
  select.addEventListener("change", () => { localStorage.setItem(LANG_KEY, select.value); setLanguage(select.value); });
  await setLanguage(pickLanguage(page.languages, seat ?? claim));
  $("leave").addEventListener("click", () => {
    $("leave-holder").replaceChildren(confirmStep({
      question: t({ host: "phone.leave_confirm_host", spectator: "phone.watch_stop_confirm" }[page.kind?.kind]
        ?? "phone.leave_confirm"),
      yes: t(page.kind?.kind === "spectator" ? "phone.watch_stop" : "phone.leave_yes"), no: t("phone.leave_no"),
      onYes: () => { $("leave-holder").replaceChildren(); leaveSeat(); },
      onNo: () => $("leave-holder").replaceChildren(),
    }));
  });
  if (!seat && !claim) {
    showJoin(null);
    return;
  }
  // A seat's QR just scanned is fresh: the table shows a new game's codes as it hands their passwords to
  // the broker, so a phone that scans at once may be refused for a moment (seen on a busy table).
  if (seat) join(seat, claim, Boolean(link));
  else takeSeat(claim);
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
