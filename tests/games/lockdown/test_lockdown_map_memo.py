"""The map's links and the path picker are kept per map content (issue 20): a copy of the state gets the
same answers, another map (even under the same name) its own, and the kept answers equal fresh ones."""

from __future__ import annotations

import copy
import pickle

from companion.games.lockdown import data, forms, mapgraph, movement


def _state(m: dict) -> dict:
    return {"map": m}


def test_a_copy_of_the_state_finds_the_same_graph_and_another_map_its_own() -> None:
    m = data.compact(data.load_map(None))
    state = _state(m)
    again = pickle.loads(pickle.dumps(state))
    assert mapgraph.graph(again) is mapgraph.graph(state)
    a, b = m["doors"][0]
    other = copy.deepcopy(m)
    other["doors"] = other["doors"][1:]  # the same name, one door fewer
    assert b in mapgraph.links(state, a)
    assert b not in mapgraph.links(_state(other), a) or [a, b] in other["stairs"] + other["bridges"]
    assert mapgraph.graph(_state(other)) is not mapgraph.graph(state)


def test_a_caller_changing_an_answer_changes_nothing_kept() -> None:
    state = _state(data.compact(data.load_map(None)))
    room = next(iter(mapgraph.rooms(state)))
    mapgraph.links(state, room).clear()
    mapgraph.above_below(state, room).append("B777")
    assert mapgraph.links(state, room) == mapgraph.Graph(state["map"]).links[room]
    assert "B777" not in mapgraph.above_below(state, room)


def test_the_kept_path_field_equals_a_fresh_one_for_every_room() -> None:
    m = data.compact(data.load_map(None))
    for room in mapgraph.rooms(_state(m)):
        for speed, shadow, held in ((1, False, []), (3, False, ["rope-1"]), (4, True, [])):
            p = {"room": room, "shadow": shadow, "items": held, "genes": {"speed": speed}}
            state = {"map": m, "round": 1, "people": {"a": p}}
            kept = forms.path_field(state, "a")
            fresh = forms._path_field(pickle.loads(pickle.dumps(state)) | {"map": copy.deepcopy(m) | {"x": 1}}, p)
            assert kept == fresh
            assert tuple(movement.next_rooms(state, p, room, first=True)) == kept.first
