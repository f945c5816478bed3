"""``panelforge inspect``'s arguments, help and messages (see :mod:`generator.cli`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXIT_OK = 0


def _names(text: str) -> tuple[str, ...]:
    """``--tables a,b`` (repeatable) → the names, without blanks."""
    return tuple(n.strip() for n in text.split(",") if n.strip())


def _cmd_inspect(args: argparse.Namespace) -> int:
    from .commands import inspect_database

    inspected = inspect_database(
        args.database_url,
        tables=tuple(n for group in args.tables for n in group),
        exclude=tuple(n for group in args.exclude for n in group),
        output=args.output,
        force=args.force,
    )
    if args.output is None:
        sys.stdout.write(inspected.text)
        sys.stdout.flush()
    for note in inspected.notes:  # even with --quiet: they concern the manifest
        print(f"note: {note}", file=sys.stderr)
    if inspected.problem is not None:
        print(
            "warning: the manifest does not pass 'panelforge validate' yet; "
            "edit it where it says:\n" + inspected.problem,
            file=sys.stderr,
        )
    if args.output is not None and not args.quiet:
        print(
            f"wrote {args.output} ({inspected.resources} resources from "
            f"{inspected.tables} tables); review it, then "
            f"'panelforge validate {args.output}'",
            file=sys.stderr,
        )
    return EXIT_OK


_INSPECT_EPILOG = """\
examples:
  panelforge inspect sqlite:///shop.db
  panelforge inspect postgresql://me:secret@localhost:5432/shop -o shop.yaml
  panelforge inspect mysql://root@127.0.0.1:3306/shop --exclude audit_log -o shop.yaml
  panelforge inspect postgres://localhost/shop --tables authors,books > panel.yaml

URLs: sqlite:///relative.db, sqlite:////absolute/path.db, postgresql:// (or
postgres://, postgresql+psycopg://), mysql:// (or mariadb://, mysql+pymysql://).
PostgreSQL needs psycopg (pip install 'panelforge[postgres]'), MySQL/MariaDB
PyMySQL (pip install 'panelforge[mysql]').

What the manifest cannot say (composite keys, tables without a key, link tables,
multi-column foreign keys, CHECK constraints, unsupported types) is listed in a
comment at its top and on stderr. Every table it reads is adopted (adopted: in
the manifest): the generated project's migrate records it, never creates, changes
or drops it; the panel works on the rows as they are.

exit codes: 0 ok, 1 a problem you can fix (an existing -o file, a missing
driver), 2 usage (a bad URL, an unknown table), 4 the database cannot be reached.
"""


def add_inspect_command(commands: Any) -> None:
    """Add ``inspect`` to the subcommands ``commands`` (argparse's subparsers)."""
    ins = commands.add_parser(
        "inspect",
        help="write a manifest from an existing database's tables",
        description=(
            "Read the tables of an existing SQLite, PostgreSQL or MySQL/MariaDB "
            "database and write a manifest for them (to stdout, or to -o MANIFEST)."
        ),
        epilog=_INSPECT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ins.add_argument(
        "database_url", metavar="DATABASE_URL", help="the database to read"
    )
    ins.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="MANIFEST",
        help="write the manifest there (default: stdout)",
    )
    ins.add_argument(
        "--tables",
        type=_names,
        action="append",
        default=[],
        metavar="T1,T2",
        help="only these tables (comma-separated, repeatable)",
    )
    ins.add_argument(
        "--exclude",
        type=_names,
        action="append",
        default=[],
        metavar="T3,T4",
        help="leave these tables out (comma-separated, repeatable)",
    )
    ins.add_argument(
        "--force", action="store_true", help="replace an existing -o MANIFEST"
    )
    ins.add_argument(
        "-q", "--quiet", action="store_true", help="no summary line (notes still shown)"
    )
    ins.set_defaults(handler=_cmd_inspect)
