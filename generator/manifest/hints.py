"""Helpers that word manifest problems: quoted values, lists and "did you mean"."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

_SHOWN_CHARS = 40
_HINT_CHARS = 72


def shown(text: str) -> str:
    """Quote a found value for a message, shortened so the line stays readable."""
    one_line = text.replace("\n", "\\n").replace("\t", "\\t")
    if len(one_line) > _SHOWN_CHARS:
        one_line = one_line[: _SHOWN_CHARS - 3] + "..."
    return f"'{one_line}'"


def quoted_list(names: Iterable[object]) -> str:
    """``'a', 'b', 'c'`` for a message."""
    return ", ".join(f"'{name}'" for name in names)


def _squash(word: str) -> str:
    return word.lower().replace("_", "").replace("-", "")


def close_match(word: str, choices: Sequence[str]) -> str | None:
    """The choice ``word`` most likely meant, ignoring case, ``_`` and ``-``."""
    squashed = {_squash(choice): choice for choice in choices}
    if _squash(word) in squashed:
        return squashed[_squash(word)]
    found = difflib.get_close_matches(_squash(word), list(squashed), n=1, cutoff=0.6)
    return squashed[found[0]] if found else None


def did_you_mean(word: str, choices: Sequence[str]) -> str | None:
    """``did you mean 'integer'?`` when a choice is close to ``word``."""
    match = close_match(word, choices)
    return f"did you mean '{match}'?" if match is not None and match != word else None


def listing_hint(prefix: str, names: Sequence[str]) -> str | None:
    """``declared resources are 'A', 'B'``, cut short so the hint stays one line."""
    if not names:
        return None
    shown_names: list[str] = []
    for name in names:
        candidate = quoted_list([*shown_names, name])
        if len(prefix) + len(candidate) > _HINT_CHARS and shown_names:
            rest = len(names) - len(shown_names)
            return f"{prefix} {quoted_list(shown_names)} and {rest} more"
        shown_names.append(name)
    return f"{prefix} {quoted_list(shown_names)}"


def suggestion_hint(word: str, choices: Sequence[str], prefix: str) -> str | None:
    """A "did you mean" hint when something is close, else the list of choices."""
    return did_you_mean(word, choices) or listing_hint(prefix, choices)
