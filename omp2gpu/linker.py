"""Several translation units -> one program, as a C linker joins object files.

Each unit (driver.compile_unit: a .c file, or one read from an omp2gpu object)
carries three LLVM modules: the host code, the GPU device module and the CPU
device module, with the launcher's description of each module's kernels. The
linker joins each kind with LLVM's module linker, after checking what a C
linker checks: one definition per external symbol (`multiple definition of
'x'`, naming both files), and, on the device, that what a kernel calls in
another file has a device copy there (its definition is `declare target`).
`static` symbols stay each file's own (LLVM renames the second of two internal
symbols of one name); kernel names are unique because each carries its file's
id (offload_host.OffloadHostOpenMP.unit_id).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import llvmlite.binding as llvm

from omp2gpu.diagnostics import CompileError

_LOCAL = (llvm.Linkage.internal, llvm.Linkage.private)
# Definitions that a linker merges instead of calling them duplicates (C99 inline, ...).
_MERGEABLE = (llvm.Linkage.linkonce_any, llvm.Linkage.linkonce_odr, llvm.Linkage.weak_any,
              llvm.Linkage.weak_odr, llvm.Linkage.common, llvm.Linkage.appending,
              llvm.Linkage.available_externally)


@dataclass
class DeviceCode:
    """One device module (GPU or CPU device) as the launcher gets it: LLVM IR text and
    offload.abi.KernelInfo per kernel name."""
    module_text: str
    kernels: dict = field(default_factory=dict)
    # the declare target variables it defines: a module with no kernel is kept for them
    variables: tuple = ()

    @property
    def needed(self) -> bool:
        """Whether an image must hold it: it has kernels, or declare target variables."""
        return bool(self.kernels or self.variables)

    def parse(self) -> llvm.ModuleRef:
        return llvm.parse_assembly(self.module_text)


@dataclass
class CompiledUnit:
    """One translation unit, compiled, not yet linked."""
    name: str                    # the source file (or archive member) it came from
    host: llvm.ModuleRef         # host code, host triple, no runtime linked in
    gpu: DeviceCode | None = None
    cpu: DeviceCode | None = None
    prototypes: dict = field(default_factory=dict)   # name -> codegen.prototypes.Prototype (C files only)
    # What the GPU build made of each target region (codegen's BuiltKernel), and its
    # remarks (where a region runs on the host, why): lib.kernels reads them (C files only).
    gpu_kernels: list = field(default_factory=list)
    gpu_remarks: list = field(default_factory=list)
    large_objects: list = field(default_factory=list)   # targets.host.StaticObject (C files only)


def external_definitions(module: llvm.ModuleRef) -> set[str]:
    """Names `module` defines for other modules (a strong definition each)."""
    return {value.name for value in (*module.functions, *module.global_variables)
            if not value.is_declaration and value.linkage not in _LOCAL + _MERGEABLE
            and not value.name.startswith("llvm.")}


def references(module: llvm.ModuleRef) -> set[str]:
    """Names `module` uses but does not define."""
    return {value.name for value in (*module.functions, *module.global_variables)
            if value.is_declaration and not value.name.startswith("llvm.")}


def check_one_definition(units: list[CompiledUnit]) -> None:
    """`multiple definition of 'x'`, as ld says it, for an external symbol two units define."""
    first: dict[str, str] = {}
    for unit in units:
        for name in sorted(external_definitions(unit.host)):
            if name in first:
                raise CompileError(f"{unit.name}: multiple definition of '{name}'; "
                                   f"{first[name]}: first defined here")
            first[name] = unit.name


def link_host(units: list[CompiledUnit]) -> llvm.ModuleRef:
    """The units' host modules joined into the first (which `units[0].host` becomes)."""
    check_one_definition(units)
    program = units[0].host
    for unit in units[1:]:
        _link(program, unit.host, unit.name)
    return program


def link_device(units: list[CompiledUnit], kind: str, host_definitions: dict[str, str]) -> DeviceCode | None:
    """The units' `kind` ("gpu" or "cpu") device modules joined, or None when no unit has
    kernels. `host_definitions`: name -> the unit defining it on the host, to say where
    a device reference to a function with no device copy should be made `declare target`."""
    present = [(unit, getattr(unit, kind)) for unit in units if getattr(unit, kind) is not None]
    if not any(code.needed for _, code in present):
        return None
    kernels: dict = {}
    for unit, code in present:
        for name, info in code.kernels.items():
            if name in kernels:
                raise CompileError(f"{unit.name}: multiple definition of kernel '{name}' "
                                   "(the same file linked twice?)")
            kernels[name] = info
    if len(units) == 1:          # one file: its device module holds all it calls
        return present[0][1]
    modules = [(unit, code.parse()) for unit, code in present]
    defined = set().union(*(external_definitions(module) for _, module in modules))
    for unit, module in modules:
        for name in sorted(references(module) & set(host_definitions) - defined):
            raise CompileError(
                f"{unit.name}: undefined reference to '{name}' in device code",
                hint=f"a target region uses '{name}', defined in {host_definitions[name]}: "
                     "put its definition inside '#pragma omp declare target'")
    if len(present) == 1:
        return present[0][1]
    program = modules[0][1]
    for unit, module in modules[1:]:
        _link(program, module, f"{unit.name} ({kind} device code)")
    return DeviceCode(str(program), kernels, tuple(sorted(set().union(*(code.variables for _, code in present)))))


def _link(program: llvm.ModuleRef, other: llvm.ModuleRef, what: str) -> None:
    try:
        program.link_in(other)
    except RuntimeError as err:
        # Duplicates are caught before; what is left is a type clash of one name.
        raise CompileError(f"cannot link {what}: {str(err).strip()}") from None


# --- runtimes linked into a program ------------------------------------------------

def exported_values(module: llvm.ModuleRef) -> dict[str, object]:
    """Its definitions other modules can see (strong or weak): name -> value."""
    local = (llvm.Linkage.internal, llvm.Linkage.private)
    return {value.name: value for value in (*module.functions, *module.global_variables)
            if not value.is_declaration and value.linkage not in local}


def yield_to_program(runtime: llvm.ModuleRef, program: llvm.ModuleRef) -> None:
    """Like a C library, the runtime gives way where the program defines the
    same symbol (say its own omp_get_wtime): its copy becomes weak."""
    ours = exported_values(program)
    for name, value in exported_values(runtime).items():
        if name in ours:
            value.linkage = llvm.Linkage.weak_any


def link_into(program: llvm.ModuleRef, other: llvm.ModuleRef, what: str) -> None:
    """`other` (a runtime, say) linked into `program`; `what` names it in the error."""
    try:
        program.link_in(other)
    except RuntimeError as err:
        # The only way valid modules fail to link: one symbol defined twice.
        raise CompileError(f"cannot link {what} into {program.name}: {err}") from None
