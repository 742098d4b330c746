"""The hall's HTTP pages (docs/hall.md): the phone page's server (companion/phones/pageserver.py) with
the hall's files, its live snapshot, the league's CSV and the organiser's one action.

    /                     the hall screen (a TV, the organiser's phone): every table as a card
    /table/<id>           one table's card, bigger: a spectator's phone
    /cycle?seconds=8      a big screen that shows the tables one after another
    /standings            the league standings; /standings.csv the same as a download
    /seating              the last seating: which players sit at which table
    /organiser?key=K      the organiser's page (403 with a page saying so, without the right key)
    /hall.json            the hall's public snapshot; /events its versions as Server-Sent Events
    /organiser.json       the roster, the games and the tables to seat from (key in X-Organiser-Key)
    POST /seating         "Seat the next round" (JSON, key in X-Organiser-Key, at most MAX_BODY bytes)
    POST /player          a late entry: {"name"} (the same key and limits)
    /checkin?code=C       a player checks themselves in (tonight's code: the QR on the organiser's page)
    /checkin.json?code=C  the names to tap, and who checked in; POST /checkin {"code", "player"}
    /checkin-qr.svg?key=K the check-in link's QR code (the organiser's); POST /checkin/new: a new code
    POST /table           a new table: {"name"}; answers its id and its config lines (its password: secret)
    POST /correction      a correction: {"kind", "args"} (league/corrections.py; the same key and limits);
                          answers {"ok", "seq"}: the correction's place in the log, what an undo names
    /i18n/<lang>.json     the catalogs, as the phone page gets them (games' names, announcements)

Everything served is public but the organiser's page and its two answers. The key is compared in
constant time and never logged (requests are logged by path, without the query; the key travels in a
header after the page opened). Every limit of the phone page's server holds here too: bounded waits,
connections and header sizes; a body only on the POSTs (Content-Length, at most MAX_BODY).
"""

from __future__ import annotations

import gzip
import hmac
import html
import json
import logging
import re
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from companion import i18n
from companion.games import registry
from companion.hall.pages import seating_request
from companion.hall.pages.parts import Actions, Model, Store
from companion.hall.pages.qr_svg import qr_svg
from companion.hall.pages.seating_request import MAX_BODY, Refused
from companion.hall.pages.snapshots import Snapshots, to_json
from companion.hall.pages.stream import Streams, stream
from companion.hall.protocol import MAX_NAME, TABLE_ID
from companion.phones.offered import offered
from companion.phones.pageserver import GZIP_FROM, RETRY_AFTER, TYPES, WEB_DIR, PageHandler, PageServer

logger = logging.getLogger(__name__)
HALL_WEB = Path(__file__).parent / "web"
PAGES = {"/": "hall.html", "/cycle": "cycle.html", "/standings": "standings.html", "/seating": "seating.html",
         "/checkin": "checkin.html"}
PHONE_MODULES = ("i18n.js", "dom.js", "header.js", "render.js", "moderator.js")  # the phone page's, shared
KEY_HEADER = "X-Organiser-Key"
LOADING = 32  # connections beside the open pages' own two, for pages loading (a browser opens about six)
JSON = TYPES[".json"]
_HOST = re.compile(r"(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:]{2,39}\])(?::[0-9]{1,5})?")  # a Host header: host[:port]
_HOST_PORT = re.compile(r":[0-9]{1,5}$")


