"""The device module: one kernel per target region, plus what the kernels call.

The device ModuleEmitter sees the host program through DeviceFileScope:
typedefs, tags and enum constants are the host's; functions and `declare
target` globals get device copies, emitted on first use (functions defined
in the translation unit are compiled for the device when a kernel calls
them, as OpenMP 5.0 allows); math.h calls become libdevice calls.
Each kernel's scope is a RegionScope over the host scope at the construct,
so block-scope typedefs work, and every variable the region uses from
outside is a kernel parameter (target_regions.py decides how).
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.builtins import Builtins
from omp2gpu.codegen.function import FunctionEmitter
from omp2gpu.codegen.ir_types import I8P
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.data import user_reductions
from omp2gpu.codegen.openmp.data.named_globals import named_global
from omp2gpu.codegen.openmp.gpu.printf import emit_fprintf, emit_printf
from omp2gpu.codegen.openmp.plan.device_refusals import function_refusal
from omp2gpu.codegen.openmp.runtime_entries import DeviceRuntime
from omp2gpu.codegen.ssa_repair import demote_undominated_values
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.tree_walks import holds
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.scopes import Scope, Symbol
from omp2gpu.sema.speculation.tree import SPECULATING, is_build_choice
from omp2gpu.targets import nvptx

# What the host scope declares that needs no storage on the device.
_COMPILE_TIME_KINDS = ("typedef", "enum-constant", user_reductions.SYMBOL_KIND)


class DeviceFileScope(Scope):
    def __init__(self, emitter, host_scope: Scope):
        super().__init__()
        self.emitter = emitter
        self.host_scope = host_scope

    def lookup(self, name: str):
        own = self.names.get(name)
        if own is not None:
            return own
        host = self.host_scope.lookup(name)
        if host is None or host.kind in _COMPILE_TIME_KINDS:
            return host
        if host.kind == "function":
            return self.emitter.device_function(host)
        return self.emitter.device_global(host)

    def lookup_tag(self, tag: str):
        return self.tags.get(tag) or self.host_scope.lookup_tag(tag)


class RegionScope(Scope):
    """A kernel's outermost scope: its captures, then the host scope for types only."""

    def __init__(self, host_scope: Scope, device_scope: DeviceFileScope):
        super().__init__()
        self.host_scope = host_scope
        self.device_scope = device_scope

    def lookup(self, name: str):
        own = self.names.get(name)
        if own is not None:
            return own
        host = self.host_scope.lookup(name)
        if host is None:
            return None
        if host.kind in _COMPILE_TIME_KINDS:
            return host
        return self.device_scope.lookup(name)

    def lookup_tag(self, tag: str):
        return self.tags.get(tag) or self.host_scope.lookup_tag(tag)


