"""The panel's language: which catalog a request reads, and its texts in that language.

The pages' own texts (headings, buttons, messages; never a resource's or a field's
label, which are the manifest's) come from ``locale/<language>/LC_MESSAGES/panel.po``.
English is the source language: ``en`` lists every text, ``de`` is German. Each
request gets one language: the first of the browser's ``Accept-Language`` that the
panel offers, else the panel's configured language (FastAPI ``PANEL_LANGUAGE``,
Django ``LANGUAGE_CODE``). The frameworks' middleware calls ``activate`` for the
request; templates (``{% trans %}``, ``_()``) and the kernel's Python
(``gettext``) then read the same context variable, so both frameworks answer the
same text for the same request.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar, Token
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from .po_files import Catalog

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "panel"
SOURCE_LANGUAGE = "en"

_LANGUAGE: ContextVar[str] = ContextVar("panel_language", default=SOURCE_LANGUAGE)


@cache
def catalogs() -> dict[str, Catalog]:
    """Every language the panel has a catalog for, by code, read once."""
    found = sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return {
        path.parents[1].name: Catalog.from_file(path.parents[1].name, path)
        for path in found
    }


def available_languages() -> tuple[str, ...]:
    """The codes of the languages that have a catalog, sorted."""
    return tuple(sorted(catalogs()))


def supported(code: str, offered: Iterable[str]) -> str | None:
    """The offered language ``code`` asks for: itself, else its primary language
    (``de-AT`` → ``de``, ``en-us`` → ``en``); ``None`` when neither is offered."""
    wanted = code.strip().lower().replace("_", "-")
    choices = [language.lower() for language in offered]
    for candidate in (wanted, wanted.split("-")[0]):
        if candidate in choices:
            return candidate
    return None


def _weighted(header: str) -> list[tuple[float, int, str]]:
    ranked = []
    for position, part in enumerate(header.split(",")):
        code, _, params = part.strip().partition(";")
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
        if code and code != "*" and quality > 0:
            ranked.append((-quality, position, code))
    return sorted(ranked)


def negotiate(accept_language: str | None, offered: Iterable[str], default: str) -> str:
    """The language of a request: the browser's first choice the panel offers, else
    ``default`` (when it has a catalog), else English."""
    return _negotiated(accept_language or "", tuple(offered), default)


@lru_cache(maxsize=256)
def _negotiated(accept_language: str, offered: tuple[str, ...], default: str) -> str:
    # Browsers send a handful of distinct headers: each is worked out once.
    offered = tuple(
        language for language in offered if supported(language, catalogs())
    ) or (SOURCE_LANGUAGE,)
    for _, _, code in _weighted(accept_language):
        chosen = supported(code, offered)
        if chosen is not None:
            return supported(chosen, catalogs()) or SOURCE_LANGUAGE
    return supported(default, catalogs()) or SOURCE_LANGUAGE


def activate(language: str) -> Token[str]:
    """Make ``language`` the current request's; ``deactivate`` the token after."""
    return _LANGUAGE.set(supported(language, catalogs()) or SOURCE_LANGUAGE)


def deactivate(token: Token[str]) -> None:
    """Go back to the language before ``activate``."""
    _LANGUAGE.reset(token)


def current_language() -> str:
    """The current request's language code (``<html lang>``)."""
    return _LANGUAGE.get()


def _catalog() -> Catalog | None:
    return catalogs().get(_LANGUAGE.get())


def gettext(message: str) -> str:
    """``message`` in the current request's language."""
    catalog = _catalog()
    return catalog.gettext(message) if catalog is not None else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` for ``count`` in the current language."""
    catalog = _catalog()
    if catalog is None:
        return singular if count == 1 else plural
    return catalog.ngettext(singular, plural, count)


def gettext_noop(message: str) -> str:
    """``message`` itself: marks a text kept in a constant, translated when shown."""
    return message


# The texts the panel's scripts show (``static/panel/picker.js``). A script cannot call
# gettext: a page carries those that read differently in its language, as JSON.
SCRIPT_TEXTS = (
    gettext_noop("Yes"),
    gettext_noop("No"),
    gettext_noop("No matching records"),
    gettext_noop("Type a key"),
    gettext_noop("Type to search"),
    gettext_noop("Type a key to add"),
    gettext_noop("Type to search and add"),
    gettext_noop("Searching failed: type the key of a record"),
    gettext_noop("None chosen"),
    gettext_noop("Clear"),
    gettext_noop("Remove"),
    gettext_noop("Remove %(name)s"),
)


def script_texts() -> dict[str, str]:
    """Each script text that reads differently in the current language, by its
    English (none on an English page: the scripts' own texts are English)."""
    said = {text: gettext(text) for text in SCRIPT_TEXTS}
    return {text: shown for text, shown in said.items() if shown != text}


def install_translations(env: Any) -> None:
    """Give a Jinja environment ``{% trans %}``, ``_()``, ``current_language()`` and
    ``script_texts()``."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    env.globals["current_language"] = current_language
    env.globals["script_texts"] = script_texts
