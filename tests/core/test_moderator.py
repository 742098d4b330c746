"""A moderator who does not play (issue 28, item 5): the setup says so and is replayed from the log, the
host's view then holds the game's moderator view (the deal, votes as cast once closed, hidden counters),
everyone is told, and a playing host keeps the redacted view. The toolkit's vote among chosen voters (a
Werewolf night's wolves-only vote) keeps who votes secret from everyone but the voters and the moderator.

Pure: the referee on a real SQLite log, no broker, no screen (the Chromium night is
tests/phones/test_moderator_night.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.referee import Referee, public_view
from companion.core.rejection import Rejected
from companion.games import registry
from companion.games.toolkit import GAME as TOOLKIT
from companion.games.toolkit import presets
from companion.games.toolkit.lines import table_lines
from companion.kiosk.newgame import Plan
from companion.kiosk.screens.moderator import moderator_lines
from companion.table.next_game import setup_of
from companion.table.views import Views
from tests.kits.lockdown_script import play as play_lockdown
from tests.kits.lockdown_script import prepare, setup_line
from tests.kits.toolkit_script import SETUP, host, play, player, vote

GAMES = registry()
SEVEN = ["ana", "ben", "chai", "dao", "eve", "fon", "gus"]
NIGHT_SETUP: dict[str, Any] = {"game": "toolkit", "players": [{"id": p, "name": p.title()} for p in SEVEN],
                               "seed": 28, "moderator": True}
WEREWOLF = presets.werewolf(len(SEVEN))


def deal_line(at: int = 0) -> dict[str, Any]:
    return host("roles.deal", at, name="roles", roles=WEREWOLF)


def wolves_of(ref: Referee) -> list[str]:
    assigned = ref.view("host")["moderator"]["deals"]["roles"]["assigned"]
    return [pid for pid in SEVEN if assigned[pid] == "werewolf"]


def night(tmp_path: Path, setup: dict[str, Any] | None = None) -> Referee:
    """A seven-player Werewolf deal, then the wolves' vote opened among the wolves only."""
    ref = play(tmp_path / "night.sqlite3", deal_line(), setup=setup or NIGHT_SETUP)
    wolves = wolves_of(ref) if (setup or NIGHT_SETUP).get("moderator") else \
        [p for p in SEVEN if ref.state["deals"]["roles"]["assigned"][p] == "werewolf"]
    out = ref.submit(Input("ballot.open", "host", {"name": "wolves", "options": ["chai", "dao", "eve"],
                                                   "voters": wolves}, 1000))
    assert out.accepted, out
    return ref


# -- the setup ---------------------------------------------------------------------------------------------


def test_the_setup_keeps_the_moderator_in_the_log_and_an_old_record_reads_as_a_playing_host(tmp_path: Path) -> None:
    players = (Player("ana", "Ana"), Player("ben", "Ben"))
    moderated = Setup("toolkit", players, {}, 5, moderator=True)
    assert moderated.to_json()["moderator"] is True
    assert setup_from_json(moderated.to_json()) == moderated
    playing = Setup("toolkit", players, {}, 5)
    assert "moderator" not in playing.to_json()  # a game set up before moderators reads the same
    assert setup_from_json({"game": "toolkit", "players": ["ana", "ben"], "seed": 5}).moderator is False
    assert setup_from_json({**moderated.to_json(), "moderator": "yes"}).moderator is False  # only a true true
    ref = play(tmp_path / "log.sqlite3", deal_line(), setup=NIGHT_SETUP)
    again = Referee(GAMES, EventLog(tmp_path / "log.sqlite3"), ref.game_id)  # a restart replays the log
    assert again.setup.moderator is True
    assert again.view("host")["moderator"] == ref.view("host")["moderator"]


