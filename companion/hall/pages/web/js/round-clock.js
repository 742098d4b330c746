// The round's clock: "Round 2 · 31:10 left", counted on the hall's clock from when the round was opened
// (the hall screen and the cycling TV screen both show it).

import { t } from "./i18n.js";
import { hallNow } from "./hall-data.js";
import { formatMs } from "./render.js";

export function drawRoundClock(node, seating) {
  const minutes = Number(seating?.minutes);
  const opened = Number(seating?.opened_ms);
  if (!seating || !Number.isFinite(minutes) || minutes <= 0 || !Number.isFinite(opened)) {
    node.hidden = true;
    return;
  }
  const left = opened + minutes * 60_000 - hallNow();
  node.hidden = false;
  node.dataset.state = left > 0 ? "running" : "expired";
  node.textContent = left > 0 ? t("hall.round_clock", { round: seating.round, left: formatMs(left) })
    : t("hall.round_over", { round: seating.round });
}
