"""Where OpenMP 5.0's memory-management constructs put variables (docs/allocators.md).

- `#pragma omp allocate(list) [allocator(a)] [align(n)]`. A variable of static storage
  duration keeps its place, aligned to `align`; its allocator must be predefined. An
  automatic variable is moved, at the directive, to storage aligned to the larger of its
  type's alignment, `align` and (an allocator made by omp_init_allocator, known only at
  run time) the allocator's alignment trait: the stack of the thread declaring it,
  released with its block, since a block may be left by any jump; in a GPU team's own code
  (not in a parallel region) an omp_pteam_mem_alloc or omp_cgroup_mem_alloc variable of a
  size known when compiling goes to the team's shared memory instead (the scheme's
  `allocator_team_slot`). Its value so far (an initializer's) is copied over.
- The `allocate` clause: the private copies of its items (linked to it by
  frontend/openmp/allocate_clauses.py). With a predefined allocator, the copy is where the scheme
  puts the construct's other copies (each memory space is the device's ordinary memory;
  the control loop's team copies are in shared memory), aligned as asked; with an
  allocator the program made, it is that allocator's block (omp_aligned_alloc, so its
  pool, fallback and alignment traits hold), freed where the construct ends.
- `uses_allocators` items are checked here (sema/uses_allocators.py makes the allocators).
"""

from __future__ import annotations

import dataclasses

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.codegen.openmp.runtime_entries import HostRuntime, OmpApi
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.allocate_clauses import AlignClause, AllocatorClause, UsesAllocatorsClause
from omp2gpu.sema import ctypes as ct

# The predefined allocators, by value (omp.h).
PREDEFINED = ("omp_null_allocator", "omp_default_mem_alloc", "omp_large_cap_mem_alloc",
              "omp_const_mem_alloc", "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",
              "omp_cgroup_mem_alloc", "omp_pteam_mem_alloc", "omp_thread_mem_alloc")
TEAM_MEMORY = frozenset({PREDEFINED.index("omp_cgroup_mem_alloc"), PREDEFINED.index("omp_pteam_mem_alloc")})


def predefined_allocator(cg, expr) -> int | None:
    """The value of a predefined allocator an expression names, or None."""
    if isinstance(expr, c_ast.ID) and expr.name in PREDEFINED:
        symbol = cg.scope.lookup(expr.name)
        if symbol is not None and symbol.kind == "enum-constant":
            return symbol.value
    return None


def _allocator_value(cg, expr, coord) -> ir.Value:
    value = cg.expr(expr)
    if not value.ctype.is_integer:
        raise CompileError(f"the allocator must be an 'omp_allocator_handle_t', not '{value.ctype}'",
                           getattr(expr, "coord", None) or coord)
    return convert(cg.builder, value.value, value.ctype, ct.ULONG)


def _typedef(cg, name: str, coord) -> ct.CType:
    symbol = cg.scope.lookup(name)
    if symbol is None or symbol.kind != "typedef":
        raise CompileError(f"'{name}' is not declared (include <omp.h>)", coord)
    return symbol.ctype


# ----------------------------------------------------------------- allocate directive

def place_allocated_variables(cg, directive, team_slot=None) -> None:
    """The allocate directive in a block: its variables moved to their storage.
    `team_slot(name, ctype, align)`: a GPU team's shared storage, where the code runs."""
    allocator_clause = directive.first(AllocatorClause)
    align_clause = directive.first(AlignClause)
    allocator = allocator_clause.expr if allocator_clause is not None else None
    align = align_clause.alignment if align_clause is not None else 1
    known = predefined_allocator(cg, allocator) if allocator is not None else PREDEFINED.index("omp_default_mem_alloc")
    for item in directive.allocate_list:
        symbol = cg.scope.lookup(item.name)
        if symbol is None or symbol.kind != "object":
            raise CompileError(f"'{item.name}' in '#pragma omp allocate' is not a variable", item.coord)
        if isinstance(symbol.address, ir.GlobalVariable) or symbol.storage != "auto":
            _align_static(symbol, known, align, allocator_clause, item)
            continue
        if not isinstance(symbol.address, ir.AllocaInstr):
            # The scheme put it elsewhere: team-shared (GPU shared memory, the team stack) or
            # one copy per work-item (the CPU device's context arrays). That stays.
            if align > symbol.ctype.align:
                raise CompileError(f"'{item.name}' in '#pragma omp allocate' is shared by the threads of a "
                                   "device team here: an 'align' above its type's alignment is not supported",
                                   item.coord)
            continue
        address = _automatic_storage(cg, item.name, symbol.ctype, allocator, known, align, team_slot,
                                     allocator_clause)
        _copy_value(cg, symbol, address)
        cg.scope.names[item.name] = dataclasses.replace(symbol, address=address)


