// Player-facing text: message ids looked up in the catalog the server exports from the .po files
// (/i18n/<lang>.json), placeholders filled like companion.i18n.translate does on the Pi.

const TRANSLATED_PARAM_PREFIXES = ["kind.", "sender.", "reject."];
// Params that name a sender or a player, or a list of players (as companion/naming.py, which names every view
// the page is sent: this is for a view that did not come through it).
const WHO_PARAMS = ["by", "player", "players", "target", "attacker", "defender", "loser", "sheriff", "ranking",
  "winner", "option", "names", "owner", "victim", "first", "second", "holder", "giver", "receiver", "to", "from", "with",
  "who"];
let messages = {};
let language = "en";

export async function load(lang) {
  const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`catalog ${lang}: HTTP ${response.status}`);
  messages = await response.json();
  language = lang;
  document.documentElement.lang = lang === "zh" ? "zh-Hans" : lang;
}

function shown(value) {
  if (Array.isArray(value)) return value.map(String).join(", ");
  // A text a game's data file brings in every language ({en, zh, th}, e.g. a Betrayal side's goals).
  if (value !== null && typeof value === "object") return String(value[language] ?? value.en ?? "");
  if (typeof value === "string" && TRANSLATED_PARAM_PREFIXES.some((p) => value.startsWith(p))) {
    return messages[value] ?? value;
  }
  return String(value);
}

// A said value (companion/naming.py: a name, or words in every language) in this page's language.
export function inWords(value) {
  return shown(value);
}

// The text of `id` with its {placeholders} filled; a missing param stays as {name}, an unknown id is itself.
export function t(id, params = {}) {
  const template = messages[id] ?? id;
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)(:[^{}]*)?\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? shown(params[name]) : whole);
}

// An announcement's or a rejection's text: {msg|code, params}.
export function describe(obj, players = []) {
  return t(obj.msg ?? obj.code, withNames(obj.params ?? {}, players));
}

// Player ids shown as the players' names, senders as words (as the console does).
export function withNames(params, players) {
  const names = Object.fromEntries(players.map((p) => [p.id, p.name]));
  const out = { ...params };
  const named = (value) => {
    if (Array.isArray(value)) return value.map(named);
    if (typeof value !== "string") return value;
    const pid = value.startsWith("player:") ? value.slice(7) : value;
    if (Object.prototype.hasOwnProperty.call(names, pid)) return names[pid];
    return ["host", "table", "clock"].includes(value) ? `sender.${value}` : value;
  };
  for (const key of WHO_PARAMS) {
    if (Object.prototype.hasOwnProperty.call(out, key)) out[key] = named(out[key]);
  }
  return out;
}

// Fill every element marked data-t (text) or data-t-label (aria-label) with its message.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  document.title = t("phone.title");
}
