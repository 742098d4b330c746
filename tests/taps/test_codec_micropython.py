"""The codec runs unchanged under real MicroPython (its WebAssembly port, run by Node): the same file
the board gets passes the same shared vectors. tests/run.sh installs Node and the npm package."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "firmware_protocol" / "micropython_check"

MAIN = """
import json
import codec
import check_vectors
failures = check_vectors.check(codec, json.load(open("vectors.json")))
for f in failures:
    print("FAIL", f)
d = codec.Decoder(True)
tap = codec.Message(codec.TAG_PLACED, 1, reader=0, tag_type=1, uid=b"\\x01\\x02\\x03\\x04")
out = d.feed(b"noise\\x00" + codec.encode(tap))
print("decoded", len(out), "dropped", d.dropped)
assert not failures and len(out) == 1 and d.dropped == 1
print("ALL OK")
"""


def run_micropython(files: list[Path], main: str, tmp_path: Path) -> str:
    assert shutil.which("node"), "node is missing: tests/run.sh installs it (Debian package nodejs)"
    assert (CHECK / "node_modules").is_dir(), "run `npm ci` in firmware_protocol/micropython_check (tests/run.sh does)"
    for f in files:
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "main.py").write_text(main)
    proc = subprocess.run(
        ["node", str(CHECK / "run.mjs"), str(tmp_path), "main.py"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_codec_passes_the_vectors_under_micropython(tmp_path: Path) -> None:
    fp = ROOT / "firmware_protocol"
    out = run_micropython([fp / "codec.py", fp / "check_vectors.py", fp / "vectors.json"], MAIN, tmp_path)
    assert out.startswith("micropython")
    assert "ALL OK" in out


FIRMWARE_MAIN = """
import codec
from board import Board
from mfrc522 import MFRC522
from scanner import Firmware
from fake_mfrc522 import FakeCard, FakeChip, FakeSPI

spi = FakeSPI()
chips = [FakeChip() for _ in range(3)]
out = bytearray()
board = Board(3, b"\\xe6\\x60\\x58\\x38\\x83\\x43\\x7a\\x2f", out.extend)
fw = Firmware([MFRC522(spi, spi.attach(c)) for c in chips], board)
fw.setup(0)
board.boot(0)
chips[0].place(FakeCard(bytes.fromhex("DEADBEEF")))
chips[1].place(FakeCard(bytes.fromhex("04A1B2C3D4E5F6"), 0x00))
chips[2].place(FakeCard(bytes.fromhex("11223344556677889900"), 0x20))
host = codec.Decoder(True)
seen = []
for now in range(5, 200, 5):
    fw.step(now)
    data = bytes(out)
    out[:] = b""
    for m in host.feed(data):
        if m.kind in codec.NEEDS_ACK:
            board.received(codec.encode(codec.Message(codec.HOST_ACK, 0, acked=m.seq)))
        if m.kind == codec.TAG_PLACED:
            seen.append((m.reader, codec.hexlify(m.uid), codec.TAG_TYPES[m.tag_type]))
print(seen)
assert seen == [(0, "DEADBEEF", "mifare_classic"), (1, "04A1B2C3D4E5F6", "ultralight"),
                (2, "11223344556677889900", "iso14443_4")], seen
print("FIRMWARE OK")
"""


def test_firmware_reads_cards_under_micropython(tmp_path: Path) -> None:
    """board.py, scanner.py and mfrc522.py as copied to the Pico, on the simulated SPI bus."""
    fp = ROOT / "firmware_protocol"
    files = [fp / "codec.py", *(fp / "firmware" / n for n in ("board.py", "scanner.py", "mfrc522.py"))]
    out = run_micropython([*files, ROOT / "tests" / "kits" / "fake_mfrc522.py"], FIRMWARE_MAIN, tmp_path)
    assert "FIRMWARE OK" in out


def test_firmware_main_compiles_under_micropython(tmp_path: Path) -> None:
    """main.py needs the Pico's `machine` module to run, but MicroPython's own compiler must accept it."""
    shutil.copy(ROOT / "firmware_protocol" / "firmware" / "main.py", tmp_path / "firmware_main.py")
    out = run_micropython(
        [], 'compile(open("firmware_main.py").read(), "main.py", "exec")\nprint("COMPILED")\n', tmp_path
    )
    assert "COMPILED" in out
