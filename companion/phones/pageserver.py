"""The phone page's HTTP server: the static page, its catalogs as JSON, the table's clock. Nothing else.

Python's `http.server` on its own thread (phones fetch a few small files once per visit; no framework
is needed). It serves only files it lists at start, never a path from the request, and
holds no secret: credentials travel in the join link's fragment, which browsers never send. Answers of
1 KiB or more go gzipped to browsers that accept it (a convention's many spectator phones on one Wi-Fi).

    /                      the page (index.html)
    /app.css, /js/*.js     the page's own files
    /vendor/mqtt.min.js    the MQTT client from the npm package (installed by `npm ci`, see package.json)
    /vendor/qrcode.mjs     the QR encoder (npm `qrcode-generator`): the free seats' codes on the host's page
    /i18n/languages.json   the languages, each with its own name, and the table's default
    /i18n/<lang>.json      every message id of the catalogs, in that language (English where missing)
    /clock                 the table clock's now (ms), so phones count timers down on the table's time
    /games.json            the games the host's "New game" form offers, with their options (`offered`)

A hostile client on the same Wi-Fi gets no more than a phone: HTTP/1.1 keep-alive with every wait
bounded, at most `max_connections` threads and `max_waiting` connections waiting for one, else 503
(`pageconnections`); a request line of at most `MAX_REQUEST_LINE` bytes (else 414), headers of at most
`MAX_HEADERS` bytes (else 431), HTTP/1.0 or 1.1 (else 400 or 505), GET and HEAD only (else 501). Every
answer, refusals included, carries the security headers (`HEADERS`), and none echoes the request.

Every answer but the clock's carries a validator (`ETag`: a hash of what is sent, gzipped or not), and
`Cache-Control: no-cache` makes the browser ask again each time: a reload is answered `304 Not Modified`
with no body for every file that did not change (the whole page moves a few KB instead of ~160 KB).
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import hashlib
import http.client
import io
import json
import logging
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from companion import i18n
from companion.phones.offered import offered
from companion.phones.pageconnections import Connection, Connections, Limits, discard_unread

logger = logging.getLogger(__name__)
WEB_DIR = Path(__file__).parent / "web"
GZIP_FROM = 1024  # bytes: smaller answers are sent as they are
MAX_REQUEST_LINE = 8192  # bytes; the page's own addresses are under 40
MAX_HEADERS = 16384  # bytes of request headers in all; a phone's browser sends under 1 KiB here
RETRY_AFTER = 2  # seconds a phone refused over the connection cap is told to wait
MQTT_CLIENT = Path("node_modules/mqtt/dist/mqtt.min.js")
QR_CODES = Path("node_modules/qrcode-generator/dist/qrcode.mjs")  # the free seats' QR codes on the host's page
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
         ".json": "application/json; charset=utf-8"}
HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
                                "style-src 'self'; script-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'"),
}


class PageMissing(RuntimeError):
    """The page's files or its MQTT client are not installed (run `npm ci` in companion/phones/web)."""


def catalog(lang: str) -> dict[str, str]:
    """Every message of the merged catalogs in `lang`, placeholders left in (the page fills them)."""
    ids = i18n.msgids(i18n.FALLBACK) | i18n.msgids(lang)
    return {mid: i18n.translate(lang, mid) for mid in sorted(ids)}


def languages(default: str) -> dict[str, Any]:
    return {"default": default, "languages": {lang: i18n.translate(lang, "phone.language_name")
                                              for lang in i18n.LANGUAGES}}


def _files(web_dir: Path) -> dict[str, Path]:
    """The URL paths served from disk, fixed at start."""
    files = {"/": web_dir / "index.html", "/app.css": web_dir / "app.css",
             "/vendor/mqtt.min.js": web_dir / MQTT_CLIENT, "/vendor/qrcode.mjs": web_dir / QR_CODES}
    files.update({f"/js/{p.name}": p for p in sorted((web_dir / "js").glob("*.js"))})
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise PageMissing(f"the phone page is incomplete; missing {', '.join(missing)} "
                          f"(run `npm ci` in {web_dir})")
    return files


class _HeadersWithin(io.BufferedIOBase):
    """The request's headers as `http.client.parse_headers` reads them, line by line, `budget` bytes in all."""

    def __init__(self, wire: io.BufferedIOBase, budget: int) -> None:
        super().__init__()
        self._wire = wire
        self._left = budget

    def readline(self, size: int | None = -1, /) -> bytes:
        limit = self._left + 1 if size is None or size < 0 else min(size, self._left + 1)
        line = self._wire.readline(limit)
        self._left -= len(line)
        if self._left < 0:
            raise http.client.LineTooLong("request headers")
        return line


_CONTROL = str.maketrans({c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))})


