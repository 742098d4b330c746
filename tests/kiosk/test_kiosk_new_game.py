"""Another game without a restart, from the kiosk (issue 21, NEWGAME_IFACE.md): the host chooses a game
on the attract screen, seats known players (toggles, a figure tapped on the reader) and one typed on the
on-screen keyboard, sets an option and presses Start; the kiosk sends exactly one `table.new_game` as
the host, seen at the real Table's inbox. When the public view's "number" changes (the table started a
new game) the kiosk shows that game's setup screen with its options; the reveal's "Play again" sends the
same game, players and options. Every touch is an SDL mouse press at the button a person reads."""

from __future__ import annotations

import copy
import queue
from typing import Any

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.feed import PublicView
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.scenes import PLAYERS, Scene, make_scene, show_screen
from companion.table.loop import Submission, Table
from companion.taps.registry import PLAYER, Token
from companion.taps.router import TapRouter
from hardware.events import TagPlaced
from tests.kits.kiosk_fixtures import surface, text, text_cache
from tests.kits.kiosk_touch import button, touch, type_on

__all__ = ["text", "text_cache"]
EVE_FIGURE = "04E0E0E0E0E001"
ANA_FIGURE = "04A0A0A0A0A001"


def say(k: Kiosk, msgid: str, **params: Any) -> str:
    return i18n.translate(k.lang, msgid, params)


def sent(scene: Scene) -> list[dict[str, Any]]:
    """What the kiosk sent the table (its inbox, as the Table's loop would read it)."""
    out = []
    while True:
        try:
            item = scene.table.inbox.get_nowait()
        except queue.Empty:
            return out
        assert isinstance(item, Submission)
        out.append(item.raw)


def seating_for(scene: Scene, game: str) -> Kiosk:
    k = scene.kiosk
    assert k.top.name == "attract"
    touch(k, key="play")  # "Touch to play": the game list
    touch(k, say(k, f"game.{game}.title"))
    assert k.top.name == "seating", k.top.name
    return k


def test_choose_seat_type_set_an_option_and_start(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    scene.tokens.enroll(Token(EVE_FIGURE, "toolkit", PLAYER, "eve", "Eve"))  # Eve's figure, from an earlier night
    seating_for(scene, "lockdown")
    # the current game's players, seated in their seats, then the enrolled figures, not seated
    assert [b.label for b in k.top.buttons()][:5] == ["1. Ana", "2. Ben", "3. ชัย", "4. 道", "Eve"]
    touch(k, "4. 道")  # Dao stays home tonight
    touch(k, "2. Ben")
    touch(k, "2. ชัย")  # Ana alone (seats close up): Lockdown takes 2 to 9
    why = say(k, "kiosk.newgame.count", low=2, high=9, count=1)
    assert button(k, key="next").style == "off"
    assert why in [d.text for d in text.record or []], "the screen says why Next waits"
    touch(k, key="next")
    assert k.top.name == "seating" and k.notice is not None and why in k.notice[0]
    touch(k, "Ben")
    touch(k, "ชัย")
    touch(k, say(k, "kiosk.seating.add"))
    assert k.top.name == "keyboard"
    type_on(k, "Mia")
    touch(k, say(k, "kiosk.keyboard.done"))
    assert k.top.name == "seating"
    assert [b.label for b in k.top.buttons()][:6] == ["1. Ana", "2. Ben", "3. ชัย", "道", "Eve", "4. Mia"]
    touch(k, say(k, "kiosk.seating.next"))
    assert k.top.name == "options"
    touch(k, say(k, "lockdown.option_value.items.physical"))
    touch(k, key=("plus", "free_seconds"))
    assert sent(scene) == []  # nothing reaches the table before Start
    touch(k, say(k, "kiosk.options.start"))
    assert sent(scene) == [{"by": "host", "move": "table.new_game", "args": {
        "game": "lockdown",
        "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "chai", "name": "ชัย"},
                    {"id": "p1", "name": "Mia"}],
        "options": {"items": "physical", "free_seconds": 330, "turn_seconds": 120}}}]
    scene.close()


def test_rename_and_a_thai_name_on_the_keyboard(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = seating_for(scene, "room25")
    touch(k, say(k, "kiosk.seating.rename"))
    touch(k, "2. Ben")
    assert k.top.name == "keyboard"
    for _ in "Ben":
        touch(k, key="backspace")
    touch(k, key="switch")  # the Thai layout
    type_on(k, "บิน")
    touch(k, say(k, "kiosk.keyboard.done"))
    touch(k, say(k, "kiosk.seating.add"))
    touch(k, say(k, "kiosk.keyboard.cancel"))  # changes nothing
    touch(k, say(k, "kiosk.seating.next"))
    touch(k, say(k, "kiosk.options.start"))
    (move,) = sent(scene)
    assert move["args"]["players"] == [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "บิน"},
                                       {"id": "chai", "name": "ชัย"}, {"id": "dao", "name": "道"}]
    assert move["args"]["options"] == {"mode": "suspicion", "tiles": "digital", "program_seconds": 0}
    scene.close()


