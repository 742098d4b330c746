// The host's page: which seats a phone holds (never which phone), from the host view's `phone_seats`,
// with a button to release a seat (its phone is dropped and its code changes, docs/phones.md).

import { card, el } from "./dom.js";
import { t, translatePage } from "./i18n.js";

export function phoneSeats(view, release) {
  const seats = view.phone_seats?.players;
  if (!seats) return null;
  const rows = (view.players ?? []).filter((p) => p.id in seats).map((p) => {
    const bound = Boolean(seats[p.id]);
    return el("div", { class: "item seat-row", "data-player": p.id, "data-bound": String(bound) },
      el("span", { class: "name", text: t(bound ? "phone.seat.bound" : "phone.seat.open", { name: p.name }) }),
      bound ? el("button", { type: "button", class: "release", text: t("phone.seat.release"),
        onclick: () => release(p.id) }) : null);
  });
  const node = card("phone-seats", "phone.section.seats", rows);
  translatePage(node);
  return node;
}
