"""The hall under 100 tables (issue 18): hall update latency, CPU, and a table's own phones, bridged or not.

Run from the repository root (PYTHONPATH=. measures this checkout, whichever one is installed)::

    PYTHONPATH=. python bench/bench_hall.py [--tables 100] [--seconds 60 | --quick] [--pace 2,5] [--write-docs]

The hall is the real one: `companion hall run` as a child process (its managed central Mosquitto and
its pages) on a league file with the tables added (`HallStore.add_table`). The simulated tables
(bench/hall_tables.py, one child process, a paho client per table logged in as its table id) bring
what a table's bridge brings, at game pace: the public views of real scripted games, one input every
`--pace` seconds per table (uniformly jittered), their announcements and, at each game's end, its
result. A hall page's client (bench/hall_page.py: `/events`, a `/hall.json` fetch per version, as the
page does) says when each change was visible.

Two real tables run meanwhile (bench/hall_phones.py: bench_mqtt.py's table, mirror and managed
Mosquitto, `--phones` phones on its public topic): one alone, one bridged to the central broker
(`bridge_config` of a `[hall]` section). They take turns, `SEGMENT` seconds each, rolling dice at
`--rate`; their event-to-phone latencies side by side, and the bridged one's event to the hall page.

With `--flood R`, one more table (`flood-001`, its own login) floods the hall meanwhile: well-formed new
results, R a second (12000: the issue's 1,200 in a tenth of a second, again every tenth), for the whole
window; the other tables' latencies are then those "while one floods" (issue 29; the hall drops a
table's messages past its rate limits unread, companion/hall/limits.py).

CPU s/min of the hall process and of the central broker from /proc over the measured window, the
hall's RSS at the end. Prints markdown; `--write-docs` puts it in docs/performance.md between
`<!-- hall:start -->` and `<!-- hall:end -->`. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench_mqtt import cpu_s
from benchlib import fmt, machine, summary
from hall_page import latencies
from hall_phones import RealTable, hall_config
from hall_tables import SCRIPTS

from companion.hall.store import HallStore
from companion.phones.runner import free_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DOCS = ROOT / "docs" / "performance.md"
START, END = "<!-- hall:start -->", "<!-- hall:end -->"
PREFIX = "companion"
SEGMENT = 5.0  # seconds of dice rolls at one real table before the other's turn


def tree_env(tree: Path = ROOT) -> dict[str, str]:
    """A child imports the `companion` of `tree` (this checkout unless `--tree`), not the one installed."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))}


def child(mode: str, cfg: dict[str, Any]) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, __file__, mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=tree_env())
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(cfg) + "\n")
    proc.stdin.flush()
    if (line := proc.stdout.readline().strip()) != "ready":
        raise SystemExit(f"{mode} did not start: {line!r}")
    return proc


