// The MQTT link (docs/mqtt.md, layout v1) with the npm `mqtt` client: subscribes to the table's public
// topics and this seat's own view and replies, sends commands with ids, and resends the unanswered ones
// (same ids) after every reconnection and every few seconds without a reply, so a command is applied
// once however often the Wi-Fi or the referee's own link drops (the referee answers a resent id as a
// duplicate).
//
// The link tells the truth within seconds (docs/phones.md): a ping every KEEPALIVE_S and a watchdog on
// everything received (views, status, ping answers) call the link lost after SILENT_MS of silence. A
// command made while the link is down is kept with the view it was made on; after the reconnection it is
// sent only if this seat's view is still the same, else dropped and the player told (`stale`).
/* global mqtt */

import { kind, pendingKey } from "./seat.js";

const REFUSED = new Set([4, 5]); // CONNACK: bad user name or password, not authorized
const FRESH_RETRIES = 6; // a seat just claimed or its QR just scanned: refusals the broker may still give before it has the password
const FRESH_RETRY_MS = 500;
const KEEPALIVE_S = 2; // a ping at least this often while nothing else is sent
const SILENT_MS = 4000; // nothing heard for this long: the link is lost (shown within 5 s)
const WATCH_MS = 250;
const RESEND_MS = 4000; // a command sent and unanswered this long is sent again (same id)

