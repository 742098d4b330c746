"""The host's view carries no player's secret (issue 16, item 7).

The host usually plays too, and the host's view goes to the host's phone. Its history names who sent
each input; a secret input (a vote, a path, a room action, a plan, a role deal) reads "Ana acted" and
nothing more: neither its move nor its arguments, which would tell the host where a player is or what
they hold. Undo still works on it, by its place in the log. The per-game properties over random twin
evenings (tests/kits/host_view_twins.py) are in each game's property tests; here: the words of a secret entry
in every language, two hand-made twin evenings, and proof that the twins catch a leaky host view.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.core.contract import Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.fold import initial
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.games.lockdown import GAME as LOCKDOWN
from companion.games.lockdown import mapgraph
from companion.games.lockdown.game import Lockdown
from companion.games.toolkit.presets import werewolf
from companion.naming import Namer
from companion.table.views import Views
from tests.kits import host_view_twins
from tests.kits.host_view_twins import game_bot, seed_twin, twins
from tests.kits.lockdown_script import by, host, prepare, setup_line
from tests.kits.lockdown_script import play as play_lockdown
from tests.kits.room25_bot import setup as room25_setup
from tests.kits.toolkit_script import SETUP as TOOLKIT_SETUP
from tests.kits.toolkit_script import play as play_toolkit
from tests.kits.toolkit_script import player, scene, vote

SECRET_ENTRY = {"seq", "by", "at", "msg", "params"}
ACTED = {"en": "Ana acted", "zh": "Ana已行动", "th": "Ana ดำเนินการแล้ว"}


def history(ref: Referee) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = ref.view("host")["history"]
    return entries


def read(entry: dict[str, Any], ref: Referee, lang: str) -> str:
    """What the host reads for one history entry, as the kiosk and the phone page word it (companion/naming.py)."""
    return Namer.of(ref.view("host")).describe(lang, entry)


def assert_reads_ana_acted(ref: Referee, seq: int, at: int) -> None:
    entry = next(e for e in history(ref) if e["seq"] == seq)
    assert entry == {"seq": seq, "by": "player:ana", "at": at, "msg": "history.acted",
                     "params": {"by": "player:ana"}}
    for lang, words in ACTED.items():
        assert read(entry, ref, lang) == words


# -- a secret input reads "Ana acted", in every game with secret inputs -------------------------------------


def test_a_secret_vote_reads_ana_acted_and_a_public_input_keeps_its_move_and_arguments(tmp_path: Path) -> None:
    ref = play_toolkit(tmp_path / "log.sqlite3", *scene("red", "blue"))
    entries = history(ref)
    assert [e["by"] for e in entries] == ["host", "host", "host", "player:ben", "player:ana", "player:ben"]
    secret = [e for e in entries if e["msg"] == "history.acted"]
    assert [e["seq"] for e in secret] == [1, 4, 5, 6]  # the deal, Ben's counter, both votes
    assert all(set(e) == SECRET_ENTRY for e in secret)
    opened = entries[2]
    assert opened["move"] == "ballot.open" and opened["args"]["options"] == ["red", "blue", "green"]
    assert read(opened, ref, "en") == "the host sent " + i18n.translate("en", "move.toolkit.ballot.open")
    assert read(entries[0], ref, "en") == "the host acted"  # the host's own deal: its roles stay unsaid
    assert_reads_ana_acted(ref, 5, 2000)


def test_a_lockdown_control_room_reads_ana_acted(tmp_path: Path) -> None:
    control = mapgraph.room_of(lockdown_state(), "control_room")
    ref = play_lockdown(tmp_path / "log.sqlite3", setup_line(["ana", "ben"], seed=4),
                        [prepare("ana", 4, 3, 3, "B102"), prepare("ben", 2, 4, 4, "B503"), host("begin_actions")])
    assert ref.view("public")["turn"] == "ana"
    for n, line in enumerate([by("ana", "move", path=[control]), by("ana", "control_room", mode="ten_votes")]):
        assert ref.submit(Input(line["move"], line["by"], line["args"], 10_000 + n)).accepted
    assert_reads_ana_acted(ref, len(ref.events), 10_001)
    shown = str(ref.view("host"))
    assert "control" not in shown and control not in shown and "ten_votes" not in shown


def test_a_room25_plan_reads_ana_acted_and_undo_takes_it_back_unseen(tmp_path: Path) -> None:
    ref = Referee.start(registry(), EventLog(tmp_path / "log.sqlite3"), room25_setup("suspicion", 5, 11), 0)
    assert ref.submit(Input("plan", "player:ana", {"actions": ["push", "control"]}, 1000)).accepted
    assert_reads_ana_acted(ref, 1, 1000)
    assert ref.submit(Input("host.undo", "host", {"count": 1}, 2000)).accepted  # "undo the last input", unseen
    assert history(ref) == []
    assert ref.view("player:ana")["private"]["plan"] is None


def lockdown_state() -> State:
    return initial(LOCKDOWN, Setup("lockdown", (Player("ana", "Ana"), Player("ben", "Ben")),
                                   {"free_seconds": 0, "turn_seconds": 0}, 4))


# -- hand-made twin evenings --------------------------------------------------------------------------------


def test_two_toolkit_evenings_that_differ_in_every_secret_show_the_host_the_same(tmp_path: Path) -> None:
    """Other roles (another seed), other votes, another counter change, and Ana's two secrets sent in
    the other order: the table sees the same, and so does the host."""
    a = play_toolkit(tmp_path / "a.sqlite3", *scene("red", "blue", ben_hp=-2),
                     player("ana", "counter.adjust", 4000, name="hp", delta=-1), vote("chai", "green", 5000))
    b = play_toolkit(tmp_path / "b.sqlite3", *scene("blue", "red", ben_hp=-7)[:4],
                     player("ana", "counter.adjust", 2000, name="hp", delta=-3), vote("ben", "red", 3000),
                     vote("ana", "green", 4000), vote("chai", "red", 5000),
                     setup={**TOOLKIT_SETUP, "seed": 99})
    assert a.state["deals"]["roles"]["assigned"] != b.state["deals"]["roles"]["assigned"]
    assert a.view("public") == b.view("public")
    assert a.view("host") == b.view("host")
    for ref in (a, b):  # the host takes back the last input (Chai's vote) without seeing it
        assert ref.submit(Input("host.undo", "host", {"count": 1}, 6000)).accepted
    assert a.view("public") == b.view("public")
    assert a.view("host") == b.view("host")


def test_two_lockdown_turns_one_in_the_control_room_one_voting_elsewhere_show_the_host_the_same(
    tmp_path: Path,
) -> None:
    """Ana's position and what she did there differ; what everyone sees does not, nor what the host sees."""
    control = mapgraph.room_of(lockdown_state(), "control_room")
    start = [prepare("ana", 4, 3, 3, "B102"), prepare("ben", 2, 4, 4, "B503"), host("begin_actions")]
    refs = [play_lockdown(tmp_path / f"{n}.sqlite3", setup_line(["ana", "ben"], seed=4), start) for n in (1, 2)]
    turns = [
        [by("ana", "move", path=[control]), by("ana", "control_room", mode="ten_votes")],
        [by("ana", "move", path=["B103"]), by("ana", "vote", floor="B1")],
    ]
    for ref, lines in zip(refs, turns, strict=True):
        for n, line in enumerate(lines):
            assert ref.submit(Input(line["move"], line["by"], line["args"], 10_000 + n)).accepted, line
    a, b = refs
    assert a.state["people"]["ana"]["room"] != b.state["people"]["ana"]["room"]
    assert a.view("public") == b.view("public")
    assert a.view("host") == b.view("host")