def test_everyone_is_told_the_table_has_a_moderator(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", setup=NIGHT_SETUP)
    for audience in ("public", "host", "player:ana"):
        view = ref.view(audience)
        assert view["moderated"] is True
        assert [a["msg"] for a in view["announcements"]] == ["table.moderated"]
    assert not ref.view("public")["begun"]  # being told is not a start: a new game may still replace it
    for lang in i18n.LANGUAGES:
        assert "moderator" in i18n.translate("en", "table.moderated") and i18n.translate(lang, "table.moderated") \
            != "table.moderated"
    playing = play(tmp_path / "playing.sqlite3")
    assert playing.view("public")["moderated"] is False
    assert playing.view("public")["announcements"] == []


# -- what the moderator sees, and what a playing host does not -------------------------------------------------


def test_the_moderator_sees_the_deal_and_the_votes_once_closed(tmp_path: Path) -> None:
    ref = night(tmp_path)
    wolves = wolves_of(ref)
    assert len(wolves) == WEREWOLF.count("werewolf") == 2
    mod = ref.view("host")["moderator"]
    assigned = mod["deals"]["roles"]["assigned"]
    assert sorted(assigned) == sorted(SEVEN) and sorted(assigned.values()) == sorted(WEREWOLF)
    assert all(assigned[p] == ref.view(f"player:{p}")["private"]["roles"]["roles"] for p in SEVEN)
    assert mod["ballots"]["wolves"] == {"voters": wolves, "weights": {w: 1 for w in wolves},
                                        "waiting_for": wolves, "votes": None}
    assert ref.submit(Input("ballot.vote", f"player:{wolves[0]}", {"name": "wolves", "option": "eve"}, 2000)).accepted
    mod = ref.view("host")["moderator"]
    assert mod["ballots"]["wolves"]["waiting_for"] == wolves[1:]
    assert mod["ballots"]["wolves"]["votes"] is None  # while open a vote may change: not shown yet
    assert ref.submit(Input("ballot.vote", f"player:{wolves[1]}", {"name": "wolves", "option": "eve"}, 2500)).accepted
    assert ref.submit(Input("ballot.close", "host", {"name": "wolves"}, 3000)).accepted
    mod = ref.view("host")["moderator"]
    assert mod["ballots"]["wolves"]["votes"] == {wolves[0]: "eve", wolves[1]: "eve"}
    assert ref.view("public")["table"]["ballots"]["wolves"]["result"]["winner"] == "eve"  # public as today


def test_the_moderator_sees_hidden_counters(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("counter.create", 0, name="lives", initial=2, players=["ana", "ben"]),
               player("ana", "counter.adjust", 100, name="lives", delta=-1), setup={**SETUP, "moderator": True})
    assert ref.view("host")["moderator"]["counters"] == {"lives": {"ana": 1, "ben": 2}}
    assert "values" not in ref.view("public")["table"]["counters"]["lives"]


def test_a_playing_host_keeps_the_redacted_view(tmp_path: Path) -> None:
    ref = night(tmp_path, setup={**NIGHT_SETUP, "moderator": False})
    view = ref.view("host")
    assert "moderator" not in view and view["moderated"] is False
    assert view["host"] == {"ballots_waiting_for": {}}  # not even who may vote in the wolves' vote
    text = json.dumps(view)
    for pid, role in ref.state["deals"]["roles"]["assigned"].items():
        assert f'"{pid}": "{role}"' not in text
    assert '"assigned"' not in text and '"unused"' not in text
    assert view["table"]["deals"]["roles"] == {"pool": sorted(WEREWOLF), "revealed": {}}  # the pool, as at a real deal


# -- the chosen voters ------------------------------------------------------------------------------------------


def test_only_the_chosen_voters_vote_and_the_table_learns_how_many_never_who(tmp_path: Path) -> None:
    ref = night(tmp_path)
    wolves = wolves_of(ref)
    villager = next(p for p in SEVEN if p not in wolves)
    refused = ref.submit(Input("ballot.vote", f"player:{villager}", {"name": "wolves", "option": "eve"}, 2000))
    assert not refused.accepted and refused.reason is not None and refused.reason.code == "reject.ballot_not_eligible"
    public = ref.view("public")["table"]["ballots"]["wolves"]
    assert public["voter_count"] == 2 and public["secret_voters"] is True
    assert "voters" not in public and "weights" not in public
    assert ref.view(f"player:{wolves[0]}")["private"]["ballots"]["wolves"]["eligible"] is True
    assert ref.view(f"player:{villager}")["private"]["ballots"]["wolves"]["eligible"] is False
    prompts = ref.view(f"player:{villager}")["prompts"]
    assert not any(p["move"] == "ballot.vote" for p in prompts)
    assert any(p["move"] == "ballot.vote" for p in ref.view(f"player:{wolves[1]}")["prompts"])


def test_a_vote_among_everyone_still_names_its_voters(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("ballot.open", 0, name="exile", options=["ana", "ben"]),
               vote("ana", "ben", 100))
    public = ref.view("public")["table"]["ballots"]["exile"]
    assert public["voters"] == ["ana", "ben", "chai", "dao"] and public["voter_count"] == 4
    assert "secret_voters" not in public
    assert ref.view("host")["host"]["ballots_waiting_for"] == {"exile": ["ben", "chai", "dao"]}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31), st.sampled_from(SEVEN))
