"""Whole-module work before machine code: finding `main`, internalising a whole program
(or a shared library's module), LLVM's -O pipelines, and object files or assembly."""

from __future__ import annotations

import llvmlite.binding as llvm

from omp2gpu.targets.host.machine import NATIVE, prepare, target_machine, verify
from omp2gpu.targets.host.static_data import code_model
from omp2gpu.targets.llvm_options import partial_unrolling

_INTERNALISABLE = (llvm.Linkage.external, llvm.Linkage.weak_any, llvm.Linkage.weak_odr,
                   llvm.Linkage.linkonce_any, llvm.Linkage.linkonce_odr, llvm.Linkage.common)


def find_main(module: llvm.ModuleRef):
    """The defined `main` function, or None when there is none."""
    try:
        fn = module.get_function("main")
    except NameError:
        return None
    return None if fn.is_declaration else fn


def internalise(module: llvm.ModuleRef, keep=("main",)) -> None:
    """Give every definition but those named in `keep` internal linkage, then drop
    what nothing kept reaches (a whole program about to be linked has no other
    callers: the bundled runtime's unused omp_* functions, dead functions of the
    program). The optimiser then neither works on the dead code nor keeps an
    out-of-line copy of a function inlined everywhere."""
    kept = set(keep)
    for value in (*module.functions, *module.global_variables):
        if not value.is_declaration and value.name not in kept and not value.name.startswith("llvm.") \
                and value.linkage in _INTERNALISABLE:
            value.linkage = llvm.Linkage.internal
    global_dce(module)


def global_dce(module: llvm.ModuleRef) -> None:
    """Drop the internal definitions nothing else in `module` reaches."""
    builder = llvm.create_pass_builder(target_machine(), llvm.create_pipeline_tuning_options(0))
    passes = llvm.create_new_module_pass_manager()
    passes.add_global_dead_code_eliminate_pass()
    passes.run(module, builder)


def optimise(module, opt_level: int = 2, march: str = NATIVE, interleaving: bool = True) -> llvm.ModuleRef:
    """Run LLVM's default per-module pipeline for -O`opt_level` (new pass
    manager), in place, for -march=`march`'s processor (its vector widths and costs);
    -O0 still runs the O0 pipeline (always-inline). Below -O3 the loop vectoriser takes
    only the loops the program asks it to (OpenMP simd: codegen/loop_metadata.py), as gcc
    -O2 vectorises simd loops and, with its very-cheap cost model, next to no other: LLVM's
    O2 vectorises every loop it can, with a scalar remainder loop and interleaving, which
    on bench/startup's 50,000-line program doubled the object (2.4 against 1.3 MB) and
    took 13 of the 55 s of -O2 and code generation. SLP vectorisation stays.
    `interleaving`: whether a vectorised loop may also be unrolled into several vectors at
    a time (the CPU device's image at -O2 vectorises without it: native_image.py)."""
    if not 0 <= opt_level <= 3:
        raise ValueError(f"optimisation level must be 0-3, not {opt_level}")
    ref = prepare(module)
    verify(ref)
    partial_unrolling(opt_level >= 3)
    tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    tuning.loop_vectorization = opt_level >= 3
    tuning.loop_interleaving = interleaving
    builder = llvm.create_pass_builder(target_machine(opt_level, march=march), tuning)
    builder.getModulePassManager().run(ref, builder)
    return ref


def object_code(module, opt_level: int = 2, reassociating: bool = True, march: str = NATIVE) -> bytes:
    """An ELF relocatable object for the host (`cc prog.o -lm` links it), for -march=`march`.
    `reassociating`: the module may have floating-point operations that may be reassociated
    (-ffast-math)."""
    ref = prepare(module)
    _machine_combiner(reassociating)
    return target_machine(opt_level, code_model=code_model(ref), march=march).emit_object(ref)


def emit_assembly(module, opt_level: int = 2, reassociating: bool = True, march: str = NATIVE) -> str:
    """Host assembly text (`reassociating`, `march`: as object_code's)."""
    ref = prepare(module)
    _machine_combiner(reassociating)
    return target_machine(opt_level, code_model=code_model(ref), march=march).emit_assembly(ref)


def _machine_combiner(on: bool) -> None:
    """LLVM's x86 machine combiner reassociates chains of operations for instruction-level
    parallelism: fast-math floating-point chains above all. Without fast-math flags it
    changed 64 bytes of bench/startup's 50,000-line program's 4.8 MB object and took 14 of
    its 37 s of code generation (the pass is slow on long blocks: 16,000 instructions in
    that main), so it runs only where fast-math flags may be. A process-wide LLVM option,
    set for each module before its code is made."""
    llvm.set_option("", f"-x86-machine-combiner={'true' if on else 'false'}")
