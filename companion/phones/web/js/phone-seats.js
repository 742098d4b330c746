// The host's page: which seats a phone holds (never which phone), from the host view's `phone_seats`,
// with a button to release a seat in two steps (its phone is dropped and its code changes,
// docs/phones.md), and each free seat's code, so a table without a screen can seat a newcomer: its QR
// code drawn here (the newcomer's phone scans the host's screen), and its link to share (the phone's
// share sheet, or copied). It is not a link to open here: opened on the host's phone it would take the
// seat for that phone. The QR encoder (`qrcode-generator`, /vendor/qrcode.mjs) is loaded only when a
// free seat's code is shown, so no other phone downloads it.

import { card, el } from "./dom.js";
import { confirmStep } from "./confirm.js";
import { t, translatePage } from "./i18n.js";

let asking = null; // the player whose release waits for its second step (kept across redraws)
let encoder = null; // the QR encoder module's promise, loaded once

const QR_PX = 220; // the code's side in CSS pixels: a phone camera reads it off another phone's screen
const QUIET = 4; // modules of white around the code (the QR standard's quiet zone)

// The seat's link as a QR code on a canvas (error correction M, as the kiosk's codes), black on white.
function qrCode(link, name) {
  const canvas = el("canvas", { class: "seat-qr", role: "img", "aria-label": t("phone.seat.qr", { name }) });
  encoder ??= import("/vendor/qrcode.mjs");
  encoder.then(({ qrcode }) => {
    const code = qrcode(0, "M");
    code.addData(link);
    code.make();
    const cells = code.getModuleCount() + 2 * QUIET;
    const scale = Math.max(2, Math.floor((QR_PX * (window.devicePixelRatio || 1)) / cells));
    canvas.width = canvas.height = cells * scale;
    const g = canvas.getContext("2d");
    g.fillStyle = "#fff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = "#000";
    for (let r = 0; r < code.getModuleCount(); r += 1) {
      for (let c = 0; c < code.getModuleCount(); c += 1) {
        if (code.isDark(r, c)) g.fillRect((c + QUIET) * scale, (r + QUIET) * scale, scale, scale);
      }
    }
    canvas.dataset.drawn = "true";
  }).catch(() => { canvas.hidden = true; }); // no code drawn: the link below still seats the newcomer
  return canvas;
}

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
          el("span", { text: t("phone.seat.scan", { name: p.name }) }),
          qrCode(link, p.name),
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
