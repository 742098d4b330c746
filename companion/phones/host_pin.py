"""The kiosk's host PIN, set or changed from the host's phone page (issue 28, item 4; docs/phones.md).

The host's page sends, on the host's own command topic,

    {"id": "k3x-7", "move": "kiosk.host_pin", "args": {"pin": "2468", "again": "2468"}}

and the mirror hands it here (`Mirror.set_host_pin`), never to the game's referee: a PIN is no game
input, so it is in no event log, no view and no public topic. Only the host's seat may set it; the PIN is
4 to 8 digits, typed twice the same. It is hashed here at once (`companion.kiosk.host_lock.Pin`) and the
hash is what travels to the kiosk; the reply says only accepted, or why not in words. Nothing of the
payload is logged (a refusal's params never carry the digits).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core.referee import Outcome
from companion.core.rejection import Rejected
from companion.kiosk.host_lock import PIN_MAX, PIN_MIN, Pin, valid
from companion.phones import intake
from companion.phones.topics import Seat

HOST_PIN = "kiosk.host_pin"

#: Sets the kiosk's host lock to a PIN (the kiosk's feed, on any thread); None: the table has no kiosk.
SetPin = Callable[[Pin], None]


def chosen(args: dict[str, Any]) -> str | Rejected:
    """The PIN the host typed twice, or why it is refused (in words; never echoing what was typed)."""
    pin, again = args.get("pin"), args.get("again")
    if set(args) != {"pin", "again"} or not isinstance(pin, str) or not isinstance(again, str):
        return Rejected("reject.host_pin_digits", low=PIN_MIN, high=PIN_MAX)
    if not valid(pin):
        return Rejected("reject.host_pin_digits", low=PIN_MIN, high=PIN_MAX)
    if pin != again:
        return Rejected("reject.host_pin_mismatch")
    return pin


def command(seat: Seat, payload: bytes, set_pin: SetPin | None) -> Outcome | None:
    """The outcome of a `kiosk.host_pin` command from `seat`; None for any other command (the referee's).
    From any seat but the host's it is refused here too, so no PIN ever reaches the referee's log."""
    if HOST_PIN.encode() not in payload:
        return None
    raw = intake.decode(payload, seat.actor or "join")
    if isinstance(raw, Rejected) or raw["move"] != HOST_PIN:
        return None  # the referee's own refusal, or a game move that merely mentions the words
    if seat.kind != "host":
        return Outcome(accepted=False, reason=Rejected("reject.host_pin_host_only"))
    pin = chosen(raw["args"])
    if isinstance(pin, Rejected):
        return Outcome(accepted=False, reason=pin)
    if set_pin is None:
        return Outcome(accepted=False, reason=Rejected("reject.host_pin_no_kiosk"))
    set_pin(Pin.of(pin))
    return Outcome(accepted=True)
