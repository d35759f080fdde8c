"""The host machine as LLVM sees it: native target initialisation, target
machines (created once per process), and modules given its triple and layout."""

from __future__ import annotations

from functools import lru_cache

import llvmlite.binding as llvm


@lru_cache(maxsize=None)
def initialise() -> None:
    """Initialise the native target once. llvmlite >= 0.45 initialises the LLVM
    core itself and `llvm.initialize()` raises, so it is not called."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()


@lru_cache(maxsize=None)
def target_machine(opt_level: int = 2, code_model: str = "small") -> llvm.TargetMachine:
    """The host target machine: position-independent code that links into a default (PIE)
    executable or a shared library, in `code_model` ("medium" for a module with large
    static data: static_data.code_model)."""
    initialise()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt_level,
        reloc="pic",
        codemodel=code_model,
    )


def as_module_ref(module) -> llvm.ModuleRef:
    """A ModuleRef for `module` (a ModuleRef is returned as is)."""
    if isinstance(module, llvm.ModuleRef):
        return module
    return llvm.parse_assembly(str(module))


def prepare(module) -> llvm.ModuleRef:
    """Give the module the host triple and data layout (needed before linking
    modules together, and before any optimisation)."""
    ref = as_module_ref(module)
    tm = target_machine()
    ref.triple = tm.triple
    ref.data_layout = str(tm.target_data)
    return ref


def verify(module: llvm.ModuleRef) -> None:
    """Raise RuntimeError with LLVM's message if the IR is malformed (a
    compiler bug, never a user error)."""
    try:
        module.verify()
    except RuntimeError as err:
        raise RuntimeError(f"LLVM IR verification failed: {err}") from None


@lru_cache(maxsize=None)
def instruction_sets() -> frozenset[str]:
    """The processor's name and the instruction-set extensions LLVM finds on it ("avx2",
    "sse4.2", ...): what an OpenMP `isa(...)` selector may name for this host."""
    initialise()
    features = llvm.get_host_cpu_features()
    return frozenset({llvm.get_host_cpu_name(), *(name for name, present in features.items() if present)})
