"""The spec's YAML and JSON texts, with the unchanged parts reused from the last run.

The kernel's writers (``dump_yaml``, ``dump_json``) take ~1 s for a 500-resource
document. Both write an entry of a mapping the same way wherever it sits, only
indented deeper: the YAML of ``{key: value}`` at depth *d* is its YAML at the top with
every line indented by 2*d spaces, and the JSON of a value at depth *d* is its JSON
with every line break followed by 2*(d+1) more spaces. So the document is cut into
*pieces*, the entries two levels down (each path item, each schema) and the small
top-level ones; each piece is written on its own (or taken from the cache, keyed by
the writers' code and ``repr`` of the entry), and the document's frame — the document
with a placeholder for each piece, written by the same writers — is filled in. The
result is the writers' own text, as UTF-8 bytes; the cache may only change speed.
The texts are joined as bytes: one "…" makes a whole ``str`` two bytes a character,
and at 500 resources the two texts are ~40 MB.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import re
import secrets
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ..paths import write_cache_file

Writer = Callable[[Any], str]
_WIDE = 8  # a mapping below the top is cut into pieces when it has more entries
_MAX_KEY = 200  # longer keys are written in the frame (YAML may need ``? key``)
_FORMAT = b"2"


class _Pieces:
    """The frame of a document and the pieces cut out of it."""

    def __init__(self) -> None:
        self.token = f"PFPIECE{secrets.token_hex(8)}N"
        self.entries: list[tuple[int, str, Any]] = []  # depth, key, value

    def cut(self, node: dict[str, Any], depth: int = 0) -> dict[str, Any]:
        frame: dict[str, Any] = {}
        for key, value in node.items():
            wide = isinstance(value, dict) and (depth == 0 or len(value) > _WIDE)
            if wide and value and depth < 2:
                frame[key] = self.cut(value, depth + 1)
            elif isinstance(key, str) and len(key) <= _MAX_KEY:
                frame[key] = f"{self.token}{len(self.entries)}"
                self.entries.append((depth, key, value))
            else:
                frame[key] = value
        return frame


def exact_json_writer(dump_json: Writer) -> Writer:
    """``dump_json`` (the kernel's indented ``json.dumps``), with orjson where equal.

    ``json.dumps`` with an indent runs in pure Python. orjson indents the same way;
    only its scalars can differ (an exponent's form, non-finite numbers, keys that are
    not strings, types json refuses). So when orjson's compact text of a value equals
    json's compact text (which is C code), orjson's indented text is taken; anything
    else goes to ``dump_json`` itself, errors included.
    """
    import orjson

    def dump(value: Any) -> str:
        try:
            compact = json.dumps(
                value, ensure_ascii=False, allow_nan=False, separators=(",", ":")
            )
            if orjson.dumps(value).decode("utf-8") == compact:
                return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n"
        except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
            pass
        return dump_json(value)

    return dump


def _indented_yaml(text: str, depth: int) -> str:
    indent = "  " * depth
    return "\n".join(indent + line for line in text[:-1].split("\n"))


def _indented_json(text: str, depth: int) -> str:
    return text[:-1].replace("\n", "\n" + "  " * (depth + 1))


@cache
def writers_fingerprint(kernel: Path) -> str:
    """What the pieces' texts depend on: the kernel (the writers) and this module."""
    digest = hashlib.sha256(sys.version.encode())
    for path in (*sorted(kernel.glob("*.py")), Path(__file__)):
        digest.update(f"\0{path.name}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


class SpecTextCache:
    """The pieces' texts of the last spec written under one name, in one file."""

    def __init__(self, directory: Path | None, name: str, salt: str) -> None:
        self.path = None
        if directory is not None:
            digest = hashlib.sha256(f"{name}\0{salt}".encode()).hexdigest()
            self.path = directory / digest[:2] / digest
        self.salt = salt.encode()

    def key(self, depth: int, key: str, value: Any) -> bytes:
        """What names a piece: the writers, its depth, its key and value."""
        text = repr((depth, key, value)).encode("utf-8", "surrogatepass")
        return hashlib.blake2b(_FORMAT + self.salt + text, digest_size=20).digest()

    def load(self) -> dict[bytes, tuple[bytes, bytes]]:
        """The pieces stored last time (none when absent or unreadable)."""
        if self.path is None:
            return {}
        try:
            found = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if not isinstance(found, dict):
            return {}
        return {
            key: texts
            for key, texts in found.items()
            if isinstance(texts, tuple)
            and len(texts) == 2
            and all(isinstance(text, bytes) for text in texts)
        }

    def store(self, pieces: dict[bytes, tuple[bytes, bytes]]) -> None:
        """Keep ``pieces`` for the next run (unless the cache cannot be written)."""
        if self.path is None:
            return
        write_cache_file(self.path, marshal.dumps(pieces))


def _split(frame: str, token: str, count: int, *, whole_line: bool) -> list[str] | None:
    """``frame`` cut at its ``count`` placeholders (odd items: the piece numbers)."""
    pattern = f"^[^\n]*{token}(\\d+)$" if whole_line else f'"{token}(\\d+)"'
    parts = re.split(pattern, frame, flags=re.MULTILINE)
    return parts if len(parts) == 2 * count + 1 else None


def _fill(parts: list[str], texts: list[bytes]) -> bytes:
    return b"".join(
        texts[int(part)] if index % 2 else part.encode("utf-8")
        for index, part in enumerate(parts)
    )


def dump_texts(
    doc: dict[str, Any],
    dump_yaml: Writer,
    dump_json: Writer,
    cache: SpecTextCache,
) -> tuple[bytes, bytes]:
    """``(dump_yaml(doc), dump_json(doc))`` in UTF-8, reusing the pieces ``cache``
    holds."""
    pieces = _Pieces()
    frame = pieces.cut(doc)
    stored = cache.load()
    used: dict[bytes, tuple[bytes, bytes]] = {}
    yaml_texts: list[bytes] = []
    json_texts: list[bytes] = []
    for depth, key, value in pieces.entries:
        name = cache.key(depth, key, value)
        texts = stored.get(name) or used.get(name)
        if texts is None:
            texts = (
                _indented_yaml(dump_yaml({key: value}), depth).encode("utf-8"),
                _indented_json(dump_json(value), depth).encode("utf-8"),
            )
        used[name] = texts
        yaml_texts.append(texts[0])
        json_texts.append(texts[1])
    count = len(pieces.entries)
    yaml_parts = _split(dump_yaml(frame), pieces.token, count, whole_line=True)
    json_parts = _split(dump_json(frame), pieces.token, count, whole_line=False)
    if yaml_parts is None or json_parts is None:  # a placeholder met in the data
        return dump_yaml(doc).encode("utf-8"), dump_json(doc).encode("utf-8")
    # Stored before the texts are joined, and each piece let go once joined: the
    # cache's copy of every piece, the pieces and the joined texts are never all in
    # memory at once.
    if used.keys() != stored.keys():
        cache.store(used)
    del used, stored
    yaml_text = _fill(yaml_parts, yaml_texts)
    del yaml_parts, yaml_texts
    return yaml_text, _fill(json_parts, json_texts)
