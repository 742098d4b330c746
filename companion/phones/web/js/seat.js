// The seat this phone holds, and the seat it is claiming (docs/phones.md).
//
// A seat's QR code carries the seat's *join* credential (#v=1&ws=..&t=..&u=<join user>&p=..), which can
// only claim the seat: the page makes a password of its own for the seat (crypto.getRandomValues; plain
// http on the LAN has no crypto.subtle), claims the seat with it, and from then on logs in as the seat
// with that password. The claim (with its password, so a reload mid-claim sends the same one) and then
// the seat are kept in localStorage to rejoin after sleep or a reload; the fragment leaves the address
// bar at once. A spectator's link carries the spectator's own credential and is used as it is.

const SEAT_KEY = "companion.seat";
const CLAIM_KEY = "companion.claim";
const USER = /^[a-z0-9][a-z0-9_-]{0,31}\.g[0-9]{1,12}\.(p\.[a-z0-9_-]{1,32}|host|s[0-9]{1,4}|j\.[a-z0-9_-]{1,32}(\.[a-z0-9]{1,12})?|host\.j(\.[a-z0-9]{1,12})?)$/;
const PASSWORD_BYTES = 18; // 144 bits, 24 base64url characters, as the Pi's own passwords

function valid(seat) {
  return seat && typeof seat.ws === "string" && /^wss?:\/\//.test(seat.ws) && typeof seat.base === "string" &&
    seat.base.length > 0 && typeof seat.user === "string" && USER.test(seat.user) &&
    typeof seat.pass === "string" && seat.pass.length > 0;
}

function validClaim(claim) {
  return valid(claim) && typeof claim.join === "string" && claimedSeat(claim.join) === claim.user &&
    typeof claim.joinPass === "string" && claim.joinPass.length > 0;
}

function read(key, check) {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? "null");
    return check(value) ? value : null;
  } catch {
    return null;
  }
}

// The seat a join user claims ("t1.g7.j.ana" -> "t1.g7.p.ana", "t1.g7.host.j" -> "t1.g7.host"; a released
// seat's new code has a tag: "t1.g7.j.ana.3f9a01bc"), else null.
export function claimedSeat(user) {
  const player = /^([a-z0-9][a-z0-9_-]{0,31}\.g[0-9]{1,12})\.j\.([a-z0-9_-]{1,32})(\.[a-z0-9]{1,12})?$/.exec(user);
  if (player) return `${player[1]}.p.${player[2]}`;
  const host = /^([a-z0-9][a-z0-9_-]{0,31}\.g[0-9]{1,12})\.host\.j(\.[a-z0-9]{1,12})?$/.exec(user);
  return host ? `${host[1]}.host` : null;
}

// A password of this phone's own for the seat it claims.
export function newPassword() {
  const bytes = new Uint8Array(PASSWORD_BYTES);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// What the URL fragment holds, cleared from the address bar: `{seat}` to use (a spectator's, or the seat
// this phone already holds), `{claim}` to take with the code's join credential, both when this phone
// holds the code's seat already (the claim is the way back in if the seat was released), or null.
export function fromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!location.hash || fragment.get("v") !== "1") return null;
  const link = { ws: fragment.get("ws"), base: fragment.get("t"), user: fragment.get("u"), pass: fragment.get("p"),
    lang: fragment.get("l") || null };
  history.replaceState(null, "", location.pathname + location.search);
  if (!valid(link)) return null;
  const seatUser = claimedSeat(link.user);
  if (!seatUser) {
    localStorage.setItem(SEAT_KEY, JSON.stringify(link));
    return { seat: link, claim: null };
  }
  const pending = storedClaim();
  const same = pending && pending.join === link.user && pending.joinPass === link.pass;
  const claim = { ws: link.ws, base: link.base, user: seatUser, pass: same ? pending.pass : newPassword(),
    join: link.user, joinPass: link.pass, lang: link.lang };
  localStorage.setItem(CLAIM_KEY, JSON.stringify(claim));
  const held = stored();
  return { seat: held && held.user === seatUser && held.base === link.base ? held : null, claim };
}

export function stored() {
  return read(SEAT_KEY, valid);
}

export function storedClaim() {
  return read(CLAIM_KEY, validClaim);
}

// The claim was granted: the seat, with this phone's own password, is what the phone holds now. The
// code it was taken with is kept beside it, to take the seat back after leaving it (while it is free).
export function bind(claim) {
  const seat = { ws: claim.ws, base: claim.base, user: claim.user, pass: claim.pass, lang: claim.lang,
    join: claim.join, joinPass: claim.joinPass };
  localStorage.setItem(SEAT_KEY, JSON.stringify(seat));
  localStorage.removeItem(CLAIM_KEY);
  return seat;
}

// The code (join credential) this phone took `seat` with, or null.
export function codeOf(seat) {
  if (!seat || typeof seat.join !== "string" || typeof seat.joinPass !== "string") return null;
  return claimedSeat(seat.join) === seat.user ? { ws: seat.ws, base: seat.base, user: seat.join, pass: seat.joinPass, lang: seat.lang } : null;
}

// A new claim of the seat of `code` (a join credential) with a fresh password of this phone's own.
export function claimWith(code) {
  const claim = { ws: code.ws, base: code.base, user: claimedSeat(code.user), pass: newPassword(), join: code.user,
    joinPass: code.pass, lang: code.lang ?? null };
  localStorage.setItem(CLAIM_KEY, JSON.stringify(claim));
  return claim;
}

export function forgetClaim() {
  localStorage.removeItem(CLAIM_KEY);
}

export function forget(seat) {
  localStorage.removeItem(SEAT_KEY);
  if (seat) localStorage.removeItem(pendingKey(seat));
}

export function pendingKey(seat) {
  return `companion.pending.${seat.user}`;
}

// The game number a seat's user name carries ("t1.g7.p.ana" -> 7).
export function gameOf(seat) {
  const m = /\.g([0-9]{1,12})\./.exec(seat.user);
  return m ? Number(m[1]) : null;
}

// The same seat in the table's game `number` (the host started another game, docs/phones.md): the
// referee keeps a bound seat's password for a player who plays on, so the phone logs in as the new
// game's seat with the password it made. Kept in localStorage; the old seat's pending commands go.
export function following(seat, number) {
  const next = { ...seat, user: seat.user.replace(/\.g[0-9]{1,12}\./, `.g${number}.`), join: null, joinPass: null };
  localStorage.removeItem(pendingKey(seat));
  localStorage.setItem(SEAT_KEY, JSON.stringify(next));
  return next;
}

// "player" (with its id), "host" or "spectator", from the user name (docs/mqtt.md).
export function kind(seat) {
  const m = /\.p\.([a-z0-9_-]+)$/.exec(seat.user);
  if (m) return { kind: "player", pid: m[1] };
  return { kind: seat.user.endsWith(".host") ? "host" : "spectator", pid: null };
}
