// The host's page: the game's host controls (pause, resume and extend each started timer, undo the last
// input, end the game), from the host view's `host_menu` (companion/core/host_controls.py, worked out by
// the referee from the public view). Drawn afresh from every view, so a button's words always say what
// pressing it sends: its move and args come with its words in the same entry.
//
// Controls keep their places: undo and the game's ends come first, in a row of their own, and the
// timers' controls after them, so a timer that appears or runs out moves no other button. Ending the
// game takes two steps: the first tap asks, in words, what it does; only "yes" sends it.

import { card, el } from "./dom.js";
import { confirmStep } from "./confirm.js";
import { t, translatePage } from "./i18n.js";
import { timerName } from "./render.js";

let asking = null; // the key of the control whose second step is open (kept across redraws)

export function hostControls(view, send) {
  const controls = view.host_menu;
  if (!Array.isArray(controls) || !controls.length) return null;
  const label = (c) => {
    const params = { ...(c.params ?? {}) };
    if (c.timer !== null && c.timer !== undefined) params.timer = timerName(view.game, c.timer);
    return t(c.label, params);
  };
  if (!controls.some((c) => c.key === asking && c.danger)) asking = null;
  const holder = el("div", { class: "confirm-holder" });
  const showConfirm = () => {
    const c = controls.find((x) => x.key === asking);
    holder.replaceChildren(...(c ? [confirmStep({
      question: t("phone.end_confirm", { action: label(c) }), yes: t("phone.end_yes"), no: t("phone.end_no"),
      onYes: () => { asking = null; holder.replaceChildren(); send(c.move, c.args ?? {}); },
      onNo: () => { asking = null; holder.replaceChildren(); },
    })] : []));
  };
  const button = (c) => el("button", { type: "button", class: c.danger ? "control danger" : "control", "data-key": c.key,
    text: label(c), onclick: () => {
      if (!c.danger) {
        send(c.move, c.args ?? {});
        return;
      }
      asking = c.key;
      showConfirm();
    } });
  const fixed = controls.filter((c) => c.timer === null || c.timer === undefined);
  const timed = controls.filter((c) => c.timer !== null && c.timer !== undefined);
  showConfirm();
  const node = card("host-menu", "phone.section.host_controls",
    el("div", { class: "controls-fixed" }, fixed.map(button)), holder,
    timed.length ? el("div", { class: "controls" }, timed.map(button)) : null);
  translatePage(node);
  return node;
}
