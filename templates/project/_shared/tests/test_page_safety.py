"""What pages take from clients and show, made safe by the kernel.

Redirect targets stay on this site, URL cells never link to scripts, CSV cells never
run as spreadsheet formulas. One file in the FastAPI and the Django project.
"""

from __future__ import annotations

import pytest

from panel_core.csv_text import neutralise, restore
from panel_core.fields import Url
from panel_core.table import display
from panel_core.urls import safe_path
from tests.cases import HOME, REDIRECTS


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
