"""A metadirective's code on the device being compiled (sema/metadirectives.py decides
which directive it is): that directive's construct, or for `nothing` its statement alone.

Where host code leaves the choice to run time (a user condition that is not a constant,
a `target_device` selector about a device known only when the program runs), each
compatible alternative is emitted behind its checks, best first, as the spec orders them;
the construct set of code inside an alternative counts that alternative's directive
(`chosen_now`, read by calls to functions with variants and by nested metadirectives).
"""

from __future__ import annotations

from contextlib import contextmanager

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.runtime_entries import HostRuntime
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.metadirectives import resolution, statement
from omp2gpu.sema.openmp_context import device_codes


def emit(cg, node, device) -> None:
    chain = resolution(node, device, chosen_now(cg))
    if len(chain) == 1:
        _emit_alternative(cg, node, chain[0].directive)
        return
    if not device.is_host:
        raise CompileError("a metadirective decided when the program runs is not supported in code "
                           f"compiled for {device.name}", node.coord)
    done = cg.new_block("metadirective.done")
    for alternative in chain:
        if alternative.checks:
            chosen, other = cg.new_block("metadirective.when"), cg.new_block("metadirective.next")
            cg.builder.cbranch(_all_true(cg, alternative.checks), chosen, other)
            cg.builder.position_at_end(chosen)
        _emit_alternative(cg, node, alternative.directive)
        cg.branch_if_open(done)
        if not alternative.checks:
            break
        cg.builder.position_at_end(other)
    cg.branch_if_open(done)
    cg.builder.position_at_end(done)


def chosen_now(cg):
    """meta -> (directive,) for the metadirectives whose alternative is being emitted."""
    choices = _choices(cg)
    return choices.get if choices else None


def _choices(cg) -> dict:
    # Kept by the scheme object, one per module: outlined regions' emitters see it too.
    return cg.openmp.metadirective_choices


@contextmanager
def _choosing(cg, node, directive):
    choices = _choices(cg)
    choices[node] = (directive,)
    try:
        yield
    finally:
        del choices[node]


def _emit_alternative(cg, node, directive) -> None:
    chosen = statement(node, directive)
    if chosen is None:
        return
    with _choosing(cg, node, directive), cg.block_scope():
        cg.stmt(chosen)


def _all_true(cg, checks) -> ir.Value:
    result = None
    for check in checks:
        value = cg.condition(check.expr) if check.kind == "condition" else _device_is(cg, check)
        result = value if result is None else cg.builder.and_(result, value)
    return result


def _device_is(cg, check) -> ir.Value:
    """Whether the device a target_device selector asks about (its device_num, else the
    default device) is of a kind it names."""
    b = cg.builder
    if check.expr is not None:
        number = cg.expr(check.expr)
        if not number.ctype.is_integer:
            raise CompileError("'device_num' needs an integer expression", check.expr.coord)
        device = convert(b, number.value, number.ctype, ct.INT)
    else:
        device = ir.Constant(I32, -1)
    code = HostRuntime.device_code.call(b, [device])
    result = ir.Constant(ir.IntType(1), 0)
    for allowed in sorted(device_codes(check.traits)):
        result = b.or_(result, b.icmp_signed("==", code, ir.Constant(I32, allowed)))
    return result
