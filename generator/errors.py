"""Every exception panelforge raises on purpose, and the shape of a reported problem.

::

    GeneratorError                 base; .message is what the user sees
    ├── ManifestError              the manifest is wrong; carries a list of Issue
    │   ├── ManifestSyntaxError    not YAML, or a YAML trap (alias, duplicate key, tag)
    │   └── ManifestInvalidError   schema and semantic problems, all reported at once
    ├── OutputError                the destination cannot be written as asked
    ├── SpecError                  the emitted OpenAPI document failed validation
    ├── TemplateError              a template failed to render or parse: our bug
    └── InspectError               ``inspect`` cannot read the database as asked
        ├── DatabaseUrlError       a URL or a table name that cannot be used (exit 2)
        ├── DriverMissingError     the database's driver is not installed
        └── DatabaseUnreachableError  no connection, or the catalog unreadable (exit 4)

The CLI prints ``.message`` and exits 1 for a ``GeneratorError`` (``TemplateError``:
3, ``DatabaseUrlError``: 2 as for any bad argument, ``DatabaseUnreachableError``: 4);
anything else is an internal error (exit 3), shown with a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Issue:
    """One problem in a manifest, positioned for a human (1-based line and column)."""

    line: int
    column: int
    path: str  # manifest path: "resources.Book.fields.pages" ("" for the document)
    message: str
    code: str  # stable code listed in specs/manifest.md, e.g. "M010"
    hint: str | None = None
    file: str = ""

    def render(self) -> str:
        """``file:line:col: path: message (code)``, plus an optional hint line."""
        where = f"{self.file}:{self.line}:{self.column}"
        subject = f"{self.path}: " if self.path else ""
        text = f"{where}: {subject}{self.message} ({self.code})"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text


class GeneratorError(Exception):
    """Base of all expected panelforge errors; ``message`` is shown to the user."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ManifestError(GeneratorError, ValueError):
    """The manifest cannot be used; ``issues`` lists every problem found."""

    def __init__(self, file: str, issues: Sequence[Issue]) -> None:
        self.file = file
        self.issues = tuple(sorted(issues))
        count = len(self.issues)
        noun = "problem" if count == 1 else "problems"
        lines = [f"{file}: {count} {noun}"]
        lines += ["  " + issue.render().replace("\n", "\n  ") for issue in self.issues]
        super().__init__("\n".join(lines))


class ManifestSyntaxError(ManifestError):
    """The file is not a YAML document panelforge accepts."""


class ManifestInvalidError(ManifestError):
    """The YAML is fine but the manifest breaks its schema or its semantic rules."""


class OutputError(GeneratorError, OSError):
    """The destination cannot be written as asked (not empty, not a directory, ...)."""


class SpecError(GeneratorError):
    """The OpenAPI document built for the project does not validate."""


class TemplateError(GeneratorError):
    """A template failed to render or produced invalid Python: a bug in panelforge."""

    exit_code = 3


class InspectError(GeneratorError):
    """``panelforge inspect`` cannot read the database it was given."""


class DatabaseUrlError(InspectError, ValueError):
    """A database URL, or a table named by --tables/--exclude, that cannot be used."""

    exit_code = 2


class DriverMissingError(InspectError, ImportError):
    """The Python driver of the URL's database is not installed."""


class DatabaseUnreachableError(InspectError, ConnectionError):
    """The database does not answer, refuses the login, or its catalog is unreadable."""

    exit_code = 4
