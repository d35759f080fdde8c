"""The allocators a target construct makes: `uses_allocators(a(traits))` (OpenMP 5.0
2.15.6), 5.2's `uses_allocators(memspace(m), traits(t): a)`, on `target` and on every
combined construct that begins with it (`target teams distribute parallel for ...`).

Inside the region `a` is a new allocator made from the traits, private to the region. It
is made once for the construct, before any of its leaves starts, where the host meets the
construct: in a block of its own, a new `a` (the program's variable is left alone)

    a = omp_init_allocator(m, sizeof(t) / sizeof(t[0]), t);  <the construct>;  omp_destroy_allocator(a);

and the region captures `a` with MapType.ALLOCATOR: the launcher maps the allocator's
record (`__omp2gpu_allocator_record_bytes(a)` bytes, runtime/host/omp_allocators.c) to the
device for the construct and passes the device copy's address as the handle, so the
device's omp_alloc finds its traits, its pool counted on the device; a predefined allocator
(no record: 0 bytes) goes as it is. The host fallback uses the host's allocator itself.
A `target nowait` makes and destroys it in its target task."""

from __future__ import annotations

import contextlib

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I8P
from omp2gpu.codegen.openmp.runtime_entries import HostRuntime
from omp2gpu.frontend.openmp.allocate_clauses import UsesAllocatorsClause
from omp2gpu.sema.scopes import Symbol


def made_allocators(directive) -> list:
    """The uses_allocators items the construct makes (UsedAllocator), in order."""
    return [used for clause in directive.find(UsesAllocatorsClause) for used in clause.allocators if used.made]


@contextlib.contextmanager
def made_on_host(cg, directive):
    """Around the construct's code: its allocators made on the host before, destroyed
    after, each a new variable of the allocator's name in a block of its own."""
    made = made_allocators(directive) if directive.has("target") else []
    if not made:
        yield
        return
    with cg.block_scope():
        for used in made:
            original = cg.scope.lookup(used.name)
            address = cg.alloca(original.ctype, f"{used.name}.made")
            handle = cg.expr_as(_init_call(used, directive.coord), original.ctype)
            cg.builder.store(handle, address)
            cg.scope.declare(Symbol(used.name, original.ctype, "object", address, coord=used.coord))
        yield
        if not cg.builder.block.is_terminated:
            for used in reversed(made):
                where = directive.coord
                cg.expr(c_ast.FuncCall(c_ast.ID("omp_destroy_allocator", coord=where),
                                       c_ast.ExprList([c_ast.ID(used.name, coord=where)]), coord=where))


def _init_call(used, where) -> c_ast.Node:
    """omp_init_allocator(memspace, number of traits, traits)."""
    memspace = c_ast.ID(used.memspace or "omp_default_mem_space", coord=used.memspace_coord or where)
    if used.traits is None:
        count, traits = c_ast.Constant("int", "0"), c_ast.Constant("int", "0")
    else:
        traits = c_ast.ID(used.traits, coord=used.traits_coord)
        element = c_ast.ArrayRef(traits, c_ast.Constant("int", "0"), coord=where)
        quotient = c_ast.BinaryOp("/", c_ast.UnaryOp("sizeof", traits, coord=where),
                                  c_ast.UnaryOp("sizeof", element, coord=where), coord=where)
        count = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None,
                                                                         c_ast.IdentifierType(["int"]))),
                           quotient, coord=where)
    return c_ast.FuncCall(c_ast.ID("omp_init_allocator", coord=where),
                          c_ast.ExprList([memspace, count, traits], coord=where), coord=where)


def map_entry(cg, symbol) -> tuple[ir.Value, ir.Value, ir.Value]:
    """(base, begin, size) of a made allocator's entry: its record on the host and the
    record's bytes (0 for a predefined allocator or omp_null_allocator)."""
    b = cg.builder
    handle = b.load(symbol.address)
    record_bytes = HostRuntime.allocator_record_bytes.declare(cg.module.module)
    record = b.inttoptr(handle, I8P)
    return record, record, b.call(record_bytes, [handle])
