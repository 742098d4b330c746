"""The kiosk's screens, one per module, and how messages from the table move between them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import i18n
from companion.kiosk import feed as msgs
from companion.kiosk.screens.attract import AttractScreen
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.booth import BoothScreen
from companion.kiosk.screens.play import PlayScreen
from companion.kiosk.screens.reveal import RevealScreen
from companion.kiosk.screens.setup import SetupScreen

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


def started(public: dict[str, object]) -> bool:
    """Whether anything happened in the game yet (an announcement or a correction)."""
    return bool(public.get("announced")) or bool(public.get("corrections"))


def first_screen(k: Kiosk) -> Screen:
    if k.public.get("ended"):
        return RevealScreen(k)
    if k.settings.attract and not started(k.public):
        return AttractScreen(k)
    return PlayScreen(k)


def on_message(k: Kiosk, message: msgs.Message) -> None:
    if isinstance(message, msgs.PublicView):
        k.public = message.view
        if isinstance(k.stack[0], AttractScreen | SetupScreen) and started(message.view):
            k.stack[0] = PlayScreen(k)  # someone played (a token, a phone): the demo and setup give way
        if message.view.get("ended") and not any(isinstance(s, RevealScreen) for s in k.stack):
            k.stack[0] = RevealScreen(k)
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
            booth.view = message.view
    elif isinstance(message, msgs.BoothClosed):
        for screen in [s for s in k.stack if isinstance(s, BoothScreen) and s.player == message.player]:
            k.stack.remove(screen)
            screen.forget()
    elif isinstance(message, msgs.UnknownTag):
        k.say("kiosk.notice.unknown_tag", uid=message.uid[-8:])
    elif isinstance(message, msgs.TokenRefused):
        reason = i18n.describe(k.lang, message.reason.to_json())
        k.say("kiosk.notice.token_refused", token=message.label, reason=reason)
    elif isinstance(message, msgs.Reply):
        if message.by != "host":  # a player's answer is shown in that player's booth only
            for screen in k.stack:
                if isinstance(screen, BoothScreen):
                    screen.replied(message)
        elif message.outcome.accepted:
            k.say("kiosk.notice.done")
        else:
            assert message.outcome.reason is not None
            k.say("kiosk.notice.refused", reason=i18n.describe(k.lang, message.outcome.reason.to_json()))