class PageHandler(BaseHTTPRequestHandler):
    server: PageServer
    protocol_version = "HTTP/1.1"  # keep-alive: a phone fetches the page's files over a few connections
    default_request_version = "HTTP/1.0"  # so even a refusal of a garbled request line has its headers
    server_version = "companion"
    sys_version = ""
    _connection: Connection

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # read through the connection's deadlines instead
        self._connection = self.server.connections.of(self.request)
        self.rfile = io.BufferedReader(self._connection)

    def handle_one_request(self) -> None:
        self._connection.next_request()
        try:
            self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if not self.raw_requestline:
                self.close_connection = True  # the phone closed it, or it was dropped for a newcomer
                return
            self._connection.request_started()
            if len(self.raw_requestline) > MAX_REQUEST_LINE:
                self._refuse_unparsed(HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not self.parse_request():
                return
            if self.headers.get("Content-Length", "0").strip() != "0" or "Transfer-Encoding" in self.headers:
                self.close_connection = True  # a body is never read, so it must not pass for the next request
            self.dispatch()
        except OSError as err:  # too slow (TimeoutError), or gone
            logger.debug("%s phone page connection closed: %s", self.address_string(), type(err).__name__)
            self.close_connection = True

    def dispatch(self) -> None:
        """Answer the parsed request (the hall's pages add their own ways: companion/hall/pages/server.py)."""
        if self.command == "GET":
            self._answer(head=False)
        elif self.command == "HEAD":
            self._answer(head=True)
        else:
            self.send_error(HTTPStatus.NOT_IMPLEMENTED)

    def parse_request(self) -> bool:
        if len(self.raw_requestline.split()) == 2:  # HTTP/0.9, whose answers have no headers: not served
            self._refuse_unparsed(HTTPStatus.BAD_REQUEST)
            return False
        wire = self.rfile
        self.rfile = _HeadersWithin(wire, MAX_HEADERS)  # over it, parse_request answers 431
        try:
            return super().parse_request()
        finally:
            self.rfile = wire

    def _refuse_unparsed(self, status: HTTPStatus) -> None:
        self.command, self.requestline, self.request_version = "", "", self.default_request_version
        self.send_error(status)

    def handle_expect_100(self) -> bool:
        return True  # no interim answer (it would go without headers); no body is ever read

    def send_response(self, code: int, message: str | None = None) -> None:
        """Every answer's status line: the security headers go with it, whatever the status."""
        super().send_response(code, message)
        for name, value in HEADERS.items():
            self.send_header(name, value)

    def send_response_only(self, code: int, message: str | None = None) -> None:
        self.connection.settimeout(self.server.limits.write_timeout)  # the phone must take the answer
        super().send_response_only(code, None)  # the status's own phrase, never text from the request

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A refusal: the status's phrase as plain text (never the request's bytes), then the connection closes."""
        body = f"{HTTPStatus(code).phrase.lower()}\n".encode()
        self.send_response(code)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _answer(self, head: bool) -> None:
        path = self.path.split("?", 1)[0]
        body, kind = self.server.resource("/" if path == "/index.html" else path)
        status = HTTPStatus.OK if body is not None else HTTPStatus.NOT_FOUND
        payload = body if body is not None else b"not found\n"
        gzipped = body is not None and len(payload) >= GZIP_FROM and "gzip" in self.headers.get("Accept-Encoding", "")
        if gzipped:
            payload = _gzip(payload)
        tag = _etag(payload) if body is not None and path not in UNVALIDATED else None
        if tag is not None and tag in _tags(self.headers.get("If-None-Match", "")):
            self.send_response(HTTPStatus.NOT_MODIFIED)  # the phone has it: no body
            self.send_header("ETag", tag)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return
        self.send_response(status)
        self.send_header("Content-Type", kind if body is not None else "text/plain; charset=utf-8")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        if tag is not None:
            self.send_header("ETag", tag)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if not head:
            self.wfile.write(payload)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """`"GET /app.css HTTP/1.1" 200` for what was served; a refused request is logged by its status alone
        (its path and query are the client's bytes, never echoed)."""
        status = int(code) if isinstance(code, int) else 0
        if 200 <= status < 400:
            path = self.path.split("?", 1)[0]
            logger.debug('%s "%s %s %s" %d', self.address_string(), self.command, path, self.request_version, status)
        else:
            logger.debug("%s refused: %s", self.address_string(), code)

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s %s", self.address_string(), (format % args)[:200].translate(_CONTROL))


class PageServer(ThreadingHTTPServer):
    """Serves the phone page on (host, port); port 0 picks a free one. `start` runs it on a thread.

    `idle_timeout`, `request_timeout`, `write_timeout` (seconds), `max_connections` (threads) and
    `max_waiting` (connections waiting for a thread, beyond which they are answered 503) bound what any
    client can hold (`companion.phones.pageconnections`).
    """

    daemon_threads = True
    request_queue_size = 128  # a crowd's phones connecting at once wait in the kernel's queue
    handler: type[PageHandler] = PageHandler
    busy_message = "phone.page_busy"  # the 503's words over the connection cap
    thread_name = "phone-page"

    def __init__(self, host: str = "0.0.0.0", port: int = 8080, *, default_language: str = "en",
                 now_ms: Callable[[], int] | None = None, web_dir: Path = WEB_DIR,
                 idle_timeout: float = 10.0, request_timeout: float = 10.0, write_timeout: float = 30.0,
                 max_connections: int = 64, max_waiting: int = 256) -> None:
        self._files = self.listed_files(web_dir)
        self.default_language = default_language
        self._now_ms = now_ms
        self._thread: threading.Thread | None = None
        self.limits = Limits(idle_timeout, request_timeout, write_timeout, max_connections, max_waiting)
        self.connections = Connections(self.limits, self.busy_answer)
        self._busy = (i18n.translate(default_language, self.busy_message) + "\n").encode()
        super().__init__((host, port), self.handler)

    def listed_files(self, web_dir: Path) -> dict[str, Path]:
        """The URL paths served from disk, fixed at start."""
        return _files(web_dir)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def resource(self, path: str) -> tuple[bytes | None, str]:
        if path in self._files:
            file = self._files[path]
            return file.read_bytes(), TYPES.get(file.suffix, "application/octet-stream")
        if path == "/i18n/languages.json":
            return _json(languages(self.default_language)), TYPES[".json"]
        if path.startswith("/i18n/") and path.endswith(".json") and path[6:-5] in i18n.LANGUAGES:
            return _catalog_json(path[6:-5]), TYPES[".json"]
        if path == "/games.json":
            return _games_json(), TYPES[".json"]
        if path == "/clock" and self._now_ms is not None:
            return _json({"now": self._now_ms()}), TYPES[".json"]
        return None, ""

    def busy_answer(self) -> bytes:
        """The whole 503 answer to a connection refused over the cap, in the table's language."""
        head = [f"HTTP/1.1 {HTTPStatus.SERVICE_UNAVAILABLE.value} {HTTPStatus.SERVICE_UNAVAILABLE.phrase}",
                f"Server: {PageHandler.server_version}", f"Date: {email.utils.formatdate(usegmt=True)}",
                *(f"{name}: {value}" for name, value in HEADERS.items()),
                f"Retry-After: {RETRY_AFTER}", "Connection: close", "Content-Type: text/plain; charset=utf-8",
                f"Content-Length: {len(self._busy)}"]
        return "".join(f"{line}\r\n" for line in head).encode("latin-1") + b"\r\n" + self._busy

    # The accepting thread: nothing here may wait on a client.

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.connections.admit(request, client_address):
            return  # it waits for a thread, or was refused
        try:
            super().process_request(request, client_address)
        except Exception:  # no thread to be had: socketserver logs it (handle_error) and closes the socket
            self.connections.release(request)
            raise

    def service_actions(self) -> None:
        self.connections.tend()

    # A connection's thread.

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """Serve the connection, then each one that waits for a thread, until none waits."""
        following: tuple[Any, Any] | None = (request, client_address)
        while following is not None:
            request, client_address = following
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            following = self.connections.hand_over(request)  # before the close: no drop reaches a reused fd
            self._close(request)

    def shutdown_request(self, request: Any) -> None:
        self.connections.release(request)
        self._close(request)

    def _close(self, request: Any) -> None:
        if isinstance(request, socket.socket):
            discard_unread(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        logger.warning("phone page: a connection failed", exc_info=True)  # the error, never the request

    def start(self) -> PageServer:
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.25},
                                        name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.shutdown()
            self._thread.join()
            self._thread = None
        self.connections.close_all()
        self.server_close()


UNVALIDATED = frozenset({"/clock"})  # changes every millisecond: always sent


@functools.lru_cache(maxsize=64)
def _etag(payload: bytes) -> str:
    """A strong validator of exactly these bytes (the gzipped and the plain answer differ)."""
    return '"' + hashlib.blake2b(payload, digest_size=12).hexdigest() + '"'


def _tags(header: str) -> set[str]:
    """The validators an If-None-Match header lists (weak ones as their strong form)."""
    return {part.strip().removeprefix("W/") for part in header[:2048].split(",") if part.strip()}


def _json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


@functools.lru_cache(maxsize=32)
def _gzip(data: bytes) -> bytes:
    """Compressed once per distinct file (the MQTT client shrinks from ~370 KiB to ~110 KiB)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


@functools.cache
def _catalog_json(lang: str) -> bytes:
    return _json(catalog(lang))


@functools.cache
def _games_json() -> bytes:
    from companion.games import registry

    return _json(offered(registry()))
