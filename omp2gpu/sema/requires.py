"""`#pragma omp requires` (OpenMP 5.0 2.5.1): what a file requires of the implementation.

- `atomic_default_mem_order(seq_cst|acq_rel|relaxed)`: the memory order of every
  later `#pragma omp atomic` that names none; each such atomic's Directive gets it
  here (`default_memory_order`), so that every device's code generator sees it.
  As gcc, at most one per file, and none after an atomic without a memory order.
- `dynamic_allocators`: allocators in target regions without `uses_allocators`.
  Nothing to do: the device runtime's omp_alloc takes any predefined allocator.
- `unified_shared_memory`, `unified_address`: the file's `FileRequirements`
  (requirements_of(ast)), which host codegen hands to the offload runtime in a
  constructor (`__omp2gpu_requires`, offload/abi.py): there every device uses host
  memory in place (docs/unified-memory.md); a USM file's heap calls go through the
  runtime's (`USM_HEAP_FUNCTIONS`), which makes them GPU-accessible where the GPU
  cannot read pageable memory. The runtime checks that every file agrees.
- `reverse_offload`: accepted, and needed before any `target device(ancestor: 1)`
  (reverse offload; the only ancestor is 1, the host). Host codegen runs a target region
  holding such a construct on the host (no device build: a kernel cannot call back into
  the host), so the ancestor region is the host's own code (docs/unified-memory.md).
Every requirement but atomic_default_mem_order must come before the file's first
device construct (OpenMP 5.0 2.5.1): a located error otherwise.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import AtomicDefaultMemOrderClause, DeviceClause, RequiresClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.offload import abi

UNSUPPORTED_REQUIREMENTS: frozenset = frozenset()
# the requirements the offload runtime is told of, and their bits (offload/abi.py REQUIRES_*)
RUNTIME_REQUIREMENTS = {"unified_address": abi.REQUIRES_UNIFIED_ADDRESS,
                        "unified_shared_memory": abi.REQUIRES_UNIFIED_SHARED_MEMORY}
# a USM file's heap functions, called through the runtime's (runtime/offload/usm_heap.c)
USM_HEAP_FUNCTIONS = ("malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign")


@dataclass(frozen=True)
class FileRequirements:
    """What a file's `requires` directives ask of the runtime: REQUIRES_* bits, and the
    first such directive's location (the runtime's messages name it)."""
    flags: int
    coord: object

    @property
    def unified_shared_memory(self) -> bool:
        return bool(self.flags & RUNTIME_REQUIREMENTS["unified_shared_memory"])


def requirements_of(ast: c_ast.FileAST) -> FileRequirements | None:
    """The file's runtime requirements (apply_requires found them), None: none."""
    return _FILE_REQUIREMENTS.get(ast)


_FILE_REQUIREMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # FileAST has slots


def apply_requires(ast: c_ast.FileAST) -> None:
    """Check the file's requires directives, in source order, and give each atomic
    construct after an atomic_default_mem_order that order as its default."""
    default_clause, first_plain_atomic, first_device_construct = None, None, None
    flags, first_coord, reverse_offload = 0, None, False
    for construct in _constructs_in_order(ast):
        directive = construct.directive
        _check_ancestor(directive, reverse_offload)
        if first_device_construct is None and directive.kind.split()[0] == "target":
            first_device_construct = construct
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
                _check_before_devices(clause, first_device_construct)
                reverse_offload = reverse_offload or clause.name == "reverse_offload"
                if clause.name in RUNTIME_REQUIREMENTS:
                    flags |= RUNTIME_REQUIREMENTS[clause.name]
                    first_coord = first_coord or clause.coord
                continue
            if first_plain_atomic is not None:
                raise CompileError("'atomic_default_mem_order' clause used lexically after the "
                                   "first '#pragma omp atomic' without a memory order clause",
                                   clause.coord)
            if default_clause is not None:
                raise CompileError("more than one 'atomic_default_mem_order' clause in a single "
                                   "compilation unit", clause.coord)
            default_clause = clause
    if flags:
        _FILE_REQUIREMENTS[ast] = FileRequirements(flags, first_coord)


def is_reverse_offload(directive) -> bool:
    """`target device(ancestor: 1)`: the region runs on the host (offload_host.py)."""
    clause = directive.first(DeviceClause) if directive.kind.split()[0] == "target" else None
    return clause is not None and clause.ancestor


def _check_ancestor(directive, reverse_offload: bool) -> None:
    clause = directive.first(DeviceClause)
    if clause is None or not clause.ancestor:
        return
    if directive.kind.split()[0] != "target" or directive.kind in ("target data", "target enter data",
                                                                     "target exit data", "target update"):
        raise CompileError(f"'device(ancestor: ...)' is only allowed on a 'target' construct, not "
                           f"'#pragma omp {directive.kind}'", clause.coord)
    if not reverse_offload:
        raise CompileError("'device(ancestor: ...)' needs '#pragma omp requires reverse_offload' earlier in the "
                           "file", clause.coord)
    if not (isinstance(clause.expr, c_ast.Constant) and clause.expr.value in ("1", "1u", "1U")):
        raise CompileError("'device(ancestor: ...)' must name ancestor 1, the device that encountered the "
                           "enclosing target region", clause.expr.coord or clause.coord)


def _check_before_devices(clause, first_device_construct) -> None:
    if first_device_construct is None:
        return
    line = getattr(first_device_construct.coord, "line", "?")
    raise CompileError(f"'#pragma omp requires {clause.name}' used lexically after the first device "
                       f"construct ('#pragma omp {first_device_construct.directive.kind}', line {line}): "
                       "a requirement must come before every device construct of the file", clause.coord)


def _constructs_in_order(ast):
    """Every OmpConstruct of the file, in source order."""
    return nodes_of(ast, OmpConstruct)
