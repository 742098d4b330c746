"""Serving the phone page: the files it lists and nothing else, its catalogs exported from the .po files,
the table's clock; join links that carry a seat in the URL fragment, and their QR codes."""

from __future__ import annotations

import gzip
import http.client
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import i18n
from companion.phones.join import JoinLink, phone_ws_url
from companion.phones.pageserver import WEB_DIR, PageMissing, PageServer
from tests.kits.phone_page_kit import scan

TABLE_NOW = 1_795_000_000_123
THAI = re.compile(r"[\u0e00-\u0e7f]")
CJK = re.compile(r"[\u3400-\u9fff]")
PAGE_FILES = [WEB_DIR / "index.html", *sorted((WEB_DIR / "js").glob("*.js"))]


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    running = PageServer("127.0.0.1", 0, default_language="th", now_ms=lambda: TABLE_NOW).start()
    try:
        yield running
    finally:
        running.stop()


def get(server: PageServer, path: str, method: str = "GET",
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_the_page_its_files_and_the_pinned_mqtt_client_are_served(server: PageServer) -> None:
    status, headers, body = get(server, "/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    for src in re.findall(rb'(?:src|href)="(/[^"]+)"', body):
        assert get(server, src.decode())[0] == 200, src
    for module in (WEB_DIR / "js").glob("*.js"):
        status, headers, body = get(server, f"/js/{module.name}")
        assert status == 200 and headers["content-type"].startswith("text/javascript") and body
    status, _, client = get(server, "/vendor/mqtt.min.js")
    lock = json.loads((WEB_DIR / "package-lock.json").read_text())
    assert status == 200 and lock["packages"]["node_modules/mqtt"]["version"] == "5.16.0"
    assert client.startswith(b'"use strict";var mqtt=')
    assert get(server, "/", method="HEAD")[2] == b""


def test_a_browser_that_accepts_gzip_gets_the_same_files_smaller(server: PageServer) -> None:
    for path in ("/vendor/mqtt.min.js", "/i18n/th.json", "/js/render.js"):
        _, plain_headers, plain = get(server, path)
        _, headers, packed = get(server, path, headers={"Accept-Encoding": "gzip, deflate"})
        assert "content-encoding" not in plain_headers
        assert headers["content-encoding"] == "gzip" and gzip.decompress(packed) == plain
        assert len(packed) < len(plain) / 2, path
    assert "content-encoding" not in get(server, "/clock", headers={"Accept-Encoding": "gzip"})[1]  # tiny


@pytest.mark.parametrize("path", ["/package.json", "/node_modules/mqtt/package.json", "/../pyproject.toml",
                                  "/js/../../pageserver.py", "/%2e%2e/join.py", "/i18n/fr.json", "/i18n/../x.json",
                                  "/index.html/", "/clock/x", "/js/"])
def test_nothing_else_is_served(server: PageServer, path: str) -> None:
    status, _, body = get(server, path)
    assert (status, body) == (404, b"not found\n")


def test_every_answer_forbids_other_origins_and_referrers(server: PageServer) -> None:
    for path in ("/", "/i18n/en.json", "/nope"):
        _, headers, _ = get(server, path)
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "unsafe-inline" not in headers["content-security-policy"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_catalog_is_exported_from_the_po_files_with_its_placeholders(server: PageServer, lang: str) -> None:
    status, headers, body = get(server, f"/i18n/{lang}.json")
    exported = json.loads(body)
    assert status == 200 and headers["content-type"] == "application/json; charset=utf-8"
    assert set(exported) == i18n.msgids("en") | i18n.msgids(lang)
    for mid, text in exported.items():
        assert i18n.placeholders(text) == i18n.placeholders(i18n.translate("en", mid)), mid
    assert exported["phone.ballot.cast"] == i18n.translate(lang, "phone.ballot.cast")
    assert "{cast}" in exported["phone.ballot.cast"]


def page_ids() -> set[str]:
    """Every message id the page's HTML and JavaScript name literally."""
    ids: set[str] = set()
    for path in PAGE_FILES:
        ids |= set(re.findall(r"""["'`]((?:phone|sender|kind|reject|status)\.[a-z_.]+[a-z])["'`.]""",
                              path.read_text(encoding="utf-8")))
    return ids


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_id_the_page_uses_is_translated(lang: str) -> None:
    used = page_ids()
    assert {"phone.join_help", "phone.ballot.my_vote", "phone.rejected", "phone.timer.expired"} <= used
    assert used <= i18n.msgids(lang), used - i18n.msgids(lang)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        if data.strip() and self.tags[-1:] != ["title"]:
            self.text.append(data.strip())


def test_the_page_holds_no_words_of_its_own() -> None:
    parser = _Text()
    parser.feed((WEB_DIR / "index.html").read_text(encoding="utf-8"))
    assert parser.text == []  # every word comes from the catalogs, through data-t
    for path in PAGE_FILES:
        text = path.read_text(encoding="utf-8")
        assert not THAI.search(text) and not CJK.search(text), f"{path.name} holds a hand-copied translation"


def test_languages_are_listed_in_their_own_words_with_the_tables_default(server: PageServer) -> None:
    _, _, body = get(server, "/i18n/languages.json")
    assert json.loads(body) == {"default": "th", "languages": {"en": "English", "zh": "中文", "th": "ไทย"}}


def test_the_clock_is_the_tables(server: PageServer) -> None:
    assert json.loads(get(server, "/clock")[2]) == {"now": TABLE_NOW}


def test_a_page_without_its_mqtt_client_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    for name in ("index.html", "app.css"):
        (tmp_path / name).write_text("x")
    with pytest.raises(PageMissing, match="npm ci"):
        PageServer("127.0.0.1", 0, web_dir=tmp_path)


# -- join links -------------------------------------------------------------------------------------------

LINK = JoinLink("http://192.168.1.20:8080/", "ws://192.168.1.20:9001/mqtt", "companion/v1/table1",
                "table1.g7.p.ana", "Zk3-_x9Q2mPv7Lw0aB1cD2eF")


def test_a_join_link_carries_the_seat_in_its_fragment_only() -> None:
    url = LINK.url()
    before, _, fragment = url.partition("#")
    assert before == "http://192.168.1.20:8080/"  # what a browser sends to the server: no credential
    assert LINK.password in fragment and LINK.user in fragment
    assert JoinLink.parse(url) == LINK


urlsafe = st.text(alphabet=st.characters(codec="ascii", categories=("L", "N"), include_characters="-_"),
                  min_size=1, max_size=32)


@given(password=st.text(min_size=1, max_size=40).filter(lambda s: "\x00" not in s), pid=urlsafe,
       prefix=st.sampled_from(["companion", "club/night", "a-b"]), lang=st.sampled_from([None, *i18n.LANGUAGES]))
def test_any_seat_survives_the_round_trip_through_its_link(password: str, pid: str, prefix: str,
                                                          lang: str | None) -> None:
    link = JoinLink("http://10.0.0.5:8080", "ws://10.0.0.5:9001/mqtt", f"{prefix}/v1/t1", f"t1.g1.p.{pid}",
                    password, lang)
    parsed = JoinLink.parse(link.url())
    assert parsed == JoinLink("http://10.0.0.5:8080/", *list(link.__dict__.values())[1:])


@pytest.mark.parametrize("url", ["http://192.168.1.20:8080/", "http://x/#v=2&ws=a&t=b&u=c&p=d",
                                 "http://x/#v=1&ws=a&t=b&u=c", "http://x/#v=1&ws=&t=b&u=c&p=d"])
def test_other_urls_are_not_join_links(url: str) -> None:
    with pytest.raises(ValueError):
        JoinLink.parse(url)


def test_the_qr_code_reads_back_as_the_link() -> None:
    assert scan(LINK) == LINK.url()


def test_phones_reach_a_local_broker_at_the_address_they_reached_the_page() -> None:
    assert phone_ws_url("ws://127.0.0.1:9001/mqtt", "http://192.168.1.20:8080/") == "ws://192.168.1.20:9001/mqtt"
    assert phone_ws_url("ws://127.0.0.1:9001/mqtt", "http://127.0.0.1:8080/") == "ws://127.0.0.1:9001/mqtt"
    external = "wss://broker.event.example:443/mqtt"
    assert phone_ws_url(external, "http://192.168.1.20:8080/") == external
