// The host's page: the game's host controls (pause, resume and extend each started timer, undo the last
// input, end the game), from the host view's `host_menu` (companion/core/host_controls.py, worked out by
// the referee from the public view). Drawn afresh from every view, so a button's words always say what
// pressing it sends: its move and args come with its words in the same entry.

import { card, el } from "./dom.js";
import { t, translatePage } from "./i18n.js";
import { timerName } from "./render.js";

export function hostControls(view, send) {
  const controls = view.host_menu;
  if (!Array.isArray(controls) || !controls.length) return null;
  const buttons = controls.map((c) => {
    const params = { ...(c.params ?? {}) };
    if (c.timer !== null && c.timer !== undefined) params.timer = timerName(view.game, c.timer);
    return el("button", { type: "button", class: c.danger ? "control danger" : "control", "data-key": c.key,
      text: t(c.label, params), onclick: () => send(c.move, c.args ?? {}) });
  });
  const node = card("host-menu", "phone.section.host_controls", el("div", { class: "controls" }, buttons));
  translatePage(node);
  return node;
}
