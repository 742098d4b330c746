"""A new table's login on the hall (docs/hall.md, "Running the hall"): its id from its name, and the lines
its owner puts in the table's config file. Used by `companion hall table add` and the organiser's page."""

from __future__ import annotations

import json
import re

from companion.hall import protocol


def table_id_for(name: str, taken: set[str]) -> str:
    """A table id from its name (`Table 3` -> `table-3`, `桌子 7` -> `table-7`); a name in another script
    without a number gets `table-N`, N the first number free."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:26].strip("-")
    slug = f"table-{slug}" if slug.isdigit() else slug  # "桌子 7", "โต๊ะ 7": table-7
    if protocol.TABLE_ID.match(slug) and slug not in taken:
        return slug
    n = len(taken) + 1
    while f"table-{n}" in taken:
        n += 1
    return f"table-{n}"


def good_name(name: str) -> bool:
    return 0 < len(name) <= protocol.MAX_NAME and name.isprintable()


def config_text(table_id: str, name: str, url: str, password: str, comment: str) -> str:
    """The table's config lines: `[table] id` and its `[hall]` (secret: the password)."""
    return (f"# {' '.join(comment.splitlines())}\n"
            f'[table]\nid = "{table_id}"\n\n[hall]\nurl = "{url}"\nname = {toml_string(name)}\n'
            f'password = "{password}"')


def toml_string(text: str) -> str:
    """A TOML string (JSON's string escapes are TOML's, except for a raw DEL), as companion/config.py writes."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