class DeviceModuleEmitter(ModuleEmitter):
    has_x86_fp80 = False         # NVPTX: a kernel using long double is refused (runs on the host)
    device_name = "gpu"          # whose rules say what it cannot compile (device_refusals.py)

    def __init__(self, host, openmp, declare_target_globals=frozenset(), name="device"):
        # One LLVM context and type resolver with the host: struct types are shared.
        super().__init__(name, openmp, Builtins(self.target_builtins()), host.context, host.resolver,
                         code_rules=host.code_rules)
        self.configure_module()
        self.host = host
        self.debug_info = self.debug_info_of(host)
        self.file_scope = DeviceFileScope(self, host.file_scope)
        self.declare_target_globals = set(declare_target_globals)
        self.pending: list[tuple] = []
        # Functions whose OpenMP constructs a kernel takes in as its own (inlined_callees.py).
        self.inlined_callees: dict = {}
        # Functions holding a critical construct (what a parallel region passes them is
        # team-shared on the team stack: team_sharing.py).
        self.critical_callees: frozenset = frozenset()
        # `declare target device_type(host)` functions: no device version (offload_host.py).
        self.host_only_functions: frozenset = frozenset()

    # ----------------------------------------------------------------- the target (NVPTX here;
    # the CPU device's module, cpu_workgroup.py, overrides these five)
    def target_builtins(self) -> dict:
        return nvptx_builtins()

    def configure_module(self) -> None:
        nvptx.configure_device_module(self.module)

    def library_function(self, name: str) -> str | None:
        """The device library's name for a C library function (math.h -> libdevice)."""
        return nvptx.LIBDEVICE_MATH.get(name)

    def mark_kernel(self, kernel: ir.Function) -> None:
        nvptx.mark_kernel(kernel)

    def debug_info_of(self, host):
        """-g's debug information for this module: the GPU's is line directives only."""
        return host.debug_info and host.debug_info.for_module(self.module, lines_only=True)

    # ----------------------------------------------------------------- on-demand symbols
    def device_function(self, host_symbol: Symbol) -> Symbol:
        name = host_symbol.name
        existing = self.file_scope.names.get(name)
        if existing is not None:
            return existing
        if name in self.host_only_functions:
            raise CompileError(f"'{name}' is 'declare target device_type(host)': it has no device version",
                               host_symbol.coord)
        ftype = host_symbol.ctype
        definition = self.host.function_definitions.get(name)
        libdevice_name = self.library_function(name)
        if definition is None and libdevice_name is not None:
            function = self._declare(libdevice_name, ftype)
        else:
            function = self._declare(name, ftype)
            if definition is not None:
                # The host's linkage: a static function stays the file's own when device
                # modules of several files are linked; an external one is what they call.
                function.linkage = host_symbol.address.linkage
                self.pending.append((definition, function, ftype))
        symbol = Symbol(name, ftype, "function", function, storage="global")
        self.file_scope.names[name] = symbol
        return symbol

    def _declare(self, name: str, ftype: ct.FunctionType) -> ir.Function:
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        return ir.Function(self.module, ftype.ir_type(), name=name)

    def device_global(self, host_symbol: Symbol) -> Symbol:
        name = host_symbol.name
        if host_symbol.storage != "global" or name not in self.declare_target_globals:
            raise CompileError(f"'{name}' is used on the device but is neither mapped nor "
                               "'declare target'", host_symbol.coord)
        variable = ir.GlobalVariable(self.module, host_symbol.ctype.ir_type(), name=name)
        if host_symbol.defined:
            # The launcher copies the host's value in when the module is loaded.
            variable.initializer = ir.Constant(host_symbol.ctype.ir_type(), None)
        # else `extern`: the device module of the file that defines it has the storage.
        variable.align = max(host_symbol.ctype.align, 1)
        symbol = Symbol(name, host_symbol.ctype, "object", variable, storage="global")
        self.file_scope.names[name] = symbol
        return symbol

    def export_declare_target(self, offload, with_functions: bool = True) -> list[str]:
        """Device copies of the file's `declare target` definitions that no kernel of the
        file used: its variables always (the program may `target update` them or ask
        omp_target_is_present about them), its functions under separate compilation, so
        that another file's kernels find them when the device modules are linked. A
        function the device cannot compile, as the file's facts say
        (device_refusals.function_refusal), is left out (a kernel calling it is then an
        undefined device reference): returns remarks."""
        remarks = []
        functions = offload.declare_target_functions & set(self.host.function_definitions) if with_functions \
            else set()
        for name in sorted(functions | set(offload.declare_target_globals)):
            host_symbol = self.host.file_scope.lookup(name)
            if host_symbol is None or not host_symbol.defined \
                    or host_symbol.address.linkage in ("internal", "private"):
                continue
            refusal = function_refusal(offload.unit_facts, name, self.device_name) if name in functions else None
            if refusal is not None:
                remarks.append(f"{SourceLocation.of(host_symbol.coord)}: remark: declare target "
                               f"'{name}' has no device copy: {refusal}")
                continue
            try:
                self.file_scope.lookup(name)
                self.emit_pending_functions()
            except CompileError as error:
                raise AssertionError(f"internal error: declare target '{name}' passed the device's rules but "
                                     f"cannot be compiled for it: {error.message} (device_refusals.py does "
                                     "not say so)") from error
        return remarks

    def declare_target_variables(self) -> tuple:
        """The names of the declare target variables this module defines (not `extern`)."""
        return tuple(sorted(name for name in self.declare_target_globals
                            if getattr(self.module.globals.get(name), "initializer", None) is not None))

    def emit_pending_functions(self) -> None:
        while self.pending:
            definition, function, ftype = self.pending.pop()
            emitter = FunctionEmitter(self, function, ftype, self.file_scope.child())
            emitter.emit_body(definition)

    # ----------------------------------------------------------------- kernels
    def emit_kernel(self, region, scheme) -> int | None:
        """The region's kernel, its body by `scheme`; what the body returns (the team-stack
        bytes per team the kernel needs, if any)."""
        hidden = scheme.hidden_params
        params = [capture.param_ir_type() for capture in region.captures] + [t for _, t in hidden]
        kernel = ir.Function(self.module, ir.FunctionType(ir.VoidType(), params), name=region.kernel_name)
        self.mark_kernel(kernel)
        # A launch the runtime may fuse with others: the region in a body the fused kernel calls too
        body = nvptx.fusion.region_body(kernel) if may_be_fused(region, scheme) else kernel
        for (name, _), argument in zip(hidden, body.args[len(region.captures):]):
            argument.name = name
        scope = RegionScope(region.scope, self.file_scope)
        cg = FunctionEmitter(self, body, ct.FunctionType(ct.VOID, ()), scope)
        declare_captures(cg, scope, region.captures, body.args)
        team_stack_bytes = scheme.emit_kernel_body(cg, region)
        cg.finish()
        if scheme.splits_into_states:
            demote_undominated_values(body)
        return team_stack_bytes


