"""The production OpenMP runtime the host's threads run on, loaded into this process
before compiled host code runs (its GOMP_* and omp_* symbols resolve to it).

Which one, first found:
1. OMP2GPU_OPENMP_RUNTIME: `gomp`, `iomp5`, or a path to a shared library that
   implements the GOMP entry points;
2. libgomp, GCC's runtime, where GCC is installed (the one `gcc -fopenmp` programs use);
3. libiomp5 from the `intel-openmp` wheel, which `pip install 'omp2gpu[openmp]'` brings
   on x86-64 Linux (Intel's and LLVM's runtime, which implements the GOMP entry points
   too): an extra, for machines without GCC's libgomp.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu import config
from omp2gpu.diagnostics import CompileError

ENVIRONMENT = config.Settings.openmp_runtime.name


@dataclass(frozen=True)
class OpenMPRuntime:
    name: str           # "libgomp" or "libiomp5"
    path: str


def _wheel_libiomp5() -> Path | None:
    """libiomp5.so as the intel-openmp wheel installs it (into the environment's lib/)."""
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(sys.executable)))):
        candidate = Path(prefix) / "lib" / "libiomp5.so"
        if candidate.exists():
            return candidate
    return None


def _libgomp() -> str | None:
    return ctypes.util.find_library("gomp")


def candidates() -> list[OpenMPRuntime]:
    """The runtimes this machine has, in the order they are preferred."""
    choice = config.settings().openmp_runtime or ""
    gomp, iomp5 = _libgomp(), _wheel_libiomp5()
    found = {"gomp": gomp and OpenMPRuntime("libgomp", gomp),
             "iomp5": iomp5 and OpenMPRuntime("libiomp5", str(iomp5))}
    if choice in found:
        return [found[choice]] if found[choice] else []
    if choice:
        return [OpenMPRuntime(Path(choice).name, choice)]
    return [runtime for runtime in (found["gomp"], found["iomp5"]) if runtime]


@cache
def load() -> OpenMPRuntime:
    """Load the runtime (once); a clear error when there is none."""
    for runtime in candidates():
        try:
            ctypes.CDLL(runtime.path, mode=ctypes.RTLD_GLOBAL)
            llvm.load_library_permanently(runtime.path)
        except (OSError, RuntimeError):
            continue
        return runtime
    chosen = config.settings().openmp_runtime
    why = f"{ENVIRONMENT}={chosen} cannot be loaded" if chosen else "neither libgomp nor libiomp5 was found"
    raise CompileError(f"no OpenMP runtime for the host: {why}; install GCC's libgomp "
                       "(e.g. apt install libgomp1) or Intel's (`pip install 'omp2gpu[openmp]'`), or set "
                       f"{ENVIRONMENT} to a libgomp/libiomp5 shared library")


def link_flags() -> list[str]:
    """How the host's OpenMP runtime is linked: libgomp by name (as gcc -fopenmp does), any
    other by its path with a run-time path to its folder."""
    for found in candidates():
        if found.name == "libgomp":
            return ["-lgomp"]
        if os.path.isfile(found.path):
            return [found.path, f"-Wl,-rpath,{os.path.dirname(os.path.abspath(found.path))}"]
    raise CompileError("no OpenMP runtime for the host to link with",
                       hint="install GCC's libgomp (e.g. apt install libgomp1) or Intel's "
                            "(`pip install 'omp2gpu[openmp]'`)")
