"""Discontiguous list items of target update's to/from (OpenMP 5.0 2.4, 2.12.6): strided
sections `a[0:n:2]`, sections of several dimensions `a[0:2][1:3]` that leave gaps, and
array shaping `([n][m])p` (followed by sections or not).

Each becomes one NON_CONTIG entry (offload/abi.py): its begin is the section's first
byte, its size the bytes from there to its last byte (what must lie in one mapping), and
its base a descriptor on the stack, int64 { dims, element bytes, count and byte stride
of each dimension, outermost first }, which the runtime turns into rows to copy
(runtime/offload/strided_copies.c). A stride must be positive: a constant one is checked
here, a computed one by the runtime.
"""

from __future__ import annotations

import dataclasses

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import ArraySection
from omp2gpu.offload.abi import MapType
from omp2gpu.sema import ctypes as ct


def is_discontiguous(item) -> bool:
    """Whether a motion clause's list item takes the descriptor path (contiguous ones the
    runtime merges back into one row)."""
    return bool(item.shape) or len(item.sections) > 1 or any(s.stride is not None for s in item.sections)


def _dimensions(cg, item):
    """(first element i8*, [(extent or None, bytes of one element of the dimension)]) of the
    item's array (shaped, an array, or a pointer's pointee)."""
    b = cg.builder
    if item.shape:
        value = cg.expr(item.expr)
        if not value.ctype.is_pointer or not value.ctype.pointee.is_complete:
            raise CompileError(f"array shaping of '{item.name}', which is not a pointer to a complete type",
                               item.coord)
        element = value.ctype.pointee
        extents = [cg.expr_as(extent, ct.LONG) for extent in item.shape]
        units, unit = [], cg.runtime_size(element)
        for extent in reversed(extents):
            units.append(unit)
            unit = b.mul(unit, extent)
        return b.bitcast(value.value, I8P), list(zip(extents, reversed(units)))
    lvalue = cg.lvalue(item.expr)
    ctype = lvalue.ctype
    first = b.load(lvalue.address) if ctype.is_pointer else lvalue.address
    dims = []
    for index, section in enumerate(item.sections):
        if ctype.is_pointer and index == 0:
            extent, ctype = None, ctype.pointee
        elif ctype.is_array:
            extent = cg.array_length(ctype) if ctype.is_variable else ir.Constant(I64, ctype.length or 0)
            ctype = ctype.element
        else:
            raise CompileError(f"array section of '{item.spelling}' reaches a pointer or a non-array type: a "
                               "discontiguous section must lie in one array", section.coord or item.coord)
        if not ctype.is_complete:
            raise CompileError(f"array section of incomplete type '{ctype}'", item.coord)
        dims.append((extent, cg.runtime_size(ctype)))
    return b.bitcast(first, I8P), dims


def entry(cg, item, bits: MapType) -> tuple:
    """(descriptor, begin, size, bits | NON_CONTIG) for a discontiguous list item."""
    b = cg.builder
    first, dims = _dimensions(cg, item)
    sections = item.sections or [None]
    if len(sections) > len(dims):
        raise CompileError(f"'{item.spelling}' has more array sections than its shape has dimensions",
                           item.coord)
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    offset, extent_bytes, empty = zero, zero, ir.Constant(ir.IntType(1), 0)
    counts_strides = []
    for section, (extent, unit) in zip(sections, dims):
        lower = cg.expr_as(section.lower, ct.LONG) if section is not None and section.lower is not None else zero
        if section is not None and section.length is not None:
            length = cg.expr_as(section.length, ct.LONG)
        elif extent is not None:
            length = b.sub(extent, lower)
        else:
            raise CompileError(f"the length of the array section of '{item.name}' is needed (the size of a "
                               "pointed-to array is unknown)", section.coord or item.coord)
        stride = cg.expr_as(section.stride, ct.LONG) if section is not None and section.stride is not None else one
        stride_bytes = b.mul(stride, unit)
        offset = b.add(offset, b.mul(lower, unit))
        extent_bytes = b.add(extent_bytes, b.mul(b.sub(length, one), stride_bytes))
        empty = b.or_(empty, b.icmp_signed("<=", length, zero))
        counts_strides += [length, stride_bytes]
    width = dims[len(sections) - 1][1]
    size = b.select(empty, zero, b.add(extent_bytes, width))
    descriptor = cg.alloca(ct.ArrayType(ct.LONG, 2 + len(counts_strides)), "update.descriptor")
    for index, value in enumerate([ir.Constant(I64, len(sections)), width, *counts_strides]):
        b.store(value, b.gep(descriptor, [zero, ir.Constant(I64, index)]))
    begin = b.gep(first, [offset])
    return b.bitcast(descriptor, I8P), begin, size, bits | MapType.NON_CONTIG


def as_section(item):
    """A map clause's shaped item `([n][m])p` as the contiguous section `p[0:n*m]` it
    names; with sections of its own it would not be contiguous: an error."""
    if item.sections:
        raise CompileError(f"'{item.spelling}': array shaping with array sections in a map clause (the mapped "
                           "storage must be contiguous; shape it whole, or use target update)", item.coord)
    length = item.shape[0]
    for extent in item.shape[1:]:
        length = c_ast.BinaryOp("*", length, extent, coord=extent.coord)
    zero = c_ast.Constant("int", "0", coord=item.shape[0].coord)
    return dataclasses.replace(item, sections=[ArraySection(zero, length, coord=item.coord)], shape=[])
