// The top bar names what this phone is at: the game being played (its translated title, from the game's
// catalog: `game.<id>.title`) and, for a player's seat, the player's name beside the link's state. Before
// a view has come (the join screen) it keeps the companion's own name. Drawn with every view, so a new
// game (table.new_game: a view with another `number`) renames it.

import { t } from "./i18n.js";

export function gameTitle(view) {
  const id = `game.${view?.game}.title`;
  const shown = view?.game ? t(id) : id;
  return shown === id ? t("phone.title") : shown;
}

export function header(view, seatKind) {
  const title = gameTitle(view);
  const h1 = document.getElementById("title");
  h1.textContent = title;
  h1.title = title; // the whole title, where two lines are not enough
  document.title = title === t("phone.title") ? title : `${title} · ${t("phone.title")}`;
  const pid = seatKind?.kind === "player" ? seatKind.pid : null;
  const name = pid ? ((view?.players ?? []).find((p) => p.id === pid)?.name ?? "") : "";
  const holder = document.getElementById("seat-name");
  holder.textContent = name;
  holder.title = name;
  holder.hidden = !name;
}