def test_the_public_view_is_the_same_whoever_the_wolves_are(seed_a: int, seed_b: int, target: str) -> None:
    """Twin nights: two deals (other wolves), the wolves' vote among that night's wolves, each wolf voting for
    the same player. Whatever the wolves, the public view, its lines and the table's JSON are the same."""
    seen = []
    for seed in (seed_a, seed_b):
        setup = Setup("toolkit", tuple(Player(p, p.title()) for p in SEVEN), {}, seed, moderator=True)
        state = initial(TOOLKIT, setup)
        state = step(TOOLKIT, state, Input("roles.deal", "host", {"name": "roles", "roles": WEREWOLF}, 0))
        wolves = [p for p in SEVEN if state["deals"]["roles"]["assigned"][p] == "werewolf"]
        state = step(TOOLKIT, state, Input("ballot.open", "host", {"name": "wolves", "options": SEVEN,
                                                                   "voters": wolves}, 10))
        for n, wolf in enumerate(wolves):
            state = step(TOOLKIT, state, Input("ballot.vote", f"player:{wolf}", {"name": "wolves", "option": target},
                                               20 + n))
        public = public_view(TOOLKIT, setup, state, [], 1)
        open_json = json.dumps(public, sort_keys=True)
        state = step(TOOLKIT, state, Input("ballot.close", "host", {"name": "wolves"}, 30))
        closed = public_view(TOOLKIT, setup, state, [], 1)
        seen.append((open_json, json.dumps(closed, sort_keys=True), table_lines(closed, 40)))
    assert seen[0] == seen[1]


# -- where the host says it ----------------------------------------------------------------------------------


def test_a_new_game_carries_the_hosts_choice() -> None:
    players = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]
    assert setup_of({"game": "toolkit", "players": players, "moderator": True}, GAMES, 1).moderator is True
    assert setup_of({"game": "toolkit", "players": players}, GAMES, 1).moderator is False
    with pytest.raises(Rejected) as refused:
        setup_of({"game": "toolkit", "players": players, "moderator": "yes"}, GAMES, 1)
    assert refused.value.code == "reject.bad_argument" and refused.value.params["field"] == "moderator"
    plan = Plan("toolkit", [("ana", "Ana"), ("ben", "Ben")], ["ana", "ben"], {"moderator": True})
    args = plan.move()["args"]
    assert args["moderator"] is True and "moderator" not in args["options"]
    assert "moderator" not in Plan("toolkit", [("ana", "Ana")], ["ana"], {"moderator": False}).move()["args"]


# -- the kiosk's moderator screen says it in words ----------------------------------------------------------------


def test_the_kiosk_moderator_lines_name_players_and_translate_roles(tmp_path: Path) -> None:
    ref = night(tmp_path)
    wolves = wolves_of(ref)
    for wolf in wolves:
        assert ref.submit(Input("ballot.vote", f"player:{wolf}", {"name": "wolves", "option": "eve"}, 2000)).accepted
    assert ref.submit(Input("ballot.close", "host", {"name": "wolves"}, 3000)).accepted
    view = Views.of(ref).host
    for lang in i18n.LANGUAGES:
        lines = moderator_lines(lang, view)
        text = "\n".join(lines)
        wolf_word = i18n.translate(lang, "toolkit.role.werewolf")
        for wolf in wolves:
            assert f"{wolf.title()}" in text
            assert i18n.translate(lang, "kiosk.moderator.vote", {"player": wolf.title(), "option": "Eve"}) in lines
        assert text.count(wolf_word) >= 2
        assert not any(f" {pid} " in f" {line} " for line in lines for pid in SEVEN)  # names, never ids
    assert moderator_lines("en", ref.view("public")) == []  # nothing without the host's moderator part


