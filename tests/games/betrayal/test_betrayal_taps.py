"""Betrayal's tokens through the real tap path, as a host enrolls them on the kiosk: the kinds and ids
the game declares (`tokens`, offered by the enroll screen after the figures) -> the token registry (a
real SQLite file) -> the tap router -> the game's on_token -> the referee on a real SQLite log. A room
tile is tapped as the table lays it, an omen, item or event card as the new room's card is drawn
(docs/games/betrayal.md, "Tokens"; B2.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion import i18n
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.core.rejection import Rejected
from companion.games import registry
from companion.games.betrayal import data
from companion.kiosk.screens.enroll import choice_text
from companion.table.loop import Table
from companion.taps.kinds import enrollable, game_tokens
from companion.taps.registry import Registry, Token
from companion.taps.router import TapRouter
from hardware.events import TagPlaced
from tests.kits.betrayal_table import setup
from tests.kits.step_clock import StepClock

FOUR = ["vera", "mina", "tobias", "lin"]


@dataclass
class Screen:
    refused: list[tuple[str, str]] = field(default_factory=list)

    def player_tapped(self, player_id: str) -> None:
        raise AssertionError("no figure is tapped here")

    def unknown_tag(self, uid: str, reader: str) -> None:
        raise AssertionError(f"{uid} was enrolled")

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        self.refused.append((token_label, reason.code))


def test_the_enroll_screen_offers_every_room_tile_and_card_of_the_box(tmp_path: Path) -> None:
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup(FOUR, today="03-01"), created_at=0)
    d = data.cached(data.BUNDLED)
    declared = game_tokens(referee.game, referee.state)
    # the tiles the table lays (the start rooms are on the table from the start: B1.1)
    assert declared["room"] == [r.id for r in d.house.rooms if not r.start]
    for kind in ("omen", "item", "event"):
        assert declared[kind] == [c.id for c in d.cards(kind)]
    assert set(declared) == {"room", "omen", "item", "event"}
    # the host reads each by the words of the box, in the kiosk's language
    shown = {(c.kind, c.id): c for c in enrollable(referee.game, referee.state, [])}
    assert choice_text("en", "betrayal", shown[("omen", "mask")]) == "Omen card: the Mask"
    assert choice_text("en", "betrayal", shown[("room", "well_room")]) == "Room: the well room"
    for lang in ("zh", "th"):
        assert i18n.translate(lang, "kind.betrayal.card.mask") in choice_text(lang, "betrayal", shown[("omen", "mask")])
        assert i18n.translate(lang, "kind.token.omen") in choice_text(lang, "betrayal", shown[("omen", "mask")])
    referee.log.close()


def test_tapped_room_tiles_and_cards_are_what_the_table_turned_up(tmp_path: Path) -> None:
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup(FOUR, today="03-01"), created_at=0)
    table = Table(referee, clock=StepClock())
    screen = Screen()
    choices = {(c.kind, c.id): c for c in enrollable(referee.game, referee.state, [("ana", "Ana")])}
    uids = {}
    with Registry(tmp_path / "tokens.sqlite3") as tokens:
        for n, key in enumerate([("room", "kitchen"), ("room", "attic"), ("item", "rope"), ("omen", "lantern")]):
            uids[key[1]] = f"040000{n:02X}"
            tokens.enroll(choices[key].token(uids[key[1]], "betrayal"))
        tokens.enroll(Token("04FF0001", "lockdown", "room", "B101", "B101"))  # another game's token
        router = TapRouter(table, tokens, screen)

        def tap(uid: str) -> bool:
            outcome = router.tapped(TagPlaced("table", 0, uid, "ntag"))
            return outcome is not None and outcome.accepted

        assert not tap(uids["kitchen"])  # nobody is exploring: a tile means nothing now
        assert screen.refused == [("kitchen", "reject.token_means_nothing")]
        assert table.handle({"move": "explore", "by": "player:ana", "args": {}}).accepted
        assert not tap(uids["attic"])  # B2.1: the tile must be of the explorer's floor
        assert screen.refused[-1] == ("attic", "reject.betrayal_wrong_floor")
        assert not tap(uids["rope"])  # no card is drawn yet
        assert screen.refused[-1] == ("rope", "reject.token_means_nothing")
        assert not tap("04FF0001")
        assert screen.refused[-1] == ("B101", "reject.token_other_game")
        assert tap(uids["kitchen"])  # the kitchen shows an item
        assert not tap(uids["lantern"])  # an omen is not the deck the kitchen draws from
        assert screen.refused[-1] == ("lantern", "reject.token_means_nothing")
        assert tap(uids["rope"])
    ana = table.referee.view("public")["table"]["explorers"]["ana"]
    assert ana["room"] == "kitchen" and ana["cards"] == ["rope"]
    moves = [(e.input.by, e.input.move, dict(e.input.args)) for e in table.referee.events]
    assert moves[-2:] == [("table", "room.reveal", {"room": "kitchen"}), ("table", "card.reveal", {"card": "rope"})]
    referee.log.close()
