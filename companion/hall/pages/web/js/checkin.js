// The check-in page (/checkin?code=C, the QR code on the organiser's page): a player taps their own name
// and is checked in for tonight (companion/hall/checkin.py); the organiser's page sees it live. Names,
// never ids; a refusal (an old link) is said in words.

import { el } from "./dom.js";
import { describe, t } from "./i18n.js";
import { follow, hallName, setupLanguage } from "./hall-data.js";

const code = new URLSearchParams(location.search).get("code") ?? "";
let players = null;

function say(id, text) {
  for (const other of ["checked", "checkin-problem"]) document.getElementById(other).hidden = other !== id;
  document.getElementById(id).textContent = text;
}

function draw() {
  if (!players) return;
  const order = new Intl.Collator(document.documentElement.lang);
  const sorted = [...players].sort((a, b) => order.compare(String(a.name), String(b.name)));
  document.getElementById("names").replaceChildren(...sorted.map((p) => {
    const button = el("button", { type: "button", class: p.in ? "name here" : "name", "data-player": p.id,
      text: p.in ? t("hall.checkin.here", { name: String(p.name) }) : String(p.name) });
    button.addEventListener("click", () => checkIn(p, button));
    return el("li", {}, button);
  }));
}

async function load() {
  const response = await fetch(`/checkin.json?code=${encodeURIComponent(code)}`, { cache: "no-cache" });
  const answer = await response.json();
  if (!response.ok) {
    say("checkin-problem", describe(answer.error ?? { code: "hall.checkin.bad_code" }));
    players = [];
  } else {
    players = answer.players;
  }
  draw();
}

async function checkIn(player, button) {
  button.disabled = true;
  try {
    const response = await fetch("/checkin", { method: "POST", body: JSON.stringify({ code, player: player.id }),
      headers: { "Content-Type": "application/json" } });
    const answer = await response.json();
    if (!response.ok) {
      say("checkin-problem", describe(answer.error ?? { code: "hall.checkin.bad_code" }));
      return;
    }
    say("checked", t("hall.checkin.done", { name: String(answer.name) }));
    await load();
  } catch {
    say("checkin-problem", t("hall.link.lost"));
  } finally {
    button.disabled = false;
  }
}

await setupLanguage("hall.checkin.title", draw);
follow((snap) => hallName(snap));
await load();
