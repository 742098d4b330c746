"""Ready-made choices for the host's forms: role deals (Werewolf, Avalon) and names for new things.

The referee keeps ids (``werewolf``, ``day``); the words a person reads are the toolkit's catalog
entries (``toolkit.role.<id>``, ``timer.toolkit.<id>``, ``toolkit.name.<id>``) in every language.
"""

from __future__ import annotations

from collections import Counter

from companion import i18n

#: Names offered for a new thing (the host's phone may also type one).
TIMER_NAMES = ("day", "night", "discussion")
BALLOT_NAMES = ("exile", "vote")
ROLE_BALLOT_NAMES = ("night", *BALLOT_NAMES)  # a vote of one role: the werewolves' night vote first
COUNTER_NAMES = ("hp", "coins", "score")
DEAL_NAMES = ("roles",)
#: Every role a preset deals, in the order a deal lists them.
ROLES = ("werewolf", "seer", "doctor", "villager", "merlin", "assassin", "loyal", "minion")
#: Avalon's official split by table size: (good, evil).
AVALON = {5: (3, 2), 6: (4, 2), 7: (4, 3), 8: (5, 3), 9: (6, 3), 10: (6, 4)}


def werewolf(n: int) -> list[str] | None:
    """A Werewolf deal for `n` seated players: about one werewolf in four, a seer, a doctor from 7."""
    if n < 3:
        return None
    wolves = max(1, (n + 2) // 4)
    special = ["seer"] + (["doctor"] if n >= 7 else [])
    return ["werewolf"] * wolves + special + ["villager"] * (n - wolves - len(special))


def avalon(n: int) -> list[str] | None:
    """Avalon's deal for `n` (5 to 10) players: Merlin and loyal servants, the Assassin and minions."""
    if n not in AVALON:
        return None
    good, evil = AVALON[n]
    return ["merlin"] + ["loyal"] * (good - 1) + ["assassin"] + ["minion"] * (evil - 1)


DEALS = {"werewolf": werewolf, "avalon": avalon}


def role_words(role: str) -> dict[str, str] | str:
    """A role as every language reads it (a param the screens show in their language), or as typed."""
    if role not in ROLES:
        return role
    return {lang: i18n.translate(lang, f"toolkit.role.{role}") for lang in i18n.LANGUAGES}


def deal_words(roles: list[str]) -> dict[str, str]:
    """A deal's roles counted, in every language: "Werewolf ×1, Seer ×1, Villager ×3"."""
    counts = Counter(roles)
    return {lang: ", ".join(f"{i18n.translate(lang, f'toolkit.role.{r}')} ×{counts[r]}"
                            for r in ROLES if counts[r]) for lang in i18n.LANGUAGES}
