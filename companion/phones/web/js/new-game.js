// The host's page: "New game" (issue 21, docs/phones.md), shown while the game has ended or has not
// begun. "Play again" (the same game, players and options) is one button; the form below chooses the
// game (its translated title), the players (the current ones, names editable, removable; a new name gets
// the first free id p1, p2, ...) and the game's options, from /games.json (companion/phones/offered.py:
// what the referee's own check takes). Both send `table.new_game`; the referee checks it all again.
//
// The form is built once per game state (its number, and whether it is under way), so a redraw for
// another view does not wipe what the host is typing.

import { card, el } from "./dom.js";
import { t, translatePage } from "./i18n.js";

const NAME_MAX = 24;
let offered = null; // /games.json, fetched once
let built = { key: null, node: null };

async function games() {
  if (offered === null) {
    const response = await fetch("/games.json", { cache: "no-cache" });
    offered = response.ok ? await response.json() : [];
  }
  return offered;
}

function underWay(view) {
  return !view.ended && Boolean(view.begun || view.corrections);
}

function freshId(used) {
  for (let n = 1; ; n += 1) if (!used.has(`p${n}`)) return `p${n}`;
}

function optionField(option, value) {
  const label = option.label ? t(option.label) : option.name;
  let input;
  if (option.kind === "choice") {
    input = el("select", { name: option.name },
      option.choices.map((c) => el("option", { value: c.value, text: c.label ? t(c.label) : c.value,
        selected: c.value === value })));
  } else if (option.kind === "boolean") {
    input = el("input", { type: "checkbox", name: option.name, checked: Boolean(value) });
  } else if (option.kind === "integer" || option.kind === "number") {
    input = el("input", { type: "number", name: option.name, value: String(value), inputmode: "numeric",
      min: option.minimum, max: option.maximum, step: option.kind === "integer" ? "1" : "any" });
  } else {
    input = el("input", { type: "text", name: option.name, value: String(value ?? "") });
  }
  return el("label", { class: "option", "data-option": option.name }, el("span", { class: "meta", text: label }), input);
}

function optionValue(option, input) {
  if (option.kind === "boolean") return input.checked;
  if (option.kind === "integer") return Number.parseInt(input.value, 10);
  if (option.kind === "number") return Number(input.value);
  return input.value;
}

function playerRow(player, onRemove) {
  const name = el("input", { type: "text", class: "player-name", value: player.name, maxLength: NAME_MAX,
    "data-player": player.id, "aria-label": t("phone.new_game.name") });
  return el("div", { class: "item new-player", "data-player": player.id }, name,
    el("button", { type: "button", class: "remove", text: t("phone.new_game.remove"), onclick: onRemove }));
}

function build(view, list, send) {
  const current = list.find((g) => g.id === view.game);
  const players = el("div", { class: "new-players" });
  const count = el("p", { class: "meta new-count" });
  const gameSelect = el("select", { id: "new-game-game", "aria-label": t("phone.new_game.game") },
    list.map((g) => el("option", { value: g.id, text: t(g.title), selected: g.id === view.game })));
  const options = el("div", { class: "new-options" });
  const start = el("button", { type: "button", class: "send", id: "new-game-start" });
  const chosen = () => list.find((g) => g.id === gameSelect.value);

  const rows = () => [...players.querySelectorAll(".new-player")];
  const recount = () => {
    const game = chosen();
    const n = rows().length;
    const fits = game && n >= game.low && n <= game.high;
    count.textContent = t(fits ? "phone.new_game.count" : "phone.new_game.count_bad",
      { count: n, low: game?.low ?? 0, high: game?.high ?? 0 });
    count.dataset.ok = String(Boolean(fits));
    start.disabled = !fits;
    start.textContent = t("phone.new_game.start", { title: game ? t(game.title) : "" });
  };
  const addRow = (player) => {
    const row = playerRow(player, () => { row.remove(); recount(); });
    players.append(row);
  };
  for (const p of view.players ?? []) addRow({ id: p.id, name: p.name });

  const newName = el("input", { type: "text", id: "new-game-name", maxLength: NAME_MAX,
    placeholder: t("phone.new_game.add_name"), "aria-label": t("phone.new_game.add_name") });
  const add = () => {
    const name = newName.value.trim();
    if (!name) return;
    addRow({ id: freshId(new Set(rows().map((r) => r.dataset.player))), name });
    newName.value = "";
    recount();
  };
  newName.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); add(); } });
  const addButton = el("button", { type: "button", id: "new-game-add", text: t("phone.new_game.add"), onclick: add });

  const drawOptions = () => {
    const game = chosen();
    const same = game?.id === view.game;
    const fields = (game?.options ?? []).map((o) => optionField(o, same && o.name in (view.options ?? {})
      ? view.options[o.name] : o.default));
    options.replaceChildren(...(fields.length ? fields : [el("p", { class: "meta", text: t("phone.new_game.no_options") })]));
    recount();
  };
  gameSelect.addEventListener("change", drawOptions);
  drawOptions();
  // Whether the host plays or moderates (docs/phones.md, "A moderator"): not a game option, the table's.
  const moderator = el("input", { type: "checkbox", id: "new-game-moderator", checked: Boolean(view.moderated) });
  const moderatorRow = el("label", { class: "option", "data-option": "moderator" },
    el("span", { class: "meta", "data-t": "phone.new_game.moderator" }), moderator);

  start.addEventListener("click", () => {
    const game = chosen();
    if (!game) return;
    const args = { game: game.id, players: rows().map((r) => ({ id: r.dataset.player,
      name: r.querySelector("input").value.trim() })), options: {} };
    const same = game.id === view.game;
    for (const [key, value] of Object.entries(view.options ?? {})) {
      if (same && !game.options.some((o) => o.name === key)) args.options[key] = value; // set up with the table
    }
    for (const o of game.options) args.options[o.name] = optionValue(o, options.querySelector(`[name="${o.name}"]`));
    if (moderator.checked) args.moderator = true;
    send("table.new_game", args);
  });

  const again = current ? el("button", { type: "button", class: "send", id: "play-again", text: t("phone.new_game.play_again"),
    onclick: () => send("table.new_game", { game: view.game, players: (view.players ?? []).map((p) => ({ id: p.id, name: p.name })),
      options: { ...(view.options ?? {}) }, ...(view.moderated ? { moderator: true } : {}) }) }) : null;
  // Before the game has begun the form is folded away: the game's own first steps come first.
  const node = card("new-game", "phone.section.new_game",
    view.ended && again ? again : null,
    el("details", { class: "new-form", open: Boolean(view.ended) },
      el("summary", { "data-t": "phone.new_game.choose" }),
      el("h3", { "data-t": "phone.new_game.game" }), gameSelect,
      el("h3", { "data-t": "phone.new_game.players" }), players, count,
      el("div", { class: "new-add" }, newName, addButton),
      el("h3", { "data-t": "phone.new_game.options" }), options, moderatorRow, start));
  translatePage(node);
  return node;
}

// The card for the host's view, or null while the game is under way. `redraw` is called once the
// list of games has come (the first time only).
export function newGame(view, send, redraw) {
  if (underWay(view)) {
    built = { key: null, node: null };
    return null;
  }
  if (offered === null) {
    games().then(redraw, () => { offered = []; });
    return null;
  }
  const key = JSON.stringify([view.number, view.ended, view.game, document.documentElement.lang]);
  if (built.key !== key) built = { key, node: build(view, offered, send) };
  return built.node;
}
