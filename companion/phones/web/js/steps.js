// What a list field offers (companion/core/prompts.py, next_steps and path_ready): a path offers at each
// step only what may follow the steps so far, and never ends where it starts; a `distinct` field (cards)
// never offers a value already picked; long lists come in groups.

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const GROUP_FROM = 9; // lists longer than this are drawn by group (a building's floor)

export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

const set = (x) => x !== null && x !== undefined;

// The indices of the field's choices that the next pick may take, after the values `picks`.
export function nextSteps(field, picks) {
  // a `distinct` field's choice is used up by a pick of its value, first choices first (two food cards: two picks)
  const left = field.distinct ? [...picks] : [];
  const all = field.choices.map((_, i) => i).filter((i) => {
    const used = left.findIndex((p) => same(p, field.choices[i].value));
    if (used >= 0) left.splice(used, 1);
    return used < 0;
  });
  if (set(field.max) && picks.length >= field.max) return [];
  if (!set(field.first)) return all;
  const allowed = picks.length === 0 ? field.first : (field.after?.[String(picks.at(-1))] ?? []);
  const last = set(field.max) && picks.length + 1 === field.max && set(field.start);
  return all.filter((i) => {
    const value = field.choices[i].value;
    return allowed.some((a) => same(a, value)) && !(last && same(value, field.start));
  });
}

export function pathReady(field, picks) {
  if (picks.length < (set(field.min) ? field.min : 1)) return false;
  return !(picks.length && set(field.start) && same(picks.at(-1), field.start));
}

// `nodes[i]` (one per choice) as they are, or under a heading per group when the list is long or a path (a list of
// nodes either way); `open`: the groups start unfolded.
export function grouped(field, nodes, wrap, open = false) {
  const long = field.choices.length > GROUP_FROM || set(field.first); // a path's steps: by floor, always
  if (!long || !field.choices.some((c) => c.group)) return [wrap(nodes)].flat();
  const groups = new Map();
  field.choices.forEach((choice, i) => {
    const name = choice.group ? t(choice.group, choice.group_params ?? {}) : "";
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(nodes[i]);
  });
  return [...groups].map(([name, members]) => el("details", { class: "group", "data-group": name, open },
    el("summary", { text: name }), wrap(members)));
}
