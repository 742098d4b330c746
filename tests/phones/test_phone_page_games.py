"""A real game's secrets on the phone page, in a real browser (headless Chromium) against a real broker.

Lockdown, replayed from its recorded two-player game to the middle of round 5: Ana's page shows her
own HP, room and items in the "You" card, translated, and the table's summary; Ben's page shows his,
and holds none of Ana's secret lines, neither in its DOM nor in a WebSocket frame (nor the reverse).
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import sync_playwright

from companion import games, i18n
from companion.core.lines import as_json
from tests.kits.phone_page_kit import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, PhonePage, running_game, scan, serving


def frame_of(line: dict[str, object]) -> bytes:
    """A line as it travels inside the seat's view (the mirror's compact, sorted JSON)."""
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def test_each_lockdown_player_sees_their_own_secrets_and_not_the_others(tmp_path: Path) -> None:
    script = games.demo_script("lockdown")
    assert script is not None
    with running_game(tmp_path, script[:43]) as run, serving(run) as (_, links), sync_playwright() as pw:
        ref = run.referee
        published = {pid: as_json(games.registry()["lockdown"].private_lines(ref.view(f"player:{pid}")["private"]))
                     for pid in ("ana", "ben")}
        texts = {pid: [i18n.translate_line("en", ln["msg"], ln["params"]) for ln in published[pid]]
                 for pid in published}
        hp = {pid: ref.view(f"player:{pid}")["private"]["hp"] for pid in published}
        assert hp["ana"] != hp["ben"], "the test needs the two players' HP to differ"
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phones = {pid: PhonePage.open(browser, scan(links[pid])) for pid in published}
        try:
            for pid, phone in phones.items():
                phone.online()
                phone.page.wait_for_selector(f"#you .secret:has-text('Your HP: {hp[pid]}')", timeout=WAIT_MS)
                phone.page.wait_for_selector("#summary:has-text('Round')", timeout=WAIT_MS)
                you = phone.page.locator("#you").inner_text()
                assert "You" in you.splitlines()[0]
                for text in texts[pid]:  # every line of the player's own, translated
                    assert text in you, f"{pid}'s page lacks {text!r}"
                assert "gameboards." not in you and "lockdown.item." not in you
                assert all(phone.holds(frame_of(line)) for line in published[pid])  # the check can find them
            for pid, other in (("ana", "ben"), ("ben", "ana")):
                phone = phones[pid]
                secret = [line for line in published[other] if line not in published[pid]]
                assert len(secret) >= 2, "the two players' secrets should differ"
                for line in secret:
                    assert not phone.holds(frame_of(line)), f"{pid}'s page holds {other}'s {line}"
                for text in set(texts[other]) - set(texts[pid]):
                    assert text not in phone.text(), f"{pid}'s page shows {other}'s {text!r}"
                assert not phone.holds(f"Your HP: {hp[other]}".encode())
        finally:
            for phone in phones.values():
                phone.close()
            browser.close()
