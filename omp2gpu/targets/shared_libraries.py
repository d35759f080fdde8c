"""Shared libraries a program is linked with (`-l NAME`, `-L DIR`), loaded into the JIT
process so that their symbols resolve, as the system linker and loader would give them
to a compiled program. Static archives of C code are omp2gpu's own (object_file.py)."""

from __future__ import annotations

import ctypes.util
import os
import re
from collections.abc import Iterable

import llvmlite.binding as llvm

from omp2gpu.diagnostics import CompileError


def resolve(names: Iterable[str], directories: Iterable[str] = ()) -> tuple[str, ...]:
    """The file of each `-l NAME`: lib<NAME>.so in the -L directories in order, else the
    system's (ctypes.util.find_library, the loader's search). A missing one is an
    error, as ld's "cannot find -lNAME"."""
    directories = tuple(directories)
    files = []
    for name in names:
        found = next((path for directory in directories
                      if os.path.isfile(path := os.path.join(directory, f"lib{name}.so"))), None)
        found = found or ctypes.util.find_library(name)
        if found is None:
            raise CompileError(f"cannot find -l{name}",
                               hint="give its folder with -L DIR, or install the library")
        files.extend(_through_linker_script(found))
    return tuple(files)


_SCRIPT = re.compile(rb"^\s*(?:INPUT|GROUP)\s*\(([^)]*)\)")


def _through_linker_script(path: str) -> list[str]:
    """The libraries a linker script names (`INPUT(libmpi.so.12)`: wheels, which hold no
    symbolic links, give libNAME.so as one), or the file itself."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except OSError:
        return [path]
    match = _SCRIPT.match(head)
    if match is None:
        return [path]
    folder = os.path.dirname(path)
    return [name if os.path.isabs(name) else os.path.join(folder, name)
            for name in match.group(1).decode(errors="replace").replace(",", " ").split()]


def load(files: Iterable[str]) -> None:
    """Load each file into the process, its symbols visible to the JIT (RTLD_GLOBAL)."""
    for path in files:
        try:
            llvm.load_library_permanently(path)
        except RuntimeError as error:
            raise CompileError(f"cannot load {path}: {error}") from None
