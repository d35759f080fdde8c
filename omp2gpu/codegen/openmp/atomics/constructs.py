"""`#pragma omp atomic` on the GPU, the CPU device and host threads (OpenMP 4.5 2.13.6,
5.0 memory orders): real atomic instructions with the construct's memory order
(memory_order.py; the 5.1 `compare` forms are atomic_compare.py's).

The statement forms (sema.atomic_forms recognises them and rejects others):
    read     v = x;
    write    x = expr;
    update   x++; x--; ++x; --x; x op= expr; x = x op expr; x = expr op x;
    capture  v = x++; v = x--; v = ++x; v = --x; v = x op= expr;
             { v = x; x op= expr; }  { x op= expr; v = x; }  { v = x; x = expr; }
An update is one atomicrmw where the hardware has it (integer + - & | ^, float +),
otherwise a compare-and-swap loop around the C operator; a char's or short's is an i8 or
i16 cmpxchg, which x86 has and LLVM's NVPTX backend widens to a loop on the aligned 32-bit
word that holds it. `long double` (x86_fp80, host
and CPU device only) has no atomic instruction of its own: a read loads its 16 bytes as
one i128, every write is a compare-and-swap loop on them (compare_and_swap.bit_pattern).
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.openmp.atomics import memory_order
from omp2gpu.codegen.openmp.atomics.bit_fields import atomic_bit_field_read, atomic_bit_field_update
from omp2gpu.codegen.openmp.atomics.compare import emit_atomic_compare
from omp2gpu.codegen.openmp.atomics.compare_and_swap import bit_pattern, compare_and_swap_loop
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.atomic_forms import update_parts

_RMW = {("+", True): "add", ("-", True): "sub", ("&", True): "and", ("|", True): "or",
        ("^", True): "xor", ("+", False): "fadd", ("-", False): "fsub"}


def atomic_update(cg, x_node, op: str, expr_node, reverse: bool = False,
                  order: str = "relaxed") -> tuple[ir.Value, ir.Value]:
    """Atomically x = x op expr (or expr op x) with OpenMP memory order `order`;
    returns (old, new) in x's type."""
    ordering = memory_order.LLVM_ORDERING[order]
    target = atomic_location(cg, x_node)
    ctype = target.ctype
    if not ctype.is_scalar or ctype.is_pointer:
        raise CompileError("atomic needs a scalar of arithmetic type", x_node.coord)
    operand = cg.expr(expr_node)
    b = cg.builder
    if target.bit_field is not None:
        def compute(old: RValue) -> ir.Value:
            left, right = (operand, old) if reverse else (old, operand)
            result = cg.binary(op, left, right, x_node)
            return convert(b, result.value, result.ctype, ctype, x_node.coord)
        return atomic_bit_field_update(cg, target, compute, ordering)
    rmw = None if reverse else _RMW.get((op, ctype.is_integer))
    if rmw is not None and 4 <= ctype.size <= 8:
        value = convert(b, operand.value, operand.ctype, ctype, expr_node.coord)
        old = memory_order.rmw(cg, rmw, target.address, value, ordering)
        new = cg.binary(op, RValue(ctype, old), RValue(ctype, value), x_node)
        return old, convert(b, new.value, new.ctype, ctype)
    if ctype.size < 4 and not ctype.is_integer:
        raise CompileError(f"atomic update of a {ctype.size}-byte floating object is not supported",
                           x_node.coord)

    def new_value(old):
        left, right = (operand, RValue(ctype, old)) if reverse else (RValue(ctype, old), operand)
        result = cg.binary(op, left, right, x_node)
        return convert(b, result.value, result.ctype, ctype, x_node.coord)
    return compare_and_swap_loop(cg, target.address, ctype, new_value, ordering)


def atomic_location(cg, x_node):
    """The lvalue of an atomic construct's `x` (a bit-field's: bit_field_atomics)."""
    return cg.lvalue(x_node)


def emit_atomic(cg, construct) -> None:
    kind = construct.directive.atomic_kind or "update"
    order = memory_order.construct_order(construct.directive)
    if construct.directive.atomic_compare:
        emit_atomic_compare(cg, construct, order)
        return
    body = construct.body
    if isinstance(body, c_ast.Compound) and kind != "capture" and len(body.block_items or ()) == 1:
        body = body.block_items[0]
    if kind == "read":
        _read(cg, body, order)
    elif kind == "write":
        _write(cg, body, order)
    elif kind == "update":
        parts = update_parts(body)
        if parts is None:
            raise CompileError("'#pragma omp atomic update' needs 'x++', 'x op= expr' or "
                               "'x = x op expr'", body.coord)
        atomic_update(cg, *parts[:4], order)
    else:
        _capture(cg, body, order)


