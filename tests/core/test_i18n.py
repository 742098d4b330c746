"""The message catalogs: every id the code uses is translated in every language, consistently."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import i18n
from companion.core.rejection import Rejected
from companion.games import registry

PACKAGE = Path(i18n.__file__).parent
# Rejected("id", ...), ctx.announce("id", ...), and literal ids given to translate or as a message's "msg".
USED = re.compile(
    r"""(?:\bRejected\(|\.announce\(|\btranslate\([^,()"']+,|["']msg["']\s*:)\s*["']([A-Za-z][\w.]*\.[\w.]+)["']"""
)
# Ids the CLI and kiosk look up by name (not through Rejected or announce).
UI_IDS = {
    "game.toolkit.title",
    "game.toolkit.summary",
    "announce.correction",
    "status.accepted",
    "status.rejected",
}
UI_IDS |= {f"game.{game_id}.{part}" for game_id in registry() for part in ("title", "summary")}
THAI = re.compile(r"[\u0e00-\u0e7f]")
CJK = re.compile(r"[\u4e00-\u9fff]")


def ids_in_source() -> dict[str, list[str]]:
    """Every message id the package uses literally (see USED), with where it is used."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in USED.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(match.group(1), []).append(f"{path.relative_to(PACKAGE.parent)}:{line}")
    return found


def raw_catalog(lang: str) -> dict[str, str]:
    """Every entry of every catalog file of `lang`, each file checked for its header; no id twice."""
    out: dict[str, str] = {}
    for path in i18n.catalog_files(lang):
        with path.open("rb") as fh:
            catalog = read_po(fh)
        assert str(catalog.locale) == lang, f"{path} has Language {catalog.locale}"
        assert catalog.num_plurals == (2 if lang == "en" else 1), f"{path} plural forms"
        for message in catalog:
            if message.id:
                assert isinstance(message.id, str) and isinstance(message.string, str), f"{path}: plural entry"
                assert message.id not in out, f"{path}: {message.id} is defined in two catalogs"
                out[message.id] = message.string
    return out


def test_each_feature_catalog_exists_in_every_language() -> None:
    names = {lang: {p.parent for p in i18n.catalog_files(lang)} for lang in i18n.LANGUAGES}
    assert names["en"] == names["zh"] == names["th"], names


def test_the_pattern_matches_each_form() -> None:
    sample = """
        raise Rejected("reject.a", x=1)
        raise Rejected(
            'reject.b')
        ctx.announce("toolkit.c", name=a.name)
        print(i18n.translate(lang, "status.d", {"seq": 1}))
        notice = {"msg": "announce.e", "params": {}}
        title = i18n.translate(lang, f"game.{game.id}.title")
        problem = "not an id"
    """
    assert [m.group(1) for m in USED.finditer(sample)] == [
        "reject.a",
        "reject.b",
        "toolkit.c",
        "status.d",
        "announce.e",
    ]


def test_the_source_scan_finds_ids() -> None:
    # Guards the regex: if it stopped matching, the next test would pass vacuously.
    found = ids_in_source()
    assert "reject.unknown_move" in found
    assert "reject.ballot_closed" in found
    assert "toolkit.timer_expired" in found
    assert "game.toolkit.title" in UI_IDS
    assert len(found) > 40


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_id_the_code_uses_is_translated(lang: str) -> None:
    known = i18n.msgids(lang)
    missing = {mid: where for mid, where in ids_in_source().items() if mid not in known}
    missing.update({mid: ["UI"] for mid in UI_IDS - known})
    assert not missing, f"{lang}.po lacks translations for: {missing}"


@pytest.mark.parametrize("lang", ["zh", "th"])
def test_catalogs_match_english(lang: str) -> None:
    en, other = raw_catalog("en"), raw_catalog(lang)
    assert set(other) == set(en), (
        f"only in en: {sorted(set(en) - set(other))}; only in {lang}: {sorted(set(other) - set(en))}"
    )
    for mid, text in other.items():
        assert i18n.placeholders(text) == i18n.placeholders(en[mid]), f"{lang} {mid}: {text!r} vs {en[mid]!r}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_empty_or_fuzzy_translations(lang: str) -> None:
    messages = []
    for path in i18n.catalog_files(lang):
        with path.open("rb") as fh:
            messages += list(read_po(fh))
    for message in messages:
        if message.id:
            assert isinstance(message.string, str) and message.string.strip(), f"{lang} {message.id} is empty"
            assert not message.fuzzy, f"{lang} {message.id} is fuzzy"
            assert "<unparsable>" not in i18n.placeholders(message.string), f"{lang} {message.id}"
            assert message.string != message.id, f"{lang} {message.id} is untranslated"


def test_translate_fills_params() -> None:
    assert i18n.translate("en", "status.rejected", {"reason": "Too late."}) == "Not accepted: Too late."
    text = i18n.translate("en", "toolkit.dice_rolled", {"by": "table", "values": [3, 5], "total": 8})
    assert text == "table rolled 3, 5 (total 8)."
    zh = i18n.translate("zh", "toolkit.timer_warning", {"name": "回合", "seconds": 10})
    assert "回合" in zh and "10" in zh and "{" not in zh


def test_missing_params_render_as_placeholders() -> None:
    assert i18n.translate("en", "status.rejected") == "Not accepted: {reason}"
    text = i18n.translate("th", "reject.tally_bounds", {"low": 0})
    assert "0" in text and "{high}" in text and "{low}" not in text


def test_unknown_ids_fall_back_to_the_id() -> None:
    assert i18n.translate("zh", "reject.no_such_id_anywhere", {"x": 1}) == "reject.no_such_id_anywhere"
    assert i18n.translate("th", "plain {x}", {"x": 2}) == "plain 2"


def test_odd_templates_and_params_never_raise() -> None:
    assert i18n.translate("en", "{a.b} {0} {", {}) == "{a.b} {0} {"
    assert i18n.translate("en", "{n:d}", {}) == "{n:d}"
    assert i18n.translate("en", "{n:d}", {"n": "text"}) == "{n:d}"
    assert i18n.translate("en", "{who}", {"who": ("a", "b")}) == "a, b"


def test_each_language_has_its_own_text() -> None:
    en = i18n.translate("en", "reject.ballot_closed")
    zh = i18n.translate("zh", "reject.ballot_closed")
    th = i18n.translate("th", "reject.ballot_closed")
    assert len({en, zh, th}) == 3
    assert CJK.search(zh) and not THAI.search(zh)
    assert THAI.search(th) and not CJK.search(th)
    assert not CJK.search(en) and not THAI.search(en)
    assert CJK.search(i18n.translate("zh", "game.toolkit.title"))
    assert THAI.search(i18n.translate("th", "game.toolkit.title"))


def test_english_titles_are_as_specified() -> None:
    assert i18n.translate("en", "game.toolkit.title") == "Referee toolkit"
    assert i18n.translate("en", "announce.correction", {"count": 2}) == "The host corrected 2 input(s)."


def test_describe_rejections_and_announcements() -> None:
    reason = Rejected("reject.ballot_unknown_option", option="Blue")
    assert i18n.describe("en", reason.to_json()) == "“Blue” isn't one of the choices."
    assert "Blue" in i18n.describe("zh", reason.to_json())
    announcement = {"at": 5, "msg": "toolkit.timer_expired", "params": {"name": "Round"}}
    expected = i18n.translate("th", "toolkit.timer_expired", {"name": "Round"})
    assert i18n.describe("th", announcement) == expected
    assert i18n.describe("en", {"code": "reject.game_over"}) == i18n.translate("en", "reject.game_over")
    with pytest.raises(ValueError):
        i18n.describe("en", {"params": {}})


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="en, zh, th"):
        i18n.translate("fr", "status.accepted")
    with pytest.raises(ValueError):
        i18n.msgids("de")


def _phases_of(game_id: str) -> set[str]:
    """The phases a game names: those its moves are limited to, and those its recorded games pass through."""
    from companion.games import demo_script
    from companion.kiosk.demo import Demo

    game = registry()[game_id]
    found = {p for move in game.moves.values() for p in move.phases}
    lines = demo_script(game_id)
    if lines:
        demo = Demo(registry(), lines)
        try:
            while not demo.finished:
                demo.advance()
                found.add(demo.public()["phase"])
        finally:
            demo.close()
    return {p for p in found if p}


@pytest.mark.parametrize("game_id", sorted(set(registry()) - {"toolkit"}))
def test_every_phase_the_screen_can_show_has_a_name(game_id: str) -> None:
    phases = _phases_of(game_id)
    assert phases, f"{game_id}: no phase found; the scan is broken"
    for lang in i18n.LANGUAGES:
        missing = sorted(p for p in phases if f"phase.{game_id}.{p}" not in i18n.msgids(lang))
        assert not missing, f"{lang}: phase names missing for {game_id}: {missing}"


@pytest.mark.parametrize("game_id", sorted(set(registry()) - {"toolkit"}))
def test_every_timer_the_screen_can_show_has_a_name(game_id: str) -> None:
    from companion.games import demo_script
    from companion.kiosk.demo import Demo

    demo = Demo(registry(), demo_script(game_id))
    timers: set[str] = set()
    try:
        while not demo.finished:
            demo.advance()
            timers |= set((demo.public()["table"] or {}).get("timers", {}))
    finally:
        demo.close()
    for lang in i18n.LANGUAGES:
        missing = sorted(t for t in timers if f"timer.{game_id}.{t}" not in i18n.msgids(lang))
        assert not missing, f"{lang}: timer names missing for {game_id}: {missing}"
