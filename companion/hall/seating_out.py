"""Seating the next round (docs/hall.md): groups by rating, each sent to its table's `hall/seating`.

The game's player count comes from its contract (`Game.min_players` / `max_players`, the games found
as `companion games` finds them); the ratings and the opponents met so far from the results the hall
stored; the grouping from the league (`league.seating.seat`). The seating is saved in the store, then
published retained at QoS 1 to each chosen table, so a table that is offline gets it on reconnection
(its bridge subscribes again); each seating has its own key, which a table applies once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.core.contract import Game
from companion.core.identity import SEAT_ID, SEAT_ID_MAX, seat_name
from companion.games import registry
from companion.hall import protocol
from companion.hall.hooks import League, Store
from companion.hall.league import rounds

Publish = Callable[[str, bytes], Any]  # (topic, payload): retained, QoS 1


class SeatingError(ValueError):
    """A seating that cannot be made; `code` is a message id (companion/locale), `params` its params."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.params}


def opponents_met(results: Sequence[Mapping[str, Any]]) -> set[frozenset[str]]:
    """Every pair of players who have played one game together (a stopped game counts: they met)."""
    met: set[frozenset[str]] = set()
    for result in results:
        ids = sorted(p["id"] for p in result["players"])
        met.update(frozenset(pair) for pair in combinations(ids, 2))
    return met


class Seater:
    def __init__(self, store: Store, league: League, publish: Publish, prefix: str,
                 games: Mapping[str, Game] | None = None, draw_seed: str | None = None) -> None:
        """`draw_seed`: byes and seat orders drawn from it (with the number of seatings before) instead
        of from each seating's random key: the same night gives the same draws (docs/hall.md, "Draws")."""
        self.store, self.league, self.publish, self.prefix = store, league, publish, prefix
        self.draw_seed = draw_seed
        self.games = registry() if games is None else games

    def send_seating(self, game: str, present_player_ids: Sequence[str], tables: Sequence[str],
                     options: Mapping[str, Any] | None = None, *, pods: tuple[int, int] | None = None,
                     byes: bool = False, minutes: int | None = None, now_ms: int = 0,
                     scored: Sequence[Mapping[str, Any]] | None = None, round_no: int | None = None,
                     results: Sequence[Mapping[str, Any]] | None = None,
                     table_games: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Open the next round: seat the players present at `game` on `tables` (in that order) in pods of
        `pods` players (the game's own count if None), save and publish the seating. With `byes` the
        players the tables cannot hold sit the round out (league/rounds.py `byes`), else that is refused.
        `minutes`: the round's time (the hall screen's clock from `now_ms`); `scored`: the results the
        league scores (ratings are read from those; all results if None). Returns the seating as saved:
        {"seating", "round", "game", "games": {table: game}, "options", "tables": {table: [{"id","name"}]},
        "byes", "minutes", "opened_ms", "pods"}; seat order within a pod is drawn from the seating's key.
        `round_no`: re-seat within that round (the last one opened) instead of opening the next;
        `results`: every result as corrected (who met whom; the store's if None). `table_games`: a table's
        game when it is not `game` (a round offering more than one game); the pods then fit every game
        played (the seating's `games` names each seated table's game)."""
        if game not in self.games:
            raise SeatingError("hall.seating.unknown_game", game=game[:40], games=list(self.games))
        names = {p["id"]: p["name"] for p in self.store.players()}
        unknown = [pid for pid in present_player_ids if pid not in names]
        if unknown:
            raise SeatingError("hall.seating.unknown_player", ids=unknown[:10])
        too_long = [names[pid] for pid in present_player_ids if not SEAT_ID.fullmatch(pid)]
        if too_long:  # an id from a league file made before ids fitted a table (companion/core/identity.py)
            raise SeatingError("hall.seating.id_too_long", names=too_long[:10], most=SEAT_ID_MAX)
        known_tables = self.store.table_passwords()
        strange = [t for t in tables if t not in known_tables]
        if strange:
            raise SeatingError("hall.seating.unknown_table", tables=strange[:10])
        other = {t: g for t, g in (table_games or {}).items() if t in tables and g != game}
        strange_game = next((g for g in other.values() if g not in self.games), None)
        if strange_game is not None:
            raise SeatingError("hall.seating.unknown_game", game=strange_game[:40], games=list(self.games))
        played = [self.games[g] for g in dict.fromkeys([game, *other.values()])]
        game_low = max(c.min_players for c in played)
        game_high = min(c.max_players for c in played)
        low, high = pods or (game_low, game_high)
        if not game_low <= low <= high <= game_high:
            raise SeatingError("hall.seating.bad_pods", low=low, high=high, game_low=game_low, game_high=game_high)
        if minutes is not None and not 1 <= minutes <= 600:
            raise SeatingError("hall.seating.bad_minutes", minutes=minutes)
        present = list(dict.fromkeys(present_player_ids))
        if len(present) < low:
            raise SeatingError("hall.seating.too_few_players", count=len(present), low=low)
        results = [dict(r) for r in results] if results is not None else self.store.results()
        counted = results if scored is None else [dict(r) for r in scored]
        ratings = self.league.rate(counted, list(names))
        key = secrets.token_hex(8)
        sizes = rounds.seatable(len(present), len(tables), low, high)
        if sum(sizes) < len(present) and not byes:
            raise SeatingError("hall.seating.too_few_tables", groups=-(-len(present) // high), tables=len(tables))
        seatings = self.store.seatings()
        draw = key if self.draw_seed is None else f"{self.draw_seed}:{len(seatings)}"
        points = {pid: float(ratings[pid].ordinal) if pid in ratings else 0.0 for pid in present}
        out = set(rounds.byes(present, len(present) - sum(sizes), rounds.byes_taken(seatings), points, draw))
        playing = [pid for pid in present if pid not in out]
        players = [(pid, points[pid]) for pid in playing]
        groups = self.league.seat(players, low, high, opponents_met(results)) if playing else []
        if len(groups) > len(tables):
            raise SeatingError("hall.seating.too_few_tables", groups=len(groups), tables=len(tables))
        last = self.store.last_seating()
        if round_no is not None and (last is None or round_no != last["round"]):
            raise SeatingError("hall.seating.not_this_round", round=round_no)
        round_no, chosen = round_no or ((last["round"] + 1) if last else 1), dict(options or {})
        seated = {t: [{"id": pid, "name": seat_name(names[pid])} for pid in rounds.seat_order(group, draw)]
                  for t, group in zip(tables, groups, strict=False)}
        games = {t: other.get(t, game) for t in seated}
        seating = {"seating": key, "round": round_no, "game": game, "games": games, "options": chosen, "tables": seated,
                   "byes": [{"id": pid, "name": names[pid]} for pid in present if pid in out],
                   "minutes": minutes, "opened_ms": now_ms, "pods": [low, high]}
        self.store.save_seating(seating)
        for table, chairs in seated.items():
            self.publish(protocol.seating_topic(self.prefix, table), protocol.seating_payload(
                seating=key, round_no=round_no, game=games[table], options=chosen, players=chairs))
        return seating
