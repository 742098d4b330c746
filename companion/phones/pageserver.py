"""The phone page's HTTP server: the static page, its catalogs as JSON, the table's clock. Nothing else.

Python's `http.server` on its own thread (a handful of phones fetch a few small files once per visit;
no framework is needed). It serves only files it lists at start, never a path from the request, and
holds no secret: credentials travel in the join link's fragment, which browsers never send. Answers of
1 KiB or more go gzipped to browsers that accept it (a convention's many spectator phones on one Wi-Fi).

    /                      the page (index.html)
    /app.css, /js/*.js     the page's own files
    /vendor/mqtt.min.js    the MQTT client from the npm package (installed by `npm ci`, see package.json)
    /i18n/languages.json   the languages, each with its own name, and the table's default
    /i18n/<lang>.json      every message id of the catalogs, in that language (English where missing)
    /clock                 the table clock's now (ms), so phones count timers down on the table's time
"""

from __future__ import annotations

import functools
import gzip
import json
import logging
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from companion import i18n

logger = logging.getLogger(__name__)
WEB_DIR = Path(__file__).parent / "web"
GZIP_FROM = 1024  # bytes: smaller answers are sent as they are
MQTT_CLIENT = Path("node_modules/mqtt/dist/mqtt.min.js")
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8"}
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
             "/vendor/mqtt.min.js": web_dir / MQTT_CLIENT}
    files.update({f"/js/{p.name}": p for p in sorted((web_dir / "js").glob("*.js"))})
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise PageMissing(f"the phone page is incomplete; missing {', '.join(missing)} "
                          f"(run `npm ci` in {web_dir})")
    return files


class _Handler(BaseHTTPRequestHandler):
    server: PageServer
    server_version = "companion"
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def _answer(self, head: bool) -> None:
        path = self.path.split("?", 1)[0]
        body, kind = self.server.resource("/" if path == "/index.html" else path)
        status = HTTPStatus.OK if body is not None else HTTPStatus.NOT_FOUND
        payload = body if body is not None else b"not found\n"
        gzipped = body is not None and len(payload) >= GZIP_FROM and "gzip" in self.headers.get("Accept-Encoding", "")
        if gzipped:
            payload = _gzip(payload)
        self.send_response(status)
        self.send_header("Content-Type", kind if body is not None else "text/plain; charset=utf-8")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s %s", self.address_string(), format % args)


class PageServer(ThreadingHTTPServer):
    """Serves the phone page on (host, port); port 0 picks a free one. `start` runs it on a thread."""

    daemon_threads = True

    def __init__(self, host: str = "0.0.0.0", port: int = 8080, *, default_language: str = "en",
                 now_ms: Callable[[], int] | None = None, web_dir: Path = WEB_DIR) -> None:
        self._files = _files(web_dir)
        self.default_language = default_language
        self._now_ms = now_ms
        self._thread: threading.Thread | None = None
        super().__init__((host, port), _Handler)

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
        if path == "/clock" and self._now_ms is not None:
            return _json({"now": self._now_ms()}), TYPES[".json"]
        return None, ""

    def start(self) -> PageServer:
        self._thread = threading.Thread(target=self.serve_forever, name="phone-page", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self.shutdown()
            self._thread.join()
            self._thread = None
        self.server_close()


def _json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


@functools.lru_cache(maxsize=32)
def _gzip(data: bytes) -> bytes:
    """Compressed once per distinct file (the MQTT client shrinks from ~370 KiB to ~110 KiB)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


@functools.cache
def _catalog_json(lang: str) -> bytes:
    return _json(catalog(lang))
