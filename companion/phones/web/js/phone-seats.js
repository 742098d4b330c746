// The host's page: which seats a phone holds (never which phone), from the host view's `phone_seats`,
// with a button to release a seat in two steps (its phone is dropped and its code changes,
// docs/phones.md), and each free seat's link (its code), so a table without a screen can seat a
// newcomer: the host shares the link (the phone's share sheet, or copied). It is not a link to open
// here: opened on the host's phone it would take the seat for that phone.

import { card, el } from "./dom.js";
import { confirmStep } from "./confirm.js";
import { t, translatePage } from "./i18n.js";

let asking = null; // the player whose release waits for its second step (kept across redraws)

// The join link of a free seat's code, as the kiosk's QR code carries it (companion/phones/join.py).
export function codeLink(hostSeat, code) {
  const fragment = new URLSearchParams({ v: "1", ws: hostSeat.ws, t: hostSeat.base, u: code[0], p: code[1] });
  return `${location.origin}/#${fragment.toString()}`;
}

async function share(name, link) {
  try {
    if (navigator.share) await navigator.share({ title: name, url: link });
    else await navigator.clipboard.writeText(link);
  } catch {
    // the share sheet closed, or no clipboard on plain http: the link is on the screen to copy by hand
  }
}

export function phoneSeats(view, release, hostSeat) {
  const seats = view.phone_seats?.players;
  if (!seats) return null;
  const codes = view.phone_seats?.codes ?? {};
  const rows = (view.players ?? []).filter((p) => p.id in seats).map((p) => {
    const bound = Boolean(seats[p.id]);
    const code = Array.isArray(codes[p.id]) ? codes[p.id] : null;
    const link = !bound && code && hostSeat ? codeLink(hostSeat, code) : null;
    const ask = () => { asking = p.id; redrawRow(); };
    const row = el("div", { class: "item seat", "data-player": p.id, "data-bound": String(bound) });
    const redrawRow = () => {
      const confirm = bound && asking === p.id ? confirmStep({
        question: t("phone.seat.release_confirm", { name: p.name }), yes: t("phone.seat.release_yes"),
        no: t("phone.seat.release_no"),
        onYes: () => { asking = null; release(p.id); redrawRow(); },
        onNo: () => { asking = null; redrawRow(); },
      }) : null;
      row.replaceChildren(...[
        el("div", { class: "seat-row", "data-player": p.id, "data-bound": String(bound) },
          el("span", { class: "name", text: t(bound ? "phone.seat.bound" : "phone.seat.open", { name: p.name }) }),
          bound ? el("button", { type: "button", class: "release", text: t("phone.seat.release"), onclick: ask }) : null),
        link ? el("div", { class: "seat-code" },
          el("span", { text: t("phone.seat.code_link", { name: p.name }) }),
          el("code", { class: "code-link", text: link }),
          el("button", { type: "button", class: "share", text: t("phone.seat.share"), onclick: () => share(p.name, link) }))
          : null,
        confirm].filter(Boolean));
    };
    redrawRow();
    return row;
  });
  const node = card("phone-seats", "phone.section.seats", rows);
  translatePage(node);
  return node;
}
