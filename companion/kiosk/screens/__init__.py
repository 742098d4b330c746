"""The kiosk's screens, one per module, and how messages from the table move between them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from companion import i18n
from companion.kiosk import feed as msgs
from companion.kiosk.screens.attract import AttractScreen
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.booth import BoothScreen
from companion.kiosk.screens.enroll import EnrollScreen
from companion.kiosk.screens.host_forms import HostFormsScreen
from companion.kiosk.screens.play import PlayScreen
from companion.kiosk.screens.reveal import RevealScreen
from companion.kiosk.screens.seating import SeatingScreen
from companion.kiosk.screens.setup import SetupScreen
from companion.kiosk.screens.story import StoryScreen
from companion.naming import Namer
from companion.taps.sink import PUBLIC_REFUSALS

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

logger = logging.getLogger(__name__)


def started(public: dict[str, object]) -> bool:
    """Whether the game has begun: the referee accepted an input (even a secret one that announced
    nothing, such as Lockdown's setup), or corrected one. What a game's setup announces by itself
    (Jailbreak's, Escape the Lab's opening lines) is not a start. From then on the demo
    never stands in for it."""
    return bool(public.get("begun")) or bool(public.get("corrections"))


def first_screen(k: Kiosk) -> Screen:
    if k.public.get("ended"):
        return RevealScreen(k)
    if k.settings.attract and not started(k.public):
        return AttractScreen(k)
    return PlayScreen(k)


def on_message(k: Kiosk, message: msgs.Message) -> None:
    if isinstance(message, msgs.PublicView):
        number = k.public.get("number")
        was_ended = bool(k.public.get("ended"))
        k.public = message.view
        k.last_touch_ms = k.now_ms()  # news of the game: the table is not idle (screens/attract.py)
        if "options" in message.view:  # the game's own options (NEWGAME_IFACE.md), not the start-up ones
            k.settings.options = dict(message.view["options"])
        if number is not None and message.view.get("number") not in (None, number):
            new_game(k)
            return
        if isinstance(k.stack[0], AttractScreen | SetupScreen) and started(message.view):
            k.stack[0] = PlayScreen(k)  # someone played (a token, a phone): the demo and setup give way
        if message.view.get("ended") and not any(isinstance(s, RevealScreen) for s in k.stack):
            k.stack[0] = RevealScreen(k)
        elif was_ended and not message.view.get("ended"):
            game_goes_on(k)
        for screen in k.stack:
            screen.on_public()
    elif isinstance(message, msgs.PlayerView):
        booth = next((s for s in k.stack if isinstance(s, BoothScreen)), None)
        if message.opened:
            if booth is not None:
                k.stack.remove(booth)
                booth.forget()
            k.push(BoothScreen(k, message.player, message.view))
        elif booth is not None and booth.player == message.player:
            booth.show(message.view)
    elif isinstance(message, msgs.BoothClosed):
        for screen in [s for s in k.stack if isinstance(s, BoothScreen) and s.player == message.player]:
            k.stack.remove(screen)
            screen.forget()
    elif isinstance(message, msgs.FigureTapped):
        seating = next((s for s in k.stack if isinstance(s, SeatingScreen)), None)
        if seating is not None:
            seating.figure(message.player, message.name)
    elif isinstance(message, msgs.Notice):
        k.say(message.msgid, **message.params)
    elif isinstance(message, msgs.HostPinSet):  # from the host's phone page: the lock from now on
        k.settings.host_lock.use(message.pin)
        k.say("kiosk.notice.host_pin_set")
    elif isinstance(message, msgs.UnknownTag):
        unknown_tag(k, message)
    elif isinstance(message, msgs.TokenRefused):
        token_refused(k, message)
    elif isinstance(message, msgs.Reply):
        if message.by != "host":  # a player's answer is shown in that player's booth only
            for screen in k.stack:
                if isinstance(screen, BoothScreen):
                    screen.replied(message)
            return
        for screen in k.stack:  # the receipt on the host's forms
            if isinstance(screen, HostFormsScreen):
                screen.replied(message)
        if message.outcome.accepted:
            if k.notice_msgid != "kiosk.notice.end_undone":  # the view's own words say more than "Done"
                k.say("kiosk.notice.done")
        else:
            assert message.outcome.reason is not None
            k.say("kiosk.notice.refused", reason=Namer.of(k.public).describe(k.lang, message.outcome.reason.to_json()))


def game_goes_on(k: Kiosk) -> None:
    """The host's Undo took the end back (issue 28): the reveal (and its story) give way to play, and
    everyone is told."""
    rest = [s for s in k.stack if not isinstance(s, RevealScreen | StoryScreen)]
    if not rest or not isinstance(rest[0], PlayScreen):
        rest.insert(0, PlayScreen(k))
    k.stack[:] = rest
    k.say("kiosk.notice.end_undone")


def new_game(k: Kiosk) -> None:
    """A new game began on this table (the public view's "number" changed): its setup screen, with its
    seats' QR codes and Start, in place of everything the last game had up (booths, flow, reveal)."""
    for screen in k.stack:
        if isinstance(screen, BoothScreen):
            screen.forget()
    if k.feed is not None:
        k.feed.seating(False)
    k.stack[:] = [SetupScreen(k)]
    k.settings.host_lock.seated({str(p.get("id")): str(p.get("name")) for p in k.public.get("players", [])})
    k.say("kiosk.newgame.begun", game=i18n.translate(k.lang, f"game.{k.public.get('game')}.title"))


def unknown_tag(k: Kiosk, message: msgs.UnknownTag) -> None:
    """A prompt to enroll it, never an error: the enroll screen (or the one up takes it), else a notice."""
    if not message.choices:  # no registry lent to the kiosk (no readers running): say how, in words; the
        # tag's UID only in the log, for whoever wires the readers (the status bar has no detail line)
        logger.info("kiosk: tag %s on reader %s is not enrolled (no token registry to enroll it into)",
                    message.uid, message.reader)
        k.say("kiosk.notice.unknown_tag")
        return
    up = next((s for s in k.stack if isinstance(s, EnrollScreen)), None)
    if up is not None:
        up.new_tag(message)
        if k.top is not up:
            k.stack.remove(up)
            k.push(up)
    else:
        k.push(EnrollScreen(k, message))


def token_refused(k: Kiosk, message: msgs.TokenRefused) -> None:
    """Why a token was refused, in the booth it acted for only: a reason may tell that player's secrets
    (a secret move refused, `on_token` reading their hand). The public screen says "not now" and no
    reason, except the two that depend on the box alone (another game's token, an absent player's figure)."""
    booth = next((s for s in k.stack if isinstance(s, BoothScreen) and s.player == message.player), None)
    if message.player is not None and booth is not None:
        booth.refused(message.label, message.reason)
    elif message.reason.code in PUBLIC_REFUSALS:
        reason = Namer.of(k.public).describe(k.lang, message.reason.to_json())
        k.say("kiosk.notice.token_refused", token=message.label, reason=reason)
    else:
        k.say("kiosk.notice.token_not_now", token=message.label)
