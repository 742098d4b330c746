"""The token registry on a real SQLite file, its export/import between two Pis, and the enrollment CLI
(click's CliRunner, a real registry file, and a real tap from the PN532 emulator over a pty)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.taps.registry import Registry, RegistryError, Token, check, normalize_uid, registry_path
from hardware.pn532.emulator import Emulator


def test_the_registry_file_sits_next_to_the_game_log(tmp_path: Path) -> None:
    assert registry_path(tmp_path / "companion.sqlite3") == tmp_path / "companion.tokens.sqlite3"


def test_enroll_lookup_forget_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "tokens.sqlite3"
    with Registry(path) as reg:
        assert reg.enroll(Token("04a1b2c3d4e5f6", "toolkit", "dice", "2d6", "Two dice")) is None
        before = reg.enroll(Token("04:A1:B2:C3:D4:E5:F6", "toolkit", "dice", "d20", "Big die"))
        assert before == Token("04A1B2C3D4E5F6", "toolkit", "dice", "2d6", "Two dice")
    with Registry(path) as reg:  # it is on disk
        assert reg.lookup("04a1b2c3d4e5f6") == Token("04A1B2C3D4E5F6", "toolkit", "dice", "d20", "Big die")
        assert reg.forget("04A1B2C3D4E5F6") and not reg.forget("04A1B2C3D4E5F6")
        assert reg.lookup("04A1B2C3D4E5F6") is None


@pytest.mark.parametrize(("uid", "game", "kind", "token_id", "label", "field"), [
    ("04A1B2", "toolkit", "dice", "2d6", "x", "uid"),  # 3 bytes
    ("ZZZZZZZZ", "toolkit", "dice", "2d6", "x", "uid"),
    ("DEADBEEF", "Tool Kit", "dice", "2d6", "x", "game"),
    ("DEADBEEF", "toolkit", "", "2d6", "x", "kind"),
    ("DEADBEEF", "toolkit", "dice", "two dice", "x", "id"),
    ("DEADBEEF", "toolkit", "dice", "2d6", "x" * 61, "label"),
])
def test_bad_tokens_are_refused_naming_the_field(uid: str, game: str, kind: str, token_id: str, label: str,
                                                 field: str) -> None:
    with pytest.raises(RegistryError, match=f"^{field}:"):
        check(uid, game, kind, token_id, label)


def test_export_then_import_on_a_second_pi(tmp_path: Path) -> None:
    first, second = Registry(tmp_path / "a.sqlite3"), Registry(tmp_path / "b.sqlite3")
    try:
        first.enroll(Token("DEADBEEF", "toolkit", "dice", "2d6", "Two dice"))
        first.enroll(Token("04A1B2C3D4E5F6", "toolkit", "player", "ana", "Ana's meeple"))
        first.enroll(Token("99AABBCC", "lockdown", "item", "key", "钥匙"))
        box = json.loads(json.dumps(first.export("toolkit")))  # through a file's text
        assert second.import_(box) == (2, 0, [])
        assert second.tokens() == first.tokens("toolkit")
        assert second.import_(box) == (0, 2, [])  # again: nothing new
    finally:
        first.close()
        second.close()


def test_an_import_that_contradicts_this_pi_changes_nothing_unless_replace(tmp_path: Path) -> None:
    with Registry(tmp_path / "r.sqlite3") as reg:
        reg.enroll(Token("DEADBEEF", "toolkit", "dice", "d20", "Big die"))
        box = {"format": "companion-tokens", "version": 1, "tokens": [
            {"uid": "11223344", "game": "toolkit", "kind": "timer", "id": "round", "label": "Clock"},
            {"uid": "DEADBEEF", "game": "toolkit", "kind": "dice", "id": "2d6", "label": "Two dice"},
        ]}
        _, _, conflicts = reg.import_(box)
        assert conflicts == [Token("DEADBEEF", "toolkit", "dice", "d20", "Big die")]
        assert [t.uid for t in reg.tokens()] == ["DEADBEEF"]  # the clock was not imported either
        assert reg.import_(box, replace=True)[0] == 2
        assert reg.lookup("DEADBEEF") == Token("DEADBEEF", "toolkit", "dice", "2d6", "Two dice")


@pytest.mark.parametrize("data", [
    [], {"format": "other", "version": 1, "tokens": []}, {"format": "companion-tokens", "version": 2, "tokens": []},
    {"format": "companion-tokens", "version": 1, "tokens": [{"uid": "DEADBEEF"}]},
    {"format": "companion-tokens", "version": 1, "tokens": [
        {"uid": "DEADBEEF", "game": "toolkit", "kind": "dice", "id": "2d6", "label": "a"},
        {"uid": "DEADBEEF", "game": "toolkit", "kind": "dice", "id": "d6", "label": "b"}]},
])
def test_a_bad_export_file_is_refused_and_changes_nothing(tmp_path: Path, data: object) -> None:
    with Registry(tmp_path / "r.sqlite3") as reg:
        with pytest.raises(RegistryError, match="not a token export"):
            reg.import_(data)
        assert reg.tokens() == []


uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)).map(lambda b: b.hex())
words = st.from_regex(r"^[a-z0-9][a-z0-9_.:-]{0,20}$", fullmatch=True)
labels = st.text(st.characters(min_codepoint=0x20, exclude_categories=("Cs",)), min_size=1, max_size=60)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(uids, words, words, words, labels), max_size=12, unique_by=lambda t: normalize_uid(t[0])))
def test_any_box_round_trips_through_export_and_import(tmp_path_factory: pytest.TempPathFactory,
                                                       box: list[tuple[str, str, str, str, str]]) -> None:
    where = tmp_path_factory.mktemp("box")
    with Registry(where / "a.sqlite3") as a, Registry(where / "b.sqlite3") as b:
        for uid, game, kind, token_id, label in box:
            a.enroll(Token(uid, game, kind, token_id, label))
        text = json.dumps(a.export(), ensure_ascii=False)
        assert b.import_(json.loads(text)) == (len(box), 0, [])
        assert b.tokens() == a.tokens()
        assert b.export() == a.export()


# -- the CLI --------------------------------------------------------------------------------------------


def config_file(tmp_path: Path, port: str | None = None) -> Path:
    devices = f'[{{ name = "pn532", driver = "pn532", port = "{port}" }}]' if port else "[]"
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\npath = "{tmp_path / "game.sqlite3"}"\n\n'
                    f'[readers]\nsimulate = "never"\ndevices = {devices}\n', encoding="utf-8")
    return path


def cli(tmp_path: Path, *args: str, port: str | None = None, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--config", str(config_file(tmp_path, port)), "tokens", *args], input=stdin)
    return result.exit_code, result.output


def test_enroll_by_tapping_then_choosing_what_it_is(tmp_path: Path) -> None:
    with Emulator(tmp_path / "pn532") as emu:
        emu.place("04A1B2C3D4E5F6")  # the host holds the tag on the reader
        code, out = cli(tmp_path, "enroll", "--timeout", "10", port=str(emu.link), stdin="dice\n2d6\nTwo dice\n")
    assert code == 0, out
    assert "Tag 04A1B2C3D4E5F6" in out
    assert "Enrolled 04A1B2C3D4E5F6  toolkit  dice  2d6  “Two dice”" in out
    with Registry(tmp_path / "game.tokens.sqlite3") as reg:  # the file next to the game log
        assert reg.lookup("04A1B2C3D4E5F6") == Token("04A1B2C3D4E5F6", "toolkit", "dice", "2d6", "Two dice")


def test_enroll_list_forget_with_flags(tmp_path: Path) -> None:
    assert cli(tmp_path, "enroll", "--uid", "deadbeef", "--kind", "player", "--id", "ana", "--label", "Ana")[0] == 0
    assert cli(tmp_path, "enroll", "--uid", "11223344", "--kind", "timer", "--id", "round")[0] == 0
    code, out = cli(tmp_path, "list")
    assert code == 0 and out.splitlines() == [
        "DEADBEEF  toolkit  player  ana  “Ana”",
        "11223344  toolkit  timer  round  “round”",
    ]
    code, out = cli(tmp_path, "enroll", "--uid", "DEADBEEF", "--kind", "dice", "--id", "d6")
    assert code == 1 and "already DEADBEEF  toolkit  player  ana" in out and "--replace" in out
    code, out = cli(tmp_path, "enroll", "--uid", "DEAD", "--kind", "dice", "--id", "d6")
    assert code == 1 and "uid:" in out
    assert cli(tmp_path, "forget", "deadbeef") == (0, "Forgot deadbeef\n")
    code, out = cli(tmp_path, "forget", "deadbeef")
    assert code == 1 and "no tag deadbeef is enrolled" in out


def test_export_and_import_files_between_two_pis(tmp_path: Path) -> None:
    first, second = tmp_path / "pi1", tmp_path / "pi2"
    first.mkdir()
    second.mkdir()
    cli(first, "enroll", "--uid", "DEADBEEF", "--kind", "dice", "--id", "2d6", "--label", "两个骰子")
    cli(first, "enroll", "--uid", "11223344", "--game", "lockdown", "--kind", "item", "--id", "key")
    box = tmp_path / "toolkit-box.json"
    assert cli(first, "export", "--game", "toolkit", "-o", str(box))[0] == 0
    assert json.loads(box.read_text(encoding="utf-8"))["tokens"][0]["label"] == "两个骰子"
    assert cli(second, "import", str(box)) == (0, "Imported 1 tag(s); 0 already known\n")
    assert cli(second, "list")[1] == "DEADBEEF  toolkit  dice  2d6  “两个骰子”\n"
    cli(second, "forget", "DEADBEEF")
    cli(second, "enroll", "--uid", "DEADBEEF", "--kind", "dice", "--id", "d20")
    code, out = cli(second, "import", str(box))
    assert code == 1 and "nothing imported" in out and "DEADBEEF  toolkit  dice  d20" in out
    assert cli(second, "import", "--replace", str(box))[0] == 0
    assert "2d6" in cli(second, "list")[1]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out = cli(second, "import", str(bad))
    assert code == 1 and "not JSON" in out


def test_enroll_without_a_tap_times_out_clearly(tmp_path: Path) -> None:
    with Emulator(tmp_path / "pn532") as emu:
        code, out = cli(tmp_path, "enroll", "--timeout", "0.5", port=str(emu.link))
    assert code == 1 and "no tag was tapped within 0.5 s" in out
