"""Jailbreak at the command line, as a table without a kiosk meets it: a night started with options, each
input answered (a refusal with its reason), and the state kept in a real SQLite log across a restart."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion import i18n
from companion.cli import main


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    for key in [k for k in os.environ if k.startswith("COMPANION_")]:
        monkeypatch.delenv(key)
    return CliRunner()


def lines(*inputs: tuple[str, str, dict[str, object]]) -> str:
    return "".join(json.dumps({"by": by, "move": move, "args": args}) + "\n" for by, move, args in inputs)


def test_a_night_at_the_command_line(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "night.sqlite3"
    args = ["run", "--db", str(db), "--game", "jailbreak", "--players", "ana,ben,chai", "--jsonl",
            "--option", 'sheriffs=["chai"]', "--option", "turn_seconds=90"]
    stdin = lines(("player:chai", "key.use", {}), ("player:chai", "key.use", {}), ("player:ana", "turn.end", {}),
                  ("player:chai", "turn.end", {}))
    result = runner.invoke(main, args, input=stdin)
    assert result.exit_code == 0, result.output
    replies = [json.loads(x) for x in result.output.splitlines() if '"line"' in x]
    assert [r["ok"] for r in replies] == [True, False, False, True]
    assert replies[1]["reason"] == {"code": "reject.jailbreak_key_limit", "params": {"limit": 1}}  # J2.2
    assert replies[2]["reason"]["code"] == "reject.not_your_turn"
    assert i18n.describe("th", replies[1]["reason"]).startswith("เทิร์นนี้ใช้กุญแจไม่ได้")

    shown = json.loads(runner.invoke(main, ["show", "--db", str(db), "--view", "public"]).output)
    table = shown["table"]
    # chai (the only sheriff) went to scene 2; counter-clockwise from chai (seats ana, ben, chai) is ben
    assert table["people"]["chai"]["scene"] == 2 and shown["turn"] == "ben" and shown["phase"] == "action"
    assert table["deck"] == 100 - 3 * 4 - 2 - 2
    assert table["timers"]["turn"]["duration"] == 90_000
    assert table["roles"] == {"ana": "prisoner", "ben": "prisoner", "chai": "sheriff"}
