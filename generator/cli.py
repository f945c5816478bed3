"""The ``panelforge`` command line: arguments, progress, messages and exit codes.

It decides nothing: every command calls :mod:`generator.commands` and reports the
outcome.
Exit codes: 0 ok, 1 a problem the user can fix, 2 usage, 3 internal error, 4 a
database ``inspect`` cannot reach.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .cli_inspect import add_inspect_command
from .errors import GeneratorError
from .regen.changes import STATUSES

if TYPE_CHECKING:
    from .model import ir
    from .regen.changes import Update
    from .regen.drift import CheckReport, Drift

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _progress_printer(quiet: bool) -> Callable[[str], None]:
    """Per-step lines on a terminal; nothing with --quiet or when piped."""
    if quiet or not sys.stderr.isatty():
        return lambda _step: None
    return lambda step: print(f"  {step}…", file=sys.stderr, flush=True)


def _describe(project: ir.Project) -> str:
    count = len(project.resources)
    noun = "resource" if count == 1 else "resources"
    return f"{project.framework} project '{project.name}' ({count} {noun})"


def _print_update(update: Update, dest: Path, *, diff: bool) -> None:
    """One line per file that changes, the diffs if asked, then a summary."""
    if update.fresh and not update.dry_run:
        print(f"generated {_describe(update.project)} in {dest}")
        return
    if update.plan is not None and update.plan.changes:
        print("schema changes:")
        for line in update.plan.lines():
            print(f"  {line}")
    for change in update.reported:
        note = f" ({change.note})" if change.note else ""
        print(f"  {change.status:<9} {change.path}{note}")
    if diff:
        for change in update.reported:
            sys.stdout.write(change.diff())
    counts = [
        f"{update.count(status)} {status}"
        for status in STATUSES
        if status != "unchanged" and update.count(status)
    ]
    verb = "generate" if update.fresh else "update"
    verb = f"would {verb}" if update.dry_run else f"{verb}d"
    if counts:
        print(f"{verb} {_describe(update.project)} in {dest}: {', '.join(counts)}")
    else:
        print(f"{_describe(update.project)} in {dest} is up to date")
    if update.dry_run:
        print("dry run: nothing was written")


def _report_conflicts(update: Update) -> int:
    conflicts = update.conflicts
    if not conflicts:
        return EXIT_OK
    noun = "file needs" if len(conflicts) == 1 else "files need"
    print(
        f"error: {len(conflicts)} {noun} your attention (conflicts are marked "
        "'<<<<<<< yours' … '>>>>>>> generated'); resolve, then commit:",
        file=sys.stderr,
    )
    for change in conflicts:
        print(f"  {change.path} ({change.note})", file=sys.stderr)
    return EXIT_USER


def _cmd_generate(args: argparse.Namespace) -> int:
    from .commands import generate

    update = generate(
        args.manifest,
        args.output,
        framework=args.framework,
        force=args.force,
        use_cache=not args.no_cache,
        dry_run=args.dry_run,
        allow_drop=tuple(args.allow_drop),
        progress=_progress_printer(args.quiet),
    )
    if not args.quiet or args.diff:
        _print_update(update, args.output, diff=args.diff)
    for warning in update.warnings:  # even with --quiet: they concern the data
        print(f"warning: {warning}", file=sys.stderr)
    return _report_conflicts(update)


def _cmd_check(args: argparse.Namespace) -> int:
    from .commands import check

    report = check(
        args.manifest,
        args.output,
        strict=args.strict,
        use_cache=not args.no_cache,
        progress=_progress_printer(args.quiet),
    )
    name = report.project.manifest_name
    for note in report.notes if not args.quiet else ():
        print(f"note: {note}", file=sys.stderr)
    if report.ok:
        if not args.quiet:
            print(f"{args.output}: up to date with {name}")
            _print_drift(report.edits, sys.stdout)
        return EXIT_OK
    if not args.quiet:
        _print_drift(report.edits, sys.stdout)
    count = len(report.problems)
    noun = "file" if count == 1 else "files"
    print(
        f"error: '{args.output}' has drifted from {name} ({count} {noun}):",
        file=sys.stderr,
    )
    _print_drift(report.problems, sys.stderr)
    print(f"hint: {_check_hint(report, args.output)}", file=sys.stderr)
    return EXIT_USER


def _print_drift(drift: Sequence[Drift], stream: TextIO) -> None:
    for item in drift:
        note = f" ({item.note})" if item.note else ""
        print(f"  {item.kind:<9} {item.path}{note}", file=stream)


def _check_hint(report: CheckReport, dest: Path) -> str:
    kinds = {d.kind for d in report.problems}
    hints = []
    if "conflict" in kinds:
        hints.append("resolve the conflicts ('<<<<<<< yours' … '>>>>>>> generated')")
    if kinds & {"missing", "outdated", "extra"}:
        hints.append(f"'panelforge generate MANIFEST -o {dest}' brings it up to date")
    elif "leftover" in kinds:
        hints.append(
            f"'panelforge generate MANIFEST -o {dest}' removes what an interrupted "
            "run left"
        )
    if "invalid" in kinds:
        hints.append("correct your edits of the spec, or remove them")
    if "modified" in kinds:
        hints.append(
            "move edits of generated files to app/hooks/, or check without --strict "
            "(edits that regenerating keeps pass)"
        )
    return "; ".join(hints)


def _cmd_validate(args: argparse.Namespace) -> int:
    from .commands import validate

    project = validate(args.manifest)
    if not args.quiet:
        print(f"{args.manifest}: ok ({len(project.resources)} resources)")
    return EXIT_OK


def _cmd_spec(args: argparse.Namespace) -> int:
    from .commands import write_spec

    written = write_spec(
        args.manifest, args.output, progress=_progress_printer(args.quiet)
    )
    if not args.quiet:
        for path in written:
            print(f"wrote {path}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="panelforge",
        description="Generate an admin panel project from a YAML resource manifest.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    gen = commands.add_parser("generate", help="render a project from a manifest")
    gen.add_argument("manifest", type=Path, help="the YAML resource manifest")
    gen.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="DEST",
        help="project folder to create, or to update when panelforge made it",
    )
    gen.add_argument(
        "--framework", choices=("fastapi", "django"), help="override project.framework"
    )
    gen.add_argument(
        "--force",
        action="store_true",
        help="replace a non-empty DEST (an existing project's edits are lost)",
    )
    gen.add_argument(
        "--dry-run",
        action="store_true",
        help="show what would change, write nothing",
    )
    gen.add_argument(
        "--diff", action="store_true", help="also print a unified diff per file"
    )
    gen.add_argument(
        "--allow-drop",
        action="append",
        default=[],
        metavar="NAME",
        help="accept dropping a resource's table (Ticket) or a field's column "
        "(Ticket.notes) and its data; repeatable",
    )
    gen.add_argument(
        "--no-cache", action="store_true", help="do not use the formatter cache"
    )
    gen.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing on success"
    )
    gen.set_defaults(handler=_cmd_generate)

    val = commands.add_parser("validate", help="check a manifest without generating")
    val.add_argument("manifest", type=Path, help="the YAML resource manifest")
    val.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing on success"
    )
    val.set_defaults(handler=_cmd_validate)

    chk = commands.add_parser(
        "check",
        help="check that a project is up to date with its manifest (for CI)",
        description=(
            "Exit 0 when regenerating DEST from MANIFEST would change nothing: edits "
            "of generated files that regenerating keeps are listed, not failures. "
            "Exit 1 with the files that drifted when the manifest (or panelforge) "
            "moved on, a file is missing, conflict markers are left, or an edited "
            "spec does not validate. Writes nothing."
        ),
    )
    chk.add_argument(
        "manifest",
        type=Path,
        nargs="?",
        help="the YAML resource manifest (default: DEST/.panelforge/manifest.yaml)",
    )
    chk.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="DEST",
        help="the generated project",
    )
    chk.add_argument(
        "--strict",
        action="store_true",
        help="also fail on any edit of a generated file (DEST must be exactly "
        "what MANIFEST generates; edits in app/hooks/ allowed)",
    )
    chk.add_argument(
        "--no-cache", action="store_true", help="do not use the formatter cache"
    )
    chk.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing when up to date"
    )
    chk.set_defaults(handler=_cmd_check)

    spec = commands.add_parser("spec", help="write only oag.yaml and oag.json")
    spec.add_argument("manifest", type=Path, help="the YAML resource manifest")
    spec.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="DIR",
        help="folder for the two files",
    )
    spec.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing on success"
    )
    spec.set_defaults(handler=_cmd_spec)

    add_inspect_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except GeneratorError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `panelforge generate … | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception:
        traceback.print_exc()
        print(
            "error: internal error in panelforge; please report it with your manifest",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
