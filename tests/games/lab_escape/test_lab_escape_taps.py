"""Escape the Lab's tokens through the real tap path: a tag placed -> the token registry (a real SQLite
file) -> the tap router -> the game's on_token -> the referee on a real SQLite log. Cards are tapped
as the table turns them up and places them; rooms as the player steps into them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.core.rejection import Rejected
from companion.games import registry
from companion.games.lab_escape import data
from companion.kiosk.screens.enroll import choice_text
from companion.table.loop import Table
from companion.taps.kinds import enrollable, game_tokens
from companion.taps.registry import Registry, Token
from companion.taps.router import TapRouter
from hardware.events import TagPlaced
from tests.kits.step_clock import StepClock

TOKENS = {"04000001": ("card", "garden_corridor"), "04000002": ("card", "storage_game_room"),
          "04000003": ("card", "archive_corridor"), "04000004": ("room", "corridor"),
          "04000005": ("room", "garden"), "04000006": ("room", "hall")}


@dataclass
class Screen:
    refused: list[tuple[str, str]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def player_tapped(self, player_id: str) -> None:
        raise AssertionError("no figure is tapped here")

    def unknown_tag(self, uid: str, reader: str) -> None:
        self.unknown.append(uid)

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        self.refused.append((token_label, reason.code))


def tap(router: TapRouter, uid: str) -> bool:
    outcome = router.tapped(TagPlaced("table", 0, uid, "ntag"))
    return outcome is not None and outcome.accepted


def test_tapping_cards_and_rooms_plays_a_turn(tmp_path: Path) -> None:
    players = (Player("ana", "Ana"), Player("ben", "Ben"))
    setup = Setup("lab_escape", players, {"deck": "physical", "dice": "table"}, seed=9)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    table = Table(referee, clock=StepClock())
    screen = Screen()
    with Registry(tmp_path / "tokens.sqlite3") as tokens:
        for uid, (kind, token_id) in TOKENS.items():
            tokens.enroll(Token(uid, "lab_escape", kind, token_id, token_id.replace("_", " ")))
        router = TapRouter(table, tokens, screen)
        assert tap(router, "04000001") and tap(router, "04000002")  # the display, turned up
        assert not tap(router, "04000004")  # a room now means nothing: a card is to be placed
        assert screen.refused == [("corridor", "reject.token_means_nothing")]
        assert tap(router, "04000001")  # Ana places Garden & Corridor
        assert tap(router, "04000003")  # the table turns up the next card
        assert tap(router, "04000004") and tap(router, "04000005")  # Corridor (a free move), Garden
        assert not tap(router, "04000006")  # the Hall was where she started
        assert screen.refused[-1] == ("hall", "reject.lab_escape_visited")
        assert not tap(router, "0400FFFF") and screen.unknown == ["0400FFFF"]
    public = table.referee.view("public")["table"]
    assert public["people"]["ana"] == {"room": "garden", "stamina": 1, "items": []}
    assert public["turn"]["visited"] == ["hall", "corridor", "garden"]
    assert [c["card"] for c in public["display"]] == ["storage_game_room", "archive_corridor"]
    moves = [(e.input.by, e.input.move) for e in table.referee.events]
    assert moves == [("table", "card.drawn")] * 2 + [("table", "card.place"), ("table", "card.drawn")] + \
        [("table", "step")] * 2


def test_the_enroll_screen_offers_the_cards_rooms_and_adrenaline_of_the_box(tmp_path: Path) -> None:
    """The kinds and ids the game declares are what the kiosk's enroll screen offers after the figures:
    every display card (the Hall's start card lies on the table from the start: E1.1), every room, and
    the adrenaline token, the only item a tap uses (docs/games/lab_escape.md, "Tokens")."""
    players = (Player("ana", "Ana"), Player("ben", "Ben"))
    setup = Setup("lab_escape", players, {"deck": "physical"}, seed=9)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    lab = data.bundled()
    declared = game_tokens(referee.game, referee.state)
    assert declared == {"card": sorted(c.id for c in lab.cards if not c.start), "room": list(data.room_index()),
                        "item": ["adrenaline"]}
    shown = {(c.kind, c.id): c for c in enrollable(referee.game, referee.state, [])}
    assert choice_text("en", "lab_escape", shown[("card", "garden_corridor")]) == "Card: Garden & Corridor"
    for lang in ("zh", "th"):
        text = choice_text(lang, "lab_escape", shown[("room", "corridor_2")])
        words = {"kind": i18n.translate(lang, "kind.token.room"),
                 "id": i18n.translate(lang, "kind.lab_escape.room.corridor_2")}
        assert text == i18n.translate(lang, "kiosk.enroll.token", words)
    referee.log.close()


def test_enrolled_from_the_screen_a_card_tapped_is_the_card_the_table_turned_up(tmp_path: Path) -> None:
    """The demo's physical deck (lab-escape-2p): each display card laid on the reader is `card.drawn`;
    a room tag of Room 25 is another game's and is refused by name."""
    players = (Player("ana", "Ana"), Player("ben", "Ben"))
    setup = Setup("lab_escape", players, {"deck": "physical", "dice": "table"}, seed=2)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    table = Table(referee, clock=StepClock())
    screen = Screen()
    choices = {(c.kind, c.id): c for c in enrollable(referee.game, referee.state, [("ana", "Ana")])}
    with Registry(tmp_path / "tokens.sqlite3") as tokens:
        tokens.enroll(choices[("card", "telegraph_darkroom")].token("04000011", "lab_escape"))
        tokens.enroll(choices[("card", "kitchen_pharmacy")].token("04000012", "lab_escape"))
        tokens.enroll(choices[("item", "adrenaline")].token("04000013", "lab_escape"))
        tokens.enroll(Token("04000014", "room25", "room", "acid", "acid"))
        router = TapRouter(table, tokens, screen)
        assert not tap(router, "04000014")
        assert screen.refused == [("acid", "reject.token_other_game")]
        assert not tap(router, "04000013")  # adrenaline: the display is still being turned up
        assert screen.refused[-1] == ("adrenaline", "reject.token_means_nothing")
        assert tap(router, "04000011") and tap(router, "04000012")
    public = table.referee.view("public")["table"]
    assert [c["card"] for c in public["display"]] == ["telegraph_darkroom", "kitchen_pharmacy"]
    assert [(e.input.by, e.input.move, dict(e.input.args)) for e in table.referee.events] == [
        ("table", "card.drawn", {"card": "telegraph_darkroom"}), ("table", "card.drawn", {"card": "kitchen_pharmacy"})]
    referee.log.close()
