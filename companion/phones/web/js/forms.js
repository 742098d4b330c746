// Prompts (companion/core/prompts.py) as forms: one form per prompt, one control per field. Submitting
// sends the prompt's move with its fixed args and the fields' values. Touch first: radio rows and
// buttons of 48px at least, -/+ buttons beside numbers.

import { el } from "./dom.js";
import { t, withNames } from "./i18n.js";
import { grouped, nextSteps, pathReady, same } from "./steps.js";

function label(choice) {
  return choice.plain ? choice.label : t(choice.label, choice.params ?? {});
}

// Each control returns {node, value(), ready()}.
function choiceControl(field, formKey) {
  const group = `${formKey}/${field.name}`;
  const inputs = field.choices.map((choice, i) => el("input", { type: "radio", name: group, value: String(i),
    checked: field.default !== null && field.default !== undefined && same(choice.value, field.default) }));
  const rows = field.choices.map((choice, i) => el("label", { class: "choice" }, inputs[i],
    el("span", { text: label(choice) })));
  const node = el("fieldset", {}, el("legend", { text: t(field.label) }), grouped(field, rows, (members) => members));
  node.querySelectorAll("details").forEach((d) => { d.open = !!d.querySelector("input:checked"); });
  const picked = () => inputs.findIndex((input) => input.checked);
  return { node, value: () => field.choices[picked()]?.value, ready: () => picked() >= 0, inputs };
}

