"""The `dispatch` construct (OpenMP 5.1 2.3.6): its call is made in a context that has
`dispatch` in its construct set, so a variant matching `construct={dispatch}` replaces
the function it names (hooks.call_variant).

- `novariants(e)` true: the function named is called, whatever its variants;
- `nocontext(e)` true: `dispatch` is not added to the construct set;
- `device(n)`: default-device-var is n for the call;
- `depend(...)`: the call waits for the dependences first (here: for the task's child
  tasks, a `taskwait`, which covers them);
- `nowait`: the call is made at once (a deferrable call may run undeferred);
- `is_device_ptr`: says the arguments already are device pointers (nothing to do).
A variant's `append_args(interop(targetsync), ...)` (5.1 2.3.5): where host code calls it through
`dispatch`, an interop object made for each on the default device and destroyed after the call
(`interop_arguments`), else omp_interop_none.
A variant's `adjust_args(need_device_ptr: p)` (5.1 2.3.5): where host code calls the variant
through `dispatch`, the argument for p is converted as use_device_ptr converts a pointer:
the device address of what it points to on the default device (the dispatch's `device`),
its own value where that is not mapped (`device_arguments`). Kernels' calls pass theirs as
they are (device addresses already).
"""

from __future__ import annotations

from contextlib import contextmanager

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I32, I64
from omp2gpu.codegen.openmp.runtime_entries import OffloadRuntime, OmpApi
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import DependClause, DeviceClause
from omp2gpu.frontend.openmp.directives import parse_directive
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.variant_clauses import NocontextClause, NovariantsClause
from omp2gpu.sema import ctypes as ct


def emit_dispatch(cg, construct) -> None:
    directive = construct.directive
    if directive.find(DependClause):
        cg.stmt(OmpConstruct(parse_directive("omp taskwait", directive.coord), None, directive.coord))
    device = directive.first(DeviceClause)
    saved = None
    if device is not None:
        value = cg.expr(device.expr)
        if not value.ctype.is_integer:
            raise CompileError("'device' needs an integer expression", device.coord)
        saved = OmpApi.get_default_device.call(cg.builder)
        OmpApi.set_default_device.call(cg.builder, [convert(cg.builder, value.value, value.ctype, ct.INT)])
    modes = [("novariants", directive.first(NovariantsClause)), ("nocontext", directive.first(NocontextClause))]
    _emit_modes(cg, construct, [(mode, clause) for mode, clause in modes if clause is not None])
    if saved is not None and not cg.builder.block.is_terminated:
        OmpApi.set_default_device.call(cg.builder, [saved])


def _emit_modes(cg, construct, modes) -> None:
    """The call under each mode its clauses may set at run time, first true first."""
    if not modes:
        _emit_call(cg, construct)
        return
    (mode, clause), rest = modes[0], modes[1:]
    chosen, other, done = cg.new_block(f"dispatch.{mode}"), cg.new_block("dispatch.else"), cg.new_block("dispatch.done")
    cg.builder.cbranch(cg.condition(clause.expr), chosen, other)
    cg.builder.position_at_end(chosen)
    with dispatch_mode(cg, mode):
        _emit_call(cg, construct)
    cg.branch_if_open(done)
    cg.builder.position_at_end(other)
    _emit_modes(cg, construct, rest)
    cg.branch_if_open(done)
    cg.builder.position_at_end(done)


def _emit_call(cg, construct) -> None:
    with cg.block_scope(), dispatch_mode(cg, "dispatch"):
        cg.stmt(construct.body)


def no_interops(variant) -> list:
    """omp_interop_none for each append_args argument (where no interop object is made)."""
    return [ir.Constant(I8P, None)] * (len(variant.appended) if variant is not None else 0)


def interop_arguments(cg, variant, where: ir.Value):
    """append_args (5.1 2.3.5): where the call is the one a dispatch construct makes, an
    interop object for each, made on the default device (`targetsync`: with its stream) and
    destroyed after the call; (the values, the function that destroys them after the call)."""
    if "dispatch" not in cg.openmp.dispatch_modes or not variant.appended:
        return no_interops(variant), None
    module = cg.module.module
    init = OffloadRuntime.interop_init.declare(module)
    destroy = OffloadRuntime.interop_destroy.declare(module)
    device = cg.builder.sext(OmpApi.get_default_device.call(cg.builder), I64)
    slots = []
    for targetsync in variant.appended:
        slot = cg.alloca_ir(I8P, "append_args.interop")
        cg.builder.store(ir.Constant(I8P, None), slot)
        cg.builder.call(init, [slot, device, ir.Constant(I32, int(targetsync)), where])
        slots.append(slot)
    values = [cg.builder.load(slot) for slot in slots]

    def destroy_them():
        for slot in reversed(slots):
            cg.builder.call(destroy, [slot, where])
    return values, destroy_them


def device_arguments(cg, variant, values: list) -> list:
    """The call's argument values with those adjust_args(need_device_ptr) names made device
    addresses (omp_get_mapped_ptr on the default device; unmapped: as they are), where the
    call is the one a dispatch construct makes."""
    if "dispatch" not in cg.openmp.dispatch_modes:
        return values
    names = {item.name for clause in variant.adjust_args if clause.modifier == "need_device_ptr"
             for item in clause.items}
    b = cg.builder
    adjusted = list(values)
    for position, name in enumerate(variant.parameters):
        if name not in names or position >= len(values) or not isinstance(values[position].type, ir.PointerType):
            continue
        host = b.bitcast(values[position], I8P)
        device = OmpApi.get_mapped_ptr.call(b, [host, OmpApi.get_default_device.call(b)])
        found = b.icmp_unsigned("!=", device, ir.Constant(I8P, None))
        adjusted[position] = b.bitcast(b.select(found, device, host), values[position].type)
    return adjusted


# ----------------------------------------------------------------- the modes calls read
def current_mode(cg) -> str | None:
    """novariants or nocontext where a dispatch's clause chose it, else None."""
    modes = [mode for mode in cg.openmp.dispatch_modes if mode != "dispatch"]
    return modes[-1] if modes else None


@contextmanager
def dispatch_mode(cg, mode: str):
    modes = cg.openmp.dispatch_modes
    modes.append(mode)
    try:
        yield
    finally:
        modes.pop()

