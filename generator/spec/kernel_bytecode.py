"""The panel kernel's compiled modules, kept in the user cache between runs.

panelforge imports the kernel (``templates/project/_shared/panel_core``) from the
template tree, where no ``__pycache__`` may appear, so Python compiles the modules it
needs on every run (~0.1 s). :class:`KernelFinder` finds the kernel's modules
instead of Python's own finder, and its loader keeps each module's code object in a
cache folder, named by a digest of the source, its path and Python's bytecode magic
number: an edited module or another Python compiles afresh, and the template tree is
never written to.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import marshal
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import CodeType, ModuleType

from ..paths import write_cache_file

_cache_dir: Path | None = None  # where the kernel's compiled modules are kept


def keep_kernel_bytecode(cache_dir: Path | None) -> None:
    """Keep the kernel's compiled modules in ``cache_dir`` from the kernel's first
    load on (``None``, the default: compile them on every run)."""
    global _cache_dir
    _cache_dir = cache_dir


def kernel_finder(package: str, directory: Path) -> KernelFinder | None:
    """The finder of ``package`` in ``directory``, if its bytecode is to be kept."""
    return None if _cache_dir is None else KernelFinder(package, directory, _cache_dir)


class _CachingLoader(importlib.machinery.SourceFileLoader):
    """Python's source loader, with the code object taken from ``cache_dir``."""

    def __init__(self, fullname: str, path: str, cache_dir: Path) -> None:
        super().__init__(fullname, path)
        self.cache_dir = cache_dir

    def get_code(self, fullname: str) -> CodeType:  # noqa: ARG002 (the protocol's)
        source = self.get_data(self.path)
        digest = hashlib.sha256(importlib.util.MAGIC_NUMBER)
        digest.update(self.path.encode("utf-8", "surrogateescape") + b"\0" + source)
        name = digest.hexdigest()
        cached = self.cache_dir / name[:2] / name
        try:
            code = marshal.loads(cached.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            code = None
        if isinstance(code, CodeType):
            return code
        code = self.source_to_code(source, self.path)
        write_cache_file(cached, marshal.dumps(code))
        return code


class KernelFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of the package ``package`` (the kernel) in ``directory``."""

    def __init__(self, package: str, directory: Path, cache_dir: Path) -> None:
        self.package = package
        self.directory = directory
        self.cache_dir = cache_dir

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,  # noqa: ARG002 (the protocol's)
        target: ModuleType | None = None,  # noqa: ARG002
    ) -> ModuleSpec | None:
        head, _, rest = fullname.partition(".")
        if head != self.package:
            return None
        folder = self.directory.joinpath(*rest.split(".")) if rest else self.directory
        if (folder / "__init__.py").is_file():
            file, search = folder / "__init__.py", [str(folder)]
        elif folder.with_suffix(".py").is_file():
            file, search = folder.with_suffix(".py"), None
        else:
            return None
        loader = _CachingLoader(fullname, str(file), self.cache_dir)
        return importlib.util.spec_from_file_location(
            fullname, file, loader=loader, submodule_search_locations=search
        )
