// A table whose host moderates and does not play (docs/phones.md, "A moderator"). Everyone is told (the
// public view's `moderated`); the host's own view, on the host's own topic only, carries the game's
// moderator view (companion/core/contract.py, `view_moderator`): who has which role, each ballot's voters
// and, once it is closed, its votes as cast, every hidden counter; other games' seats as lines.

import { card, el } from "./dom.js";
import { describe, t } from "./i18n.js";

function names(view) {
  return Object.fromEntries((view.players ?? []).map((p) => [p.id, p.name]));
}

// The notice every phone shows at a moderated table.
export function moderatedNotice(view, seatKind) {
  if (!view.moderated) return null;
  const words = seatKind.kind === "host" ? "phone.moderator.you" : "phone.moderator.table";
  return card("moderated", "phone.section.moderated", el("div", { class: "item", "data-t": words }));
}

function pairs(entries, cls) {
  return el("ul", { class: `totals ${cls}` }, entries.map(([who, what, pid]) =>
    el("li", { "data-player": pid ?? null }, el("span", { text: who }), el("span", { text: what }))));
}

// The moderator's card (the host's view only), or null.
export function moderatorCard(view, roleName) {
  const m = view.moderator;
  if (!m || typeof m !== "object") return null;
  const who = names(view);
  const said = (v) => who[v] ?? v;
  const items = [];
  for (const [name, d] of Object.entries(m.deals ?? {})) {
    items.push(el("div", { class: "item deal", "data-deal": name },
      el("div", { class: "name", text: t("phone.moderator.deal", { name }) }),
      pairs(Object.entries(d.assigned ?? {}).map(([pid, role]) => [said(pid), roleName(role), pid]), "roles"),
      (d.unused ?? []).length ? el("div", { class: "meta", text: t("phone.moderator.unused", { roles: d.unused.map(roleName) }) }) : null));
  }
  for (const [name, b] of Object.entries(m.ballots ?? {})) {
    const votes = b.votes ? Object.entries(b.votes).map(([pid, option]) => [said(pid), said(option), pid]) : null;
    items.push(el("div", { class: "item ballot-cast", "data-ballot": name },
      el("div", { class: "name", text: t("phone.moderator.ballot", { name }) }),
      el("div", { class: "meta", text: t("phone.moderator.voters", { names: (b.voters ?? []).map(said) }) }),
      votes ? (votes.length ? pairs(votes, "votes") : el("div", { class: "meta", text: t("phone.moderator.no_votes") }))
        : el("div", { class: "meta", text: (b.waiting_for ?? []).length
          ? t("phone.moderator.waiting", { names: b.waiting_for.map(said) }) : t("phone.moderator.all_voted") })));
  }
  for (const [name, values] of Object.entries(m.counters ?? {})) {
    items.push(el("div", { class: "item counter-values", "data-counter": name },
      el("div", { class: "name", text: name }),
      pairs(Object.entries(values).map(([pid, v]) => [said(pid), String(v), pid]), "values")));
  }
  for (const [pid, lines] of Object.entries(view.moderator_lines ?? {})) {
    items.push(el("div", { class: "item seat-lines", "data-player": pid }, el("div", { class: "name", text: said(pid) }),
      lines.map((line) => el("div", { class: "meta", text: describe(line, view.players ?? []) }))));
  }
  if (!items.length) items.push(el("div", { class: "meta", text: t("phone.moderator.nothing") }));
  const node = card("moderator", "phone.section.moderator", ...items);
  node.classList.add("secret");
  node.title = t("phone.secret");
  return node;
}