def may_be_fused(region, scheme) -> bool:
    """Whether the runtime may run the region's launch fused with others
    (targets/nvptx/fusion.py): only a target task that runs ahead is fused, one with
    `nowait` and no `depend`; a kernel with hidden parameters (the control loop's team
    stack) is not."""
    return not scheme.hidden_params and region.directive.in_target_task_running_ahead


def declare_captures(cg, scope, captures, arguments) -> None:
    """Name a region function's parameters after its captures and declare them in
    `scope`: one passed by reference is the mapped object itself, one passed by value
    gets a private, writable copy. A mapped object keeps its original's storage class,
    so that a task in the region shares a file-scope or static variable, as it would
    on the host (tasks.implicit_firstprivate)."""
    for capture, argument in zip(captures, arguments):
        argument.name = capture.name
        storage = "auto"
        if capture.kind == "object":
            address = argument
            if capture.symbol is not None and capture.symbol.storage != "register":
                storage = capture.symbol.storage
        else:
            address = cg.alloca(capture.ctype, capture.name)
            cg.builder.store(argument, cg.builder.bitcast(address, argument.type.as_pointer()))   # a struct's bytes
        scope.declare(Symbol(capture.name, capture.ctype, "object", address, storage=storage))


def uses_openmp_api(node) -> bool:
    """Whether code may ask omp_* questions: it names one, or calls a function that might."""
    return any(name.startswith("omp_") for name in free_identifiers(node)) or _calls_functions(node)


def _calls_functions(node) -> bool:
    """Whether code calls a function (not the builtin sema/speculation/ chooses forms by)."""
    return holds(node, lambda inner: isinstance(inner, c_ast.FuncCall) and not is_build_choice(inner))


def calls_openmp_api(node, definitions: dict, seen=None) -> bool:
    """Whether code may ask omp_* questions: it names one, or calls a function of the
    translation unit that might (library functions never do)."""
    seen = set() if seen is None else seen
    for name in free_identifiers(node):
        if name.startswith("omp_"):
            return True
        definition = definitions.get(name)
        if definition is not None and name not in seen:
            seen.add(name)
            if calls_openmp_api(definition.body, definitions, seen):
                return True
    return False


def kernel_init(cg, spmd: bool, nesting: ir.Value | None = None) -> None:
    """__kmpc_kernel_init: the team state the omp_* queries read (team_state.c);
    `nesting`: the kernel's per-thread depth of serialised regions (i8*), if it nests."""
    nesting = nesting if nesting is not None else ir.Constant(I8P, None)
    DeviceRuntime.kernel_init.call(cg.builder, [ir.Constant(ir.IntType(32), int(spmd)), nesting])


TEAM_STATE = "omp2gpu_team_state"   # a PTX identifier: no dots
TEAM_STATE_WORDS = 4


def team_state_pointer(module: ir.Module, builder: ir.IRBuilder) -> ir.Value:
    """Generic int * to the team's state in shared memory (runtime/device/team_state.c).
    Every module that uses it defines it linkonce, so linking leaves one per kernel image."""
    array = ir.ArrayType(ir.IntType(32), TEAM_STATE_WORDS)
    variable = named_global(module, TEAM_STATE, array, "linkonce_odr", ir.Constant(array, ir.Undefined),
                            align=8, addrspace=nvptx.SHARED_ADDRESS_SPACE)      # words 2-3 hold a pointer
    first = builder.gep(variable, [ir.Constant(ir.IntType(32), 0), ir.Constant(ir.IntType(32), 0)])
    return builder.addrspacecast(first, ir.IntType(32).as_pointer())


def nvptx_builtins() -> dict:
    """Device-only builtins: PTX special registers and isspacep.local for the device
    runtime, printf and fprintf to the standard streams."""

    def sreg(register):
        return lambda emitter, node: RValue(ct.INT, nvptx.read_sreg(emitter.builder, register))

    table = {f"__nvvm_read_ptx_sreg_{name.replace('.', '_')}": sreg(name) for name in nvptx.SPECIAL_REGISTERS}
    table["__nvvm_read_ptx_sreg_globaltimer"] = lambda emitter, node: RValue(
        ct.ULONG, nvptx.read_sreg(emitter.builder, "globaltimer"))
    table["__syncthreads"] = lambda emitter, node: (nvptx.barrier(emitter.builder), RValue(ct.VOID, None))[1]
    table[SPECULATING] = lambda emitter, node: RValue(ct.INT, ir.Constant(ir.IntType(32), 1))
    table["__omp2gpu_team_state"] = lambda emitter, node: RValue(
        ct.PointerType(ct.INT), team_state_pointer(emitter.module.module, emitter.builder))
    table["__nvvm_isspacep_local"] = lambda emitter, node: RValue(ct.INT, emitter.builder.zext(
        nvptx.is_local(emitter.builder, emitter.expr(node.args.exprs[0]).value), ir.IntType(32)))
    table["printf"] = emit_printf
    table["fprintf"] = emit_fprintf
    return table
