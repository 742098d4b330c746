// The seat this phone holds: taken from the join link's fragment (#v=1&ws=..&t=..&u=..&p=..), kept in
// localStorage to rejoin after sleep or a reload, and removed from the address bar at once.

const SEAT_KEY = "companion.seat";
const USER = /^[a-z0-9][a-z0-9_-]{0,31}\.g[0-9]{1,12}\.(p\.[a-z0-9_-]{1,32}|host|s[0-9]{1,4})$/;

function valid(seat) {
  return seat && typeof seat.ws === "string" && /^wss?:\/\//.test(seat.ws) && typeof seat.base === "string" &&
    seat.base.length > 0 && typeof seat.user === "string" && USER.test(seat.user) &&
    typeof seat.pass === "string" && seat.pass.length > 0;
}

// A seat from the URL fragment, stored and then cleared from the address bar; null if there is none.
export function fromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!location.hash || fragment.get("v") !== "1") return null;
  const seat = { ws: fragment.get("ws"), base: fragment.get("t"), user: fragment.get("u"), pass: fragment.get("p"),
    lang: fragment.get("l") || null };
  history.replaceState(null, "", location.pathname + location.search);
  if (!valid(seat)) return null;
  localStorage.setItem(SEAT_KEY, JSON.stringify(seat));
  return seat;
}

export function stored() {
  try {
    const seat = JSON.parse(localStorage.getItem(SEAT_KEY) ?? "null");
    return valid(seat) ? seat : null;
  } catch {
    return null;
  }
}

export function forget(seat) {
  localStorage.removeItem(SEAT_KEY);
  if (seat) localStorage.removeItem(pendingKey(seat));
}

export function pendingKey(seat) {
  return `companion.pending.${seat.user}`;
}

// "player" (with its id), "host" or "spectator", from the user name (docs/mqtt.md).
export function kind(seat) {
  const m = /\.p\.([a-z0-9_-]+)$/.exec(seat.user);
  if (m) return { kind: "player", pid: m[1] };
  return { kind: seat.user.endsWith(".host") ? "host" : "spectator", pid: null };
}
