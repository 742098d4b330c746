"""A game's options and a move's arguments in words: what each takes and its default, from the JSON
schema pydantic makes of the model (so it is the same check the referee applies)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from companion import i18n


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # what it takes, in words
    default: str | None  # the default in words; None: required
    choices: tuple[str, ...]  # the allowed values of a choice, else empty


def fields(model: type[BaseModel], lang: str) -> list[Field]:
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    out = []
    for name, prop in schema.get("properties", {}).items():
        declared = model.model_fields[name]
        default = None if declared.is_required() else value(lang, declared.get_default(call_default_factory=True))
        out.append(Field(name, kind(lang, prop, defs), default, choices(prop, defs)))
    return out


def value(lang: str, v: Any) -> str:
    """A value as the command line takes it (`--option KEY=VALUE`): text bare, the rest as JSON."""
    if v is None:
        return i18n.translate(lang, "cli.value.none")
    if isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False)


def choices(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> tuple[str, ...]:
    prop = _resolved(prop, defs)
    if "enum" in prop:
        return tuple(str(v) for v in prop["enum"])
    for option in prop.get("anyOf", ()):
        found = choices(option, defs)
        if found:
            return found
    return ()


def _resolved(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return {**defs.get(ref.removeprefix("#/$defs/"), {}), **{k: v for k, v in prop.items() if k != "$ref"}}
    return prop


def kind(lang: str, prop: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """What one property takes, in words: "a whole number 0-3600", "one of digital, physical", ..."""
    prop = _resolved(prop, defs)

    def tr(msgid: str, **params: Any) -> str:
        return i18n.translate(lang, f"cli.type.{msgid}", params)

    if "enum" in prop:
        return tr("choice", values=[str(v) for v in prop["enum"]])
    if "const" in prop:
        return value(lang, prop["const"])
    if "anyOf" in prop:
        options = [o for o in prop["anyOf"] if _resolved(o, defs).get("type") != "null"]
        words = [kind(lang, o, defs) for o in options] or [tr("any")]
        shown = words[0]
        for word in words[1:]:
            shown = tr("or", first=shown, second=word)
        return tr("or_none", kind=shown) if len(options) < len(prop["anyOf"]) else shown
    match prop.get("type"):
        case "integer":
            low, high = prop.get("minimum"), prop.get("maximum")
            if low is not None and high is not None:
                return tr("integer_range", low=low, high=high)
            if low is not None:
                return tr("integer_from", low=low)
            return tr("integer_to", high=high) if high is not None else tr("integer")
        case "number":
            return tr("number")
        case "string":
            return tr("text_max", max=prop["maxLength"]) if "maxLength" in prop else tr("text")
        case "boolean":
            return tr("boolean")
        case "array":
            return tr("list", item=kind(lang, prop.get("items", {}), defs))
        case "object":
            extra = prop.get("additionalProperties")
            if isinstance(extra, Mapping) and extra:
                return tr("table_of", value=kind(lang, extra, defs))
            return tr("table")
    return tr("any")
