"""The `[hall]` section (issue 18): unset by default (no hall, the table runs as before); every problem a
ConfigError naming the key, its value (never the password's) and what is allowed; a hall needs the
managed Mosquitto, whose bridge config no value can break."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config, ConfigError, load
from companion.hall.table.bridge import connection_text
from companion.hall.table.starter import bridge_config

HOME = "/home/hall"


def loaded(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load(env={"HOME": HOME}, system_path=None, user_path=None, extra_file=path)


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        loaded(tmp_path, text)
    return [str(p).replace(f"{tmp_path}/", "") for p in info.value.problems]


def test_no_hall_by_default_and_no_bridge(tmp_path: Path) -> None:
    cfg = loaded(tmp_path, "")
    assert cfg.hall.url is None and cfg.hall.keepalive == 5 and cfg.hall.name is None
    assert bridge_config(cfg) == ""


def test_a_hall_with_the_managed_mosquitto(tmp_path: Path) -> None:
    cfg = loaded(tmp_path, '[table]\nid = "t7"\n[mqtt]\nbroker = "mosquitto"\n'
                           '[hall]\nurl = "mqtt://hall.local:1884"\nname = "โต๊ะ 7"\npassword = "p#w!x"\n')
    assert cfg.hall.name == "โต๊ะ 7" and "p#w!x" not in repr(cfg.hall)
    text = bridge_config(cfg)
    assert "address hall.local:1884" in text and "remote_username t7" in text
    assert "remote_password p#w!x" in text and "keepalive_interval 5" in text


def test_bad_values_name_their_key_and_what_is_allowed(tmp_path: Path) -> None:
    got = problems(tmp_path, '[hall]\nurl = "http://hall.local"\nname = "tab\\u0007"\n'
                             'password = "two words"\nkeepalive = 1\ncolour = "red"\n')
    assert got == [
        'config.toml: hall.url = "http://hall.local" is not allowed; expected mqtt://host:port, the hall\'s '
        "central broker (a bridge speaks plain MQTT)",
        'config.toml: hall.name = "tab\\u0007" is not allowed; expected 1-64 printable characters',
        "config.toml: hall.password = *** is not allowed; expected 1-128 printable ASCII characters without "
        "spaces (it goes on a line of Mosquitto's bridge config)",
        "config.toml: hall.keepalive = 1 is not allowed; must be at least 5",
        'config.toml: hall.colour = "red" is not a known key; [hall] has: url, name, password, keepalive',
    ]


@pytest.mark.parametrize("password", ["new\nline", "ends-in-a-newline\n", "tab\there", "ไทย", "x" * 129, ""])
def test_a_password_that_would_break_the_bridge_line_is_refused(tmp_path: Path, password: str) -> None:
    toml_password = password.replace("\n", "\\n").replace("\t", "\\t")
    got = problems(tmp_path, f'[mqtt]\nbroker = "mosquitto"\n[hall]\nurl = "mqtt://h:1"\n'
                             f'password = "{toml_password}"\n')
    assert len(got) == 1 and got[0].startswith("config.toml: hall.password = *** is not allowed")
    assert password not in got[0] or not password
    with pytest.raises(ValueError):  # and the bridge itself never writes such a line
        connection_text(prefix="companion", table="t1", url="mqtt://h:1", password=password, keepalive=5)


def test_a_bad_port_and_a_name_too_long(tmp_path: Path) -> None:
    got = problems(tmp_path, f'[hall]\nurl = "mqtt://hall:70000"\nname = "{"n" * 65}"\n')
    assert got[0] == 'config.toml: hall.url = "mqtt://hall:70000" is not allowed; the port must be 1-65535'
    assert got[1].startswith("config.toml: hall.name = ") and "1-64 printable characters" in got[1]


def test_a_hall_needs_the_managed_mosquitto(tmp_path: Path) -> None:
    got = problems(tmp_path, '[mqtt]\nbroker = "external"\nurl = "mqtt://broker.local:1883"\n'
                             '[hall]\nurl = "mqtt://hall:1883"\npassword = "pw"\n')
    assert got == ['config.toml: hall.url = "mqtt://hall:1883" needs the managed Mosquitto (mqtt.broker = '
                   '"mosquitto"), but the table\'s broker is external; bridges are Mosquitto\'s, and an external '
                   'broker is bridged to the hall by its owner (docs/config.md, [hall])']


def test_auto_with_an_external_url_is_not_the_managed_mosquitto(tmp_path: Path) -> None:
    got = problems(tmp_path, '[mqtt]\nurl = "mqtt://broker.local:1883"\n[hall]\nurl = "mqtt://hall:1883"\n'
                             'password = "pw"\n')
    assert len(got) == 1 and "the table's broker is external" in got[0]


def test_auto_with_mosquitto_installed_is_the_managed_mosquitto(tmp_path: Path) -> None:
    assert loaded(tmp_path, '[hall]\nurl = "mqtt://hall:1883"\npassword = "pw"\n').hall.url == "mqtt://hall:1883"


def test_a_hall_needs_the_tables_password(tmp_path: Path) -> None:
    got = problems(tmp_path, '[mqtt]\nbroker = "mosquitto"\n[hall]\nurl = "mqtt://hall:1883"\n')
    assert got == ["config.toml: hall.password = null must be set with hall.url: the table's password on the "
                   "hall's broker (`companion hall` prints it)"]
