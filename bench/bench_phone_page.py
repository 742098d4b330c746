"""Referee event to the phone page's screen: latency through each broker, in real headless Chromium.

On the managed Mosquitto a toolkit table runs with the mirror and the page
server; one Chromium page is seated as a player, and a plain paho client subscribed to another seat's
view over the same WebSockets listener is the baseline. Each round the host opens a ballot (a new
announcement); the time from handing the input to the table until (a) the paho client has the new
view and (b) the page's DOM shows the announcement is measured on this machine's clock. The page's
extra time is the browser's: WebSocket, JSON parse, redraw. Also: what a phone downloads to open the
page (as sent, gzipped), and the page's JS heap.

    python bench/bench_phone_page.py [--rounds 60]
"""

from __future__ import annotations

import argparse
import queue
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from benchlib import fmt, peak_rss_mib, summary
from playwright.sync_api import Page, sync_playwright

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.phones.join import seat_links
from companion.phones.pageserver import PageServer
from companion.phones.runner import start_phones
from companion.table.loop import Table

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
WARMUP = 5
OBSERVE = """() => {
  window.marks = [];
  new MutationObserver(() => {
    const first = document.querySelector("#news-list li");
    window.marks.push([performance.timeOrigin + performance.now(), first ? first.textContent : ""]);
  }).observe(document.getElementById("news-list"), { childList: true, subtree: true });
}"""


def page_bytes(page: Page, url: str) -> int:
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(int(r.headers.get("content-length", "0"))))  # as sent
    page.goto(url)
    page.wait_for_selector(".link[data-state='online']", timeout=20_000)
    return sum(sizes)


def run_broker(broker: str, rounds: int, work: Path, chromium: Any) -> dict[str, Any]:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    referee = Referee.start(registry(), EventLog(work / f"{broker}.sqlite3"), setup, created_at=0)
    table = Table(referee)
    phones = start_phones(table, broker=broker, state_dir=work)
    loop = threading.Thread(target=table.run, daemon=True)
    loop.start()
    server = PageServer("127.0.0.1", 0, now_ms=table.clock.now_ms).start()
    got: queue.Queue[tuple[int, bytes]] = queue.Queue()
    cred = phones.game.players["ana"]
    paho = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cred.user, transport="websockets")
    paho.ws_set_options(path=urlsplit(phones.ws_url).path or "/mqtt")
    paho.username_pw_set(cred.user, cred.password)
    paho.on_message = lambda c, u, m: got.put((time.time_ns(), bytes(m.payload)))
    try:
        phones.mirror.connected.wait(10)
        paho.connect(phones.address.host, phones.ws_port)
        paho.loop_start()
        # the baseline, a paho client, takes Ana's seat view; the page takes Ben's; both over WebSockets
        paho.subscribe(phones.topics.view(cred.user), qos=1)
        context = chromium.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page = context.new_page()
        downloaded = page_bytes(page, seat_links(phones, f"http://127.0.0.1:{server.port}/")["ben"].url())
        page.evaluate(OBSERVE)
        to_paho: list[int] = []
        to_page: list[int] = []
        for i in range(WARMUP + rounds):
            name = f"b{i}"
            while not got.empty():
                got.get_nowait()
            start = time.time_ns()
            table.put({"by": "host", "move": "ballot.open", "args": {"name": name, "options": ["x", "y"]}})
            marker = f'"name":"{name}"'.encode()  # the announcement's params in the view's JSON
            while True:
                at, payload = got.get(timeout=20)
                if marker in payload:
                    break
            page.wait_for_function(f"window.marks.some(m => m[1].includes('“{name}”'))", timeout=20_000)
            shown_ms = page.evaluate(f"window.marks.find(m => m[1].includes('“{name}”'))[0]")
            if i >= WARMUP:
                to_paho.append(at - start)
                to_page.append(int(shown_ms * 1_000_000) - start)
        heap = page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0")
        last_view = len(payload)
        context.close()
        return {"paho": summary(to_paho), "page": summary(to_page), "bytes": downloaded, "heap": heap,
                "view": last_view}
    finally:
        paho.loop_stop()
        paho.disconnect()
        server.stop()
        table.stop()
        loop.join(10)
        phones.stop()
        referee.log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=60, help="announcements measured per broker (60)")
    parser.add_argument("--dir", default=None, help="where the temporary SQLite files go")
    args = parser.parse_args()
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            for broker in ("mosquitto",):
                results[broker] = run_broker(broker, args.rounds, Path(tmp), chromium)
        finally:
            chromium.close()
    print(f"#### Referee event to the phone page ({args.rounds} announcements per broker, ms)")
    print()
    print("| broker | paho over WebSockets p50 / p99 | page DOM p50 / p99 | page / paho (p50) "
          "| last view | page download | page JS heap |")
    print("|---|---|---|---|---|---|---|")
    for broker, r in results.items():
        paho, page = r["paho"], r["page"]
        print(f"| {broker} | {fmt(paho['p50'] / 1000)} / {fmt(paho['p99'] / 1000)} "
              f"| {fmt(page['p50'] / 1000)} / {fmt(page['p99'] / 1000)} | {page['p50'] / paho['p50']:.2f}x "
              f"| {r['view'] / 1024:,.0f} KiB | {r['bytes'] / 1024:,.0f} KiB | {r['heap'] / 2**20:.1f} MiB |")
    print()
    print("Each round adds an open ballot, so the seat view (a vote form per open ballot) grows round by round "
          "up to the last view's size.")
    print(f"Bench process (referee, mirror, page server, playwright driver) peak RSS: "
          f"{peak_rss_mib():.0f} MiB. Mosquitto runs in its own process.")


if __name__ == "__main__":
    main()
