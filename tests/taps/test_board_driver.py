"""The reader board end to end over a real pty: emulator (the firmware's protocol engine) -> pty ->
SerialLink -> BoardSession -> device events. What a player at the table would notice: a tap is one
event, a tag left lying is one event, a wobble is no event, noise is never a tap, and pulling the
cable shows "missing" and comes back without phantom or lost taps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hardware.events import ButtonEdge, ReaderStatus, TagPlaced, TagRemoved
from tests.kits.board_harness import Rig, TagEvent


def count(n: int) -> Callable[[list[TagEvent]], bool]:
    return lambda got: len(got) >= n


def test_hello_reports_ok_with_the_board_id_and_reader_count(tmp_path: Path) -> None:
    with Rig(tmp_path, readers=3) as rig:
        ok = rig.statuses[-1]
        assert ok.reader == "board0" and ok.state == "ok"
        assert "E66058388343 7A2F".replace(" ", "") in ok.detail and "3 reader" in ok.detail


def test_a_tap_is_one_placed_and_one_removed(tmp_path: Path) -> None:
    with Rig(tmp_path) as rig:
        rig.emu.tap(2, "04a1b2c3d4e5f6", "ntag")
        got = rig.tag_events_until(count(2))
        assert got == [
            TagPlaced("board0", 2, "04A1B2C3D4E5F6", "ntag"),
            TagRemoved("board0", 2, "04A1B2C3D4E5F6"),
        ]


def test_a_tag_left_lying_is_one_event_across_heartbeats_and_hellos(tmp_path: Path) -> None:
    with Rig(tmp_path, readers=2) as rig:
        rig.emu.place(0, "DEADBEEF")
        rig.emu.place(0, "DEADBEEF")  # the board scans it again and again
        assert rig.tag_events_until(count(1)) == [TagPlaced("board0", 0, "DEADBEEF", "mifare_classic")]
        # the host asks for HELLO again (as after a reconnect): the board re-announces the tag
        assert rig.driver.session is not None
        rig.driver.session._ask_hello(0.0)
        rig.wait_status("ok")
        assert rig.tag_events_until(count(0)) == []  # the marker comes after the re-announcement


def test_a_wobble_within_the_repeat_window_is_no_event(tmp_path: Path) -> None:
    with Rig(tmp_path, repeat_window=30.0) as rig:
        rig.emu.place(1, "CAFEF00D")
        assert rig.tag_events_until(count(1)) == [TagPlaced("board0", 1, "CAFEF00D", "mifare_classic")]
        rig.emu.remove(1)
        rig.emu.place(1, "CAFEF00D")
        assert rig.tag_events_until(count(0)) == []
        # another tag on that reader ends the first placement at once, window or not
        rig.emu.remove(1)
        rig.emu.place(1, "0BADCAFE")
        assert rig.tag_events_until(count(2)) == [
            TagRemoved("board0", 1, "CAFEF00D"),
            TagPlaced("board0", 1, "0BADCAFE", "mifare_classic"),
        ]


def test_the_same_tag_after_the_window_is_a_new_tap(tmp_path: Path) -> None:
    with Rig(tmp_path, repeat_window=0.0) as rig:
        for _ in range(3):
            rig.emu.tap(0, "11223344")
        got = rig.tag_events_until(count(6))
        assert got == [TagPlaced("board0", 0, "11223344", "mifare_classic"), TagRemoved("board0", 0, "11223344")] * 3


def test_buttons_and_led_commands(tmp_path: Path) -> None:
    with Rig(tmp_path) as rig:
        rig.emu.press(3)
        rig.emu.release(3)
        press = rig.next(lambda e: isinstance(e, ButtonEdge), "press")
        release = rig.next(lambda e: isinstance(e, ButtonEdge), "release")
        assert (press, release) == (ButtonEdge("board0", "3", True), ButtonEdge("board0", "3", False))
        assert rig.driver.led(1, (0, 255, 0), ms=500)
        assert rig.driver.buzz(880, 120)
        # The commands are fire-and-forget: the board reads them on its own thread. Each marker press is a
        # full round trip through the board, so within a few of them it has read what was sent before.
        wanted = {("led", (1, 0, 255, 0, 500)), ("buzzer", (880, 120))}
        for round_trip in range(20):
            if wanted <= set(rig.emu.commands):
                break
            pressed = round_trip % 2 == 0
            (rig.emu.press if pressed else rig.emu.release)(0)
            rig.next(lambda e, p=pressed: isinstance(e, ButtonEdge) and e.button == "0" and e.pressed == p, "marker")
        assert wanted <= set(rig.emu.commands)


def test_noise_is_dropped_counted_and_never_a_tap(tmp_path: Path) -> None:
    with Rig(tmp_path) as rig:
        for i in range(1, 21):
            rig.emu.noise()
            status = rig.next(lambda e, i=i: isinstance(e, ReaderStatus) and e.frames_dropped == i, f"{i} dropped")
            assert isinstance(status, ReaderStatus)
        assert status.frames_dropped == 20 and status.state == "ok"
        assert "dropped frames" in status.detail
        assert rig.tag_events_until(count(0)) == []
        assert not any(isinstance(e, TagPlaced | TagRemoved) for e in rig.seen)


def test_bytes_lost_in_a_tap_frame_are_resent_and_the_tap_arrives_once(tmp_path: Path) -> None:
    """A glitch eats part of the TAG_PLACED frame: the host drops it (counted), gives no ack, the
    board resends, and the tap arrives exactly once."""
    with Rig(tmp_path) as rig:
        rig.emu.drop_next(3)
        rig.emu.place(0, "A1A2A3A4")
        got = rig.tag_events_until(count(1))
        assert got == [TagPlaced("board0", 0, "A1A2A3A4", "mifare_classic")]
        assert rig.statuses[-1].frames_dropped >= 1


def test_unplug_is_missing_at_once_then_searching_then_ok_again(tmp_path: Path) -> None:
    with Rig(tmp_path) as rig:
        rig.emu.unplug()
        assert rig.wait_status("missing").reader == "board0"
        rig.wait_status("searching")
        rig.emu.plug()
        rig.wait_status("ok")
        rig.emu.tap(0, "01020304")
        assert [type(e) for e in rig.tag_events_until(count(2))] == [TagPlaced, TagRemoved]


def test_fifty_unplugs_reconnect_every_time_with_no_phantom_or_lost_tap(tmp_path: Path) -> None:
    """Each session: a tag lies on reader 0 across the unplug; on even rounds it is lifted while the
    cable is out (the next HELLO's mask ends it), on odd rounds it stays (no new tap on replug).
    After each replug a fresh tap on reader 1 must arrive exactly once."""
    with Rig(tmp_path, readers=2) as rig:
        rig.emu.place(0, "00000000")
        assert rig.tag_events_until(count(1)) == [TagPlaced("board0", 0, "00000000", "mifare_classic")]
        lying = "00000000"
        for round_ in range(50):
            rig.emu.unplug()
            rig.wait_status("missing")
            expected: list[TagEvent] = []
            if round_ % 2 == 0:
                rig.emu.remove(0)
                expected.append(TagRemoved("board0", 0, lying))
            rig.emu.plug()
            rig.wait_status("ok")
            tap = f"{round_ + 1:08X}"
            rig.emu.tap(1, tap)
            expected += [TagPlaced("board0", 1, tap, "mifare_classic"), TagRemoved("board0", 1, tap)]
            if round_ % 2 == 0:
                lying = f"AA{round_:06X}"
                rig.emu.place(0, lying)
                expected.append(TagPlaced("board0", 0, lying, "mifare_classic"))
            got = rig.tag_events_until(count(len(expected)))
            assert sorted(got, key=repr) == sorted(expected, key=repr), f"round {round_}"
            # per reader, the order is as it happened
            for slot in (0, 1):
                assert [e for e in got if e.slot == slot] == [e for e in expected if e.slot == slot]
        assert rig.driver.link is not None and rig.driver.link.sessions == 51
        assert rig.emu.boots == 51


def test_a_board_with_another_protocol_version_is_an_error_not_a_reader(tmp_path: Path) -> None:
    from firmware_protocol import codec

    with Rig(tmp_path) as rig:
        hello = codec.Message(codec.HELLO, 9, proto=2, fw_major=9, fw_minor=0, readers=4, mask=0, board_id=b"\1" * 8)
        rig.emu.plug_.write(codec.encode(hello))
        status = rig.wait_status("error")
        assert "protocol v2" in status.detail
        rig.emu.tap(0, "01020304")  # a board we cannot understand taps nothing
        rig.emu.unplug()  # a v1 board is plugged in instead
        rig.wait_status("missing")
        rig.emu.table = [None] * 4
        rig.emu.plug()
        rig.wait_status("ok")
        assert rig.tag_events_until(count(0)) == []


def test_a_frozen_board_is_an_error_until_its_heartbeat_returns(tmp_path: Path) -> None:
    with Rig(tmp_path, heartbeat_ms=50, heartbeat_timeout=0.4) as rig:
        rig.emu.hang()
        assert "no heartbeat" in rig.wait_status("error").detail
        rig.emu.hang(False)
        rig.wait_status("ok")
        rig.emu.tap(0, "01020304")
        assert [type(e) for e in rig.tag_events_until(count(2))] == [TagPlaced, TagRemoved]


def test_a_reader_module_that_stops_answering_is_reported(tmp_path: Path) -> None:
    with Rig(tmp_path) as rig:
        rig.emu.fault(2)
        assert "[2]" in rig.wait_status("error").detail
        rig.emu.fault(2, ok=True)
        rig.wait_status("ok")