def test_a_figure_tapped_on_the_reader_seats_its_player(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    scene.tokens.enroll(Token(EVE_FIGURE, "toolkit", PLAYER, "eve", "Eve"))
    scene.tokens.enroll(Token(ANA_FIGURE, "toolkit", PLAYER, "ana", "Ana"))
    assert scene.kiosk.feed is not None
    router = TapRouter(scene.table, scene.tokens, scene.kiosk.feed, scene.kiosk.feed.identified_player)
    k = seating_for(scene, "jailbreak")
    touch(k, "1. Ana")
    for uid in (EVE_FIGURE, ANA_FIGURE):  # a player of no game on this table, then one of this one
        router.tapped(TagPlaced("board0", 0, uid, "ntag"))
        k.process()
    assert k.top.name == "seating"  # no booth opened: the figures seated their players
    assert [b.label for b in k.top.buttons()][:5] == ["5. Ana", "1. Ben", "2. ชัย", "3. 道", "4. Eve"]
    touch(k, say(k, "kiosk.button.back"))
    router.tapped(TagPlaced("board0", 0, ANA_FIGURE, "ntag"))  # the screen is gone: the figure opens the booth
    k.process()
    assert k.top.name == "booth"
    scene.close()


def lockdown_view(options: dict[str, Any]) -> dict[str, Any]:
    """The public view of a real Lockdown game, as the table tells it after `table.new_game`."""
    setup = Setup("lockdown", tuple(Player(p["id"], p["name"]) for p in PLAYERS[:3]), options, seed=3)
    referee = Referee.start(registry(), EventLog(":memory:"), setup, created_at=0)
    view = copy.deepcopy(Table(referee).views.public)
    return {**view, "number": 2, "options": options}


def test_a_new_number_in_the_view_shows_the_new_games_setup(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    assert k.feed is not None
    k.feed.post(PublicView({**k.public, "number": 1}))
    show_screen(scene, "booth")  # a game under way, with Ana's booth open
    assert k.top.name == "booth"
    k.feed.post(PublicView({**k.public, "number": 1}))  # every view of this game holds its number
    k.feed.post(PublicView(lockdown_view({"items": "physical", "free_seconds": 300, "turn_seconds": 90})))
    k.process()
    assert [s.name for s in k.stack] == ["setup"]  # the last game's booth and play screen are gone
    assert k.feed.booth is None
    assert k.settings.options == {"items": "physical", "free_seconds": 300, "turn_seconds": 90}
    drawn = [d.text for d in text.record or []]
    assert say(k, "kiosk.setup.title", game="Lockdown", count=3) in drawn
    assert say(k, "kiosk.options.value", option="Item cards", value="Real cards") in drawn
    assert say(k, "kiosk.setup.seat", number=3, name="ชัย") in drawn
    assert button(k, say(k, "kiosk.setup.start"))
    scene.close()


def test_a_view_without_options_keeps_the_start_up_options(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    k.settings.options = {"turn_seconds": 60}
    assert k.feed is not None
    k.feed.post(PublicView({key: v for key, v in k.public.items() if key != "options"}))
    k.process()
    assert k.settings.options == {"turn_seconds": 60}
    scene.close()


def test_play_again_sends_the_same_setup_and_another_game_lists_the_games(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "th")
    k = scene.kiosk
    k.settings.options = {}
    show_screen(scene, "reveal")
    sent(scene)
    touch(k, say(k, "kiosk.reveal.play_again"))
    assert sent(scene) == [{"by": "host", "move": "table.new_game",
                            "args": {"game": "toolkit", "players": PLAYERS, "options": {}}}]
    touch(k, say(k, "kiosk.reveal.another"))
    assert k.top.name == "games"
    touch(k, say(k, "game.betrayal.title"))
    assert k.top.name == "seating"
    scene.close()


def test_the_host_menus_new_game_asks_before_it_ends_the_game_under_way(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "zh")
    k = scene.kiosk
    show_screen(scene, "menu")  # a game is being played
    sent(scene)
    touch(k, say(k, "kiosk.menu.new_game"))
    assert k.top.name == "confirm" and sent(scene) == []  # the second step says it ends this game
    touch(k, say(k, "kiosk.confirm.back"))
    assert k.top.name == "menu" and sent(scene) == []
    touch(k, say(k, "kiosk.menu.new_game"))
    touch(k, say(k, "kiosk.confirm.new_game.yes"))
    assert sent(scene) == [{"by": "host", "move": "game.end", "args": {}}]  # the toolkit's end, unranked
    assert k.top.name == "games"
    scene.close()
    scene = make_scene(surface("800x480"), text, "zh")
    k = scene.kiosk
    k.open_menu()
    k.process()
    touch(k, say(k, "kiosk.menu.new_game"))  # nothing played yet: the game list
    assert k.top.name == "games"
    scene.close()
