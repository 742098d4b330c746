"""The codec runs unchanged under real MicroPython (its WebAssembly port, run by Node): the same file
the board gets passes the same shared vectors. tests/run.sh installs Node and the npm package."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
