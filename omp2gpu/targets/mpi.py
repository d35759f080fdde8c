"""The MPI a C program is built with: found as its compiler wrapper finds it, so
`<mpi.h>` and the library are the ones `mpiexec` expects (MPI programs are never given
a home-made transport).

The wrapper is, in order: $OMP2GPU_MPICC (or $MPICC), the `mpicc` of this Python
environment (the `mpi` extra installs MPICH's wheel there), the `mpicc` on PATH. Its
`-show` (MPICH) or `--showme` (Open MPI) prints the include folders and libraries it
would compile and link with. The headers are looked up only when a program includes
one the bundled headers lack (pipeline.preprocess_file); the library is linked only
when the program calls MPI (native_link.library_flags).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache

from omp2gpu import config

# Names only an MPI library defines: a program referring to one is linked with it.
SYMBOL_PREFIXES = ("MPI_", "PMPI_", "MPIX_")
HEADERS = ("mpi.h",)


@dataclass(frozen=True)
class Mpi:
    wrapper: str                        # the mpicc it was found through
    include_dirs: tuple[str, ...]
    library_dirs: tuple[str, ...]
    libraries: tuple[str, ...]          # as after -l


@lru_cache(maxsize=None)
def find() -> Mpi | None:
    """The MPI in use, or None where no wrapper is found."""
    for wrapper in _wrappers():
        flags = _shown_flags(wrapper)
        if flags is not None:
            return _from_flags(wrapper, flags)
    return None


def missing_message() -> str:
    return ("no MPI found: install one with `pip install -e '.[mpi]'` (MPICH's wheel), or set "
            "OMP2GPU_MPICC to your MPI's mpicc")


def _wrappers():
    yield from filter(None, config.settings().mpi_wrappers)       # OMP2GPU_MPICC, MPICC
    local = os.path.join(sys.prefix, "bin", "mpicc")
    if os.access(local, os.X_OK):
        yield local
    on_path = shutil.which("mpicc")
    if on_path:
        yield on_path


def _shown_flags(wrapper: str) -> list[str] | None:
    for option in ("-show", "--showme"):
        try:
            result = subprocess.run([wrapper, option], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if result.returncode == 0 and result.stdout.strip():
            return shlex.split(result.stdout)
    return None


def _from_flags(wrapper: str, flags: list[str]) -> Mpi:
    include_dirs, library_dirs, libraries = [], [], []
    rpath_follows = False
    for flag in flags:
        if flag.startswith("-I"):
            include_dirs.append(flag[2:])
        elif flag.startswith("-L"):
            library_dirs.append(flag[2:])
        elif flag.startswith("-l"):
            libraries.append(flag[2:])
        elif flag.startswith("-Wl,"):
            # -Wl,-rpath -Wl,DIR or -Wl,-rpath,DIR: where the loader would look too
            parts = flag[4:].split(",")
            if rpath_follows:
                library_dirs.extend(parts)
            rpath_follows = parts[-1] == "-rpath"
            if parts[0] == "-rpath" and len(parts) > 1:
                library_dirs.extend(parts[1:])
    return Mpi(wrapper, tuple(include_dirs), tuple(dict.fromkeys(library_dirs)), tuple(libraries))