// A short fingerprint of a view's text (FNV-1a): what a queued command was made on.
function fingerprint(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length}:${h.toString(36)}`;
}

function randomId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("").slice(0, 8);
}

export class Link {
  constructor(seat, on, fresh = false) {
    this.seat = seat;
    this.on = on; // {state(name), status(word), publicView(v), seatView(v), reply(r), stale(command)}
    this.retries = fresh ? FRESH_RETRIES : 0; // a seat just claimed or scanned: retry a refusal briefly
    this.prefix = randomId(); // command ids: this page load's prefix and a counter
    this.count = 0;
    this.pending = new Map(this.loadPending());
    const base = seat.base;
    const mine = `${base}/seat/${seat.user}`;
    this.topics = { status: `${base}/status`, public: `${base}/public`, view: `${mine}/view`, reply: `${mine}/reply`, cmd: `${mine}/cmd` };
    this.acts = kind(seat).kind !== "spectator";
    this.basis = null; // the fingerprint of the last view of this seat received
    this.current = false; // a view has come since the last (re)connection: `basis` is the table's now
    this.heard = Date.now();
    this.lost = false;
  }

  // The watchdog: nothing heard for SILENT_MS while "connected" means the Wi-Fi (or the table) is gone.
  watch() {
    clearInterval(this.watcher);
    this.watcher = setInterval(() => {
      const now = Date.now();
      if (this.client?.connected && !this.lost && now - this.heard > SILENT_MS) {
        this.lost = true;
        this.current = false;
        this.on.state("reconnecting");
        this.client.stream?.destroy(); // give up on the silent socket: mqtt.js reconnects
      }
      if (this.client?.connected && this.current) this.resend(now);
    }, WATCH_MS);
  }

  resend(now) {
    for (const command of this.pending.values()) {
      if (command.sent && now - (command.at ?? 0) >= RESEND_MS) this.publish(command);
    }
  }

  start() {
    this.on.state("connecting");
    this.client = mqtt.connect(this.seat.ws, {
      username: this.seat.user, password: this.seat.pass, clientId: this.seat.user, protocolVersion: 4,
      clean: true, keepalive: KEEPALIVE_S, reconnectPeriod: 1000, connectTimeout: 4000, resubscribe: false,
    });
    this.client.on("packetreceive", () => { this.heard = Date.now(); });
    this.client.on("connect", () => this.connected());
    this.client.on("close", () => { this.current = false; });
    this.client.on("reconnect", () => this.on.state("reconnecting"));
    this.client.on("offline", () => this.on.state("reconnecting"));
    this.client.on("error", (err) => {
      if (!REFUSED.has(err?.code)) return;
      if (this.retries > 0) {
        this.retries -= 1;
        setTimeout(() => this.client?.reconnect(), FRESH_RETRY_MS);
        return;
      }
      this.stop();
      this.on.state("refused");
    });
    this.client.on("message", (topic, payload) => this.received(topic, payload));
  }

  // The phone woke up or its network came back: try at once instead of waiting for the next retry.
  wake() {
    if (this.client && !this.client.connected && !this.client.reconnecting) this.client.reconnect();
  }

  stop() {
    clearInterval(this.watcher);
    if (this.client) this.client.end(true);
    this.client = null;
  }

  connected() {
    this.retries = 0;
    this.heard = Date.now();
    this.lost = false;
    this.current = false;
    this.watch();
    const wanted = [this.topics.status, this.topics.public]; // the views carry the announcements
    if (this.acts) wanted.push(this.topics.view, this.topics.reply);
    this.client.subscribe(wanted, { qos: 1 }, (err) => {
      if (err) return;
      this.on.state("online");
      for (const command of this.pending.values()) if (command.sent) this.publish(command); // same ids: applied once
    });
  }

  // This seat's view came (retained after a (re)connection, or changed): the commands made while the
  // link was down go now if they were made on this very view, else they are dropped and the player told.
  viewed(text) {
    this.basis = fingerprint(text);
    if (this.current) return;
    this.current = true;
    for (const command of [...this.pending.values()]) {
      if (command.sent) continue;
      if (command.basis === this.basis) {
        this.publish(command);
      } else {
        this.pending.delete(command.id);
        this.on.stale(command);
      }
    }
    this.savePending();
  }

  received(topic, payload) {
    const text = new TextDecoder().decode(payload);
    if (topic === this.topics.status) return this.on.status(text);
    let obj;
    try {
      obj = JSON.parse(text);
    } catch {
      return;
    }
    if (topic === this.topics.public) {
      if (!this.acts) this.viewed(text);
      this.on.publicView(obj);
    } else if (topic === this.topics.view) {
      this.viewed(text);
      this.on.seatView(obj);
    } else if (topic === this.topics.reply) {
      if (typeof obj.id === "string") {
        if (!this.pending.delete(obj.id)) return; // answered already (a resent command's second reply)
        this.savePending();
      }
      this.on.reply(obj);
    }
  }

  // Send a move; returns the command id that its reply will carry. Made while the link is down (or
  // before this seat's view came back), it waits for the view: see `viewed`.
  // A `secret` command (the kiosk's host PIN) is never kept in this phone's storage: made offline, it
  // waits in this page's memory only.
  send(move, args, { secret = false } = {}) {
    this.count += 1;
    const command = { id: `${this.prefix}-${this.count}`, move, args, basis: this.basis, sent: false, secret };
    this.pending.set(command.id, command);
    if (this.client?.connected && this.current && !this.lost) this.publish(command);
    this.savePending();
    return command.id;
  }

  publish(command) {
    if (!this.client) return;
    command.sent = true;
    command.at = Date.now();
    const { id, move, args } = command;
    this.client.publish(this.topics.cmd, JSON.stringify({ id, move, args }), { qos: 1 });
    this.savePending();
  }

  loadPending() {
    try {
      const list = JSON.parse(localStorage.getItem(pendingKey(this.seat)) ?? "[]");
      // a command kept by an older page has no `sent`: it may have gone out, so it is resent (same id)
      return Array.isArray(list) ? list.filter((c) => typeof c?.id === "string")
        .map((c) => [c.id, "sent" in c ? c : { ...c, sent: true }]) : [];
    } catch {
      return [];
    }
  }

  savePending() {
    localStorage.setItem(pendingKey(this.seat), JSON.stringify([...this.pending.values()].filter((c) => !c.secret)));
  }
}
