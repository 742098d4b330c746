"""The [readers] config section: its validation messages, the simulated-reader rule, and which driver
each device gets (docs/readers.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import config as c
from companion.config import ReaderConfig
from companion.taps.readers import make_driver, simulated
from hardware.board import BoardDriver
from hardware.pn532.driver import Pn532Driver


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(c.ConfigError) as err:
        c.load(env={"HOME": str(tmp_path)}, system_path=path, user_path=None)
    return [str(p).removeprefix(f"{path}: ") for p in err.value.problems]


def test_each_bad_reader_key_is_named_with_what_is_allowed(tmp_path: Path) -> None:
    assert problems(tmp_path, '[readers]\nsimulate = "maybe"\ndevices = [{ name = "A", driver = "rc522", '
                              'port = "/dev/x" }, "x", { name = "b", driver = "pn532" }, '
                              '{ name = "c", driver = "pn532", port = "/dev/y", baud = 9600 }]\n') == [
        'readers.simulate = "maybe" is not allowed; choose one of auto, always, never',
        'readers.devices[0][name] = "A" is not allowed; must match the pattern ^[a-z0-9][a-z0-9_-]{0,31}$',
        "readers.devices[0][driver] = \"rc522\" is not allowed; choose one of 'board' or 'pn532'",
        'readers.devices[1] = "x" is not allowed; expected an inline table such as '
        "{ name = ..., driver = ..., port = ... }",
        'readers.devices[2][port] = { name = "b", driver = "pn532" } is not allowed; lacks this key; '
        "a reader needs name, driver and port",
        "readers.devices[3][baud] = 9600 is not a known key; a reader has: name, driver, port",
    ]


def test_reader_names_are_unique_and_the_window_bounded(tmp_path: Path) -> None:
    found = problems(tmp_path, '[readers]\nrepeat_window_ms = 6000\ndevices = [{ name = "a", driver = "pn532", '
                               'port = "/dev/x" }, { name = "a", driver = "board", port = "/dev/y" }]\n')
    assert found[0].startswith("readers.devices = ") and found[0].endswith("reader names must be unique")
    assert found[1].startswith("readers.repeat_window_ms = 6000 is not allowed")


def test_readers_from_the_environment_and_back_to_toml(tmp_path: Path) -> None:
    devices = '[{ name = "b0", driver = "board", port = "socket://h:7" }]'
    env = {"HOME": str(tmp_path), "COMPANION_READERS__DEVICES": devices}
    cfg = c.load(env=env, system_path=None, user_path=None)
    assert cfg.readers.devices == (ReaderConfig(name="b0", driver="board", port="socket://h:7"),)
    again = tmp_path / "again.toml"
    again.write_text(c.to_toml(cfg), encoding="utf-8")
    assert c.load(env={"HOME": str(tmp_path)}, system_path=again, user_path=None).readers == cfg.readers


def test_which_readers_are_simulated(tmp_path: Path) -> None:
    missing = ReaderConfig(name="a", driver="pn532", port=str(tmp_path / "nothing"))
    present = ReaderConfig(name="b", driver="pn532", port=str(tmp_path))
    url = ReaderConfig(name="c", driver="board", port="socket://localhost:7000")
    assert [simulated(r, "auto") for r in (missing, present, url)] == [True, False, False]
    assert [simulated(r, "always") for r in (missing, present, url)] == [True, True, True]
    assert [simulated(r, "never") for r in (missing, present, url)] == [False, False, False]


def test_the_repeat_window_reaches_each_driver_or_leaves_its_own() -> None:
    pn532 = ReaderConfig(name="p", driver="pn532", port="/dev/serial0")
    board = ReaderConfig(name="b", driver="board", port="/dev/companion-board0")
    mine, theirs = make_driver(pn532, pn532.port, None), make_driver(board, board.port, None)
    assert isinstance(mine, Pn532Driver) and mine.repeat_window == 0.3
    assert isinstance(theirs, BoardDriver) and theirs.repeat_window == 0.75
    assert make_driver(pn532, pn532.port, 0.5).repeat_window == 0.5  # type: ignore[attr-defined]
    assert make_driver(board, board.port, 0.5).repeat_window == 0.5  # type: ignore[attr-defined]


def test_a_simulated_reader_in_a_deep_state_dir_still_gets_a_control_socket(tmp_path: Path) -> None:
    from companion.config import ReadersConfig
    from companion.taps.readers import open_readers
    from hardware.pn532.control import send

    deep = tmp_path / ("d" * 60) / ("e" * 60)
    cfg = ReadersConfig(devices=(ReaderConfig(name="pn532", driver="pn532", port="/nonexistent/x"),))
    readers = open_readers(cfg, deep, lambda event: None)
    try:
        control = readers.controls["pn532"]
        assert (deep / "pn532").is_symlink()  # the port stays where the config says
        assert send(control.path, "status").startswith(f"link {deep / 'pn532'}")
    finally:
        readers.stop()
    assert not control.path.exists() and not control.path.parent.exists()  # cleaned up
