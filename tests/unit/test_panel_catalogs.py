"""The panel's gettext catalogs: English complete, German complete, both current.

Every text the page templates and the kernel's (and both frameworks') Python
translate is found as ``pybabel extract`` would find it (``panel_messages``), and must
be in the template ``panel.pot`` and in each catalog; English translates each to
itself, German to a text of its own with the same placeholders, and nothing is fuzzy.
"""

from __future__ import annotations

import importlib
import re
import string
from typing import Any

import pytest
from panel_messages import (
    LOCALE,
    catalog_path,
    panel_messages,
    po_text,
    read_catalog,
)

from generator.spec.openapi import KERNEL_PACKAGE, load_kernel

REFRESH = "python tests/unit/panel_messages.py"
_PERCENT = re.compile(r"%\((\w+)\)s")


def _entries(language: str) -> list[Any]:
    load_kernel()
    po_files = importlib.import_module(f"{KERNEL_PACKAGE}.po_files")
    text = catalog_path(language).read_text(encoding="utf-8")
    return [entry for entry in po_files.read_po(text) if entry.msgid]


def _placeholders(text: str) -> set[str]:
    braces = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return set(_PERCENT.findall(text)) | braces


def test_the_panel_translates_its_texts() -> None:
    messages = panel_messages()
    assert len(messages) > 100
    texts = {text for text, _ in messages}
    for expected in ("Save", "Log in", "%(label)s “%(name)s” created.", "Not found"):
        assert expected in texts


@pytest.mark.parametrize("language", ["en", "de"])
def test_each_catalog_lists_exactly_the_texts_used(language: str) -> None:
    used = set(panel_messages())
    listed = set(read_catalog(catalog_path(language)))
    assert not used - listed, f"missing from {language}; run {REFRESH}"
    assert not listed - used, f"no longer used, still in {language}; run {REFRESH}"


def test_the_catalog_files_are_current() -> None:
    messages = panel_messages()
    template = (LOCALE / "panel.pot").read_text(encoding="utf-8")
    assert template == po_text(messages, "", {}), f"run {REFRESH}"
    for language in ("en", "de"):
        path = catalog_path(language)
        kept = read_catalog(path)
        written = po_text(messages, language, kept)
        assert path.read_text(encoding="utf-8") == written, f"run {REFRESH}"


def test_english_is_complete() -> None:
    for entry in _entries("en"):
        expected = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        assert entry.msgstr == expected, entry.msgid
        assert not entry.fuzzy


def test_german_is_complete_and_keeps_the_placeholders() -> None:
    entries = _entries("de")
    assert len(entries) == len(panel_messages())
    for entry in entries:
        assert not entry.fuzzy, entry.msgid
        forms = 2 if entry.msgid_plural else 1
        assert len(entry.msgstr) == forms and all(entry.msgstr), entry.msgid
        english = _placeholders(entry.msgid) | _placeholders(entry.msgid_plural or "")
        for text in entry.msgstr:
            assert _placeholders(text) == english, (entry.msgid, text)


def test_the_kernel_reads_the_catalogs() -> None:
    load_kernel()
    translation = importlib.import_module(f"{KERNEL_PACKAGE}.translation")
    assert translation.available_languages() == ("de", "en")
    token = translation.activate("de-AT")
    try:
        assert translation.current_language() == "de"
        assert translation.gettext("Save") == "Speichern"
        assert translation.ngettext("%(num)s record", "%(num)s records", 2) == (
            "%(num)s Datensätze"
        )
        assert translation.gettext("not a panel text") == "not a panel text"
    finally:
        translation.deactivate(token)
    assert translation.gettext("Save") == "Save"


@pytest.mark.parametrize(
    ("header", "offered", "default", "chosen"),
    [
        (None, ["en", "de"], "en", "en"),
        ("de-DE,de;q=0.9,en;q=0.8", ["en", "de"], "en", "de"),
        ("fr-FR,fr;q=0.9", ["en", "de"], "en", "en"),
        ("fr-FR,fr;q=0.9", ["en", "de"], "de", "de"),
        ("en;q=0.5,de;q=0.9", ["en", "de"], "en", "de"),
        ("de", ["en"], "en", "en"),  # not offered
        ("de;q=0", ["en", "de"], "en", "en"),
        ("*", ["en", "de"], "de", "de"),
        (None, ["en", "de"], "en-us", "en"),
        (None, ["en", "de"], "xx", "en"),
    ],
)
def test_negotiation(
    header: str | None, offered: list[str], default: str, chosen: str
) -> None:
    load_kernel()
    translation = importlib.import_module(f"{KERNEL_PACKAGE}.translation")
    assert translation.negotiate(header, offered, default) == chosen
