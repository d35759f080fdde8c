"""Machine code for `run` made in two processes at once: this one and a fork each
emit an object file for about half of the module's functions, and jit() loads
both into one MCJIT engine (or, for machine_code_cache, made here in one piece)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

import llvmlite.binding as llvm

from omp2gpu import config
from omp2gpu.deep_stack import waiting_threads
from omp2gpu.targets.host.machine import JIT_CODEGEN_LEVEL, prepare, target_machine
from omp2gpu.targets.host.optimisation import global_dce

# Machine code for `run` is made in two processes (this one and a fork) when the
# module has at least this many basic blocks (precompile); below it a fork costs more
# than it saves. OMP2GPU_PARALLEL_JIT=0 turns this off, =always makes it split any module.
PARALLEL_JIT_MIN_BLOCKS = 300
# Share of a function's code-generation time that this process spends on one the
# other process compiles and that this process's code calls: LLVM's IR-level codegen
# passes still run over its (available_externally) body.
_FOREIGN_BODY_COST = 0.2


@dataclass(frozen=True)
class MachineCode:
    """A module's machine code made ahead of jit(): object files, the static
    constructors to run in order once they are loaded, and the symbols it takes from
    the process (libc's, the OpenMP runtime's, the launcher's)."""
    objects: tuple[bytes, ...]
    constructors: tuple[str, ...]
    imports: tuple[str, ...] = ()


def precompile(module, parallel: bool | None = None, whole: bool = False) -> MachineCode | None:
    """Machine code for `module` made now in two processes, this one and a fork (see
    _compile_in_two_processes), or None, where jit() is to compile the module itself;
    `whole`: instead of None, the module's machine code made here in one object, to be
    kept (machine_code_cache). `parallel` None: when the module has
    PARALLEL_JIT_MIN_BLOCKS basic blocks and this process can fork safely, which is why
    `run` calls this before the offload runtime starts any thread. The module is
    changed (its local symbols become hidden external ones); jit() takes it with the
    result."""
    ref = prepare(module)
    code = _precompile_split(ref, parallel)
    if code is None and whole:
        tm = target_machine(opt_level=JIT_CODEGEN_LEVEL, jit=True)
        code = MachineCode((tm.emit_object(ref),), tuple(_constructors(ref)))
    return code and replace(code, imports=tuple(imported_symbols(ref)))


def imported_symbols(module: llvm.ModuleRef) -> list[str]:
    """The functions and variables `module` uses but does not define (intrinsics aside)."""
    return [value.name for value in (*module.functions, *module.global_variables)
            if value.is_declaration and not value.name.startswith("llvm.")]


def _precompile_split(ref: llvm.ModuleRef, parallel: bool | None) -> MachineCode | None:
    if parallel is None and config.settings().parallel_jit == "always":
        parallel = True   # for tests: every module, however small
    if parallel is False or not (parallel or _can_fork()):
        return None
    sizes = {f: len(list(f.blocks)) for f in ref.functions if not f.is_declaration}
    if not parallel and sum(sizes.values()) < PARALLEL_JIT_MIN_BLOCKS:
        return None
    return _compile_in_two_processes(ref, target_machine(opt_level=JIT_CODEGEN_LEVEL, jit=True), sizes)


def _can_fork() -> bool:
    if config.settings().parallel_jit == "0" or not hasattr(os, "fork"):
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
        threads = len(os.listdir("/proc/self/task"))
    except (AttributeError, OSError):
        return False
    # Only a single-threaded process forks safely: another thread (the CPU device's
    # workers, a CUDA driver thread) may hold a lock the child would wait on forever.
    # The CLI's main thread, only waiting for this compile thread, holds none.
    return cpus >= 2 and threads - waiting_threads() == 1 and _runnable_now() < cpus


def _runnable_now() -> int:
    """Threads running or ready to run in the whole system now, this one included
    (/proc/loadavg). Where no processor is idle, the fork only competes with this
    process for the same time, and the split's extra work (a fifth more) makes the
    machine code later, not sooner: measured with both processors busy, 0.63 s in two
    processes against 0.55 s in one; 0.31 s against 0.50 s with one idle."""
    try:
        with open("/proc/loadavg") as handle:
            return int(handle.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 1


_CTOR = re.compile(r'\{ i32 -?\d+, ptr @("(?:[^"\\]|\\.)*"|[-\w.$]+), ptr [^}]*\}')


def _constructors(ref: llvm.ModuleRef) -> list[str]:
    """The functions llvm.global_ctors names, in its order."""
    ctors_var = next((g for g in ref.global_variables if g.name == "llvm.global_ctors"), None)
    return [name.strip('"') for name in _CTOR.findall(str(ctors_var))] if ctors_var else []


def _compile_in_two_processes(ref: llvm.ModuleRef, tm: llvm.TargetMachine, sizes: dict):
    """Generate machine code for about half of `ref`'s functions (by `sizes`, their
    basic blocks) in a forked child and the rest here, at the same time: two object
    files for one MCJIT engine. None where the child failed (`ref` is then whole
    again, for MCJIT to compile here).

    The two objects reach each other's symbols through the engine's own symbol
    table, so every local definition first becomes a hidden external one under a
    name of its own (`name.omp2gpu.local`, never a libc name a libcall could find).
    A function compiled by the other process is available_externally here: not
    emitted, though referenced. Global variables are all emitted here, where main
    and the static constructors also live; the constructors are then run in the
    order of llvm.global_ctors (jit()), as ExecutionEngine.run_static_constructors does."""
    local = (llvm.Linkage.internal, llvm.Linkage.private)
    functions = list(sizes)
    for value in (*functions, *ref.global_variables):
        if not value.is_declaration and value.linkage in local:
            value.name = f"{value.name}.omp2gpu.local"
            value.linkage = llvm.Linkage.external
            value.visibility = llvm.Visibility.hidden
    ctors = _constructors(ref)
    ours, theirs = _split_for_two(functions, sizes, {"main", *ctors})
    linkages = {function: function.linkage for function in theirs}

    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:      # the child: emit its share, send it, vanish (os._exit: no atexit, no flushing)
        status = 1
        try:
            os.close(read_end)
            for function in ours:
                function.linkage = llvm.Linkage.available_externally
            for variable in ref.global_variables:
                if not variable.is_declaration and not variable.name.startswith("llvm."):
                    variable.linkage = llvm.Linkage.available_externally
            global_dce(ref)
            data = tm.emit_object(ref)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    pipe = os.fdopen(read_end, "rb")
    try:
        for function in theirs:
            function.linkage = llvm.Linkage.available_externally
        own_object = tm.emit_object(ref)
        their_object = pipe.read()
    finally:
        pipe.close()                   # a child still writing gets EPIPE and exits
        _, status = os.waitpid(pid, 0)
    if status != 0 or not their_object:
        for function, linkage in linkages.items():   # whole again: compile it all here
            function.linkage = linkage
        return None
    return MachineCode((own_object, their_object), tuple(ctors))


def _split_for_two(functions, sizes: dict, pinned: set[str]):
    """(ours, theirs): `pinned` functions stay here; each other one, largest first,
    goes where it leaves the larger of the two loads smaller. Ours is also charged
    _FOREIGN_BODY_COST of each of theirs."""
    ours, theirs = [], []
    ours_load = their_load = 0.0
    for function in sorted(functions, key=lambda f: (f.name not in pinned, -sizes[f])):
        size = sizes[function]
        if function.name in pinned or max(ours_load + size, their_load) \
                <= max(ours_load + size * _FOREIGN_BODY_COST, their_load + size):
            ours.append(function)
            ours_load += size
        else:
            theirs.append(function)
            their_load += size
            ours_load += size * _FOREIGN_BODY_COST
    return ours, theirs
