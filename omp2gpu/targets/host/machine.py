"""The host machine as LLVM sees it: native target initialisation, target
machines (created once per process), and modules given its triple and layout."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import lru_cache

import llvmlite.binding as llvm


@lru_cache(maxsize=None)
def initialise() -> None:
    """Initialise the native target once. llvmlite >= 0.45 initialises the LLVM
    core itself and `llvm.initialize()` raises, so it is not called."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()


# -march: the processor host code is made for. "native" (the default, as NVIDIA's HPC
# compilers' -tp native): this machine's, every instruction set it has; a binary then may
# not run on an older processor, nor under valgrind where the host has AVX-512. The x86-64
# levels (gcc's and Clang's names) make portable code: "x86-64" is gcc's default.
NATIVE = "native"
X86_64_LEVELS = ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
_PROCESSOR_NAME = re.compile(r"[a-z][a-z0-9_.-]*")


def validate_march(march: str) -> str:
    """`march` if it names a processor of 64-bit code (native, an x86-64 level, or a
    processor LLVM knows, as `skylake-avx512` or `znver3`); else ValueError."""
    if march == NATIVE or march in X86_64_LEVELS:
        return march
    if not _PROCESSOR_NAME.fullmatch(march) or not _llvm_knows(march):
        raise ValueError(f"-march={march}: not a processor omp2gpu can compile 64-bit code for (native, x86-64, "
                         "x86-64-v2, -v3, -v4, or a processor such as skylake-avx512 or znver3)")
    return march


@lru_cache(maxsize=None)
def _llvm_knows(cpu: str) -> bool:
    """Whether LLVM makes x86-64 code for `cpu`: it only says so on the process's stderr
    ("'cpu' is not a recognized processor"), and a 32-bit-only processor ends the process
    at the first code made ("64-bit code requested on a subtarget that doesn't support
    it"), so the name is tried in a child process."""
    probe = ("import llvmlite.binding as llvm; llvm.initialize_native_target(); "
             "llvm.initialize_native_asmprinter(); "
             "machine = llvm.Target.from_default_triple().create_target_machine(cpu=%r); "
             "machine.emit_object(llvm.parse_assembly('define void @f() { ret void }'))" % cpu)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    return done.returncode == 0 and "not a recognized processor" not in done.stderr


def processor(march: str = NATIVE) -> tuple[str, str]:
    """(LLVM's cpu name, its feature string) for -march=`march`."""
    if march == NATIVE:
        return llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    return march, ""


@lru_cache(maxsize=None)
def target_machine(opt_level: int = 2, code_model: str = "small", march: str = NATIVE) -> llvm.TargetMachine:
    """The host target machine for -march=`march`: position-independent code that links
    into a default (PIE) executable or a shared library, in `code_model` ("medium" for a
    module with large static data: static_data.code_model)."""
    initialise()
    target = llvm.Target.from_default_triple()
    cpu, features = processor(march)
    return target.create_target_machine(
        cpu=cpu,
        features=features,
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
