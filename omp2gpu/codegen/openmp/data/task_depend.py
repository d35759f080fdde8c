"""A task's `depend` clauses as the GOMP runtime reads them (OpenMP 4.5 and 5.x).

GOMP_task, GOMP_taskwait_depend and the target tasks take an array of addresses. The
4.5 form is `[count, outs, out/inout addresses..., in addresses...]`; the 5.0 form,
used here when a clause needs it, is `[0, count, outs, mutexinoutsets, ins, out/inout
addresses..., mutexinoutset addresses..., in addresses..., depobj objects...]`, each
depobj entry the address of an `omp_depend_t` ({address, type}: depobj.py writes it).

What this runtime has no type for is mapped to a stricter one, which OpenMP allows (a
task ordered after more tasks than it must be): `inoutset` is `inout` (libgomp 12 has
no inoutset; its mutexinoutset is `out` too). `omp_all_memory` (5.1) orders the task
after every earlier sibling and every later sibling after it: the caller waits for the
earlier tasks (taskwait) and runs the task undeferred (`DependArray.all_memory`).

`iterator(...)` modifiers expand at run time: the array is then sized by the iterators'
trip counts, on the heap (freed by `release()` once the runtime has read it).
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I32, I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.task_rules import ALL_MEMORY
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Symbol

# GOMP's dependence types (gomp-constants.h), as an omp_depend_t object holds them.
DEPEND_KINDS = {"in": 1, "out": 2, "inout": 3, "mutexinoutset": 4, "inoutset": 3}
DESTROYED = -1                                  # what `depobj(o) destroy` leaves (as gcc)
# The array's groups, in the runtime's order; inoutset counts as inout (docstring).
_GROUP = {"out": 0, "inout": 0, "inoutset": 0, "mutexinoutset": 1, "in": 2, "depobj": 3}


@dataclass
class DependArray:
    pointer: ir.Value | None        # void **, None when there are no dependences
    all_memory: bool                # a depend(out|inout: omp_all_memory) was among them
    heap: bool = False

    def release(self, cg) -> None:
        if self.heap:
            cg.builder.call(_libc(cg, "free", ir.VoidType(), [I8P]), [cg.builder.bitcast(self.pointer, I8P)])


def depend_array(cg, directive) -> DependArray:
    clauses = clauses_named(directive, "depend")
    if any(c.dep_type in ("source", "sink") for c in clauses):
        raise CompileError("'depend(source|sink)' (doacross loops) is not supported on the host", directive.coord)
    all_memory = any(item.name == ALL_MEMORY and cg.scope.lookup(ALL_MEMORY) is None
                     for c in clauses for item in c.items)
    entries = [(c, item) for c in clauses for item in c.items
               if not (item.name == ALL_MEMORY and cg.scope.lookup(ALL_MEMORY) is None)]
    if not entries:
        return DependArray(None, all_memory)
    legacy = all(c.dep_type in ("in", "out", "inout") and not c.iterators for c, _ in entries)
    header = 2 if legacy else 5
    b = cg.builder
    heap = any(c.iterators for c, _ in entries)
    counts = [0] * 4 if not heap else [ir.Constant(I64, 0)] * 4
    ranges = {id(c): [_bounds(cg, it) for it in c.iterators] for c in clauses}     # each evaluated once
    for clause, _ in entries:
        group = _GROUP[clause.dep_type]
        counts[group] = b.add(counts[group], _trip_product(cg, ranges[id(clause)])) if heap else counts[group] + 1
    if heap:
        total = b.add(b.add(counts[0], counts[1]), b.add(counts[2], counts[3]))
        size = b.mul(b.add(total, ir.Constant(I64, header)), ir.Constant(I64, 8))
        array = b.bitcast(b.call(_libc(cg, "malloc", I8P, [I64]), [size]), I8P.as_pointer())
    else:
        total = sum(counts)
        array = b.bitcast(cg.alloca_ir(ir.ArrayType(I8P, total + header), "depend"), I8P.as_pointer())
        counts, total = [ir.Constant(I64, n) for n in counts], ir.Constant(I64, total)

    def store(index, value):
        b.store(value if value.type == I8P else b.inttoptr(value, I8P), b.gep(array, [index]))
    if legacy:
        store(ir.Constant(I64, 0), total)
        store(ir.Constant(I64, 1), counts[0])
    else:
        store(ir.Constant(I64, 0), ir.Constant(I64, 0))
        for index, value in enumerate([total, counts[0], counts[1], counts[2]], 1):
            store(ir.Constant(I64, index), value)
    cursor = cg.alloca(ct.LONG, "depend.next")
    b.store(ir.Constant(I64, header), cursor)
    for group in range(4):
        for clause, item in entries:
            if _GROUP[clause.dep_type] == group:
                _store_item(cg, clause, item, array, cursor, ranges[id(clause)])
    return DependArray(array, all_memory, heap)


def _store_item(cg, clause, item, array, cursor, ranges) -> None:
    """The item's address at array[cursor++], once per iterator value."""
    def one():
        b = cg.builder
        if clause.dep_type == "depobj":
            value = cg.lvalue(first_element(item))
            if value.ctype.size != 16:
                raise CompileError(f"'{item.spelling}' in 'depend(depobj: ...)' is not an 'omp_depend_t'",
                                   item.coord)
            address = value.address
        else:
            address = cg.lvalue(first_element(item)).address
        index = b.load(cursor)
        b.store(b.bitcast(address, I8P), b.gep(array, [index]))
        b.store(b.add(index, ir.Constant(I64, 1)), cursor)
    for_each_iteration(cg, clause.iterators, one, ranges)


