"""`#pragma omp atomic compare [capture]` (OpenMP 5.1): the forms sema.atomic_compare_forms
recognises, as one atomic instruction where that is exact, else a compare-and-swap loop.

- `x == e`, integer x, e of x's type after the usual arithmetic conversions, or a
  pointer x: one cmpxchg (its failure ordering the `fail` clause's). `weak` may fail spuriously, so the strong
  cmpxchg emitted is a valid weak one.
- min / max (`x = e < x ? e : x`, `if (x < e) { x = e; }`, ...), integer x, e of x's type
  after the conversions: one atomicrmw min/max (umin/umax for unsigned x).
- Otherwise (floating-point x; an e of a wider type, whose comparison a conversion to x's
  type would change): a loop that reads x, evaluates the comparison as C does (so NaN
  and -0.0 compare as `<` and `==` say, which atomicrmw fmin/fmax and a bitwise cmpxchg
  would not), stops when it is false and swaps when it is true.

e and d are evaluated once, before the atomic operation. The capture's v gets x before
(`{ v = x; cond }`), x after (`{ cond v = x; }`), or x when the comparison failed
(`... else { v = x; }`); r gets the comparison's result.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.openmp.atomics import memory_order
from omp2gpu.codegen.openmp.atomics.compare_and_swap import Swap, conditional_swap_loop
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import FailClause
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.atomic_compare_forms import CompareForm, compare_form


def emit_atomic_compare(cg, construct, order: str) -> None:
    form = compare_form(construct)
    fail = construct.directive.first(FailClause)
    ordering = memory_order.LLVM_ORDERING[order]
    failure = memory_order.failure_ordering(order, fail.order if fail else None)
    target = cg.lvalue(form.x)
    ctype = target.ctype
    _check_supported(form, target)
    e = cg.expr(form.e)
    d = e if form.d is form.e else cg.expr(form.d)
    stored = convert(cg.builder, d.value, d.ctype, ctype, form.d.coord)
    exact = ctype.is_pointer or (ctype.is_integer and ct.usual_arithmetic_conversion(ctype, e.ctype) == ctype)
    if exact and form.compare == "==":
        swap = _compare_exchange(cg, target.address, ctype, e, stored, ordering, failure)
    elif exact:
        swap = _extremum(cg, form, target.address, ctype, e, stored, ordering)
    else:
        swap = conditional_swap_loop(cg, target.address, ctype, lambda old: stored,
                                     lambda old: _holds(cg, form, RValue(ctype, old), e),
                                     ordering, failure)
    _capture(cg, form, ctype, swap)


def _check_supported(form: CompareForm, target) -> None:
    """4- and 8-byte integers, floating-point objects (long double too); pointers with ==."""
    ctype = target.ctype
    if target.bit_field is not None:
        what = "a bit-field"
    elif ctype.is_pointer and form.compare != "==":
        what = "a pointer compared with '<' or '>'"
    elif not (ctype.is_arithmetic or ctype.is_pointer) or ctype.size not in (4, 8) and not ctype.is_floating:
        what = f"an object of type '{ctype}'"
    else:
        return
    raise CompileError(f"'#pragma omp atomic compare' on {what} is not supported", form.x.coord)


def _compare_exchange(cg, address, ctype, e: RValue, stored, ordering: str, failure: str) -> Swap:
    b = cg.builder
    expected = convert(b, e.value, e.ctype, ctype)
    pair = memory_order.cmpxchg(cg, address, expected, stored, ordering, failure)
    old, written = b.extract_value(pair, 0), b.extract_value(pair, 1)
    return Swap(old, b.select(written, stored, old), written)


def _extremum(cg, form: CompareForm, address, ctype, e: RValue, stored, ordering: str) -> Swap:
    op = form.extremum if ctype.signed else "u" + form.extremum
    old = memory_order.rmw(cg, op, address, stored, ordering)
    written = _holds(cg, form, RValue(ctype, old), e)
    return Swap(old, cg.builder.select(written, stored, old), written)


def _holds(cg, form: CompareForm, x: RValue, e: RValue) -> ir.Value:
    """The comparison as written (`x < e` or `e < x`), evaluated as C evaluates it."""
    left, right = (x, e) if form.x_on_left else (e, x)
    return cg.truth(cg.binary(form.compare, left, right, form.x), form.x)


def _capture(cg, form: CompareForm, ctype, swap: Swap) -> None:
    b = cg.builder
    if form.r is not None:
        _assign(cg, form.r, b.zext(swap.written, ir.IntType(32)), ct.INT)
    if form.v is None:
        return
    if form.v_gets != "old-on-failure":
        _assign(cg, form.v, swap.new if form.v_gets == "new" else swap.old, ctype)
        return
    failed, done = cg.new_block("atomic.failed"), cg.new_block("atomic.captured")
    b.cbranch(swap.written, done, failed)
    b.position_at_end(failed)
    _assign(cg, form.v, swap.old, ctype)
    b.branch(done)
    b.position_at_end(done)


def _assign(cg, v_node, value, ctype) -> None:
    target = cg.lvalue(v_node)
    cg.store(target, convert(cg.builder, value, ctype, target.ctype, v_node.coord))
