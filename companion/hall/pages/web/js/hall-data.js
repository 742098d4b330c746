// The hall's snapshot, kept fresh: Server-Sent Events on /events say a new version is out, the page then
// fetches /hall.json (one fetch at a time; a version that came meanwhile is fetched right after). Should
// the stream be refused (the hall's streams are full) or break for good, /hall.json is fetched every
// POLL_MS instead. The hall's clock: `hall.now_ms` in each snapshot, against this device's clock.

import { el } from "./dom.js";
import { load, t, translatePage } from "./i18n.js";

// Every hall page's bar (its title, the hall's name, the links, the live dot, the language menu), made
// here once for all of them: this module is the first each page's script imports. The title's message
// id is the header's `data-title` (the hall's own title if none).
const bar = document.querySelector("header.bar");
if (bar && !bar.children.length) {
  const title = /^[a-z0-9_.]+$/.test(bar.dataset.title ?? "") ? bar.dataset.title : "hall.title";
  bar.innerHTML = [
    `  <h1 id="title" data-t="${title}"></h1>`,
    `  <p id="hall-name" class="hall-name"></p>`,
    `  <nav class="links">`,
    `    <a href="/" data-t="hall.nav.tables"></a>`,
    `    <a href="/standings" data-t="hall.nav.standings"></a>`,
    `    <a href="/seating" data-t="hall.nav.seating"></a>`,
    `  </nav>`,
    `  <span id="link" class="link" data-state="connecting" role="status"></span>`,
    `  <select id="lang" data-t-label="phone.language"></select>`,
  ].join("\n");  // constants and a checked message id: nothing from the network
}

const LANG_KEY = "companion.lang";
const POLL_MS = 5000;
let clockOffset = 0; // the hall's clock minus this device's, in ms

export function hallNow() {
  return Date.now() + clockOffset;
}

function pickLanguage(info) {
  const known = Object.keys(info.languages);
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && known.includes(asked)) return asked;
  const kept = localStorage.getItem(LANG_KEY);
  if (kept && known.includes(kept)) return kept;
  for (const wanted of navigator.languages ?? []) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (known.includes(code)) return code;
  }
  return info.default;
}

// Load the page's language and fill the language menu; `redraw` runs after each change of language.
export async function setupLanguage(titleId, redraw) {
  const info = await (await fetch("/i18n/languages.json", { cache: "no-cache" })).json();
  const select = document.getElementById("lang");
  select.replaceChildren(...Object.entries(info.languages).map(([code, name]) => el("option", { value: code, text: name })));
  const apply = async (lang) => {
    await load(lang);
    select.value = lang;
    translatePage();
    document.title = t(titleId);
    redraw();
  };
  select.addEventListener("change", () => {
    localStorage.setItem(LANG_KEY, select.value);
    apply(select.value);
  });
  await apply(pickLanguage(info));
}

function showLink(state) {
  const node = document.getElementById("link");
  if (!node) return;
  node.dataset.state = state;
  node.textContent = t(`hall.link.${state}`);
}

// Call `onSnapshot(snapshot)` with the hall's snapshot now and at every change, for as long as the page is open.
export function follow(onSnapshot) {
  let fetching = false;
  let again = false;
  let polling = null;
  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const response = await fetch("/hall.json", { cache: "no-cache" });
      if (!response.ok) throw new Error(`hall.json: HTTP ${response.status}`);
      const snapshot = await response.json();
      clockOffset = (snapshot.hall?.now_ms ?? Date.now()) - Date.now();
      onSnapshot(snapshot);
      showLink(polling ? "polling" : "live");
    } catch {
      showLink("lost");
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  };
  const events = new EventSource("/events");
  events.addEventListener("version", refresh);
  events.addEventListener("error", () => {
    if (events.readyState === EventSource.CLOSED && !polling) {
      polling = setInterval(refresh, POLL_MS);
      refresh();
    } else if (events.readyState !== EventSource.CLOSED) {
      showLink("lost");
    }
  });
  refresh();
}

export function hallName(snapshot) {
  const node = document.getElementById("hall-name");
  if (node) node.textContent = snapshot.hall?.name ?? "";
}
