// The host's page: the kiosk's host PIN (issue 28, item 4; docs/phones.md, "The kiosk's host PIN"), shown
// when the table has a kiosk (the host view's `kiosk_lock`, its mode only: never a PIN). The host types a
// new PIN of 4 to 8 digits twice; a PIN that is not digits, or two that differ, is refused here in words
// and nothing is sent. "Set" is disabled from the tap until the table's reply, which says in words
// whether the kiosk took it. The digits go only in that one command on the host's own command topic:
// never kept on this phone (no pending copy in its storage), never in a view, a log or the console.

import { card, el } from "./dom.js";
import { t, translatePage } from "./i18n.js";

const PIN = /^[0-9]{4,8}$/;
const LOW = 4;
const HIGH = 8;
const MODES = { pin: "phone.host_pin.state_pin", off: "phone.host_pin.state_off", unset: "phone.host_pin.state_unset" };

let built = null; // {node, mode, state, button, waiting}: built once, so a redraw keeps what is being typed

function pinInput(name, label) {
  const input = el("input", { type: "password", name, inputmode: "numeric", autocomplete: "new-password",
    maxLength: HIGH, "data-t-label": label });
  return { input, node: el("label", { class: "option" }, el("span", { class: "meta", "data-t": label }), input) };
}

function say(text, ok) {
  built.state.textContent = text;
  built.state.dataset.ok = ok === null ? "" : String(ok);
}

export function hostPin(view, send) {
  const lock = view.kiosk_lock;
  if (!lock || !MODES[lock.mode]) return null;
  if (!built) {
    const first = pinInput("pin", "phone.host_pin.new");
    const again = pinInput("again", "phone.host_pin.again");
    const mode = el("p", { class: "meta host-pin-mode" });
    const state = el("p", { class: "form-state", role: "status" });
    const button = el("button", { type: "submit", class: "send", "data-t": "phone.host_pin.set" });
    const form = el("form", { class: "host-pin" }, el("p", { class: "meta", "data-t": "phone.host_pin.help" }),
      mode, first.node, again.node, button, state);
    built = { node: card("host-pin", "phone.section.host_pin", form), mode, state, button, waiting: null };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (built.waiting) return;
      const pin = first.input.value;
      if (!PIN.test(pin)) {
        say(t("phone.host_pin.refused", { reason: t("reject.host_pin_digits", { low: LOW, high: HIGH }) }), false);
        return;
      }
      if (again.input.value !== pin) {
        say(t("phone.host_pin.refused", { reason: t("reject.host_pin_mismatch") }), false);
        return;
      }
      first.input.value = "";
      again.input.value = "";
      button.disabled = true; // from the tap until the reply
      built.waiting = send("kiosk.host_pin", { pin, again: pin });
      say(t("phone.sending"), null);
    });
    translatePage(built.node);
  }
  built.mode.textContent = t(MODES[lock.mode]);
  built.mode.dataset.mode = lock.mode;
  return built.node;
}

// The table's reply to a command; true when it answered the PIN (its words are in the card, returned too).
export function hostPinReply(reply, describe) {
  if (!built || !built.waiting || reply.id !== built.waiting) return null;
  built.waiting = null;
  built.button.disabled = false;
  const text = reply.ok ? t("phone.host_pin.done")
    : t("phone.host_pin.refused", { reason: describe(reply.reason ?? {}) });
  say(text, Boolean(reply.ok));
  return text;
}