def first_element(item) -> c_ast.Node:
    """The list item's storage location: the variable, or its section's first element."""
    node = item.expr
    for section in item.sections:
        node = c_ast.ArrayRef(node, section.lower or c_ast.Constant("int", "0"), item.coord)
    return node


# ----------------------------------------------------------------- iterators

def _iterator_type(cg, iterator) -> ct.CType:
    ctype = cg.resolve_type(iterator.type_name) if iterator.type_name is not None else ct.INT
    if not ctype.is_integer:
        raise CompileError(f"iterator '{iterator.name}' must have an integer type here", iterator.coord)
    return ctype


def _bounds(cg, iterator):
    """(begin, step, trip count) of one iterator, as i64; the trip count is 0 for an
    empty range, and for a step that is zero at run time (unspecified in OpenMP; gcc's
    tasks then depend on nothing; a constant zero is refused when parsed)."""
    b = cg.builder
    begin = cg.expr_as(iterator.begin, ct.LONG)
    end = cg.expr_as(iterator.end, ct.LONG)
    step = cg.expr_as(iterator.step, ct.LONG) if iterator.step is not None else ir.Constant(I64, 1)
    zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
    up = b.icmp_signed(">", step, zero)
    no_step = b.icmp_signed("==", step, zero)
    span = b.select(up, b.sub(end, begin), b.sub(begin, end))
    stride = b.select(no_step, one, b.select(up, step, b.neg(step)))
    trip = b.sdiv(b.add(span, b.sub(stride, one)), stride)
    trip = b.select(b.and_(b.icmp_signed(">", trip, zero), b.not_(no_step)), trip, zero)
    return begin, step, trip


def _trip_product(cg, ranges) -> ir.Value:
    total = ir.Constant(I64, 1)
    for _, _, trip in ranges:
        total = cg.builder.mul(total, trip)
    return total


def for_each_iteration(cg, iterators, emit, ranges=None) -> None:
    """emit() once for every combination of the iterators' values, each iterator a local
    of its type visible to what emit() evaluates (`ranges`: their (begin, step, trip
    count), evaluated once by the caller; else here)."""
    if not iterators:
        emit()
        return
    ranges = ranges if ranges is not None else [_bounds(cg, iterator) for iterator in iterators]
    iterator, rest = iterators[0], iterators[1:]
    b = cg.builder
    with cg.block_scope():
        ctype = _iterator_type(cg, iterator)
        begin, step, trip = ranges[0]
        variable = cg.alloca(ctype, iterator.name)
        cg.scope.declare(Symbol(iterator.name, ctype, "object", variable))
        k = cg.alloca(ct.LONG, f"{iterator.name}.k")
        b.store(ir.Constant(I64, 0), k)
        test, body, done = cg.new_block("iterator.test"), cg.new_block("iterator.body"), cg.new_block("iterator.done")
        b.branch(test)
        b.position_at_end(test)
        b.cbranch(b.icmp_signed("<", b.load(k), trip), body, done)
        b.position_at_end(body)
        value = b.add(begin, b.mul(b.load(k), step))
        b.store(convert(b, value, ct.LONG, ctype), variable)
        for_each_iteration(cg, rest, emit, ranges[1:])
        b.store(b.add(b.load(k), ir.Constant(I64, 1)), k)
        b.branch(test)
        b.position_at_end(done)


def _libc(cg, name: str, result, params) -> ir.Function:
    module = cg.module.module
    existing = module.globals.get(name)
    return existing if existing is not None else ir.Function(module, ir.FunctionType(result, params), name=name)


# ----------------------------------------------------------------- the depobj construct

def emit_depobj(cg, directive) -> None:
    """`depobj(o) depend(type: x)` / `update(type)` / `destroy`: o, an omp_depend_t, holds
    {x's address, the type} as GOMP reads a depobj entry."""
    target = cg.lvalue(first_element(directive.depobj))
    if target.ctype.size != 16:
        raise CompileError(f"'{directive.depobj.spelling}' in '#pragma omp depobj' is not an 'omp_depend_t'",
                           directive.depobj.coord)
    b = cg.builder
    words = b.bitcast(target.address, I64.as_pointer())
    clause = directive.clauses[0]
    if clause.name == "depend":
        item = clause.items[0]
        b.store(b.ptrtoint(cg.lvalue(first_element(item)).address, I64), words)
        kind = DEPEND_KINDS[clause.dep_type]
    else:
        kind = DEPEND_KINDS[clause.dep_type] if clause.name == "update" else DESTROYED
    b.store(ir.Constant(I64, kind), b.gep(words, [ir.Constant(I32, 1)]))
