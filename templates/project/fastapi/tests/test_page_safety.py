"""What pages take from clients and show, made safe by the kernel.

Redirect targets stay on this site, URL cells never link to scripts, CSV cells never
run as spreadsheet formulas. One file in the FastAPI and the Django project
(``tests/frame.py`` says how).
"""

from __future__ import annotations

import pytest

from tests.cases import HOME, REDIRECTS
from tests.frame import Url, display, neutralise, restore, safe_path


@pytest.mark.parametrize(("target", "expected"), REDIRECTS)
def test_only_paths_of_this_site_are_redirect_targets(
    target: str | None, expected: str
) -> None:
    assert safe_path(target, HOME) == expected


def test_javascript_urls_never_become_links() -> None:
    field = Url("website")
    assert display(field, "https://example.com/a").href == "https://example.com/a"
    inert = ("javascript:alert(1)", "data:text/html,x", "//evil.com", "java\tscript:x")
    for value in inert:
        cell = display(field, value)
        assert cell.href is None and cell.text == value


@pytest.mark.parametrize(
    "text", ["=1", "+1", "-1", "@a", "\ta", "\ra", "'a", "''", "a'"]
)
def test_neutralise_then_restore_is_the_identity(text: str) -> None:
    assert restore(neutralise(text)) == text
    assert not neutralise(text).startswith(("=", "+", "-", "@", "\t", "\r"))
