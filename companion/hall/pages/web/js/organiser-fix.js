// The organiser's corrections on their page (docs/hall.md, "Corrections from the organiser's page"):
// each recent result with Edit (places chosen per player) and Void, each table of the round with Cancel
// and Re-seat, each player with Rename, Drop/Re-enter, Merge into another and Remove. Destructive ones
// (void, cancel, merge, remove) take two taps: the first arms the button ("Tap again to ..."), a second
// within ARM_MS makes it. What was done is said afterwards with an Undo where the log allows it, and the
// log lists every correction with who made it and when (Undo there too). Names, never ids.

import { el } from "./dom.js";
import { describe, t } from "./i18n.js";
import { gameName } from "./table-card.js";

const UNDOABLE = new Set(["void_result", "edit_result", "cancel_seating", "rename_player", "merge_players", "remove_player"]);
const ARM_MS = 5000;

export function fixes({ key, keyHeader, getData, getSnapshot, reload, reseatForm }) {
  let armed = null; // the button armed for its second tap: "void:t1/key", "remove:pid", ...
  let editing = null; // the open editor: "edit:t1/key", "rename:pid", "merge:pid"

  function tableName(id) {
    const tables = [...(getSnapshot()?.tables ?? []), ...(getData()?.tables ?? [])];
    const found = tables.find((table) => table.id === id);
    return String(found?.name || id || "");
  }

  // A player's name: as the log kept it (`names`), else the roster's; `current`: the roster's first (a
  // result's own names may be cut to what a table shows, or older than a rename).
  function playerName(pid, names = {}, current = false) {
    const roster = Object.fromEntries((getData()?.players ?? []).map((p) => [p.id, p.name]));
    return String((current ? roster[pid] ?? names[pid] : names[pid] ?? roster[pid]) ?? pid ?? "");
  }

  // A correction in words ({table}, {player}, ...): for the log and for what was just done.
  function params(kind, args) {
    const names = args.names ?? {};
    const listed = (args.tables ?? []).map((id) => tableName(id)).join(", ");
    const rule = args.scoring?.rule ? t(`hall.organiser.scoring.${args.scoring.rule}`) : "";
    return { table: tableName(args.table), player: playerName(args.player, names), into: playerName(args.into, names),
      name: String(args.name ?? ""), tables: listed, round: args.round ?? "", rule };
  }

  function said(c) {
    const args = c.args ?? {};
    if (c.kind === "undo") {
      return t("hall.organiser.did.undo", { what: said({ kind: String(args.undone ?? ""), args }) });
    }
    const id = `hall.organiser.did.${c.kind}`;
    return t(id) === id ? String(c.kind) : t(id, params(c.kind, args));
  }

  function say(kind, args, seq) {
    const box = document.getElementById("corrected");
    document.getElementById("correction-problem").hidden = true;
    box.hidden = false;
    const id = `hall.organiser.done.${kind}`;
    const text = t(id) === id ? t("hall.organiser.corrected") : t(id, params(kind, args));
    const undo = Number.isInteger(seq) && UNDOABLE.has(kind)
      ? button(t("hall.organiser.undo"), () => send("undo", { seq }, { undone: kind, ...args }), "undo-last") : null;
    box.replaceChildren(...[el("span", { text }), undo ? " " : null, undo].filter((node) => node !== null)); // null is written "null"
  }

  function refuse(text) {
    document.getElementById("corrected").hidden = true;
    const box = document.getElementById("correction-problem");
    box.hidden = false;
    box.textContent = text;
  }

  // One correction; `shown`: what to say it did (an undo says what it took back).
  async function send(kind, args, shown = args) {
    try {
      const response = await fetch("/correction", { method: "POST", body: JSON.stringify({ kind, args }),
        headers: { "Content-Type": "application/json", [keyHeader]: key } });
      const answer = await response.json();
      if (!response.ok) {
        refuse(describe(answer.error ?? { code: "hall.correction.unknown" }));
        return false;
      }
      editing = null;
      if (kind === "undo") {
        const box = document.getElementById("corrected");
        document.getElementById("correction-problem").hidden = true;
        box.hidden = false;
        box.replaceChildren(el("span", { text: t("hall.organiser.did.undo", { what: said({ kind: shown.undone, args: shown }) }) }));
      } else {
        say(kind, shown, answer.seq);
      }
      await reload();
      return true;
    } catch {
      refuse(t("hall.link.lost"));
      return false;
    }
  }

  function button(label, onTap, name = null) {
    const node = el("button", { type: "button", class: "quiet", text: label, "data-do": name });
    node.addEventListener("click", async () => {
      node.disabled = true;
      try {
        await onTap(node);
      } finally {
        node.disabled = false;
      }
    });
    return node;
  }

  // A destructive control: the first tap arms it (its label says what a second tap does), a second tap
  // within ARM_MS acts; otherwise it disarms by itself.
  function twoStep(id, label, confirm, act, name) {
    const node = button(t(armed === id ? confirm : label), async (node) => {
      if (armed !== id) {
        armed = id;
        node.textContent = t(confirm);
        node.dataset.armed = "1";
        setTimeout(() => { if (armed === id) { armed = null; draw(); } }, ARM_MS);
        return;
      }
      armed = null;
      await act();
    }, name);
    if (armed === id) node.dataset.armed = "1";
    return node;
  }

  // An editor's Save is disabled until the hall answers: one tap, one correction.
  async function sending(form, act) {
    const save = form.querySelector("button[type='submit']");
    if (save.disabled) return;
    save.disabled = true;
    try {
      await act();
    } finally {
      save.disabled = false;
    }
  }

  function toggleEditor(id) {
    editing = editing === id ? null : id;
    draw();
  }

  // The ranking editor: each player's place (1 = won; equal places are a tie).
  function rankingEditor(r, id) {
    const places = new Map();
    (r.ranking ?? []).forEach((group, i) => group.forEach((pid) => places.set(pid, i + 1)));
    const players = r.players ?? [];
    const rows = players.map((p) => el("label", { class: "field inline" }, el("span", { text: playerName(p.id, { [p.id]: p.name }, true) }),
      el("select", { name: "place", "data-player": p.id },
        ...players.map((_, i) => el("option", { value: String(i + 1), text: t("hall.organiser.place", { place: i + 1 }),
          selected: places.get(p.id) === i + 1 })))));
    const form = el("form", { class: "editor", "data-editor": id }, ...rows,
      el("p", { class: "row" }, el("button", { type: "submit", class: "quiet", text: t("hall.organiser.save") }), " ",
        button(t("hall.organiser.cancel_edit"), () => toggleEditor(id))));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = [...form.querySelectorAll("select[name='place']")].map((s) => [Number(s.value), s.dataset.player]);
      const byPlace = new Map();
      for (const [place, pid] of chosen) byPlace.set(place, [...(byPlace.get(place) ?? []), pid]);
      const ranking = [...byPlace.keys()].sort((a, b) => a - b).map((place) => byPlace.get(place));
      await sending(form, () => send("edit_result", { table: r.table, key: r.key, ranking }));
    });
    return form;
  }

  function resultLine(r) {
    const names = Object.fromEntries((r.players ?? []).map((p) => [p.id, playerName(p.id, { [p.id]: p.name }, true)]));
    const ranking = (r.ranking ?? []).map((g) => g.map((pid) => names[pid] ?? String(pid)).join(" / ")).join(" > ");
    const text = t("hall.organiser.result", { table: tableName(r.table), game: gameName(String(r.game)),
      round: r.round ?? "-", ranking, how: t(`hall.organiser.how.${r.how}`) });
    const id = `${r.table}/${r.key}`;
    const live = r.how !== "void";
    return el("li", { "data-result": id, "data-how": r.how }, el("span", { text }), " ",
      live ? button(t("hall.organiser.edit"), () => toggleEditor(`edit:${id}`), "edit") : null, " ",
      live ? twoStep(`void:${id}`, "hall.organiser.void", "hall.organiser.void_confirm",
        () => send("void_result", { table: r.table, key: r.key }), "void") : null,
      editing === `edit:${id}` ? rankingEditor(r, `edit:${id}`) : null);
  }

  function renameEditor(p) {
    const input = el("input", { type: "text", name: "rename", maxLength: 64, value: p.name, autocomplete: "off" });
    const form = el("form", { class: "editor row", "data-editor": `rename:${p.id}` },
      el("label", { class: "field inline" }, el("span", { text: t("hall.organiser.new_name") }), input), " ",
      el("button", { type: "submit", class: "quiet", text: t("hall.organiser.save") }), " ",
      button(t("hall.organiser.cancel_edit"), () => toggleEditor(`rename:${p.id}`)));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      await sending(form, () => send("rename_player", { player: p.id, name: input.value.trim() },
        { player: p.id, names: { [p.id]: p.name }, name: input.value.trim() }));
    });
    return form;
  }

  function mergeEditor(p) {
    const others = (getData()?.players ?? []).filter((o) => o.id !== p.id);
    const select = el("select", { name: "into" }, ...others.map((o) => el("option", { value: o.id, text: o.name })));
    const id = `merge:${p.id}`;
    return el("div", { class: "editor row", "data-editor": id },
      el("label", { class: "field inline" }, el("span", { text: t("hall.organiser.merge_into", { name: p.name }) }), select), " ",
      twoStep(`merge-go:${p.id}`, "hall.organiser.merge_go", "hall.organiser.merge_confirm",
        () => send("merge_players", { player: p.id, into: select.value },
          { player: p.id, into: select.value, names: { [p.id]: p.name, [select.value]: playerName(select.value) } }), "merge-go"),
      " ", button(t("hall.organiser.cancel_edit"), () => toggleEditor(id)));
  }

  function playerLine(p, dropped) {
    const out = dropped.has(p.id);
    const shown = { player: p.id, names: { [p.id]: p.name } };
    return el("li", { "data-player": p.id },
      el("span", { text: out ? t("hall.organiser.dropped", { name: p.name }) : p.name }), " ",
      button(t("hall.organiser.rename"), () => toggleEditor(`rename:${p.id}`), "rename"), " ",
      button(t(out ? "hall.organiser.reenter" : "hall.organiser.drop"),
        () => send(out ? "reenter_player" : "drop_player", { player: p.id }, shown), out ? "reenter" : "drop"), " ",
      button(t("hall.organiser.merge"), () => toggleEditor(`merge:${p.id}`), "merge"), " ",
      twoStep(`remove:${p.id}`, "hall.organiser.remove", "hall.organiser.remove_confirm",
        () => send("remove_player", { player: p.id }, shown), "remove"),
      editing === `rename:${p.id}` ? renameEditor(p) : null,
      editing === `merge:${p.id}` ? mergeEditor(p) : null);
  }

  // The round's tables (the answers list): Cancel (two taps) and Re-seat (fills the seating form with
  // that table's players, "re-seat within the round" ticked: the organiser picks the table and seats).
  function tableControls(li, seating, id) {
    const data = getData();
    const cancelled = (data?.cancelled ?? []).some((c) => c.seating === seating.seating && c.table === id);
    if (cancelled) {
      li.dataset.state = "cancelled";
      li.replaceChildren(el("span", { class: "answer", text: t("hall.organiser.answer.cancelled", { table: tableName(id) }) }));
    }
    const players = (seating.tables?.[id] ?? []).map((p) => String(p?.id ?? ""));
    li.append(" ", button(t("hall.organiser.reseat_table"), () => reseatForm(players, id), "reseat"));
    if (!cancelled) {
      li.append(" ", twoStep(`cancel:${seating.seating}/${id}`, "hall.organiser.cancel_table", "hall.organiser.cancel_confirm",
        () => send("cancel_seating", { seating: seating.seating, table: id }, { table: id }), "cancel"));
    }
  }

  // A list is drawn again only when what it shows changed: a node is never replaced under a finger that is
  // about to tap it (a reload after every result came in moved the buttons between two taps).
  let drawn = "";

  // What the organiser has chosen or typed in an open editor (a merge's "into", a new name, a place) is
  // kept when the lists are drawn again: an arming tap or a live update must not put back the defaults
  // (a merge armed for one player then went to the first one in the list).
  function fieldKey(field) {
    return `${field.closest("[data-editor]").dataset.editor}|${field.name}|${field.dataset.player ?? ""}`;
  }

  function chosenInEditors() {
    const fields = document.querySelectorAll("#corrections [data-editor] select, #corrections [data-editor] input");
    return new Map([...fields].map((field) => [fieldKey(field), field.value]));
  }

  function restoreEditors(chosen) {
    for (const field of document.querySelectorAll("#corrections [data-editor] select, #corrections [data-editor] input")) {
      const value = chosen.get(fieldKey(field));
      if (value === undefined) continue;
      if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) continue;
      field.value = value;
    }
  }

  function draw() {
    const data = getData();
    if (!data?.results) return;
    const key = JSON.stringify([data.results, data.players, data.dropped, data.corrections, data.undone, armed, editing,
      document.documentElement.lang]);
    if (key === drawn) return;
    drawn = key;
    const chosen = chosenInEditors();
    document.getElementById("corrections").hidden = false;
    document.getElementById("results").replaceChildren(...[...data.results].reverse().map((r) => {
      try {
        return resultLine(r);
      } catch {
        return null;
      }
    }).filter(Boolean));
    const dropped = new Set(data.dropped ?? []);
    document.getElementById("roster").replaceChildren(...data.players.map((p) => playerLine(p, dropped)));
    const undone = new Set(data.undone ?? []);
    document.getElementById("log").replaceChildren(...[...(data.corrections ?? [])].reverse().map((c) => {
      try {
        const text = t("hall.organiser.log_entry", {
          time: new Date(c.at_ms).toLocaleString(document.documentElement.lang), who: String(c.who), kind: said(c) });
        const undo = UNDOABLE.has(c.kind) && !undone.has(c.seq)
          ? button(t("hall.organiser.undo"), () => send("undo", { seq: c.seq }, { undone: c.kind, ...c.args }), "undo") : null;
        return el("li", { "data-kind": c.kind, "data-undone": undone.has(c.seq) ? "1" : null },
          el("span", { text: undone.has(c.seq) ? t("hall.organiser.undone_entry", { entry: text }) : text }),
          undo ? " " : null, undo);
      } catch {
        return null;
      }
    }).filter(Boolean));
    restoreEditors(chosen);
  }

  // What the round's table controls look like now (the organiser's page draws them again when it changes).
  function state() {
    return `${armed}|${JSON.stringify(getData()?.cancelled ?? [])}`;
  }

  return { draw, send, state, tableControls, tableName };
}
