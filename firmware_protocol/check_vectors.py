"""Check a codec against vectors.json; runs unchanged on CPython and MicroPython.

``check(codec, vectors)`` returns a list of failure strings (empty when the codec agrees with every
vector). tests/test_codec.py runs it on CPython, tests/test_codec_micropython.py under MicroPython,
and the board can run it too (``import check_vectors`` after copying the files) as a self-test.
"""


def check(codec, vectors: dict) -> list:  # type: ignore[no-untyped-def]
    failures = []
    for v in vectors["crc32"]:
        data = bytes.fromhex(v["data"])
        for name, fn in (("crc32", codec.crc32), ("crc32_table", codec.crc32_table)):
            got = f"{fn(data):08X}"
            if got != v["crc"]:
                failures.append("{}({}) = {}, want {}".format(name, v["data"], got, v["crc"]))
    for v in vectors["cobs"]:
        raw = bytes.fromhex(v["raw"])
        enc = bytes.fromhex(v["encoded"])
        if codec.cobs_encode(raw) != enc:
            failures.append("cobs_encode({}) = {}".format(v["raw"], codec.hexlify(codec.cobs_encode(raw))))
        if codec.cobs_decode(enc) != raw:
            failures.append("cobs_decode({}) wrong".format(v["encoded"]))
    for v in vectors["valid"]:
        msg = codec.message_from_fields(v["message"])
        frame = bytes.fromhex(v["frame"])
        got = codec.hexlify(codec.encode(msg))
        if got != v["frame"]:
            failures.append("encode {}: {}, want {}".format(v["name"], got, v["frame"]))
        decoder = codec.Decoder(v["from_board"])
        out = decoder.feed(frame)
        if len(out) != 1 or out[0].fields() != v["message"]:
            failures.append("decode {}: {!r}".format(v["name"], out))
    for v in vectors["invalid"]:
        decoder = codec.Decoder(v["from_board"])
        out = decoder.feed(bytes.fromhex(v["frame"]))
        if out or decoder.dropped != 1 or decoder.reasons.get(v["reason"]) != 1:
            failures.append("invalid {}: got {!r}, reasons {!r}".format(v["name"], out, decoder.reasons))
    return failures