function numberControl(field) {
  const input = el("input", { type: "number", inputMode: "numeric", step: "1",
    min: field.min ?? undefined, max: field.max ?? undefined,
    value: field.default ?? (field.min !== null && field.min > 0 ? field.min : 0) });
  const bump = (delta) => {
    let v = Number(input.value || 0) + delta;
    if (field.min !== null && field.min !== undefined) v = Math.max(field.min, v);
    if (field.max !== null && field.max !== undefined) v = Math.min(field.max, v);
    input.value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const node = el("fieldset", {}, el("legend", { text: t(field.label) }),
    el("div", { class: "number" },
      el("button", { type: "button", text: "−", "aria-label": "-1", onclick: () => bump(-1) }), input,
      el("button", { type: "button", text: "+", "aria-label": "+1", onclick: () => bump(1) })));
  const ok = () => input.value !== "" && Number.isInteger(Number(input.value)) &&
    (field.min === null || field.min === undefined || Number(input.value) >= field.min) &&
    (field.max === null || field.max === undefined || Number(input.value) <= field.max);
  return { node, value: () => Number(input.value), ready: ok, inputs: [input] };
}

// A typed text; its `choices` (suggested names, e.g. "Day" for a new timer) fill it with a tap.
function textControl(field) {
  const input = el("input", { type: "text", maxLength: 32, value: field.default ?? "", autocomplete: "off" });
  const suggested = (field.choices ?? []).map((choice) => el("button", { type: "button", class: "suggested",
    text: label(choice), onclick: () => { input.value = String(choice.value); input.dispatchEvent(new Event("input", { bubbles: true })); } }));
  const node = el("fieldset", { "data-kind": "text" }, el("legend", { text: t(field.label) }), input,
    suggested.length ? el("div", { class: "picks" }, el("span", { text: t("phone.suggested") }), suggested) : null);
  return { node, value: () => input.value.trim(), ready: () => input.value.trim().length > 0, inputs: [input] };
}

const within = (field, n) => (field.min === null || field.min === undefined || n >= field.min) &&
  (field.max === null || field.max === undefined || n <= field.max);

// `texts`: typed lines, one per item (a vote's options, the roles to deal), with how many there are.
function textsControl(field) {
  const area = el("textarea", { rows: Math.min(12, Math.max(3, field.min ?? 3)), autocomplete: "off" });
  const count = el("p", { class: "meta", role: "status" });
  const lines = () => area.value.split("\n").map((line) => line.trim()).filter((line) => line.length);
  const show = () => { count.textContent = t("phone.lines_entered", { count: lines().length }); };
  area.addEventListener("input", show);
  show();
  const node = el("fieldset", { "data-kind": "texts" }, el("legend", { text: t(field.label) }), area, count);
  return { node, value: lines, ready: () => within(field, lines().length), inputs: [area] };
}

// `subset`: some of the choices, each a checkbox (a vote's candidates, who may vote); all at first by default.
function subsetControl(field, formKey) {
  const chosen = (field.default ?? []);
  const inputs = field.choices.map((choice) => el("input", { type: "checkbox", name: `${formKey}/${field.name}`,
    checked: chosen.some((v) => same(v, choice.value)) }));
  const rows = field.choices.map((choice, i) => el("label", { class: "choice" }, inputs[i],
    el("span", { text: label(choice) })));
  const node = el("fieldset", { "data-kind": "subset" }, el("legend", { text: t(field.label) }), rows);
  const values = () => field.choices.filter((_, i) => inputs[i].checked).map((c) => c.value);
  return { node, value: values, ready: () => within(field, values().length), inputs };
}

// `choices` and `path`: an ordered list picked one tap at a time (a programmed pair, a path of rooms).
// A path that narrows its steps shows only the choices the next step may take. A `distinct` field whose
// choices repeat a value (two cards of one kind: Lockdown's drop, declare, offer) has one button for the
// value, saying how many are left to pick ("Pill ×2"), greyed once none is (issue 31).
function sequenceControl(field, onChange) {
  const picks = [];
  const values = () => picks.map((i) => field.choices[i].value);
  const chosen = el("p", { class: "chosen" });
  const firstOf = field.choices.map((choice, i) => (field.distinct
    ? field.choices.findIndex((other) => same(other.value, choice.value)) : i));
  const buttons = field.choices.map((choice, i) => el("button", { type: "button", text: label(choice),
    hidden: firstOf[i] !== i, "data-value": JSON.stringify(choice.value),
    onclick: () => {
      const next = nextSteps(field, values()).find((j) => firstOf[j] === i);
      if (next !== undefined) { picks.push(next); show(); }
    } }));
  const undo = el("button", { type: "button", text: t("phone.undo_last"), onclick: () => { picks.pop(); show(); } });
  const lists = grouped(field, buttons, (members) => el("div", { class: "picks" }, members), true);
  function show() {
    const offered = nextSteps(field, values());
    if (field.first) buttons.forEach((b, i) => { b.hidden = firstOf[i] !== i || !offered.includes(i); });
    if (field.distinct) {
      buttons.forEach((b, i) => {
        if (firstOf[i] !== i) return;
        const all = firstOf.filter((f) => f === i).length;
        const left = offered.filter((j) => firstOf[j] === i).length;
        b.textContent = all > 1 ? t("phone.choice_left", { choice: label(field.choices[i]), count: left }) : label(field.choices[i]);
        b.disabled = left === 0;
      });
    }
    for (const list of lists) {
      if (list.tagName === "DETAILS") list.hidden = ![...list.querySelectorAll("button")].some((b) => !b.hidden);
    }
    chosen.textContent = t("phone.chosen", { items: picks.map((i) => label(field.choices[i])) });
    undo.disabled = picks.length === 0;
    onChange();
  }
  const node = el("fieldset", { "data-kind": field.kind }, el("legend", { text: t(field.label) }), lists, chosen, undo);
  setTimeout(show);
  return { node, value: values, ready: () => pathReady(field, values()), inputs: [] };
}

function control(field, formKey, onChange) {
  switch (field.kind) {
    case "choice": return choiceControl(field, formKey);
    case "number": return numberControl(field);
    case "text": return textControl(field);
    case "texts": return textsControl(field);
    case "subset": return subsetControl(field, formKey);
    case "choices":
    case "path": return sequenceControl(field, onChange);
    default: return null; // "confirm": the send button itself
  }
}

export function promptKey(prompt) {
  return JSON.stringify([prompt.move, prompt.fixed, prompt.fields]);
}

// What a prompt's form says: its heading, player ids as the players' names.
export function heading(prompt, players) {
  return t(prompt.label, withNames(prompt.params ?? {}, players));
}

// Everything a prompt's form shows: when any of it changes, the form is drawn again (so its words never
// lag behind what pressing it does, e.g. the host's "End Ana's turn now" once Ana's turn has begun).
export function promptWords(prompt, players) {
  return JSON.stringify([promptKey(prompt), heading(prompt, players)]);
}

// Forms whose command waits for its reply (form key -> command id): their Send stays disabled from the
// tap until the reply, also when the form is drawn again meanwhile, so two taps send one command.
const waiting = new Map();

// The reply to command `id` came (or it was dropped): its form's Send works again.
export function settled(id) {
  for (const [key, waited] of waiting) {
    if (waited !== id) continue;
    waiting.delete(key);
    for (const node of document.querySelectorAll("form.prompt")) {
      if (node.dataset.key === key) node.dispatchEvent(new Event("change"));
    }
  }
}

// A form for one prompt; `send(move, args)` returns the command id, `states` maps ids to the status nodes
// of the forms it was sent from (the one tapped, and each drawing of that form while it waits).
export function form(prompt, send, states, players = []) {
  const key = promptKey(prompt);
  const state = el("p", { class: "form-state", role: "status" });
  const button = el("button", { type: "submit", class: "send", text: t("phone.send") });
  const controls = [];
  const sum = el("p", { class: "form-sum", role: "status", hidden: prompt.total === null || prompt.total === undefined });
  const addsUp = () => {
    if (sum.hidden) return true;
    const got = controls.filter((c) => prompt.summed.includes(c.name)).reduce((n, c) => n + (c.value() || 0), 0);
    const total = prompt.total;
    if (got === total) sum.textContent = t("phone.sum_ok", { sum: got, total });
    else if (got < total) sum.textContent = t("phone.sum_short", { sum: got, total, left: total - got });
    else sum.textContent = t("phone.sum_over", { sum: got, total, over: got - total });
    return got === total;
  };
  const ready = () => addsUp() && controls.every((c) => c.ready());
  const refresh = () => { button.disabled = waiting.has(key) || !ready(); };
  for (const field of prompt.fields) {
    const c = control(field, key, refresh);
    if (c) controls.push({ ...c, name: field.name });
  }
  const node = el("form", { class: "prompt", "data-move": prompt.move, "data-key": key },
    el("h3", { text: heading(prompt, players) }), controls.map((c) => c.node), sum, button, state);
  node.addEventListener("input", refresh);
  node.addEventListener("change", refresh);
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    if (waiting.has(key) || !ready()) return;
    const args = { ...(prompt.fixed ?? {}) };
    for (const c of controls) args[c.name] = c.value();
    button.disabled = true; // from the tap until the reply
    const id = send(prompt.move, args);
    waiting.set(key, id);
    state.textContent = t("phone.sending");
    state.dataset.ok = "";
    states.set(id, [state]);
  });
  if (waiting.has(key)) {
    const id = waiting.get(key);
    state.textContent = t("phone.sending");
    state.dataset.ok = "";
    states.set(id, [...(states.get(id) ?? []), state]); // the reply lands in the form drawn now too
  }
  refresh();
  return node;
}

// What the player had entered in a form, to carry over when the forms are drawn again.
export function entered(formNode) {
  return [...formNode.querySelectorAll("input, textarea")].map((input) =>
    (input.type === "radio" || input.type === "checkbox" ? input.checked : input.value));
}

export function restore(formNode, values) {
  const inputs = [...formNode.querySelectorAll("input, textarea")];
  if (inputs.length !== values.length) return;
  inputs.forEach((input, i) => {
    if (input.type === "radio" || input.type === "checkbox") input.checked = values[i];
    else input.value = values[i];
  });
  formNode.dispatchEvent(new Event("change"));
}