# -- the twins are not vacuous, and would catch a leak ------------------------------------------------------

NAMES = ["ana", "ben", "chai", "dao"]
TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "toolkit": (3, {}),
    "lockdown": (3, {"free_seconds": 0, "turn_seconds": 0}),
    "room25": (4, {"mode": "suspicion"}),
    "jailbreak": (3, {"sheriffs": ["ana"]}),
    "lab_escape": (3, {"dice": "table", "deck": "physical"}),
    "betrayal": (3, {}),
}


def table(game: str, seed: int) -> Setup:
    count, options = TABLES[game]
    return Setup(game, tuple(Player(p, p.title()) for p in NAMES[:count]), options, seed)


@pytest.mark.parametrize("game", list(TABLES))
def test_the_twin_evenings_compare_evenings_that_really_differ(game: str) -> None:
    seen = host_view_twins.Compared()
    for k in range(12):
        s = table(game, 1000 + k)
        seen += twins(s, seed_twin(s) if k % 2 else s, game_bot(game), moves=k, branch=3 * k, steps=80)
    assert seen.apart >= 10, seen  # host views compared while the seeds or a player's secret inputs differed
    assert seen.corrections > 0, seen
    if game in {"toolkit", "lockdown"}:  # Room 25 announces which action or room choice each input was
        assert seen.other_moves > 0, seen  # another secret move than in evening A, the table none the wiser


