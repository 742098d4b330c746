"""What a tag can be enrolled as (companion/taps/kinds.py): each player's figure, then the kinds and
ids the game declares with `tokens(state)`, which must be tokens its `on_token` understands and the
registry can store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.contract import GameBase, Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry as games_registry
from companion.games.lockdown import data as lockdown_data
from companion.games.lockdown import mapgraph
from companion.games.room25 import data as room25_data
from companion.taps.kinds import Choice, enrollable, game_tokens
from companion.taps.registry import Registry, RegistryError, Token, check

PLAYERS = (Player("ana", "Ana"), Player("ben", "Ben"), Player("chai", "ชัย"), Player("dao", "道"))
NAMES = [(p.id, p.name) for p in PLAYERS]


def referee(game: str) -> Referee:
    return Referee.start(games_registry(), EventLog(":memory:"), Setup(game, PLAYERS, {}, seed=3), created_at=0)


@pytest.fixture(scope="module")
def tables() -> Iterator[dict[str, Referee]]:
    found = {gid: referee(gid) for gid in games_registry()}
    yield found
    for r in found.values():
        r.log.close()


def test_figures_come_first_in_seat_order_then_the_game_tokens(tables: dict[str, Referee]) -> None:
    r = tables["toolkit"]
    choices = enrollable(r.game, r.state, NAMES)
    assert choices[:4] == tuple(Choice("player", pid, name) for pid, name in NAMES)
    assert {c.kind for c in choices[4:]} == {"dice"}  # no timer yet: the host has created none


def test_every_declared_token_is_one_the_registry_stores(tables: dict[str, Referee]) -> None:
    """Ids keep their case (lockdown's rooms are B101...): the registry must take each of them."""
    for gid, r in tables.items():
        choices = enrollable(r.game, r.state, NAMES)
        assert len(set(choices)) == len(choices), gid
        for c in choices:
            assert c.token("04A1B2C3D4E5F6", gid).id == c.id


def test_each_game_declares_what_its_on_token_reads(tables: dict[str, Referee]) -> None:
    toolkit = game_tokens(tables["toolkit"].game, {**tables["toolkit"].state, "timers": {"round": {}}})
    assert toolkit["timer"] == ["round"]  # a clock for each timer the host created
    for die in toolkit["dice"]:
        meaning = tables["toolkit"].game.on_token(tables["toolkit"].state, "dice", die, "table")
        assert meaning is not None and meaning[0] == "dice.roll", die
    lockdown = game_tokens(tables["lockdown"].game, tables["lockdown"].state)
    assert lockdown["item"] == list(lockdown_data.items().kinds)
    assert set(lockdown["room"]) == set(mapgraph.rooms(tables["lockdown"].state))
    assert game_tokens(tables["room25"].game, tables["room25"].state) == {"room": list(room25_data.all_kinds())}


def test_a_game_that_declares_nothing_offers_figures_only() -> None:
    class Bare(GameBase):
        pass

    assert enrollable(Bare(), {}, NAMES) == tuple(Choice("player", pid, name) for pid, name in NAMES)


def test_a_game_cannot_declare_the_player_kind() -> None:
    class Sneaky(GameBase):
        def tokens(self, state: State) -> dict[str, list[str]]:
            return {"player": ["ana"], "dice": ["d6"]}

    assert game_tokens(Sneaky(), {}) == {"dice": ["d6"]}


def test_a_bad_id_is_refused_by_the_registry_with_its_field() -> None:
    with pytest.raises(RegistryError, match="id"):
        Choice("dice", "two dice", "two dice").token("04A1B2C3D4E5F6", "toolkit")
    with pytest.raises(RegistryError, match="kind"):
        check("04A1B2C3D4E5F6", "toolkit", "Dice", "d6")  # kinds stay lower-case words


def every_choice() -> list[tuple[str, Choice]]:
    out = []
    for gid in games_registry():
        r = referee(gid)
        out.extend((gid, c) for c in enrollable(r.game, r.state, NAMES))
        r.log.close()
    return out


UIDS = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)).map(lambda b: b.hex())


@settings(max_examples=60, deadline=None)
@given(picked=st.lists(st.tuples(st.sampled_from(every_choice()), UIDS), min_size=1, max_size=12))
def test_what_is_enrolled_from_a_choice_is_what_the_router_looks_up(
        tmp_path_factory: pytest.TempPathFactory, picked: list[tuple[tuple[str, Choice], str]]) -> None:
    """Enrolling choices tag by tag (a tag enrolled twice keeps the last): each lookup is the last choice."""
    path = Path(tmp_path_factory.mktemp("reg")) / "tokens.sqlite3"
    last: dict[str, Token] = {}
    with Registry(path) as reg:
        for (gid, choice), uid in picked:
            token = choice.token(uid, gid)
            reg.enroll(token)
            last[token.uid] = token
        for uid, token in last.items():
            assert reg.lookup(uid.lower()) == token
        assert len(reg.tokens()) == len(last)


def test_the_console_says_not_now_for_a_refusal_that_may_tell_a_secret() -> None:
    """Without a screen the taps are printed (a public output): the referee's reasons are not."""
    from io import StringIO

    from companion.core.rejection import Rejected
    from companion.taps.console_sink import ConsoleTapSink

    out = StringIO()
    sink = ConsoleTapSink(out, "en")
    sink.token_refused("Vote Ben", Rejected("reject.ballot_already_voted"))
    sink.token_refused("Brass key", Rejected("reject.token_other_game", token="Brass key"))
    assert out.getvalue().splitlines() == ["  » “Vote Ben”: not now.",
                                           "  » “Brass key”: “Brass key” belongs to another game."]
