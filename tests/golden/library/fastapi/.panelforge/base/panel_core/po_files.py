"""Reading gettext catalogs (``.po`` files) as they are, without compiling them.

The panel's texts are kept in ``locale/<language>/LC_MESSAGES/panel.po``: plain text
that translators, ``msgfmt --check`` and Babel's ``pybabel update`` all read, and that
a generated project carries without binary ``.mo`` files. An entry marked ``fuzzy``
is skipped, as gettext skips it, and an empty ``msgstr`` leaves the English text.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


@dataclass
class PoEntry:
    """One message: its English text (and plural), translations and flags."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def fuzzy(self) -> bool:
        """Whether a translator marked the translation as unchecked."""
        return "fuzzy" in self.flags


def _unquote(text: str) -> str:
    """The value of a quoted .po string, its C escapes resolved."""
    body = text.strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        raise ValueError(f"not a quoted string: {text!r}")
    out, chars = [], iter(body[1:-1])
    for char in chars:
        out.append(_ESCAPES.get(next(chars, ""), "") if char == "\\" else char)
    return "".join(out)


def _keyword(line: str) -> tuple[str, str]:
    """``msgid "…"`` → (``msgid``, ``"…"``); ``msgstr[1] "…"`` → (``msgstr[1]``, …)."""
    name, _, rest = line.partition(" ")
    return name, rest


def read_po(text: str) -> Iterator[PoEntry]:
    """The entries of a .po file's text, the header (``msgid ""``) first."""
    entry, target = PoEntry(), None
    for raw in [*text.splitlines(), ""]:
        line = raw.strip()
        if target is not None and (not line or line.startswith("#")):
            yield entry
            entry, target = PoEntry(), None
        if line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            _append(entry, target, _unquote(line))
            continue
        keyword, value = _keyword(line)
        if keyword in ("msgctxt", "msgid") and entry.msgstr:
            yield entry  # the next entry, with no blank line between
            entry = PoEntry()
        target = keyword
        _start(entry, target, _unquote(value))


def _start(entry: PoEntry, target: str, value: str) -> None:
    if target == "msgid":
        entry.msgid = value
    elif target == "msgid_plural":
        entry.msgid_plural = value
    elif target.startswith("msgstr"):
        entry.msgstr.append(value)
    elif target != "msgctxt":
        raise ValueError(f"unknown .po keyword {target!r}")


def _append(entry: PoEntry, target: str | None, value: str) -> None:
    if target == "msgid":
        entry.msgid += value
    elif target == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + value
    elif target is not None and target.startswith("msgstr"):
        entry.msgstr[-1] += value


def _header(entries: list[PoEntry]) -> dict[str, str]:
    for entry in entries:
        if entry.msgid == "" and entry.msgstr:
            lines = entry.msgstr[0].splitlines()
            pairs = (line.partition(":") for line in lines)
            return {name.strip(): value.strip() for name, _, value in pairs}
    return {}


def _plural_rule(header: dict[str, str]) -> Callable[[int], int]:
    """The catalog's ``Plural-Forms`` rule: which ``msgstr[i]`` a count takes."""
    forms = header.get("Plural-Forms", "")
    for part in forms.split(";"):
        name, _, expression = part.strip().partition("=")
        if name.strip() == "plural" and expression.strip():
            return gettext.c2py(expression.strip())
    return lambda n: int(n != 1)


class Catalog:
    """The translations of one language, read from a .po file."""

    def __init__(self, language: str, entries: list[PoEntry]) -> None:
        self.language = language
        self.plural = _plural_rule(_header(entries))
        self.messages: dict[str, list[str]] = {
            entry.msgid: entry.msgstr
            for entry in entries
            if entry.msgid and not entry.fuzzy and any(entry.msgstr)
        }

    @classmethod
    def from_file(cls, language: str, path: Path) -> Catalog:
        """The catalog of ``language`` in the .po file at ``path``."""
        return cls(language, list(read_po(path.read_text(encoding="utf-8"))))

    def gettext(self, message: str) -> str:
        """``message`` in this language (itself when untranslated)."""
        found = self.messages.get(message)
        return found[0] if found and found[0] else message

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of ``singular``/``plural`` this language uses for ``count``."""
        found = self.messages.get(singular)
        index = self.plural(count)
        if found and index < len(found) and found[index]:
            return found[index]
        return singular if count == 1 else plural