def align_file_scope_variables(module, directive) -> None:
    """The allocate directive at file scope: predefined allocators, `align` kept."""
    allocator_clause = directive.first(AllocatorClause)
    align_clause = directive.first(AlignClause)
    align = align_clause.alignment if align_clause is not None else 1
    known = PREDEFINED.index("omp_default_mem_alloc")
    if allocator_clause is not None:
        expr = allocator_clause.expr
        symbol = module.file_scope.lookup(expr.name) if isinstance(expr, c_ast.ID) else None
        known = symbol.value if symbol is not None and symbol.kind == "enum-constant" \
            and expr.name in PREDEFINED else None
    for item in directive.allocate_list:
        symbol = module.file_scope.lookup(item.name)
        if symbol is None or symbol.kind != "object":
            raise CompileError(f"'{item.name}' in '#pragma omp allocate' is not a variable", item.coord)
        _align_static(symbol, known, align, allocator_clause, item)


def _align_static(symbol, known, align, allocator_clause, item) -> None:
    if known is None:
        raise CompileError(f"'{item.name}' has static storage duration: the allocator of its "
                           "'#pragma omp allocate' must be a predefined allocator",
                           allocator_clause.coord if allocator_clause is not None else item.coord)
    if isinstance(symbol.address, ir.GlobalVariable):
        symbol.address.align = max(symbol.address.align or 1, symbol.ctype.align, align)


def _automatic_storage(cg, name, ctype, allocator, known, align, team_slot, allocator_clause) -> ir.Value:
    align = max(ctype.align, align)
    if known is not None:
        if known in TEAM_MEMORY and team_slot is not None and not ctype.is_variable:
            return team_slot(name, ctype, align)
        if ctype.is_variable:
            slot = cg.allocate_variable_array(ctype, f"{name}.allocated")
        else:
            slot = cg.alloca(ctype, f"{name}.allocated")
        slot.align = max(slot.align or 1, align)
        return slot
    # An allocator the program made: its alignment trait is read at run time.
    handle = _allocator_value(cg, allocator, allocator_clause.coord)
    alignment = HostRuntime.allocator_alignment.call(cg.builder, [handle, ir.Constant(I64, align)])
    start = cg.allocate_aligned_bytes(cg.runtime_size(ctype), alignment, f"{name}.allocated")
    return cg.builder.bitcast(start, ctype.ir_type().as_pointer())


def _copy_value(cg, symbol, address) -> None:
    """What the variable holds so far (its initializer's value) into its new storage."""
    module = cg.module.module
    memcpy = module.globals.get("llvm.memcpy.p0i8.p0i8.i64") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), [I8P, I8P, I64, ir.IntType(1)]), name="llvm.memcpy.p0i8.p0i8.i64")
    b = cg.builder
    b.call(memcpy, [b.bitcast(address, I8P), b.bitcast(symbol.address, I8P), cg.runtime_size(symbol.ctype),
                    ir.Constant(ir.IntType(1), 0)])


# ----------------------------------------------------------------- allocate clause

