"""The interface between generic C codegen and an OpenMP scheme.

This is the paper's OpenMPRuntime (Section 3.3): generic codegen never changes
for a target; at each OpenMP construct it calls the scheme object, and a scheme
(host, GPU control loop, GPU combined construct, CPU work-group) overrides the
hooks it needs. Hooks receive the FunctionEmitter (`cg`) and the construct.
"""

from __future__ import annotations

import dataclasses

from omp2gpu.codegen.openmp import dispatch, metadirective_code
from omp2gpu.codegen.openmp.data import allocate_storage, mappers, user_reductions
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget, OmpMetadirective
from omp2gpu.frontend.openmp.variant_sites import call_site
from omp2gpu.sema.metadirectives import variant_callee
from omp2gpu.sema.openmp_context import DEVICES


class OpenMPRuntime:
    """Base scheme: module-level hooks with sensible defaults; constructs dispatched by kind."""

    # The LLVM syncscope of `#pragma omp atomic` (memory_order.py): None on the host and
    # the CPU device (the system's), "device" in GPU kernels.
    atomic_syncscope: str | None = None
    # The device the module is compiled for (sema/openmp_context.py): what `declare variant`
    # and `metadirective` choose by. The host's; device schemes say theirs.
    device_name = "host"
    # Statements (by node id) the scheme emits itself (emit_team_statement): an SPMDized
    # kernel's loops and branches around parallel regions, which the whole team takes.
    team_statements: frozenset = frozenset()

    def __init__(self) -> None:
        self.dispatch_modes: list[str] = []         # dispatch.py: the dispatch constructs' modes, innermost last
        # metadirective_code.py: metadirective -> (directive,) while its alternative is emitted
        self.metadirective_choices: dict = {}

    @property
    def device(self):
        return DEVICES[self.device_name]

    def attach(self, module) -> None:
        """Called once by the ModuleEmitter that owns this scheme."""
        self.module = module

    def emit_team_statement(self, cg, node) -> None:
        """A statement of team_statements."""
        raise NotImplementedError(type(node).__name__)

    # ----------------------------------------------------------------- module-level hooks
    def enter_function(self, module, definition, cg) -> None:
        """A C function body is about to be emitted."""

    def declare_global(self, module, symbol) -> None:
        """A file-scope object was created."""

    def declare_target(self, module, node: OmpDeclareTarget) -> None:
        """`declare target` ... `end declare target`: the host still compiles the declarations."""
        for decl in node.decls:
            module.emit_external(decl)

    def emit_file_scope_construct(self, module, node: OmpConstruct) -> None:
        """`declare target(list)`, `declare reduction` at file scope."""
        if node.directive.kind == "declare reduction":
            user_reductions.declare(module.resolver, module.file_scope, node.directive)
        elif node.directive.kind == "declare mapper":
            mappers.declare(module.resolver, module.file_scope, node.directive)
        elif node.directive.kind == "allocate":
            allocate_storage.align_file_scope_variables(module, node.directive)

    def emit_declare_mapper(self, cg, construct: OmpConstruct) -> None:
        """`declare mapper` in a block: visible to the rest of the block."""
        mappers.declare(cg.module.resolver, cg.scope, construct.directive)

    def emit_declare_reduction(self, cg, construct: OmpConstruct) -> None:
        """`declare reduction` in a block: visible to the rest of the block."""
        user_reductions.declare(cg.module.resolver, cg.scope, construct.directive)

    def emit_allocate(self, cg, construct: OmpConstruct) -> None:
        """OpenMP 5.0's allocate directive in a block (allocate_storage.py)."""
        allocate_storage.place_allocated_variables(cg, construct.directive, self.allocator_team_slot(cg))

    def allocator_team_slot(self, cg):
        """Where the code now emitted is a GPU team's own, `slot(name, ctype, align)`: its
        shared storage, for omp_pteam_mem_alloc / omp_cgroup_mem_alloc variables; else None."""
        return None

    def finish_module(self, module) -> None:
        """All of the translation unit has been emitted."""

    def local_address(self, cg, declaration, ctype):
        """Where a block-scope object lives; None: a stack slot of its own thread
        (Clang's getAddressOfLocalVariable)."""
        return None

    def threadprivate_symbol(self, cg, symbol):
        """A threadprivate variable as the code running now sees it (Clang's
        getAddrOfThreadPrivate); with one thread, the variable itself."""
        return symbol

    def inline_definition(self, cg, name: str):
        """The definition of `name` when a call to it must be expanded in place (its
        constructs become the caller's); None: an ordinary call."""
        return None

    def call_variant(self, cg, call) -> str | None:
        """The function a call to a function with declared variants calls on this device
        (None: the function it names)."""
        variant = self.declared_variant(cg, call)
        if variant is None:
            return None
        _check_variant_type(cg, variant)
        return variant.variant

    def variant_arguments(self, cg, call, values: list):
        """(the argument values a call of its variant passes, a function to call after the
        call or None): as they are (a kernel's are device addresses already) and
        omp_interop_none for each append_args interop (a kernel makes none); the host
        converts adjust_args' pointers and makes the interop objects (dispatch.py)."""
        variant = self.declared_variant(cg, call)
        return values + dispatch.no_interops(variant), None

    def declared_variant(self, cg, call):
        """The variant_sites.DeclaredVariant a call turns into here, or None."""
        site = call_site(call)
        mode = dispatch.current_mode(cg)
        if site is None or mode == "novariants":
            return None
        return variant_callee(site, self.device, metadirective_code.chosen_now(cg), nocontext=mode == "nocontext")

    def emit_dispatch(self, cg, construct: OmpConstruct) -> None:
        dispatch.emit_dispatch(cg, construct)

    def emit_metadirective(self, cg, node: OmpMetadirective) -> None:
        """The directive the metadirective is on this device (codegen/openmp/metadirective_code.py)."""
        metadirective_code.emit(cg, node, self.device)

    # ----------------------------------------------------------------- constructs
    def emit_construct(self, cg, construct: OmpConstruct) -> None:
        handler = getattr(self, "emit_" + construct.directive.kind.replace(" ", "_"), None)
        if handler is None:
            handler = self.emit_compute_construct
        handler(cg, construct)

    def emit_interop(self, cg, construct: OmpConstruct) -> None:
        """`#pragma omp interop` (5.1): host code's (offload_host.py); on a device it would
        need a foreign runtime's handles there."""
        raise CompileError("'#pragma omp interop' in a target region (or a function it calls) is not supported: "
                           "interop objects are made and used in host code", construct.coord)

    def emit_compute_construct(self, cg, construct: OmpConstruct) -> None:
        """target / teams / distribute / parallel / for / simd and their combinations."""
        raise NotImplementedError


def _check_variant_type(cg, variant) -> None:
    """A variant must have the base function's type (OpenMP 5.1 2.3.5)."""
    base, chosen = cg.scope.lookup(variant.base), cg.scope.lookup(variant.variant)
    if base is None or chosen is None or chosen.kind != "function":
        raise CompileError(f"'{variant.variant}', a variant of '{variant.base}', is not a declared function",
                           variant.coord)
    chosen_type = chosen.ctype
    if variant.appended and not chosen_type.unprototyped:      # append_args: omp_interop_t parameters last
        count, params = len(variant.appended), chosen_type.params
        if len(params) < count or not all(p.is_pointer and p.pointee.is_void for p in params[len(params) - count:]):
            raise CompileError(f"variant '{variant.variant}' must end with {count} 'omp_interop_t' parameter"
                               f"{'s' if count > 1 else ''} for 'append_args'", variant.coord)
        chosen_type = dataclasses.replace(chosen_type, params=params[:len(params) - count])
    if not base.ctype.unprototyped and not chosen_type.unprototyped and base.ctype != chosen_type:
        raise CompileError(f"variant '{variant.variant}' has type '{chosen.ctype}', incompatible with "
                           f"'{variant.base}' of type '{base.ctype}'", variant.coord)
