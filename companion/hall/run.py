"""`companion hall run`: the central broker, the watcher, the seating and the pages, headless (docs/hall.md).

The hall's SQLite (`HallStore`) is the record: the tables it knows, their passwords, the league's
players, every result once, the seatings. The central broker is managed (its users and ACL written
from the store) or the organiser's own (`external`, by URL). A table added while the hall runs (by its
pages, or by `companion hall table add` in another terminal, which sends the hall SIGHUP) is given a
login at once: the broker's password file is rewritten and Mosquitto reloads.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.games import registry
from companion.hall import checkin, protocol, table_login
from companion.hall.central import BrokerAddress, BrokerUrlError, CentralMosquitto, external_address
from companion.hall.checks import ResultRules
from companion.hall.coalesce import Coalescer
from companion.hall.hooks import League, Store, page_server
from companion.hall.league import corrections, rounds
from companion.hall.league.scoring import from_json
from companion.hall.model import HallModel, wall_ms
from companion.hall.seating_out import Seater
from companion.hall.seating_resend import Resender, Sent
from companion.hall.watch import Watcher

logger = logging.getLogger(__name__)
WAIT_S = 10.0
MUTE_S = 60.0  # a flooding table's login is off the central broker this long (limits.py)


@dataclass(frozen=True)
class HallOptions:
    name: str = "Hall"
    prefix: str = "companion"
    host: str = "0.0.0.0"
    port: int = 1884
    page_port: int | None = 8090  # None: no pages
    broker: str = "managed"  # or "external"
    url: str | None = None
    language: str = "en"  # the pages' language until a visitor chooses one
    score: str | None = None  # "rounds" or "every_game" (league/rounds.py); None: as the league file says
    new_organiser_key: bool = False  # a new organiser's link (the old one then gives 403)


ORGANISER_KEY = "organiser_key"  # the league file's setting


def organiser_key(store: Store, new: bool = False) -> str:
    """The organiser's key kept in the league file (made the first time, or again when `new`)."""
    key = "" if new else store.setting(ORGANISER_KEY, "")
    if len(key) < 16:
        key = secrets.token_urlsafe(18)
        store.set_setting(ORGANISER_KEY, key)
    return key


def external(options: HallOptions) -> BrokerAddress:
    """The organiser's central broker from `options.url` (BrokerUrlError: none, or not one the hall can use)."""
    if not options.url:
        raise BrokerUrlError("hall.broker.url_needed")
    return external_address(options.url)


def pid_file(db: Path) -> Path:
    """Where `hall run` writes its process id, so `hall table add` can tell it (SIGHUP)."""
    return db.with_name(db.name + ".hall.pid")