def private_copy(cg, name: str, ctype: ct.CType, clause, default_slot, frees: list) -> ir.Value:
    """The private copy of an item of `clause` (an AllocateClause); `frees` collects the
    blocks to give back where the construct ends (free_copies)."""
    align = max(ctype.align, clause.alignment or 1)
    if clause.allocator is None or predefined_allocator(cg, clause.allocator) is not None:
        slot = default_slot(name, ctype)
        if isinstance(slot, (ir.AllocaInstr, ir.GlobalVariable)):
            slot.align = max(slot.align or 1, align)
        elif align > ctype.align:                  # a slot the scheme computed: made here instead
            slot = cg.alloca(ctype, f"{name}.private")
            slot.align = align
        return slot
    handle = _allocator_value(cg, clause.allocator, clause.coord)
    block = OmpApi.aligned_alloc.call(cg.builder, [ir.Constant(I64, align), cg.runtime_size(ctype), handle])
    frees.append((block, handle))
    return cg.builder.bitcast(block, ctype.ir_type().as_pointer())


def allocated_items(directive, clause_name: str) -> list:
    """`clause_name`'s clauses cut to their items an allocate clause names: where a
    construct copies the items some other way first (a deferred task's block), its body
    makes the allocator's copies from those."""
    return [dataclasses.replace(clause, items=kept) for clause in directive.clauses if clause.name == clause_name
            for kept in [[item for item in clause.items if item.allocate is not None]] if kept]


def free_copies(cg, frees: list) -> None:
    free = OmpApi.free.declare(cg.module.module)
    for block, handle in reversed(frees):
        cg.builder.call(free, [block, handle])


# ----------------------------------------------------------------- uses_allocators

def check_uses_allocators(cg, directive) -> None:
    """Each item an allocator: a predefined one, or an omp_allocator_handle_t variable whose
    traits array is an array of omp_alloctrait_t."""
    for clause in directive.find(UsesAllocatorsClause):
        for used in clause.allocators:
            if used.name in PREDEFINED[1:]:
                continue
            handle = _typedef(cg, "omp_allocator_handle_t", used.coord)
            symbol = cg.scope.lookup(used.name)
            if symbol is None:
                raise CompileError(f"use of undeclared identifier '{used.name}'", used.coord)
            if symbol.kind != "object" or symbol.ctype != handle or used.name == "omp_null_allocator":
                what = f"of type '{symbol.ctype}'" if symbol.kind == "object" else "not a variable"
                raise CompileError(f"'{used.name}' in 'uses_allocators' clause is not an allocator ({what}; "
                                   "an 'omp_allocator_handle_t' variable or a predefined allocator)", used.coord)
            if not used.made:
                raise CompileError(f"allocator '{used.name}' in 'uses_allocators' clause needs its traits "
                                   f"array: '{used.name}(traits)'", used.coord)
            if used.memspace is not None:
                _check_memspace(cg, used)
            if used.traits is None:
                continue
            trait = _typedef(cg, "omp_alloctrait_t", used.traits_coord)
            traits = cg.scope.lookup(used.traits)
            if traits is None:
                raise CompileError(f"use of undeclared identifier '{used.traits}'", used.traits_coord)
            if traits.kind != "object" or not traits.ctype.is_array or traits.ctype.is_variable \
                    or traits.ctype.element != trait:
                raise CompileError(f"traits '{used.traits}' of allocator '{used.name}' in 'uses_allocators' "
                                   f"clause must be an array of 'omp_alloctrait_t' of constant size",
                                   used.traits_coord)


def _check_memspace(cg, used) -> None:
    """5.2's memspace(m): a memory space omp.h names."""
    _typedef(cg, "omp_memspace_handle_t", used.memspace_coord)
    symbol = cg.scope.lookup(used.memspace)
    if symbol is None or symbol.kind != "enum-constant" or not used.memspace.endswith("_mem_space"):
        raise CompileError(f"'{used.memspace}' in 'uses_allocators' clause's 'memspace' modifier is not a "
                           "memory space (omp_default_mem_space, omp_high_bw_mem_space, ...)", used.memspace_coord)
