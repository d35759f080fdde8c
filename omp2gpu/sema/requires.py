"""`#pragma omp requires` (OpenMP 5.0 2.5.1): what a file requires of the implementation.

- `atomic_default_mem_order(seq_cst|acq_rel|relaxed)`: the memory order of every
  later `#pragma omp atomic` that names none; each such atomic's Directive gets it
  here (`default_memory_order`), so that every device's code generator sees it.
  As gcc, at most one per file, and none after an atomic without a memory order.
- `dynamic_allocators`: allocators in target regions without `uses_allocators`.
  Nothing to do: the device runtime's omp_alloc takes any predefined allocator.
- `unified_shared_memory`, `unified_address`, `reverse_offload`: not supported
  (a located error naming the requirement). None is trivially true on every device
  omp2gpu compiles for. The CPU device shares the host's memory, but the GPU does
  not: unified_shared_memory would let a target region dereference any host
  pointer without a map (plain malloc'd memory is not device-accessible without
  HMM or managed allocations); unified_address would make every device pointer
  usable on the host and in a region without `is_device_ptr`, which the present
  table's translation of unmapped pointers contradicts; reverse_offload needs
  `target device(ancestor: 1)` from a kernel, which the GPU cannot call back into.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.clause_types import AtomicDefaultMemOrderClause, RequiresClause
from omp2gpu.frontend.omp_nodes import OmpConstruct

UNSUPPORTED_REQUIREMENTS = frozenset({"unified_shared_memory", "unified_address", "reverse_offload"})


def apply_requires(ast: c_ast.FileAST) -> None:
    """Check the file's requires directives, in source order, and give each atomic
    construct after an atomic_default_mem_order that order as its default."""
    default_clause, first_plain_atomic = None, None
    for construct in _constructs_in_order(ast):
        directive = construct.directive
        if directive.kind == "atomic":
            directive.default_memory_order = default_clause.order if default_clause else "relaxed"
            if directive.memory_order_clause is None and first_plain_atomic is None:
                first_plain_atomic = construct
            continue
        for clause in directive.find(RequiresClause) if directive.kind == "requires" else ():
            if clause.name in UNSUPPORTED_REQUIREMENTS:
                raise CompileError(f"'#pragma omp requires {clause.name}' is not supported",
                                   clause.coord)
            if not isinstance(clause, AtomicDefaultMemOrderClause):
                continue
            if first_plain_atomic is not None:
                raise CompileError("'atomic_default_mem_order' clause used lexically after the "
                                   "first '#pragma omp atomic' without a memory order clause",
                                   clause.coord)
            if default_clause is not None:
                raise CompileError("more than one 'atomic_default_mem_order' clause in a single "
                                   "compilation unit", clause.coord)
            default_clause = clause


def _constructs_in_order(ast):
    """Every OmpConstruct of the file, in source order (an explicit stack: deep nests)."""
    stack = [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, OmpConstruct):
            yield node
        stack.extend(reversed([child for _, child in node.children()]))