class Hall:
    """One running hall. `actions` are what the pages may do (`HallActions`)."""

    def __init__(self, store: Store, league: League, options: HallOptions, clock: Callable[[], int] = wall_ms,
                 say: Callable[[str, dict[str, Any]], None] = lambda msgid, params: None) -> None:
        """`say(msgid, params)` tells the organiser's terminal what happens (a result in, one sent again)."""
        self.store, self.league, self.options, self.say = store, league, options, say
        self.model = HallModel(options.name, clock)
        self.broker: CentralMosquitto | None = None
        self._tables: set[str] = set()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        if options.broker == "external":
            self.address = external(options)
        else:
            password = secrets.token_urlsafe(24)  # the hall's own login, new at every run, kept nowhere
            db = getattr(store, "path", None)  # the broker a killed hall left behind is this league file's
            kept = db.with_name(db.name + ".mosquitto.pid") if isinstance(db, Path) and db.name != ":memory:" else None
            self.broker = CentralMosquitto(options.prefix, options.host, options.port, password, {}, pidfile=kept)
            local = "127.0.0.1" if options.host in ("0.0.0.0", "") else options.host
            self.address = BrokerAddress(local, options.port, protocol.HALL_USER, password)
        self.league_worker = Coalescer(self._recompute)  # the standings, off the MQTT thread
        self._muted: set[str] = set()
        self.watcher = Watcher(self.address, options.prefix, self.model, store, accept=self._known,
                               on_result=self._result, check=ResultRules(registry()).check, on_flood=self._flood)
        self.seater = Seater(store, league, self._publish, options.prefix)
        self.resend = Resender(self.model.snapshot, self._publish)
        self.actions = HallActions(self)
        self._pages: Any = None  # the running pages (their `stop()` ends them)
        self._serving = False
        # the organiser's page takes this key, printed on the hall's terminal only; kept in the league file
        # (mode 0600) so the organiser's link survives a restart; `new_organiser_key` makes a new one
        self.organiser_key = organiser_key(store, new=options.new_organiser_key)

    @property
    def serving_pages(self) -> bool:
        return self._serving

    def _known(self, table_id: str) -> bool:
        with self._lock:
            return table_id in self._tables

    def _publish(self, topic: str, payload: bytes) -> None:
        info = self.watcher.publish(topic, payload, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            info.wait_for_publish(WAIT_S)
        else:  # QoS 1: paho keeps it and sends it when the central broker is back
            logger.warning("the central broker is away: %s is sent when it is back", topic)

    def start(self) -> None:
        if self.options.score is not None:
            self.store.set_setting(SCORE, self.options.score)
        self.reload_tables()  # before the broker runs: only its users are set
        if self.broker is not None:
            self.broker.keep_running()
        self._recompute()
        self.league_worker.start()
        self.show_seating(self.store.last_seating())
        self.model.set_checked_in(len(checkin.state(self.store)["players"]))
        self.watcher.start()
        self.resend.start()
        if self.options.page_port is not None:
            self._pages = page_server()(self.model, self.store, self.actions, self.options.page_port,
                                        self.options.host, organiser_key=self.organiser_key,
                                        default_language=self.options.language)
            self._serving = True

    @property
    def page_port(self) -> int | None:
        """The port the pages listen on (the one chosen when `page_port` was 0), None without pages."""
        return getattr(self._pages, "port", None) if self._serving else None

    def reload_tables(self) -> None:
        """Read the tables from the store again (one was added): their logins, what the watcher accepts."""
        passwords = self.store.table_passwords()
        with self._lock:
            self._tables = set(passwords)
            muted = set(self._muted)
        self.model.know_tables(passwords)
        if self.broker is not None:
            self.broker.set_tables({t: p for t, p in passwords.items() if t not in muted})

    def _flood(self, table: str) -> None:
        """`table` floods (limits.py): its login is taken off the central broker for `MUTE_S` seconds, which
        disconnects it; on a thread of its own (a reload waits for Mosquitto), never paho's."""
        if self.broker is None:
            logger.warning("table %s floods the hall; an external broker's logins are the organiser's", table)
            return
        with self._lock:
            self._muted.add(table)
        self.say("hall.cli.table_muted", {"table": table, "seconds": int(MUTE_S)})
        threading.Thread(target=self._mute_for, args=(table,), name="hall-mute", daemon=True).start()

    def _mute_for(self, table: str) -> None:
        try:
            self.reload_tables()
            if self._stopping.wait(MUTE_S):
                return
            with self._lock:
                self._muted.discard(table)
            self.watcher.router.limits.forgive(table)
            self.reload_tables()
            self.say("hall.cli.table_unmuted", {"table": table})
        except Exception:  # the next flood or SIGHUP tries again; this thread only ends
            logger.exception("muting table %s failed", table)

    def _result(self, result: dict[str, Any], new: bool) -> None:
        if new:
            self.refresh_standings()
        self.say("hall.cli.result_in" if new else "hall.cli.result_again",
                 {"table": result["table"], "number": result["number"]})

    def show_seating(self, seating: dict[str, Any] | None) -> None:
        """The round's seating on the screens, with the tables whose seating the organiser cancelled (and
        did not undo) named in `cancelled`: the TV leaves them out of the pairings."""
        if seating is not None:
            log = self.store.corrections()
            undone = corrections.undone_seqs(log)
            gone = sorted({c["args"].get("table") for c in log if c["kind"] == "cancel_seating" and c["seq"] not in
                           undone and c["args"].get("seating") == seating.get("seating")} & set(seating["tables"]))
            seating = {**seating, "cancelled": gone}
        self.model.set_seating(seating)

    def refresh_standings(self) -> None:
        """Ask for the standings again: the league's worker recomputes them soon (coalesce.py)."""
        self.league_worker.request()

    def state(self) -> LeagueState:
        return league_state(self.store)

    def standings(self, state: LeagueState | None = None) -> list[Any]:
        state = state or self.state()
        return self.league.standings(state.scored, self.store.players(), state.applied.scoring)

    def _recompute(self) -> None:
        state = self.state()
        self.model.set_standings(self.standings(state))
        self.model.set_casual(state.casual)

    def stop(self) -> None:
        self._stopping.set()
        pages, self._pages, self._serving = self._pages, None, False
        if pages is not None:
            pages.stop()
        self.resend.stop()
        self.watcher.stop()
        self.league_worker.stop()
        if self.broker is not None:
            self.broker.close()


class HallActions:
    """What the hall's pages may change, each through the store and then the running parts."""

    def __init__(self, hall: Hall) -> None:
        self._hall = hall
        self._checkin_lock = threading.Lock()

    def add_table(self, table_id: str) -> str:
        password = self._hall.store.add_table(table_id)
        self._hall.reload_tables()
        return password

    def checkin_roster(self, code: str) -> list[dict[str, Any]]:
        return checkin.roster(self._hall.store, code)

    def check_in(self, code: str, player: str) -> str:
        """A player checked in from the check-in page (checkin.py): their name."""
        with self._checkin_lock:  # two phones at once: neither check-in lost
            name = checkin.check_in(self._hall.store, code, player)
            count = len(checkin.state(self._hall.store)["players"])
        self._hall.model.set_checked_in(count)  # the organiser's page follows it live
        return name

    def new_checkin(self) -> None:
        with self._checkin_lock:
            checkin.new_night(self._hall.store)
        self._hall.model.set_checked_in(0)

    def checkin_code(self) -> str:
        with self._checkin_lock:
            return str(checkin.state(self._hall.store)["code"])

    def add_named_table(self, name: str, host: str, comment: str) -> dict[str, str]:
        """A table added from the organiser's page by its name (ValueError: not a name): its id and the
        lines its owner puts in the table's config, the hall's broker as `host` reaches it (the organiser's
        browser reached the hall there). Secret: shown on the organiser's page only."""
        if not table_login.good_name(name):
            raise ValueError("not a table's name")
        hall = self._hall
        table_id = table_login.table_id_for(name, set(hall.store.table_passwords()))
        password = self.add_table(table_id)
        opts = hall.options
        port = opts.port
        if opts.broker == "external" and opts.url:
            address = external(opts)
            host, port = address.host, address.port  # never the hall's own login in the URL
        url = f"mqtt://[{host}]:{port}" if ":" in host else f"mqtt://{host}:{port}"
        return {"id": table_id, "config": table_login.config_text(table_id, name, url, password, comment)}

    def add_player(self, name: str, who: str | None = None) -> str:
        """A player on the roster (ValueError: not a name); from the organiser's page (`who`), logged."""
        player_id = self._hall.store.add_player(name)
        if who is not None:
            self._hall.store.add_correction("add_player", {"player": player_id, "name": name.strip()}, who,
                                            self._hall.model.snapshot()["hall"]["now_ms"])
        self._hall.refresh_standings()
        return player_id

    def send_seating(self, game: str, present_player_ids: list[str], tables: list[str],
                     options: dict[str, Any] | None = None, *, pods: tuple[int, int] | None = None,
                     byes: bool = False, minutes: int | None = None, reseat: bool = False,
                     who: str = "organiser") -> dict[str, Any]:
        """Open the next round; with `reseat`, seat `tables` again within the current round (their
        seatings in it, and those of the tables the players come from, cancelled: logged as corrections
        by `who`)."""
        hall = self._hall
        state = hall.state()
        round_no: int | None = None
        cancelled: dict[str, str] = {}
        if reseat:
            last = hall.store.last_seating()
            round_no = last["round"] if last else 0
            moving = set(present_player_ids)
            for s in state.applied.seatings:  # the tables re-seated, and those the players move from
                for table, chairs in s.get("tables", {}).items():
                    if s.get("round") == round_no and (table in tables or moving & {p["id"] for p in chairs}):
                        cancelled[table] = s["seating"]
        seating = hall.seater.send_seating(game, present_player_ids, tables, options, pods=pods, byes=byes,
                                           minutes=minutes, now_ms=hall.model.snapshot()["hall"]["now_ms"],
                                           scored=state.scored, results=state.applied.results,
                                           round_no=round_no)
        for table in cancelled:
            hall.store.add_correction("cancel_seating", {"seating": cancelled[table], "table": table}, who, seating[
                "opened_ms"])
        if reseat:
            hall.store.add_correction("reseat", {"seating": seating["seating"], "round": seating["round"],
                                                 "tables": list(seating["tables"])}, who, seating["opened_ms"])
            hall.refresh_standings()
        hall.show_seating(seating)
        for table, chairs in seating["tables"].items():  # sent again until the table shows it started
            hall.resend.track(table, Sent(
                protocol.seating_topic(hall.options.prefix, table),
                protocol.seating_payload(seating=seating["seating"], round_no=seating["round"], game=game,
                                         options=seating["options"], players=chairs),
                game, frozenset(p["id"] for p in chairs), seating["seating"]))
        return seating

    def standings_csv(self) -> str:
        hall = self._hall
        return hall.league.to_csv(hall.standings())

    def correct(self, kind: str, args: dict[str, Any], who: str) -> int:
        """One correction by `who` (CorrectionError: it cannot be made, nothing changed), logged with the
        hall's time, then the standings are recomputed; its `seq` in the log (what an undo names)."""
        hall = self._hall
        check_correction(hall, kind, args)
        if kind == "undo":
            return self._undo(args["seq"], who)
        names = {p["id"]: p["name"] for p in hall.store.players()}
        shown = {"names": {pid: names[pid] for pid in (args.get("player"), args.get("into")) if pid in names}}
        args = {**args, **shown}  # the log says names as they were, also of a player since removed
        if kind == "rename_player":
            hall.store.rename_player(args["player"], args["name"])
        elif kind in ("remove_player", "merge_players"):  # a merged id's games are `into`'s (corrections.py)
            hall.store.remove_player(args["player"])
        elif kind == "cancel_seating":
            hall.resend.forget(args["table"], args["seating"])
        seq = hall.store.add_correction(kind, args, who, hall.model.snapshot()["hall"]["now_ms"])
        if kind == "cancel_seating":
            hall.show_seating(hall.store.last_seating())
        hall.refresh_standings()
        return seq

    def _undo(self, seq: int, who: str) -> int:
        """Take back correction `seq` (checked by check_correction): a renamed player gets the name back,
        a removed or merged one comes back on the roster with their own id and name; logged."""
        hall = self._hall
        earlier = next(c for c in hall.store.corrections() if c["seq"] == seq)
        args = earlier["args"]
        name = args.get("names", {}).get(args.get("player"))
        if earlier["kind"] == "rename_player":
            hall.store.rename_player(args["player"], name)
        elif earlier["kind"] in ("remove_player", "merge_players"):
            hall.store.restore_player(args["player"], name)
        logged = {"seq": seq, "undone": earlier["kind"],
                  **{k: args[k] for k in ("table", "player", "into", "names", "name") if k in args}}
        out = hall.store.add_correction("undo", logged, who, hall.model.snapshot()["hall"]["now_ms"])
        if earlier["kind"] == "cancel_seating":
            hall.show_seating(hall.store.last_seating())
        hall.refresh_standings()
        return out

    def organiser_extra(self) -> dict[str, Any]:
        """What the organiser's page shows beside the roster: who dropped, the recent results (scored,
        casual or void) to correct, the corrections made (who and when), the scoring."""
        hall = self._hall
        state = hall.state()
        scored = {(r["table"], r["key"]) for r in state.scored}

        def shown(r: dict[str, Any], how: str) -> dict[str, Any]:
            return {k: r.get(k) for k in ("table", "key", "number", "game", "players", "ranking", "round")} | {
                "how": how}

        recent = [shown(r, "scored" if (r["table"], r["key"]) in scored else "casual")
                  for r in state.applied.results[-RECENT_SHOWN:]]
        recent += [shown(r, "void") for r in state.applied.voided[-RECENT_SHOWN:]]
        log = hall.store.corrections()
        cancelled = [{"seating": c["args"].get("seating"), "table": c["args"].get("table")} for c in log
                     if c["kind"] == "cancel_seating" and c["seq"] not in corrections.undone_seqs(log)]
        with self._checkin_lock:
            night = checkin.state(hall.store)
        return {"dropped": sorted(state.applied.dropped), "results": recent, "checked_in": night["players"],
                "checkin_code": night["code"],
                "corrections": log[-RECENT_SHOWN:], "undone": sorted(corrections.undone_seqs(log)),
                "cancelled": cancelled[-RECENT_SHOWN:],
                "scoring": state.applied.scoring.to_json()}


RECENT_SHOWN = 40


class CorrectionError(ValueError):
    """A correction that cannot be made: `code` a message id (companion/hall/locale), `params` its params."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params


def check_correction(hall: Hall, kind: str, args: Any) -> None:
    """Whether `kind` with `args` can be made now (CorrectionError naming what is wrong)."""
    if kind not in corrections.KINDS or kind in ("reseat", "add_player") or not isinstance(args, dict):
        raise CorrectionError("hall.correction.unknown")
    if kind == "undo":
        check_undo(hall, args.get("seq"))
        return
    state = hall.state()
    roster = {p["id"] for p in hall.store.players()}
    results = {(r["table"], r["key"]): r for r in state.applied.results}
    if kind in ("void_result", "edit_result"):
        found = results.get((args.get("table"), args.get("key")))
        if found is None:
            raise CorrectionError("hall.correction.no_result")
        if kind == "edit_result":
            ranking = args.get("ranking")
            if not isinstance(ranking, list) or not all(isinstance(g, list) and g for g in ranking) or sorted(
                    pid for g in ranking for pid in g) != sorted(p["id"] for p in found["players"]):
                raise CorrectionError("hall.correction.bad_ranking")
    elif kind == "cancel_seating":
        if not any(s.get("seating") == args.get("seating") and args.get("table") in s.get("tables", {})
                   for s in state.applied.seatings):
            raise CorrectionError("hall.correction.no_seating")
    elif kind == "scoring":
        try:
            from_json(args.get("scoring"))
        except ValueError as err:
            raise CorrectionError("hall.correction.bad_scoring", problem=str(err)[:120]) from None
    else:
        if args.get("player") not in roster:
            raise CorrectionError("hall.correction.no_player")
        if kind == "rename_player" and not isinstance(args.get("name"), str):
            raise CorrectionError("hall.correction.bad_name")
        if kind == "merge_players":
            into = args.get("into")
            if into not in roster or into == args["player"]:
                raise CorrectionError("hall.correction.no_player")
            if any({args["player"], into} <= {p["id"] for p in r["players"]} for r in state.applied.results):
                raise CorrectionError("hall.correction.played_together")


def check_undo(hall: Hall, seq: Any) -> None:
    """Whether correction `seq` can be taken back now (CorrectionError saying why not)."""
    log = hall.store.corrections()
    earlier = next((c for c in log if c["seq"] == seq), None) if isinstance(seq, int) else None
    if earlier is None or earlier["kind"] not in corrections.UNDOABLE:
        raise CorrectionError("hall.correction.cannot_undo")
    if seq in corrections.undone_seqs(log):
        raise CorrectionError("hall.correction.undone_already")
    args = earlier["args"]
    name = args.get("names", {}).get(args.get("player"))
    roster = {p["id"] for p in hall.store.players()}
    if earlier["kind"] in ("rename_player", "remove_player", "merge_players") and not isinstance(name, str):
        raise CorrectionError("hall.correction.cannot_undo")
    if earlier["kind"] == "rename_player" and args.get("player") not in roster:
        raise CorrectionError("hall.correction.no_player")
    if earlier["kind"] in ("remove_player", "merge_players") and args.get("player") in roster:
        raise CorrectionError("hall.correction.undone_already")


SCORE = "score"  # the league file's setting: "rounds" (the default) or "every_game"
SCORES = ("rounds", "every_game")


@dataclass(frozen=True)
class LeagueState:
    """The league as the standings see it: the results scored and casual (league/rounds.py) after the
    organiser's corrections (league/corrections.py)."""

    scored: list[dict[str, Any]]
    casual: list[dict[str, Any]]
    applied: corrections.Applied


def league_state(store: Store) -> LeagueState:
    applied = corrections.apply(store.results(), store.seatings(), store.corrections())
    every_game = store.setting(SCORE, "rounds") == "every_game"
    scored, casual = rounds.split(applied.results, applied.seatings, every_game=every_game)
    return LeagueState([dict(r) for r in scored], [dict(r) for r in casual], applied)


def scored_results(store: Store) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The league file's results as (scored, casual), corrected, by its scoring setting."""
    state = league_state(store)
    return state.scored, state.casual


def running_hall(db: Path) -> int | None:
    """The process id of the hall running on `db` (its pid file names a live `companion hall run`)."""
    try:
        pid = int(pid_file(db).read_text(encoding="ascii"))
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError):
        return None
    return pid if b"hall" in args and b"run" in args and pid != os.getpid() else None  # else a stale file


@contextlib.contextmanager
def announced(db: Path) -> Any:
    """The pid file while the hall runs (removed after)."""
    path = pid_file(db)
    path.write_text(f"{os.getpid()}\n", encoding="ascii")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
