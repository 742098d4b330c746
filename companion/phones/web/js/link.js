// The MQTT link (docs/mqtt.md, layout v1) with the npm `mqtt` client: subscribes to the table's public
// topics and this seat's own view and replies, sends commands with ids, and resends the unanswered ones
// (same ids) after every reconnection, so a command is applied once however often the Wi-Fi drops.
/* global mqtt */

import { kind, pendingKey } from "./seat.js";

const REFUSED = new Set([4, 5]); // CONNACK: bad user name or password, not authorized
const FRESH_RETRIES = 3; // a seat just claimed: refusals the broker may still give before it has the password
const FRESH_RETRY_MS = 500;

function randomId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("").slice(0, 8);
}

export class Link {
  constructor(seat, on, fresh = false) {
    this.seat = seat;
    this.on = on; // {state(name), status(word), publicView(v), seatView(v), reply(r)}
    this.retries = fresh ? FRESH_RETRIES : 0; // a seat this page has just claimed: retry a refusal briefly
    this.prefix = randomId(); // command ids: this page load's prefix and a counter
    this.count = 0;
    this.pending = new Map(this.loadPending());
    const base = seat.base;
    const mine = `${base}/seat/${seat.user}`;
    this.topics = { status: `${base}/status`, public: `${base}/public`, view: `${mine}/view`, reply: `${mine}/reply`, cmd: `${mine}/cmd` };
    this.acts = kind(seat).kind !== "spectator";
  }

  start() {
    this.on.state("connecting");
    this.client = mqtt.connect(this.seat.ws, {
      username: this.seat.user, password: this.seat.pass, clientId: this.seat.user, protocolVersion: 4,
      clean: true, keepalive: 30, reconnectPeriod: 2000, connectTimeout: 10000, resubscribe: false,
    });
    this.client.on("connect", () => this.connected());
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
    if (this.client) this.client.end(true);
    this.client = null;
  }

  connected() {
    this.retries = 0;
    const wanted = [this.topics.status, this.topics.public]; // the views carry the announcements
    if (this.acts) wanted.push(this.topics.view, this.topics.reply);
    this.client.subscribe(wanted, { qos: 1 }, (err) => {
      if (err) return;
      this.on.state("online");
      for (const command of this.pending.values()) this.publish(command); // same ids: applied once
    });
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
    if (topic === this.topics.public) this.on.publicView(obj);
    else if (topic === this.topics.view) this.on.seatView(obj);
    else if (topic === this.topics.reply) {
      if (typeof obj.id === "string" && this.pending.delete(obj.id)) this.savePending();
      this.on.reply(obj);
    }
  }

  // Send a move; returns the command id that its reply will carry.
  send(move, args) {
    this.count += 1;
    const command = { id: `${this.prefix}-${this.count}`, move, args };
    this.pending.set(command.id, command);
    this.savePending();
    if (this.client?.connected) this.publish(command);
    return command.id;
  }

  publish(command) {
    this.client.publish(this.topics.cmd, JSON.stringify(command), { qos: 1 });
  }

  loadPending() {
    try {
      const list = JSON.parse(localStorage.getItem(pendingKey(this.seat)) ?? "[]");
      return Array.isArray(list) ? list.filter((c) => typeof c?.id === "string").map((c) => [c.id, c]) : [];
    } catch {
      return [];
    }
  }

  savePending() {
    localStorage.setItem(pendingKey(this.seat), JSON.stringify([...this.pending.values()]));
  }
}