def snapshot(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/hall.json", timeout=10) as answer:
        return dict(json.load(answer))


def until(check: Any, what: str, timeout: float = 60.0) -> None:
    """Poll `check()` (set-up only, before anything is measured)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


def broker_of(pid: int) -> int:
    """The central Mosquitto: the hall's child process named mosquitto."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        for kid in (task / "children").read_text().split():
            if Path(f"/proc/{kid}/comm").read_text().strip() == "mosquitto":
                return int(kid)
    raise SystemExit("the hall's central Mosquitto was not found")


def rss_mib(pid: int) -> tuple[float, float]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def measure(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    store = HallStore(tmp / "hall.sqlite3")
    sims = [[f"sim-{i:03d}", store.add_table(f"sim-{i:03d}")] for i in range(1, args.tables + 1)]
    bridged_pw = store.add_table("bench-bridged")
    flood_pw = store.add_table("flood-001") if args.flood else None
    central, pages = free_port(), free_port()
    hall = subprocess.Popen([sys.executable, "-m", "companion", "hall", "run", "--db", str(tmp / "hall.sqlite3"),
                             "--host", "127.0.0.1", "--port", str(central), "--page-port", str(pages),
                             "--name", "Bench hall", "--prefix", PREFIX],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=args.tree, env=tree_env(args.tree))
    tables: list[RealTable] = []
    procs: list[subprocess.Popen[str]] = []
    try:
        until(lambda: snapshot(pages), "the hall's pages")
        broker = broker_of(hall.pid)
        alone = RealTable("bench-alone", PREFIX, tmp, args.phones, None)
        bridged = RealTable("bench-bridged", PREFIX, tmp, args.phones, hall_config("bench-bridged", PREFIX, central,
                                                                                    bridged_pw))
        tables += [alone, bridged]
        for t in tables:
            t.start()
        sim = child("--simulate-tables", {"host": "127.0.0.1", "port": central, "prefix": PREFIX, "tables": sims,
                                 "pace": args.pace, "seconds": args.seconds, "seed": args.seed,
                                 "scripts": [str(p) for p in SCRIPTS]})
        procs.append(sim)
        until(lambda: sum(t["online"] for t in snapshot(pages)["tables"]) == args.tables + 1, "every table online")
        flooder = None
        if args.flood:
            flooder = child("--flood-table", {"host": "127.0.0.1", "port": central, "prefix": PREFIX,
                                              "password": flood_pw, "rate": args.flood, "seconds": args.seconds})
            procs.append(flooder)
        page = child("--watch-page", {"host": "127.0.0.1", "port": pages, "pages": args.pages})
        procs.append(page)
        turns = max(2, int(args.seconds // SEGMENT) // 2 * 2)
        rolls = int(SEGMENT * args.rate)
        for t in tables:
            t.watch(rolls * turns // 2, args.seconds + 60)
        load_before = os.getloadavg()[0]
        cpu0 = {"hall": cpu_s(hall.pid), "broker": cpu_s(broker)}
        t0 = time.monotonic()
        assert sim.stdin is not None and sim.stdout is not None
        sim.stdin.write("go\n")
        sim.stdin.flush()
        if flooder is not None and flooder.stdin is not None:
            flooder.stdin.write("go\n")
            flooder.stdin.flush()
        for turn in range(turns):  # the real tables take turns while the simulated ones play
            start = time.monotonic()
            for k in range(rolls):
                time.sleep(max(0.0, start + k / args.rate - time.monotonic()))  # pacing, not waiting
                tables[turn % 2].roll()
            time.sleep(max(0.0, start + SEGMENT - time.monotonic()))
        played = json.loads(sim.stdout.readline())
        flooded = json.loads(flooder.stdout.readline()) if flooder is not None and flooder.stdout else None
        elapsed = time.monotonic() - t0
        cpu = {k: cpu_s(hall.pid if k == "hall" else broker) - v for k, v in cpu0.items()}
        rss = rss_mib(hall.pid)
        phones = {name: t.latencies() for name, t in (("alone", alone), ("bridged", bridged))}
        time.sleep(2.0)  # the page's last fetches
        assert page.stdin is not None and page.stdout is not None
        page.stdin.close()
        watched = json.loads(page.stdout.readline())
    finally:
        for proc in procs:
            if proc.stdin is not None and not proc.stdin.closed:
                proc.stdin.close()
            proc.wait(30)
        for t in tables:
            t.stop()
        hall.terminate()
        hall.wait(30)
    seen = watched["seen"]
    to_page, to_snapshot, missed = latencies(played["log"], seen)
    real_page, _, real_missed = latencies(bridged.cards.log, seen)
    span = (seen[-1][0] - seen[0][0]) / 1e9 if len(seen) > 1 else 1.0
    sizes = sorted(s[2] for s in seen)
    return {"tables": args.tables, "seconds": elapsed, "pace": args.pace, "load_before": load_before,
            "page": summary(to_page), "snapshot_ms": summary([v * 1_000_000 for v in to_snapshot]),
            "missed": missed, "real_page": summary(real_page) if real_page else None, "real_missed": real_missed,
            "messages_per_s": played["messages"] / played["seconds"],
            "inputs_per_s": len(played["log"]) / played["seconds"],
            "results": played["results"], "view_bytes": played["view_bytes"][len(played["view_bytes"]) // 2],
            "hall_cpu_per_min": cpu["hall"] / elapsed * 60, "broker_cpu_per_min": cpu["broker"] / elapsed * 60,
            "hall_rss_mib": rss[0], "hall_peak_rss_mib": rss[1],
            "fetches_per_s": len(seen) / span, "all_fetches_per_s": watched["fetches"] / elapsed,
            "pages": args.pages, "streams_refused": watched["refused"], "reconnects": watched["reconnects"],
            "failed": watched["failed"], "events_per_s": watched["events"] / span,
            "snapshot_bytes": sizes[len(sizes) // 2],
            "phones": {k: {**summary(lat), "lost": lost} for k, (lat, lost) in phones.items()},
            "phones_count": args.phones, "rate": args.rate, "flooded": flooded,
            "tree": "this checkout" if args.tree.resolve() == ROOT else str(args.tree)}


def flood() -> None:
    """Child: one table flooding the hall with well-formed new results, `rate` a second for `seconds` (in
    bursts of a tenth of a second), after 'go'; prints {"sent", "seconds"}."""
    import paho.mqtt.client as mqtt

    from companion.hall import protocol

    cfg = json.loads(sys.stdin.readline())
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flood-001")
    client.username_pw_set("flood-001", cfg["password"])
    client.max_queued_messages_set(0)
    client.connect(cfg["host"], cfg["port"], keepalive=30)
    client.loop_start()
    print("ready", flush=True)
    sys.stdin.readline()  # go
    start = time.monotonic()
    sent = 0
    burst = max(1, int(cfg["rate"] / 10))
    while time.monotonic() - start < cfg["seconds"]:
        tick = time.monotonic()
        for _ in range(burst):
            sent += 1
            players = [{"id": f"a{sent % 997}", "name": "A"}, {"id": f"b{sent % 997}", "name": "B"}]
            client.publish(protocol.results_topic(cfg["prefix"], "flood-001", sent), protocol.result_payload(
                table="flood-001", key=f"{sent:016x}", number=sent, game="toolkit", players=players,
                ranking=[[players[0]["id"]], [players[1]["id"]]], points={players[0]["id"]: 1000}, stopped=False,
                finished_ms=int(time.time() * 1000)), qos=0)
        time.sleep(max(0.0, tick + 0.1 - time.monotonic()))  # the flood's pace
    elapsed = time.monotonic() - start
    print(json.dumps({"sent": sent, "seconds": elapsed}), flush=True)
    sys.stdin.read()
    client.disconnect()
    client.loop_stop()


def report(f: dict[str, Any], command: str, where: Path) -> str:
    def ms(row: dict[str, Any] | None) -> str:
        return "-" if row is None else f"{fmt(row['p50'] / 1000)} / {fmt(row['p99'] / 1000)}"

    a, b = f["phones"]["alone"], f["phones"]["bridged"]
    lo, hi = f["pace"]
    lines = [f"Command: `{command}`\n", machine(where, f["load_before"]), f"- The hall measured: {f['tree']}", "",
             f"#### {f['tables']} simulated tables, one input every {lo:g}-{hi:g} s each, {f['seconds']:.0f} s"
             + (f", while one more table floods the hall with {f['flooded']['sent']:,} new results "
                f"({f['flooded']['sent'] / f['flooded']['seconds']:,.0f} a second)" if f.get("flooded") else "")
             + "\n",
             "| figure | value |", "|---|---|",
             f"| hall update latency, table's publish to the hall page having it, p50 / p99 (ms) | "
             f"{ms(f['page'])} ({f['page']['n']} changes, {f['missed']} not seen) |",
             f"| the same to the hall's snapshot that showed it (its `now_ms`), p50 / p99 (ms) | "
             f"{ms(f['snapshot_ms'])} |",
             f"| a real table's event to the hall page, through its bridge, p50 / p99 (ms) | {ms(f['real_page'])} |",
             f"| inputs / messages per second into the central broker | {f['inputs_per_s']:.1f} / "
             f"{f['messages_per_s']:.1f} (public view ~{f['view_bytes']:,} B; {f['results']} results) |",
             f"| central Mosquitto CPU (s/min) | {f['broker_cpu_per_min']:.2f} |",
             f"| hall process CPU (s/min) | {f['hall_cpu_per_min']:.2f} |",
             f"| hall process RSS at the end / peak (MiB) | {f['hall_rss_mib']:.1f} / {f['hall_peak_rss_mib']:.1f} |",
             f"| one hall page: SSE events / `/hall.json` fetches per second | {f['events_per_s']:.1f} / "
             f"{f['fetches_per_s']:.1f} ({f['snapshot_bytes']:,} B gzipped each) |",
             f"| all {f['pages']} hall pages: `/hall.json` fetches per second | {f['all_fetches_per_s']:.1f} "
             f"({f['streams_refused']} streams refused, {f['reconnects']} fetches asked again on a new "
             f"connection, {f['failed']} failed) |", "",
             f"#### A table's own event to phone ({f['phones_count']} phones, dice at {f['rate']:g}/s, "
             f"turns of {SEGMENT:g} s), alone and bridged to that hall\n",
             "| table | p50 / p99 (ms) | max (ms) | deliveries | lost |", "|---|---|---|---|---|",
             f"| alone (no `[hall]`) | {ms(a)} | {fmt(a['max'] / 1000)} | {a['n']} | {a['lost']} |",
             f"| bridged to the hall | {ms(b)} | {fmt(b['max'] / 1000)} | {b['n']} | {b['lost']} |",
             f"| ratio bridged / alone | {b['p50'] / a['p50']:.2f}x / {b['p99'] / a['p99']:.2f}x | | | |", "",
             f"Load average (1 min) at the end: {os.getloadavg()[0]:.2f}"]
    return "\n".join(lines) + "\n"


def write_docs(text: str) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{DOCS} has no {START} ... {END} markers")
    head, rest = doc.split(START, 1)
    DOCS.write_text(f"{head}{START}\n{text}{END}{rest.split(END, 1)[1]}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="simulated tables (100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window (60)")
    parser.add_argument("--quick", action="store_true", help="15 s, for a check while developing")
    parser.add_argument("--pace", default="2,5", help="seconds between a table's inputs, min,max (2,5)")
    parser.add_argument("--pages", type=int, default=10, help="hall pages open (a TV, phones) (10)")
    parser.add_argument("--phones", type=int, default=10, help="phones on each real table (10)")
    parser.add_argument("--rate", type=float, default=5.0, help="dice rolls a second at a real table's turn (5)")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout whose hall runs (default this one; e.g. another to compare)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--flood", type=float, default=0.0,
                        help="results a second one more table floods the hall with (0: none; 12000: issue 29's)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object instead")
    parser.add_argument("--write-docs", action="store_true", help="put the report in docs/performance.md")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds = 15.0
    args.pace = [float(x) for x in args.pace.split(",")]
    command = " ".join(["PYTHONPATH=. python bench/bench_hall.py", *(argv if argv is not None else sys.argv[1:])])
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as tmp:
        figures = measure(args, Path(tmp))
    if args.json:
        print(json.dumps(figures))
        return 0
    text = report(figures, command, Path(tempfile.gettempdir()))
    print(text)
    if args.write_docs:
        write_docs(text)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--simulate-tables"]:
        from hall_tables import simulate

        simulate()
    elif sys.argv[1:2] == ["--flood-table"]:
        flood()
    elif sys.argv[1:2] == ["--watch-page"]:
        from hall_page import watch

        watch()
    else:
        sys.exit(main())