def _read(cg, node, order: str):
    if not isinstance(node, c_ast.Assignment) or node.op != "=":
        raise CompileError("'#pragma omp atomic read' needs 'v = x;'", node.coord)
    source = atomic_location(cg, node.rvalue)
    if source.bit_field is not None:
        read = atomic_bit_field_read(cg, source, memory_order.load_ordering(order))
    elif _wide(source.ctype):
        read = RValue(source.ctype, _wide_load(cg, source, memory_order.load_ordering(order)))
    else:
        read = RValue(source.ctype, memory_order.load(cg, source.address,
                                                      memory_order.load_ordering(order),
                                                      source.ctype.align))
    target = cg.lvalue(node.lvalue)
    cg.store(target, convert(cg.builder, read.value, read.ctype, target.ctype, node.coord))


def _write(cg, node, order: str):
    if not isinstance(node, c_ast.Assignment) or node.op != "=":
        raise CompileError("'#pragma omp atomic write' needs 'x = expr;'", node.coord)
    target = atomic_location(cg, node.lvalue)
    value = cg.expr_as(node.rvalue, target.ctype)
    if target.bit_field is not None:
        atomic_bit_field_update(cg, target, lambda old: value, memory_order.store_ordering(order))
        return
    if _wide(target.ctype):
        compare_and_swap_loop(cg, target.address, target.ctype, lambda old: value,
                              memory_order.LLVM_ORDERING[order])
        return
    memory_order.store(cg, value, target.address, memory_order.store_ordering(order), target.ctype.align)


def _capture(cg, node, order: str):
    if isinstance(node, c_ast.Assignment) and node.op == "=":      # v = <update>
        parts = update_parts(node.rvalue)
        if parts is None:
            raise CompileError("'#pragma omp atomic capture' needs 'v = x++' or 'v = x op= expr'",
                               node.coord)
        x, op, expr, reverse, gives_new = parts
        old, new = atomic_update(cg, x, op, expr, reverse, order)
        _assign(cg, node.lvalue, new if gives_new else old, cg.lvalue(x).ctype)
        return
    items = node.block_items if isinstance(node, c_ast.Compound) else None
    if not items or len(items) != 2:
        raise CompileError("'#pragma omp atomic capture' needs 'v = x op= expr' or a block of two "
                           "statements", node.coord)
    first, second = items
    if isinstance(first, c_ast.Assignment) and first.op == "=" and update_parts(second):  # {v = x; update}
        x, op, expr, reverse, _ = update_parts(second)
        old, _new = atomic_update(cg, x, op, expr, reverse, order)
        _assign(cg, first.lvalue, old, cg.lvalue(x).ctype)
    elif update_parts(first) and isinstance(second, c_ast.Assignment):            # {update; v = x}
        x, op, expr, reverse, _ = update_parts(first)
        _old, new = atomic_update(cg, x, op, expr, reverse, order)
        _assign(cg, second.lvalue, new, cg.lvalue(x).ctype)
    elif isinstance(first, c_ast.Assignment) and isinstance(second, c_ast.Assignment):  # {v = x; x = e}
        target = atomic_location(cg, second.lvalue)
        value = cg.expr_as(second.rvalue, target.ctype)
        if target.bit_field is not None:
            old, _new = atomic_bit_field_update(cg, target, lambda old: value,
                                                memory_order.LLVM_ORDERING[order])
        elif _wide(target.ctype):
            old, _new = compare_and_swap_loop(cg, target.address, target.ctype, lambda old: value,
                                              memory_order.LLVM_ORDERING[order])
        else:
            old = memory_order.rmw(cg, "xchg", target.address, value, memory_order.LLVM_ORDERING[order])
        _assign(cg, first.lvalue, old, target.ctype)
    else:
        raise CompileError("unsupported form of '#pragma omp atomic capture'", node.coord)


def _wide(ctype) -> bool:
    """long double: no atomic load, store or read-modify-write of its own type."""
    return ctype.is_floating and ctype.size > 8


def _wide_load(cg, source, ordering: str) -> ir.Value:
    bits = ir.IntType(source.ctype.size * 8)
    address = cg.builder.bitcast(source.address, bits.as_pointer())
    word = memory_order.load(cg, address, ordering, source.ctype.align)
    return bit_pattern(cg.builder, source.ctype)[0](word)


def _assign(cg, v_node, value, ctype):
    target = cg.lvalue(v_node)
    cg.store(target, convert(cg.builder, value, ctype, target.ctype, v_node.coord))