class HallHandler(PageHandler):
    server: HallPages

    def dispatch(self) -> None:
        path, _, query = self.path.partition("?")
        head = self.command == "HEAD"
        if self.command == "POST" and path == "/seating":
            self._seat()
        elif self.command == "POST" and path == "/correction":
            self._correct()
        elif self.command == "POST" and path == "/player":
            self._add_player()
        elif self.command == "POST" and path == "/table":
            self._add_table()
        elif self.command == "POST" and path == "/checkin":
            self._check_in()
        elif self.command == "POST" and path == "/checkin/new":
            self._new_checkin()
        elif self.command not in ("GET", "HEAD"):
            self.send_error(HTTPStatus.NOT_IMPLEMENTED)
        elif path == "/events":
            self._events()
        elif path == "/hall.json":  # one encoding for every page at one version (snapshots.py)
            kept = self.server.snapshots.current()
            self._send(HTTPStatus.OK, kept.body, JSON, head, gzipped=kept.gzipped)
        elif path == "/standings.csv":
            self._send(HTTPStatus.OK, self.server.actions.standings_csv().encode(), "text/csv; charset=utf-8", head,
                       {"Content-Disposition": 'attachment; filename="league-standings.csv"'})
        elif path == "/organiser":
            self._organiser_page(parse_qs(query).get("key", [""])[0], head)
        elif path == "/checkin.json":
            self._checkin_roster(parse_qs(query).get("code", [""])[0], head)
        elif path == "/checkin-qr.svg":
            if not self._refused_key(parse_qs(query).get("key", [""])[0]):
                self._checkin_qr(head)
        elif path == "/organiser.json":
            if self._refused_key(self.headers.get(KEY_HEADER, "")):
                return
            self._send(HTTPStatus.OK, _json(self.server.organiser_data()), JSON, head)
        else:
            self._answer(head)

    def _send(self, status: HTTPStatus, body: bytes, kind: str, head: bool,
              extra: dict[str, str] | None = None, gzipped: bytes | None = None) -> None:
        """A dynamic answer (never cached by the browser: each snapshot differs), gzipped when it is big
        enough (`gzipped`: the body gzipped already)."""
        zipped = "gzip" in self.headers.get("Accept-Encoding", "") and (gzipped is not None or len(body) >= GZIP_FROM)
        if zipped and gzipped is None:
            gzipped = gzip.compress(body, compresslevel=6, mtime=0)
        payload = gzipped if zipped and gzipped is not None else body
        self.send_response(status)
        self.send_header("Content-Type", kind)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        if zipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if not head:
            self.wfile.write(payload)

    def _refusal(self, refused: Refused) -> None:
        self.close_connection = True
        self._send(refused.status, _json(refused.answer()), JSON, False, {"Connection": "close"})

    def _refused_key(self, given: str) -> bool:
        if self.server.is_organiser(given):
            return False
        self._refusal(Refused("hall.reject.not_organiser", status=HTTPStatus.FORBIDDEN))
        return True

    def _organiser_page(self, key: str, head: bool) -> None:
        if self.server.is_organiser(key):
            self._send(HTTPStatus.OK, (HALL_WEB / "organiser.html").read_bytes(), TYPES[".html"], head)
            return
        lang = self.server.language_of(self.headers.get("Accept-Language", ""))
        words = {part: html.escape(i18n.translate(lang, f"hall.organiser.refused_{part}"))
                 for part in ("title", "text")}
        page = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<title>{words["title"]}</title><link rel="stylesheet" href="/hall.css"></head>'
                f'<body class="refused"><main><h1>{words["title"]}</h1><p>{words["text"]}</p></main></body></html>')
        self._send(HTTPStatus.FORBIDDEN, page.encode(), TYPES[".html"], head)

    def _seat(self) -> None:
        self.close_connection = True  # one POST per connection: whatever follows the body is never read
        try:
            body = self._body()
            if self._refused_key(self.headers.get(KEY_HEADER, "")):
                return
            request = seating_request.parse(body, self.server.games, self.server.roster(), self.server.tables())
            try:
                extra: dict[str, Any] = {"pods": request.pods, "byes": request.byes, "minutes": request.minutes,
                         "reseat": request.reseat}
                if request.reseat:
                    extra["who"] = self._who()
                seated = self.server.actions.send_seating(request.game, request.present, request.tables, **{
                    k: v for k, v in extra.items() if v not in (None, False)})
            except ValueError as err:
                logger.info("hall pages: the seating could not be made", exc_info=True)
                code, params = getattr(err, "code", None), getattr(err, "params", None)
                if isinstance(code, str) and isinstance(params, dict):  # the seater's own words (SeatingError)
                    raise Refused(code, params) from None
                raise Refused("hall.reject.cannot_seat") from None
        except Refused as refused:
            self._refusal(refused)
            return
        answer = {"ok": True, "seating": seated if isinstance(seated, dict) else None}
        self._send(HTTPStatus.OK, _json(answer), JSON, False, {"Connection": "close"})

    def _who(self) -> str:
        """Who made a change, for the audit trail: the organiser's page, from which address."""
        return f"organiser's page ({self.client_address[0]})"

    def _correct(self) -> None:
        """POST /correction {"kind", "args"} (league/corrections.py), the key in the header."""
        self.close_connection = True
        try:
            data = self._organiser_json({"kind", "args"})
            if data is None:
                return
            if not isinstance(data["kind"], str):
                raise Refused("hall.reject.bad_request", {"field": "kind, args"})
            correct = getattr(self.server.actions, "correct", None)
            if correct is None:
                raise Refused("hall.reject.cannot_seat")
            try:
                seq = correct(data["kind"], data["args"], self._who())
            except ValueError as err:
                code, params = getattr(err, "code", None), getattr(err, "params", None)
                if isinstance(code, str) and isinstance(params, dict):
                    raise Refused(code, params) from None
                raise Refused("hall.correction.unknown") from None
        except Refused as refused:
            self._refusal(refused)
            return
        answer = {"ok": True, "seq": seq if isinstance(seq, int) else None}  # what "Undo" names
        self._send(HTTPStatus.OK, _json(answer), JSON, False, {"Connection": "close"})

    def _add_player(self) -> None:
        """POST /player {"name"}: a late entry from the organiser's page; answers {"ok", "id"}."""
        self.close_connection = True
        try:
            data = self._organiser_json({"name"})
            if data is None:
                return
            if not isinstance(data["name"], str):
                raise Refused("hall.reject.bad_request", {"field": "name"})
            try:
                player_id = self.server.actions.add_player(data["name"], who=self._who())
            except ValueError:
                raise Refused("hall.correction.bad_name") from None
        except Refused as refused:
            self._refusal(refused)
            return
        self._send(HTTPStatus.OK, _json({"ok": True, "id": player_id}), JSON, False, {"Connection": "close"})

    def _add_table(self) -> None:
        """POST /table {"name"}: a table added from the organiser's page; answers {"ok", "id", "config"}
        (the lines for the table's config file, its password among them: this answer only)."""
        self.close_connection = True
        try:
            data = self._organiser_json({"name"})
            if data is None:
                return
            add = getattr(self.server.actions, "add_named_table", None)
            if not isinstance(data["name"], str) or add is None:
                raise Refused("hall.reject.bad_request", {"field": "name"})
            lang = self.server.language_of(self.headers.get("Accept-Language", ""))
            name = data["name"].strip()
            try:
                comment = i18n.translate(lang, "hall.cli.table_config", {"name": name})
                added = add(name, _HOST_PORT.sub("", self._host()).strip("[]"), comment)
            except ValueError:
                raise Refused("hall.cli.bad_table_name", {"most": MAX_NAME}) from None
        except Refused as refused:
            self._refusal(refused)
            return
        self._send(HTTPStatus.OK, _json({"ok": True, **added}), JSON, False, {"Connection": "close"})

    def _action(self, name: str) -> Any:
        """One of the hall's actions the pages may take (Refused: this hall has none by that name)."""
        found = getattr(self.server.actions, name, None)
        if found is None:
            raise Refused("hall.reject.bad_request", {"field": name})
        return found

    def _host(self) -> str:
        """The Host header as the browser sent it (host[:port]), if it is one; else this server on localhost."""
        given = (self.headers.get("Host") or "").strip()
        return given if _HOST.fullmatch(given) else f"localhost:{self.server.port}"

    def _checkin_qr(self, head: bool) -> None:
        """The check-in link's QR code (the organiser's): this hall as the browser reached it, tonight's code."""
        try:
            code = self._action("checkin_code")()
        except Refused as refused:
            self._refusal(refused)
            return
        self._send(HTTPStatus.OK, qr_svg(f"http://{self._host()}/checkin?code={code}").encode(), "image/svg+xml", head)

    def _checkin_roster(self, code: str, head: bool) -> None:
        """GET /checkin.json?code=C: every player's name and whether they checked in (403: not tonight's code)."""
        try:
            players = self._action("checkin_roster")(code)
        except ValueError as err:
            self._refusal(Refused(str(getattr(err, "code", "hall.checkin.bad_code")), status=HTTPStatus.FORBIDDEN))
            return
        except Refused as refused:
            self._refusal(refused)
            return
        self._send(HTTPStatus.OK, _json({"players": players}), JSON, head)

    def _check_in(self) -> None:
        """POST /checkin {"code", "player"}: a player checks themselves in (public, with tonight's code)."""
        self.close_connection = True
        try:
            body = self._body()
            try:
                data = json.loads(body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                raise Refused("hall.reject.not_json") from None
            if not isinstance(data, dict) or set(data) != {"code", "player"} or not all(
                    isinstance(v, str) for v in data.values()):
                raise Refused("hall.reject.bad_request", {"field": "code, player"})
            try:
                name = self._action("check_in")(data["code"], data["player"])
            except ValueError as err:
                raise Refused(str(getattr(err, "code", "hall.checkin.bad_code")), status=HTTPStatus.FORBIDDEN) from None
        except Refused as refused:
            self._refusal(refused)
            return
        self._send(HTTPStatus.OK, _json({"ok": True, "name": name}), JSON, False, {"Connection": "close"})

    def _new_checkin(self) -> None:
        """POST /checkin/new {} (the organiser's key): a new code, nobody checked in."""
        self.close_connection = True
        try:
            if self._organiser_json(set()) is None:
                return
            self._action("new_checkin")()
        except Refused as refused:
            self._refusal(refused)
            return
        self._send(HTTPStatus.OK, _json({"ok": True}), JSON, False, {"Connection": "close"})

    def _organiser_json(self, fields: set[str]) -> dict[str, Any] | None:
        """An organiser's POST body: a JSON object with exactly `fields`, the organiser's key in the header
        (None: refused for the key, already answered); raises Refused for anything else."""
        body = self._body()
        if self._refused_key(self.headers.get(KEY_HEADER, "")):
            return None
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise Refused("hall.reject.not_json") from None
        if not isinstance(data, dict) or set(data) != fields:
            raise Refused("hall.reject.bad_request", {"field": ", ".join(sorted(fields, reverse=True))})
        return data

    def _body(self) -> bytes:
        if "Transfer-Encoding" in self.headers:
            raise Refused("hall.reject.no_length", status=HTTPStatus.LENGTH_REQUIRED)
        length = self.headers.get("Content-Length", "").strip()
        if not length.isdigit():
            raise Refused("hall.reject.no_length", status=HTTPStatus.LENGTH_REQUIRED)
        if int(length) > MAX_BODY:
            raise Refused("hall.reject.too_large", {"limit": MAX_BODY}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        if self.headers.get_content_type() != "application/json":
            raise Refused("hall.reject.not_json", status=HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
        body = self.rfile.read(int(length))  # within the request's deadline, as its headers were
        if len(body) != int(length):
            raise OSError("the request's body was cut short")
        return body

    def _events(self) -> None:
        streams = self.server.streams
        if not streams.enter():
            self.send_response(HTTPStatus.SERVICE_UNAVAILABLE)
            self.send_header("Retry-After", str(RETRY_AFTER))
            self.send_header("Connection", "close")
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.close_connection = True
            return
        try:
            self.close_connection = True  # a stream has no length: it ends with its connection
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                stream(self.server.model, self.wfile.write, streams.stopping)
        finally:
            streams.leave()


class HallPages(PageServer):
    """The hall's pages on (host, port), port 0 a free one; `start()` serves them on a thread.

    An open page holds two connections, each with a thread: its stream, and the one its fetches of
    `/hall.json` keep alive (under 100 tables it fetches about four times a second, so that one never
    idles long enough to be dropped for a connection waiting). So the connections are, unless
    `max_connections` says otherwise, two per stream and `LOADING` more for pages loading their files.
    With fewer, the pages past the cap waited ten seconds for a thread and were then refused
    (bench/bench_hall.py with 60 pages: updates 8 s late, one fetch in six failed)."""

    handler = HallHandler
    busy_message = "hall.page_busy"
    thread_name = "hall-pages"

    def __init__(self, model: Model, store: Store, actions: Actions, host: str = "0.0.0.0", port: int = 8090, *,
                 organiser_key: str, default_language: str = "en", max_connections: int | None = None,
                 max_streams: int = 64, **limits: Any) -> None:
        if len(organiser_key) < 16:
            raise ValueError("the organiser's key must be at least 16 characters")
        self.model, self.store, self.actions = model, store, actions
        self._key = organiser_key.encode()
        self.streams = Streams(max_streams)
        self.snapshots = Snapshots(model)
        self.games = {g["id"]: g for g in offered(registry())}
        connections = 2 * max_streams + LOADING if max_connections is None else max_connections
        super().__init__(host, port, default_language=default_language, max_connections=connections, **limits)

    def listed_files(self, web_dir: Path) -> dict[str, Path]:
        files = {path: HALL_WEB / name for path, name in PAGES.items()}
        files["/hall.css"] = HALL_WEB / "hall.css"
        files.update({f"/js/{p.name}": p for p in sorted((HALL_WEB / "js").glob("*.js"))})
        files.update({f"/js/{name}": WEB_DIR / "js" / name for name in PHONE_MODULES})
        return files

    def resource(self, path: str) -> tuple[bytes | None, str]:
        if path.startswith("/table/") and TABLE_ID.match(path[7:]):
            return (HALL_WEB / "table.html").read_bytes(), TYPES[".html"]
        if path in ("/games.json", "/clock"):
            return None, ""  # the phone page's, not the hall's
        return super().resource(path)

    def is_organiser(self, given: str) -> bool:
        return hmac.compare_digest(given.encode("utf-8", "replace"), self._key)

    def language_of(self, accept: str) -> str:
        for part in accept.split(","):
            lang = part.split(";")[0].strip().lower()[:2]
            if lang in i18n.LANGUAGES:
                return lang
        return self.default_language

    def roster(self) -> set[str]:
        return {p["id"] for p in self.store.players()}

    def tables(self) -> set[str]:
        return {t["id"] for t in self.model.snapshot()["tables"]}

    def organiser_data(self) -> dict[str, Any]:
        snap = self.model.snapshot()
        extra = getattr(self.actions, "organiser_extra", None)
        return {"players": self.store.players(), "games": list(self.games.values()),
                "tables": [{"id": t["id"], "name": t["name"], "online": t["online"]} for t in snap["tables"]],
                **(extra() if extra is not None else {})}

    def stop(self) -> None:
        self.streams.stopping.set()
        super().stop()


def serve_pages(model: Model, store: Store, actions: Actions, port: int, host: str = "0.0.0.0", *,
                organiser_key: str, default_language: str = "en") -> HallPages:
    """The hall's pages, running (`stop()` ends them)."""
    pages = HallPages(model, store, actions, host, port, organiser_key=organiser_key,
                      default_language=default_language)
    pages.start()
    return pages


_json = to_json
