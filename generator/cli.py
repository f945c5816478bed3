"""The ``panelforge`` command line: arguments, progress, messages and exit codes.

It decides nothing: every command calls the package API and reports the outcome.
Exit codes: 0 ok, 1 a problem the user can fix, 2 usage, 3 internal error.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from .errors import GeneratorError

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _progress_printer(quiet: bool) -> Callable[[str], None]:
    """Per-step lines on a terminal; nothing with --quiet or when piped."""
    if quiet or not sys.stderr.isatty():
        return lambda _step: None
    return lambda step: print(f"  {step}…", file=sys.stderr, flush=True)


def _cmd_generate(args: argparse.Namespace) -> int:
    from .pipeline import generate

    project = generate(
        args.manifest,
        args.output,
        framework=args.framework,
        force=args.force,
        use_cache=not args.no_cache,
        progress=_progress_printer(args.quiet),
    )
    if not args.quiet:
        count = len(project.resources)
        noun = "resource" if count == 1 else "resources"
        kind = f"{project.framework} project '{project.name}'"
        print(f"generated {kind} ({count} {noun}) in {args.output}")
    return EXIT_OK


def _cmd_validate(args: argparse.Namespace) -> int:
    from .manifest import load_manifest

    project = load_manifest(args.manifest)
    if not args.quiet:
        print(f"{args.manifest}: ok ({len(project.resources)} resources)")
    return EXIT_OK


def _cmd_spec(args: argparse.Namespace) -> int:
    from .pipeline import write_spec_only

    written = write_spec_only(
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
        help="project folder to create",
    )
    gen.add_argument(
        "--framework", choices=("fastapi", "django"), help="override project.framework"
    )
    gen.add_argument("--force", action="store_true", help="replace a non-empty DEST")
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
    except Exception:
        traceback.print_exc()
        print(
            "error: internal error in panelforge; please report it with your manifest",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
