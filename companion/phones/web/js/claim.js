// Taking a seat with its code's join credential (docs/phones.md): log in as the join user, publish one
// claim with this phone's own password for the seat, and wait for the referee's answer. The referee
// answers ok once the broker takes the password, so the page can log in as the seat right after.
/* global mqtt */

const REFUSED = new Set([4, 5]); // CONNACK: bad user name or password, not authorized
// A code scanned as the table starts a game is shown while its join password reaches the broker: a
// refusal is tried again briefly before the code counts as replaced (as link.js does for a seat's link).
const FRESH_RETRIES = 6;
const FRESH_RETRY_MS = 500;

function claimId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return `claim-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

// Resolves to {ok: true}, {ok: false, reason: {code, params}} (the seat is taken, ...), or
// {ok: false, refused: true} when the join credential no longer logs in (the code was replaced).
export function claimSeat(claim) {
  return new Promise((resolve) => {
    const mine = `${claim.base}/seat/${claim.join}`;
    const id = claimId();
    const client = mqtt.connect(claim.ws, {
      username: claim.join, password: claim.joinPass, clientId: claim.join, protocolVersion: 4,
      clean: true, keepalive: 30, reconnectPeriod: 2000, connectTimeout: 10000, resubscribe: false,
    });
    let done = false;
    let retries = FRESH_RETRIES;
    const finish = (result) => {
      if (done) return;
      done = true;
      client.end(true);
      resolve(result);
    };
    client.on("connect", () => {
      client.subscribe(`${mine}/reply`, { qos: 1 }, (err) => {
        if (err) return;
        const command = { id, move: "seat.claim", args: { password: claim.pass } };
        client.publish(`${mine}/cmd`, JSON.stringify(command), { qos: 1 }); // again after a reconnection
      });
    });
    client.on("error", (err) => {
      if (!REFUSED.has(err?.code)) return;
      if (retries > 0) {
        retries -= 1;
        setTimeout(() => { if (!done) client.reconnect(); }, FRESH_RETRY_MS);
        return;
      }
      finish({ ok: false, refused: true });
    });
    client.on("message", (topic, payload) => {
      let reply;
      try {
        reply = JSON.parse(new TextDecoder().decode(payload));
      } catch {
        return;
      }
      if (reply?.id === id) finish(reply.ok ? { ok: true } : { ok: false, reason: reply.reason ?? {} });
    });
  });
}
