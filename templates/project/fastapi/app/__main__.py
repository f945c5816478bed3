"""The command line: ``python -m app serve``, ``migrate``, ``jwt:secret``…"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence

H11_MAX_SIZE = 64 * 1024


def _configuration_error() -> str | None:
    """Why the settings cannot work, if they cannot (checked before any command)."""
    from pydantic import ValidationError
    from sqlalchemy.exc import ArgumentError

    from app.core.config import get_settings
    from app.core.db import create_db_engine

    try:
        url = get_settings().database_url
    except ValidationError as exc:
        return f"invalid settings: {exc}"
    try:
        create_db_engine(url).dispose()
    except ArgumentError as exc:
        return f"DATABASE_URL is not a database URL: {exc}"
    except ModuleNotFoundError as exc:
        return (
            f"DATABASE_URL needs the {exc.name} package "
            "(for PostgreSQL: pip install -e '.[postgres]'; "
            "for MySQL or MariaDB: pip install -e '.[mysql]')"
        )
    return None


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.core.config import ConfigurationError, get_settings
    from app.panel.stack import check_settings

    try:
        check_settings(get_settings())
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    uvicorn.run(
        "app.main:app",
        host=args.host,
        port=args.port,
        reload=args.reload,
        workers=args.workers,
        # A request line and headers up to 64 KiB (h11's default: 16 KiB): a mass
        # delete may name 500 keys in its query string, 24 KB of UUIDs.
        h11_max_incomplete_event_size=H11_MAX_SIZE,
    )
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from app.core.migrate_command import migrate_command

    return migrate_command(args.revision, check=args.check)


def _oag_generate(args: argparse.Namespace) -> int:
    del args
    from app.core.config import PROJECT_DIR, get_settings
    from app.oag.spec import generate_files
    from panel_core.oag import DOCS_PATH
    from panel_core.resource import DeclarationError

    try:
        written = generate_files(get_settings())
    except (DeclarationError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in written:
        shown = (
            path.relative_to(PROJECT_DIR) if path.is_relative_to(PROJECT_DIR) else path
        )
        print(f"wrote {shown}")
    print(f"Documentation - {DOCS_PATH}")
    return 0


def _jwt_secret(args: argparse.Namespace) -> int:
    del args
    from panel_core.tokens import make_secret

    print(make_secret())
    return 0


def _create_user(args: argparse.Namespace) -> int:
    from app.core.user_command import create_user_command

    return create_user_command(
        args.email, name=args.name, password_stdin=args.password_stdin, role=args.role
    )


def _set_role(args: argparse.Namespace) -> int:
    from app.core.user_command import set_role_command

    return set_role_command(args.email, args.role)


def _prune_history(args: argparse.Namespace) -> int:
    import datetime

    from sqlalchemy.exc import SQLAlchemyError

    from app.core.config import get_settings
    from app.core.db import create_db_engine
    from app.core.history import prune
    from panel_core.history import prune_message

    before = datetime.datetime.now(datetime.UTC) - args.older_than
    engine = create_db_engine(get_settings().database_url)
    try:
        removed = prune(engine, before)
    except SQLAlchemyError as exc:
        reason = getattr(exc, "orig", None) or exc
        print(f"error: {reason} (run python -m app migrate first?)", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    print(prune_message(removed, before))
    return 0


def _age(text: str) -> datetime.timedelta:
    from panel_core.history import parse_age

    try:
        return parse_age(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_create_user(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    user = commands.add_parser(
        "create-user",
        help="add a user who may log into the panel (asks for the password)",
    )
    from panel_core.accounts import add_new_user_arguments

    add_new_user_arguments(user)
    user.set_defaults(handler=_create_user)
    role = commands.add_parser(
        "set-role",
        help="change what a user may do (admin, or a role the manifest declares)",
    )
    role.add_argument("email", help="the user's login name")
    role.add_argument("role", help="the new role")
    role.set_defaults(handler=_set_role)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app",
        description="Serve the admin panel, migrate its database, or write its spec.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    serve = commands.add_parser("serve", help="serve the panel with uvicorn")
    serve.add_argument("--host", default="127.0.0.1", help="default: %(default)s")
    serve.add_argument("--port", type=_port, default=8000, help="default: %(default)s")
    processes = serve.add_mutually_exclusive_group()
    processes.add_argument(
        "--reload", action="store_true", help="restart when the code changes"
    )
    processes.add_argument(
        "--workers",
        type=_count,
        default=None,
        help="worker processes (default: $WEB_CONCURRENCY, else 1)",
    )
    serve.set_defaults(handler=_serve)

    migrate = commands.add_parser(
        "migrate",
        help="bring the database schema up to date (or back to a revision)",
        description=(
            "Migrate the database up to --revision, or down to it when the database "
            "is already past it (going down drops what the later revisions added, "
            "with its data)."
        ),
    )
    migrate.add_argument(
        "--revision",
        default="head",
        help="target revision, later or earlier than the database's "
        "(default: %(default)s; base: before the first)",
    )
    migrate.add_argument(
        "--check",
        action="store_true",
        help="change nothing: list the pending migrations and exit 1 if there are any",
    )
    migrate.set_defaults(handler=_migrate)

    oag = commands.add_parser(
        "oag:generate",
        help="write the OpenAPI spec (OAG_PATH and its .json twin) from the resources",
        description=(
            "Build the OpenAPI document from the resources as they are in the code "
            "(app.resources.RESOURCES) and write it as YAML to OAG_PATH "
            "(resources/oag.yaml unless configured otherwise) and as JSON beside it."
        ),
    )
    oag.set_defaults(handler=_oag_generate)
    _add_create_user(commands)
    secret = commands.add_parser(
        "jwt:secret",
        help="print a new JWT_SECRET (32 random bytes, base64)",
    )
    secret.set_defaults(handler=_jwt_secret)
    prune = commands.add_parser(
        "prune-history",
        help="remove the history of changes older than a duration (90d, 12h, 2w)",
    )
    prune.add_argument(
        "--older-than",
        type=_age,
        required=True,
        metavar="DURATION",
        help="a number and a unit: m, h, d or w (90d: 90 days)",
    )
    prune.set_defaults(handler=_prune_history)
    return parser


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number (0-65535)")
    return int(text)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a number of workers (1 or more)"
        )
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named in ``argv``; returns the exit code."""
    args = _parser().parse_args(argv)
    error = _configuration_error()
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