class LeakyLockdown(Lockdown):
    """A careless host view: where everyone is."""

    def view_host(self, state: State) -> dict[str, Any]:
        return {**super().view_host(state), "rooms": {pid: p["room"] for pid, p in state["people"].items()}}


def test_the_twin_evenings_catch_a_host_view_that_shows_a_secret() -> None:
    leaky = {**host_view_twins.GAMES, "lockdown": LeakyLockdown()}
    caught = 0
    for k in range(6):
        s = table("lockdown", 1000 + k)
        try:
            twins(s, s, game_bot("lockdown"), moves=k, branch=0, games=leaky)
        except AssertionError:
            caught += 1
    assert caught > 0


# -- a moderator who does not play (issue 28, item 5) ----------------------------------------------------------


def test_a_moderators_secrets_reach_the_host_view_only(tmp_path: Path) -> None:
    """Twin moderated evenings (other roles, other votes, another counter change): the moderator's part of the
    host's view tells them apart, while the public view stays the same and no other view (nor the JSON the
    phones are sent) holds any of the moderator's part."""
    moderated = {**TOOLKIT_SETUP, "moderator": True}
    a = play_toolkit(tmp_path / "a.sqlite3", *scene("red", "blue", ben_hp=-2), setup=moderated)
    b = play_toolkit(tmp_path / "b.sqlite3", *scene("blue", "red", ben_hp=-7), setup={**moderated, "seed": 99})
    for ref in (a, b):
        assert ref.submit(Input("ballot.close", "host", {"name": "exile"}, 4000)).accepted
    assert a.state["deals"]["roles"]["assigned"] != b.state["deals"]["roles"]["assigned"]
    assert a.view("public") == b.view("public")
    assert a.view("host")["moderator"] != b.view("host")["moderator"]  # the moderator sees what differs
    assert a.view("host")["moderator"]["ballots"]["exile"]["votes"] == {"ana": "red", "ben": "blue"}
    for ref in (a, b):
        views = Views.of(ref)
        for audience in ("public", *(f"player:{p}" for p in ("ana", "ben", "chai", "dao"))):
            sent = views.json(audience)
            assert b'"moderator":' not in sent and b'"assigned"' not in sent, audience
            assert b'"votes"' not in sent and b'"moderator_lines"' not in sent, audience
            for pid, role in ref.state["deals"]["roles"]["assigned"].items():
                if audience != f"player:{pid}":
                    assert f'"{pid}":"{role}"'.encode() not in sent, (audience, pid)
        assert b'"moderator":{' in views.json("host")


def test_a_playing_host_learns_no_role_from_twin_werewolf_deals(tmp_path: Path) -> None:
    """The same seven-player Werewolf deal at two playing-host tables with other seeds: the host's view is the
    same (the redacted view of issue 16), though the wolves differ."""
    seven = [{"id": p, "name": p.title()} for p in ("ana", "ben", "chai", "dao", "eve", "fon", "gus")]
    deal = {"by": "host", "move": "roles.deal", "at": 0, "args": {"name": "roles", "roles": werewolf(7)}}
    refs = [play_toolkit(tmp_path / f"{seed}.sqlite3", deal, setup={"game": "toolkit", "players": seven, "seed": seed})
            for seed in (1, 2, 3)]
    deals = [ref.state["deals"]["roles"]["assigned"] for ref in refs]
    assert len({json.dumps(d, sort_keys=True) for d in deals}) > 1
    assert all(ref.view("host") == refs[0].view("host") for ref in refs)
    assert "moderator" not in refs[0].view("host") and refs[0].view("public")["moderated"] is False
