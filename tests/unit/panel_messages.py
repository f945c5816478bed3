"""The panel's own texts, found where the emitted kernel uses them.

Templates: Jinja's own extractor (``{% trans %}``, ``_()``, ``ngettext()``). Python:
calls of ``gettext``, ``ngettext`` and ``gettext_noop`` with literal strings, in the
kernel and in both frameworks' skeletons. Run as a script
(``python tests/unit/panel_messages.py``), it does what ``pybabel extract`` and
``update`` would: writes the catalog template ``panel_core/locale/panel.pot``, and each
language's ``panel.po`` with the texts used now, keeping their translations (English
is its own; a new text waits, untranslated, for a German one, and the catalog test
fails until it has it).
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

from jinja2 import Environment

REPO = Path(__file__).resolve().parents[2]
PROJECT = REPO / "templates" / "project"
KERNEL = PROJECT / "_shared" / "panel_core"
LOCALE = KERNEL / "locale"
PAGES = KERNEL / "templates" / "panel"
PYTHON_ROOTS = [KERNEL, PROJECT / "fastapi" / "app", PROJECT / "django" / "panel"]
_CALLS = {"gettext": 1, "gettext_noop": 1, "ngettext": 2}

# A message: its English text, and its plural (None: no plural).
Message = tuple[str, "str | None"]


def template_messages() -> Iterator[tuple[Message, str]]:
    """Every text the panel's page templates translate, with where it is."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    for path in sorted(PAGES.glob("*.html")):
        source = path.read_text(encoding="utf-8")
        for line, _, text in env.extract_translations(source):
            texts = (text,) if isinstance(text, str) else tuple(text)
            plural = texts[1] if len(texts) > 1 else None
            yield (texts[0], plural), f"{path.relative_to(REPO)}:{line}"


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def python_messages() -> Iterator[tuple[Message, str]]:
    """Every literal text the kernel and the frameworks' Python translate."""
    for root in PYTHON_ROOTS:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                count = _CALLS.get(name or "")
                if count is None or len(node.args) < count:
                    continue
                texts = [_literal(arg) for arg in node.args[:count]]
                if None in texts:
                    continue
                plural = texts[1] if count == 2 else None
                yield (texts[0], plural), f"{path.relative_to(REPO)}:{node.lineno}"


def panel_messages() -> dict[Message, list[str]]:
    """Every text the panel translates, in order of first use, with its places."""
    found: dict[Message, list[str]] = {}
    for message, place in [*template_messages(), *python_messages()]:
        found.setdefault(message, []).append(place)
    return found


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


HEADER = (
    "Project-Id-Version: panel\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
    "Language: {language}\n"
    "Plural-Forms: nplurals=2; plural=(n != 1);\n"
)


def po_text(
    messages: dict[Message, list[str]],
    language: str,
    translate: dict[Message, list[str]],
) -> str:
    """A .po file of ``messages``; ``translate``: each one's msgstr forms."""
    header = HEADER.format(language=language)
    out = [
        "# The panel's own texts (panelforge). Resource and field labels are the",
        "# manifest's and are not here.",
        'msgid ""',
        'msgstr ""',
        *(_quote(line + "\n") for line in header.splitlines()),
        "",
    ]
    for (text, plural), places in messages.items():
        files = dict.fromkeys(place.rsplit(":", 1)[0] for place in places)
        out.extend(f"#: {path}" for path in files)
        if "%(" in text or "%(" in (plural or ""):
            out.append("#, python-format")
        elif "{" in text:
            out.append("#, python-brace-format")
        out.append(f"msgid {_quote(text)}")
        forms = translate.get((text, plural), [])
        if plural is None:
            out.append(f"msgstr {_quote(forms[0] if forms else '')}")
        else:
            out.append(f"msgid_plural {_quote(plural)}")
            for index in range(2):
                value = forms[index] if len(forms) > index else ""
                out.append(f"msgstr[{index}] {_quote(value)}")
        out.append("")
    return "\n".join(out)


def read_catalog(path: Path) -> dict[Message, list[str]]:
    """A .po file's translations by message (fuzzy ones too, for the translator)."""
    from generator.spec.openapi import KERNEL_PACKAGE, load_kernel

    load_kernel()
    po_files = importlib.import_module(f"{KERNEL_PACKAGE}.po_files")
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return {
        (entry.msgid, entry.msgid_plural): entry.msgstr
        for entry in po_files.read_po(text)
        if entry.msgid
    }


def catalog_path(language: str) -> Path:
    """Where the catalog of ``language`` lives."""
    return LOCALE / language / "LC_MESSAGES" / "panel.po"


def update_catalogs() -> None:
    """Write the template and every catalog for the texts used now."""
    messages = panel_messages()
    (LOCALE / "panel.pot").write_text(po_text(messages, "", {}), encoding="utf-8")
    english = {(t, p): [t] if p is None else [t, p] for t, p in messages}
    for path in sorted(LOCALE.glob("*/LC_MESSAGES/panel.po")):
        language = path.parents[1].name
        kept = english if language == "en" else read_catalog(path)
        path.write_text(po_text(messages, language, kept), encoding="utf-8")


if __name__ == "__main__":
    update_catalogs()