def test_another_games_moderator_sees_each_seats_own_view_and_lines(tmp_path: Path) -> None:
    """A game without a moderator view of its own (Lockdown): the moderator gets every seat's own view and,
    on the host's page, each seat's lines; a playing host's view has neither."""
    for moderator in (True, False):
        setup = {**setup_line(["ana", "ben"], seed=4), "moderator": moderator}
        ref = play_lockdown(tmp_path / f"{moderator}.sqlite3", setup, [prepare("ana", 4, 3, 3, "B102")])
        views = Views.of(ref)
        host_lined = views.with_lines("host")
        if not moderator:
            assert "moderator" not in host_lined and "moderator_lines" not in host_lined
            continue
        seats = host_lined["moderator"]["seats"]
        assert seats == {p: ref.view(f"player:{p}")["private"] for p in ("ana", "ben")}
        assert host_lined["moderator_lines"]["ana"] == views.with_lines("player:ana")["lines"]
        assert "moderator_lines" not in views.with_lines("public")
        assert "moderator_lines" not in views.with_lines("player:ana")


# -- a vote of one role: the referee finds the voters ---------------------------------------------------------


def role_vote(at: int = 1000, **extra: Any) -> Input:
    return Input("ballot.open", "host", {"name": "wolves", "options": ["chai", "dao", "eve"], "role": "werewolf",
                                         **extra}, at)


def test_a_vote_of_the_werewolves_is_among_the_players_dealt_werewolf(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", deal_line(), setup=NIGHT_SETUP)
    assert ref.submit(role_vote()).accepted
    wolves = wolves_of(ref)
    assert ref.state["ballots"]["wolves"]["voters"] == wolves
    public = ref.view("public")["table"]["ballots"]["wolves"]
    assert public["secret_voters"] is True and "voters" not in public and public["voter_count"] == 2
    form = next(p for p in ref.view("host")["prompts"] if p["label"] == "toolkit.prompt.ballot_role")
    assert form["fixed"] == {"deal": "roles"}
    roles = next(f for f in form["fields"] if f["name"] == "role")
    assert [c["value"] for c in roles["choices"]] == sorted(set(WEREWOLF)) and roles["default"] == "werewolf"


def test_a_role_vote_is_refused_in_words_when_it_cannot_be_told_apart(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", deal_line(), setup=NIGHT_SETUP)
    both = ref.submit(role_vote(voters=["ana"]))
    assert not both.accepted and both.reason is not None and both.reason.params["field"] == "voters"
    nobody = ref.submit(role_vote(role="vampire"))
    assert not nobody.accepted and nobody.reason is not None and nobody.reason.code == "reject.ballot_no_voters"
    assert ref.submit(Input("roles.deal", "host", {"name": "second", "roles": WEREWOLF}, 500)).accepted
    which = ref.submit(role_vote())  # two deals: which one's werewolves?
    assert not which.accepted and which.reason is not None and which.reason.params["field"] == "deal"
    assert ref.submit(role_vote(deal="second")).accepted
    assert "wolves" in ref.state["ballots"]


def test_a_playing_host_opens_the_werewolves_vote_without_learning_who_they_are(tmp_path: Path) -> None:
    """Twin playing-host nights (other seeds, other wolves): after the deal and the werewolves' vote opened
    by role, the host's view is the same, history and prompts included."""
    seen = []
    for seed in (1, 2, 3):
        ref = play(tmp_path / f"{seed}.sqlite3", deal_line(), setup={**NIGHT_SETUP, "moderator": False, "seed": seed})
        assert ref.submit(role_vote()).accepted
        seen.append((json.dumps(ref.state["ballots"]["wolves"]["voters"]), ref.view("host")))
    assert len({voters for voters, _ in seen}) > 1  # the wolves differ ...
    assert all(view == seen[0][1] for _, view in seen)  # ... and the host sees the same


def test_companion_run_moderator_starts_a_moderated_game(tmp_path: Path) -> None:
    """`companion run --moderator`: the new game's setup says the host moderates, in the log; without the
    flag (and without `[game] moderator = true`) the host plays."""
    from click.testing import CliRunner

    from companion.cli import main

    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("COMPANION_")}
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_STATE_HOME": str(tmp_path / "state")}
    for flags, moderated in ((["--moderator"], True), ([], False)):
        db = tmp_path / f"{moderated}.sqlite3"
        result = CliRunner().invoke(main, ["run", "--db", str(db), "--players", "ana,ben", "--jsonl", *flags],
                                    input="", env=env)
        assert result.exit_code == 0, result.output
        stored = EventLog(db, read_only=True).latest_game()
        assert stored is not None and stored.setup.moderator is moderated
