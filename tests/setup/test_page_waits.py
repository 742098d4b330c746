"""The tests' waits for a page work under the pages' own Content Security Policy (``script-src 'self'``).

Playwright's ``wait_for_function`` with a bare expression ("document.x.length === 13") evaluates it once
from outside the page, and when that is not yet true, polls it inside the page with ``eval``, which the
pages' policy refuses (``EvalError ... 'unsafe-eval'``): such a wait passes when the page is quick and
fails the run when it is slow (CI of stop 34, ``test_three_rounds_from_the_organisers_page``). A function
("() => ...") is polled without ``eval``. This test finds every wait written as a bare expression."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def bare_waits(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "wait_for_function" and node.args):
            first = node.args[0]
            text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            if isinstance(first, ast.JoinedStr):  # an f-string: its first literal part starts it
                head = first.values[0] if first.values else None
                text = head.value if isinstance(head, ast.Constant) else ""
            if text is not None and not FUNCTION.match(text):
                found.append((node.lineno, text[:60]))
    return found


def test_the_check_tells_a_function_from_a_bare_expression() -> None:
    assert bare_waits('page.wait_for_function("document.body.innerText.includes(\'x\')")') == [
        (1, "document.body.innerText.includes('x')")]
    assert bare_waits('page.wait_for_function(f"{q}.length === {n}")') == [(1, "")]
    for written in ("() => true", "(s) => s.ok", "t => t", "function () { return 1 }",
                    "async () => 1", "(first) => x"):
        assert bare_waits(f"page.wait_for_function({written!r})") == [], written


def test_every_wait_for_a_page_is_a_function() -> None:
    bare = {f"{path.relative_to(TESTS)}:{line}": text
            for path in sorted(TESTS.rglob("*.py")) for line, text in bare_waits(path.read_text("utf-8"))}
    assert bare == {}
