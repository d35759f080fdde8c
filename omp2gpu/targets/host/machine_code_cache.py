"""A program's machine code kept on disk between runs: a program run again unchanged
skips LLVM's -O pipeline and its code generation, about two thirds of `run`'s
start-up for bench/startup's 2,000-line program.

An entry's key hashes everything its code follows from: the module's IR before
optimisation (so the program, every header it includes, its -D flags and the
runtimes linked into it), the optimisation and code-generation levels, the host's
triple, CPU and CPU features, LLVM's version, and omp2gpu's and llvmlite's
(disk_cache.compiler_key: every module of the package). disk_cache's entries check
themselves when read, are written safely beside other runs, are pruned to a size
and are turned off by OMP2GPU_CODE_CACHE=0.
"""

from __future__ import annotations

import hashlib

import llvmlite.binding as llvm

from omp2gpu.disk_cache import code_cache_enabled, compiler_key, entry_path, read_entry, write_entry
from omp2gpu.targets.host.machine import initialise
from omp2gpu.targets.host.two_process_codegen import MachineCode


def entry_key(ir_text: str, *levels: int) -> str:
    """The key of the machine code made from `ir_text` at `levels` (optimisation, code
    generation) on this host by this compiler."""
    initialise()
    host = "|".join([llvm.get_process_triple(), llvm.get_host_cpu_name(),
                     llvm.get_host_cpu_features().flatten(),
                     ".".join(map(str, llvm.llvm_version_info)), *map(str, levels)])
    digest = hashlib.sha256(compiler_key([], salt=host).encode())
    digest.update(ir_text.encode())
    return digest.hexdigest()[:40]


def program_key(module: llvm.ModuleRef, opt_level: int, codegen_level: int) -> str | None:
    """The key of `module`'s machine code (unoptimised, about to be run), or None when
    the cache is off."""
    return entry_key(str(module), opt_level, codegen_level) if code_cache_enabled() else None


def cached_program(key: str | None) -> MachineCode | None:
    entry = read_entry(entry_path("program", key)) if key else None
    if entry is None or not entry[1]:
        return None
    names, objects = entry
    try:
        return MachineCode(objects, tuple(names["constructors"]), tuple(names["imports"]))
    except (KeyError, TypeError):
        return None


def keep_program(key: str | None, code: MachineCode | None) -> None:
    if key and code is not None:
        write_entry(entry_path("program", key), {"constructors": list(code.constructors),
                                                  "imports": list(code.imports)}, code.objects)
