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


def in_directories(name: str, directories: Iterable[str]) -> str | None:
    """`-l NAME` as ld finds it in the -L directories: in each directory in order,
    lib<NAME>.so, else lib<NAME>.a (an archive: omp2gpu's own, of `compile -c` objects)."""
    for directory in directories:
        for suffix in (".so", ".a"):
            if os.path.isfile(path := os.path.join(directory, f"lib{name}{suffix}")):
                return path
    return None


def archives(names: Iterable[str], directories: Iterable[str] = ()) -> tuple[str, ...]:
    """The static archives among the `-l` libraries: linked as inputs, not loaded."""
    found = (in_directories(name, directories) for name in names)
    return tuple(path for path in found if path and path.endswith(".a"))


def resolve(names: Iterable[str], directories: Iterable[str] = ()) -> tuple[str, ...]:
    """The shared file of each `-l NAME`: found in the -L directories in order
    (in_directories; an archive there is linked as an input, not resolved here), else the
    system's (ctypes.util.find_library, the loader's search). A missing one is an error,
    as ld's "cannot find -lNAME"."""
    directories = tuple(directories)
    files = []
    for name in names:
        found = in_directories(name, directories)
        if found and found.endswith(".a"):
            continue
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
