"""pytest set-up: the shared helper modules' asserts get pytest's detailed messages, as in a test file;
no test MQTT phone outlives its test; the heavy tests are marked `slow` (the quick tier leaves them out);
no broker's private folder outlives the run."""

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

pytest.register_assert_rewrite("tests.kits.toolkit_script")

# No wall-clock limit on a Hypothesis example (its default deadline is 200 ms): on a shared or slow machine
# an example that took longer failed as "unreliable" (tests/taps/test_codec.py on the loaded 2-core VM).
# Hung tests are caught by pytest-timeout instead. A test's own @settings still applies on top.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

# The heavy tests, left out by `bash tests/run.sh --quick` (`-m "not slow"`), kept by the full run: every
# test that drives Chromium (the `browser` fixture), and these folders and files (whole game nights,
# kill -9 of real processes at random moments, the installers, the real-window and hall-night tests), the
# tests named in SLOW_TESTS, and the screen sweeps' sizes other than the Pi's panel (SIZE_SWEEPS).
# The rule for what stays quick is in tests/README.md ("The quick tier").
SLOW_PATHS = (
    "tests/night/",
    "tests/faults/test_kill9_",  # the other fault tests (a full disk, the watchdog, a broker killed) stay quick
    "tests/setup/test_run_here.py",
    "tests/setup/test_installer.py",
    "tests/hall/test_hall_league_night.py",
    "tests/hall/test_real_bridge.py",
    "tests/hall/test_hall_cli.py",
    "tests/kiosk/test_kiosk_xvfb.py",
    "tests/kiosk/test_headless.py",
    "tests/taps/test_codec_micropython.py",
    "tests/phones/test_broker_lifetime.py",
)
# And the heaviest property tests (about a minute or more of CPU each on a loaded 2-core machine), and the
# heaviest cases of a parametrized test (its id with the parameters): the quick tier keeps its other cases.
SLOW_TESTS = frozenset({
    # Betrayal's long seeded games (10 to 15 s each): its demo scripts' case stays quick.
    "tests/games/betrayal/test_betrayal_choices.py::test_along_the_demo_scripts_and_long_games_a_sample[script0-seed0-varied]",
    "tests/games/betrayal/test_betrayal_choices.py::test_along_the_demo_scripts_and_long_games_a_sample[script1-seed0-varied]",
    "tests/core/test_properties.py::test_random_sessions_replay_identically_refusals_change_nothing_and_secrets_stay_secret",
    "tests/games/betrayal/test_betrayal_choices.py::test_every_offered_form_is_accepted_and_every_accepted_input_is_offered",
    "tests/games/betrayal/test_betrayal_properties.py::"
    "test_random_legal_games_keep_traits_on_their_tracks_keep_goals_secret_and_replay_identically",
    "tests/games/lab_escape/test_board_lab_escape.py::test_the_lab_is_the_same_whatever_the_seed",
    "tests/hall/test_hall_model_property.py::test_no_payload_stops_the_watcher_or_breaks_the_snapshot",
})
# The sweeps of every kiosk screen in every language at every size: the quick tier keeps each screen in each
# language at the Pi's 7" panel, 800x480 (where text is tightest); tests/kiosk/test_screen_sizes.py still
# lays out every screen at every size in the quick tier.
SIZE_SWEEPS = (
    "tests/kiosk/test_kiosk_screens.py",
    "tests/kiosk/test_kiosk_readable.py",
    "tests/kiosk/test_boards_screens.py",
)
PANEL = "800x480"
# What stays quick whatever the rules above say: one whole game night (Lockdown's shortest demo script,
# played by touches on the kiosk, taps in the phone page in Chromium and on the simulated reader; about
# 20 s of wall), so the quick tier drives the phone page and a whole evening too.
QUICK_TESTS = frozenset({
    "tests/night/test_night_scripts.py::test_a_scripted_game_is_played_to_its_end_by_touch_alone[lockdown]",
})
ROOT = Path(__file__).resolve().parent.parent


def _slow(item: pytest.Item) -> bool:
    where = Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()
    case = f"{where}::{item.nodeid.split('::', 1)[-1]}"
    params = getattr(getattr(item, "callspec", None), "params", {})
    if case in QUICK_TESTS:
        return False
    return ("browser" in getattr(item, "fixturenames", ()) or where.startswith(SLOW_PATHS)
            or case in SLOW_TESTS or case.split("[")[0] in SLOW_TESTS
            or (where in SIZE_SWEEPS and params.get("size", PANEL) != PANEL))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _slow(item):
            item.add_marker(pytest.mark.slow)


# Each run's own temporary directory (TMPDIR for this process and every process it starts), so what the
# managed brokers leave behind is seen here and not confused with another run's on the same machine.
# Readable by all: Mosquitto, started as root, reads its folder as the `mosquitto` user.
# The quick tier's pytest-xdist workers (`bash tests/run.sh --quick`) share their controller's directory:
# it is checked and removed once, after every worker is done.
_WORKER = "PYTEST_XDIST_WORKER" in os.environ and "COMPANION_TESTS_TMP" in os.environ
if _WORKER:
    _RUN_TMP = Path(os.environ["COMPANION_TESTS_TMP"])
else:
    _RUN_TMP = Path(tempfile.mkdtemp(prefix="companion-tests-"))
    _RUN_TMP.chmod(0o755)
    os.environ["COMPANION_TESTS_TMP"] = str(_RUN_TMP)
os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())  # pytest's own tmp_path stays put
os.environ["TMPDIR"] = str(_RUN_TMP)
tempfile.tempdir = None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A broker's private folder left behind fails the run (each test's broker is stopped and its folder
    removed, issue 32); then the run's temporary directory goes, leftovers and all. A pytest-xdist worker
    leaves both to its controller, whose session ends after every worker's."""
    if _WORKER:
        return
    left = sorted(p.name for p in _RUN_TMP.glob("companion-*"))
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        line = f"tests left {len(left)} broker folder(s) behind in {_RUN_TMP}: {', '.join(left[:10])}"
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(line, red=True)
        else:
            print(line, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    shutil.rmtree(_RUN_TMP, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_phone_left_open() -> Iterator[None]:
    """A test MQTT phone (tests/kits/phones_kit.py) still open when its test ends is closed: left open, its
    thread and sockets stay for the rest of the run (see `close_phones`)."""
    yield
    kit = sys.modules.get("tests.kits.phones_kit")
    if kit is not None:
        kit.close_phones()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, driven by Playwright, for one test module's phone pages."""
    from playwright.sync_api import sync_playwright

    from tests.kits.phone_page_kit import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
