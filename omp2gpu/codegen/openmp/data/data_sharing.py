"""Data-sharing attributes of a region (OpenMP 4.5 2.15.3): private, firstprivate,
lastprivate and reduction copies, made in a new scope around the region body.

Shared by every scheme: a scheme decides *where* a region runs, this module
decides *which storage* each variable name refers to inside it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I1, I8P, I32, I64, VOID
from omp2gpu.codegen.openmp.data import allocate_storage, reduction_aliases, user_reductions
from omp2gpu.codegen.openmp.loops import affine_nest, canonical_loop
from omp2gpu.codegen.values import LValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_parsers import REDUCTION_OPS
from omp2gpu.frontend.openmp.declare_reduction import DeclaredReduction
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.reduction_items import (
    COMPLEX_DECLARED_IDENTITIES,
    array_scalars,
    is_whole_array_section,
    whole_array_section,
)
from omp2gpu.sema.scopes import Symbol


def clauses_named(directive, name: str) -> list:
    return [clause for clause in directive.clauses if clause.name == name]


def list_items(directive, name: str):
    for clause in clauses_named(directive, name):
        for item in clause.items:
            yield clause, item


def reduction_identity(op: str, ctype: ct.CType) -> ir.Constant:
    """The initial value of a reduction's private copy (OpenMP 4.5 Table 2.7)."""
    ir_type = ctype.ir_type()
    if op in ("+", "-", "|", "^", "||"):
        return ir.Constant(ir_type, 0.0 if ctype.is_floating else 0)
    if op in ("*", "&&"):
        return ir.Constant(ir_type, 1.0 if ctype.is_floating else 1)
    if op == "&":
        return ir.Constant(ir_type, -1 if ctype.is_integer else 0)
    if op == "max":
        return ir.Constant(ir_type, -math.inf if ctype.is_floating else ctype.min_value)
    if op == "min":
        return ir.Constant(ir_type, math.inf if ctype.is_floating else ctype.max_value)
    raise CompileError(f"unsupported reduction operator '{op}'")


def combine(cg, op: str, ctype: ct.CType, left: ir.Value, right: ir.Value) -> ir.Value:
    """left <op> right for a reduction, in the variable's type."""
    builder = cg.builder
    if op in ("&&", "||"):
        a = builder.icmp_unsigned("!=", left, ir.Constant(left.type, 0)) if ctype.is_integer \
            else builder.fcmp_unordered("!=", left, ir.Constant(left.type, 0.0))
        b = builder.icmp_unsigned("!=", right, ir.Constant(right.type, 0)) if ctype.is_integer \
            else builder.fcmp_unordered("!=", right, ir.Constant(right.type, 0.0))
        test = builder.and_(a, b) if op == "&&" else builder.or_(a, b)
        return convert(builder, builder.zext(test, ir.IntType(32)), ct.INT, ctype)
    if op in ("max", "min"):
        relation = ">" if op == "max" else "<"
        if ctype.is_floating:
            test = builder.fcmp_ordered(relation, left, right)
        elif ctype.signed:
            test = builder.icmp_signed(relation, left, right)
        else:
            test = builder.icmp_unsigned(relation, left, right)
        return builder.select(test, left, right)
    arithmetic_op = "+" if op == "-" else op     # partial results of '-' are added
    promoted = ct.usual_arithmetic_conversion(ctype, ctype) if ctype.is_arithmetic else ctype
    a = convert(builder, left, ctype, promoted)
    b = convert(builder, right, ctype, promoted)
    return convert(builder, cg.arithmetic(arithmetic_op, a, b, promoted), promoted, ctype)


def thread_private_slot(cg, name: str, ctype: ct.CType) -> ir.Value:
    """A private copy on the stack of the thread running the code; a variable-length
    array's is sized at run time (a dynamic alloca, PTX's alloca on the GPU), released
    where the construct ends."""
    if ctype.is_variable:
        return cg.allocate_variable_array(ctype, f"{name}.private")
    return cg.alloca(ctype, f"{name}.private")


def copy_bytes(cg, target: ir.Value, source: ir.Value, size: ir.Value, align: int = 1) -> None:
    """memcpy(target, source, size): an array's or a struct's contents. `align`: what both
    addresses are aligned to (their C type's alignment). A known size of aligned words is
    copied word by word: LLVM's NVPTX backend lowers a memcpy to a loop of single bytes
    whatever the alignment (an 8,000-byte firstprivate array: 16,000 one-byte accesses a
    thread), and on the host its loop-idiom pass makes the word loop a memcpy again."""
    word = next((bytes_ for bytes_ in (8, 4) if align >= bytes_), None)
    if word is not None and isinstance(size, ir.Constant) and size.constant % word == 0 and size.constant > word:
        _copy_words(cg, target, source, size.constant // word, ir.IntType(8 * word))
        return
    module = cg.module.module
    memcpy = module.globals.get("llvm.memcpy.p0i8.p0i8.i64") or ir.Function(
        module, ir.FunctionType(VOID, [I8P, I8P, I64, I1]),
        name="llvm.memcpy.p0i8.p0i8.i64")
    b = cg.builder
    b.call(memcpy, [b.bitcast(target, I8P), b.bitcast(source, I8P), size, ir.Constant(I1, 0)])


def _copy_words(cg, target: ir.Value, source: ir.Value, count: int, word: ir.IntType) -> None:
    """for (i = 0; i < count; i++) target[i] = source[i], in words of type `word`."""
    b = cg.builder
    to, from_ = b.bitcast(target, word.as_pointer()), b.bitcast(source, word.as_pointer())
    entry, loop, done = b.block, cg.new_block("copy.word"), cg.new_block("copy.done")
    b.branch(loop)
    b.position_at_end(loop)
    index = b.phi(I64, "copy.index")
    index.add_incoming(ir.Constant(I64, 0), entry)
    b.store(b.load(b.gep(from_, [index])), b.gep(to, [index]))
    following = b.add(index, ir.Constant(I64, 1))
    index.add_incoming(following, b.block)
    b.cbranch(b.icmp_unsigned("<", following, ir.Constant(I64, count)), loop, done)
    b.position_at_end(done)


@dataclass(frozen=True)
class TeamFold:
    """A DataEnvironment's combine_reduction for a team of threads (host_worksharing.py):
    `fold(op, original, private)` folds a thread's copy into the original. A team so
    folding also combines user-defined reductions; `barrier()` waits for its threads
    (before any folds into an omp_orig another reads)."""
    fold: Callable[[object, LValue, LValue], None]
    barrier: Callable[[], None]

    def __call__(self, op, original: LValue, private: LValue) -> None:
        self.fold(op, original, private)


class DataEnvironment:
    """Private storage for one region, entered as a context manager around its body.

    `implicit_firstprivate`: names the scheme treats as firstprivate without a
    clause (scalars referenced in a target region, OpenMP 4.5 2.15.1.1).
    """

    def __init__(self, cg, directive, implicit_firstprivate=(), loop_variables=(),
                 combine_reduction=None, lastprivate_condition=None, private_slot=None,
                 combine_section_element=None, after_reductions=None, conditional_copy=None):
        self.cg = cg
        self.directive = directive
        self.implicit_firstprivate = list(implicit_firstprivate)
        self.loop_variables = list(loop_variables)
        # A scheme with many threads per region replaces the sequential fold
        # (`combine_reduction(op, original, private)`) and says which thread
        # ran the last iteration (`lastprivate_condition() -> i1`); the fold of one element
        # of an array section, emitted in a loop over the section, may differ
        # (`combine_section_element`, default combine_reduction).
        self.combine_reduction = combine_reduction or self._fold_sequentially
        self.combine_section_element = combine_section_element or self.combine_reduction
        # Run once every reduction item has gone to combine_reduction: a scheme that gathers
        # them folds them all at once there (the GPU combined scheme: one team barrier).
        self.after_reductions = after_reductions
        self.lastprivate_condition = lastprivate_condition
        # lastprivate(conditional:): `conditional_copy(index, original, private, at)` copies
        # out the private copy of the thread whose `at` (the last iteration that assigned
        # it, -1: none) is the largest; default: one thread ran every iteration.
        self.conditional_copy = conditional_copy or _copy_if_assigned
        self.conditionals: list[tuple[LValue, LValue, ir.Value]] = []     # (original, private, at)
        # Where a private copy lives (`private_slot(name, ctype) -> address`); default: a
        # stack slot of the thread running the code. A team's copies the team's threads
        # share (the control loop's teams construct) go elsewhere.
        self.private_slot = private_slot or (lambda name, ctype: thread_private_slot(cg, name, ctype))
        self.reductions: list[tuple[str, LValue, LValue]] = []
        self._barrier_after_copies = None       # a team's barrier, emitted after the copies
        self.section_reductions: list[tuple] = []
        self.lastprivates: list[tuple[LValue, LValue]] = []
        self.private_copies: dict[str, LValue] = {}     # private and lastprivate copies, by name
        self._final_values: dict[str, object] = {}      # name -> emit(): its value after the loop
        # Items of an allocate clause (frontend/openmp/allocate_clauses.py), and the blocks their
        # allocators gave, freed where the construct ends.
        self._allocates = {item.name: item.allocate for clause in directive.clauses
                           for item in getattr(clause, "items", ()) if getattr(item, "allocate", None)}
        self._allocated: list = []

    def _original(self, item_or_name, coord=None) -> LValue:
        name = item_or_name if isinstance(item_or_name, str) else item_or_name.name
        symbol = self.cg.scope.lookup(name)
        if symbol is None or symbol.kind != "object":
            raise CompileError(f"'{name}' in a data-sharing clause is not a variable",
                               coord or getattr(item_or_name, "coord", None))
        return LValue(symbol.ctype, symbol.address)

    def _private_copy(self, name: str, original: LValue) -> LValue:
        allocate = self._allocates.get(name)          # OpenMP 5.0's allocate clause
        if allocate is None:
            slot = self.private_slot(name, original.ctype)
        else:
            slot = allocate_storage.private_copy(self.cg, name, original.ctype, allocate, self.private_slot,
                                                 self._allocated)
        self.cg.scope.declare(Symbol(name, original.ctype, "object", slot))
        return LValue(original.ctype, slot)

    def _copy(self, source: LValue, target: LValue) -> None:
        if source.ctype.is_variable:
            copy_bytes(self.cg, target.address, source.address, self.cg.runtime_size(source.ctype),
                       source.ctype.align)
            return
        if source.ctype.is_array:
            # A memcpy: LLVM splits an array-typed load and store into one per element.
            copy_bytes(self.cg, target.address, source.address,
                       ir.Constant(ir.IntType(64), source.ctype.size), source.ctype.align)
            return
        self.cg.builder.store(self.cg.builder.load(source.address), target.address)

    def __enter__(self):
        cg = self.cg
        directive = self.directive
        _check_iteration_variables(directive, self.loop_variables)
        originals = {}
        # Read every original before any private copy shadows its name.
        for clause_name in ("private", "firstprivate", "lastprivate", "reduction"):
            for _, item in list_items(directive, clause_name):
                originals.setdefault(item.name, self._original(item))
        for name in self.implicit_firstprivate + self.loop_variables:
            symbol = cg.scope.lookup(name)
            if symbol is not None and symbol.kind == "object":
                originals.setdefault(name, LValue(symbol.ctype, symbol.address))
        self._saved_scope = cg.scope
        cg.scope = cg.scope.child()
        # In clause order (a dict, not a set): the same code on every run.
        firstprivate = dict.fromkeys(item.name for _, item in list_items(directive, "firstprivate"))
        firstprivate.update(dict.fromkeys(n for n in self.implicit_firstprivate if n in originals))
        made: dict[str, LValue] = {}
        for name in firstprivate:
            made[name] = self._private_copy(name, originals[name])
            self._copy(originals[name], made[name])
        def private(name):
            if name not in made:
                made[name] = self._private_copy(name, originals[name])
            return made[name]

        for _, item in list_items(directive, "private"):
            private(item.name)
        for name in self.loop_variables:
            if name in originals:
                private(name)
        for clause, item in list_items(directive, "lastprivate"):
            if clause.conditional:
                self._conditional_lastprivate(item, originals[item.name], private(item.name))
            else:
                self.lastprivates.append((originals[item.name], private(item.name)))
        self.private_copies = made
        for clause, item in list_items(directive, "reduction"):
            original = originals[item.name]
            user = user_reductions.find(cg.scope, clause.op, original.ctype)
            if user is not None:
                self._user_reduction(user, item, original)
                if clause.modifier == "task":
                    reduction_aliases.record_copy(cg, item.name, original.address)
                continue
            if clause.op not in REDUCTION_OPS:
                raise CompileError(f"no '#pragma omp declare reduction' for '{clause.op}' and type "
                                   f"'{original.ctype}'", item.coord)
            if original.ctype.is_variable:
                raise CompileError(f"variable-length array '{item.name}' in a reduction clause is "
                                   "not supported", item.coord)
            sections = item.sections or ([whole_array_section(item)] if original.ctype.is_array else [])
            if sections and clause.modifier == "task":
                raise CompileError(f"an array in a 'reduction(task, ...)' clause ('{item.spelling}') is not "
                                   "supported", item.coord)
            if sections:
                if self.combine_reduction != self._fold_sequentially:
                    self._section_reduction(clause.op, item, sections, original)
                # With one thread per region the section itself accumulates.
                continue
            if original.ctype.is_complex:
                self._complex_reduction(clause, item, original)
                continue
            if not original.ctype.is_arithmetic:
                raise CompileError(f"reduction variable '{item.name}' must be of arithmetic type",
                                   item.coord)
            if clause.op in ("&", "|", "^") and not original.ctype.is_integer:
                raise CompileError(f"reduction operator '{clause.op}' requires an integer variable",
                                   item.coord)
            private = self._private_copy(item.name, original)
            cg.builder.store(reduction_identity(clause.op, original.ctype), private.address)
            self.reductions.append((clause.op, original, private))
            if clause.modifier == "task":       # tasks in the region fold into the original
                reduction_aliases.record_copy(cg, item.name, original.address)
        if self._barrier_after_copies is not None:
            self._barrier_after_copies()
        return self

    def _conditional_lastprivate(self, item, original: LValue, private: LValue) -> None:
        """lastprivate(conditional: x): every assignment to the private copy by name records
        the iteration it ran in (lvalues.store), for finish() to pick the last."""
        if not (original.ctype.is_arithmetic or original.ctype.is_pointer):
            raise CompileError(f"'{item.name}' in 'lastprivate(conditional: ...)' must be a scalar variable "
                               f"(it is '{original.ctype}')", item.coord)
        at = self.cg.alloca_ir(ir.IntType(64), f"{item.name}.assigned.at")
        self.cg.builder.store(ir.Constant(ir.IntType(64), -1), at)
        self.cg.openmp_state.assigned_iteration[id(private.address)] = at
        self.conditionals.append((original, private, at))

    def _complex_reduction(self, clause, item, original: LValue) -> None:
        """reduction(+: z) (or -) of a complex z: a complex sum is the sums of its parts, so
        its real and imaginary parts are two reductions of its real type, which every
        scheme combines. gcc also takes *, && and ||, which are no such pair: they are
        the user-defined reductions they amount to (where those are supported)."""
        if clause.op in _COMPLEX_AS_DECLARED and clause.modifier != "task":
            combiner, identity = _COMPLEX_AS_DECLARED[clause.op]
            declaration = DeclaredReduction(f"{clause.op}' over complex '{item.name}", [],
                                            c_ast.Assignment("=", c_ast.ID("omp_out"), combiner),
                                            c_ast.Assignment("=", c_ast.ID("omp_priv"), identity))
            self._user_reduction(user_reductions.UserReduction(declaration.identifier, original.ctype,
                                                               declaration), item, original)
            return
        if clause.op not in ("+", "-") or clause.modifier == "task":
            what = "a task reduction" if clause.modifier == "task" else f"reduction '{clause.op}'"
            raise CompileError(f"{what} over the complex variable '{item.name}' is not supported "
                               "(+, -, *, && and || are)", item.coord)
        private = self._private_copy(item.name, original)
        self.cg.builder.store(ir.Constant(original.ctype.ir_type(), None), private.address)
        for index in (0, 1):
            self.reductions.append((clause.op, _complex_part(self.cg, original, index),
                                    _complex_part(self.cg, private, index)))

    def _user_reduction(self, user, item, original: LValue) -> None:
        """reduction(identifier: x) defined by a `declare reduction`."""
        if item.sections:
            raise CompileError(f"a user-defined reduction ('{user}') over an array section is not "
                               "supported", item.coord)
        if not (isinstance(self.combine_reduction, TeamFold) or self.combine_reduction == self._fold_sequentially):
            raise CompileError(f"user-defined reduction '{user}' is not supported on the device",
                               item.coord)
        private = self._private_copy(item.name, original)
        user_reductions.initialise(self.cg, user, private, original)
        self.reductions.append((user, original, private))
        if user_reductions.reads_original(user):
            # Every thread reads omp_orig before any folds its result into it.
            if isinstance(self.combine_reduction, TeamFold):
                self._barrier_after_copies = self.combine_reduction.barrier

    def _section_reduction(self, op: str, item, sections, original: LValue) -> None:
        """reduction(op: a[lo:len]) with many threads: a private copy of the array, every
        element the identity, folded element by element over the section at the end. A
        whole array (of any rank) is folded as the one-dimensional array of its scalars."""
        cg, i64 = self.cg, ir.IntType(64)
        private = None
        if is_whole_array_section(sections) and original.ctype.is_array and original.ctype.is_complete:
            private = self._private_copy(item.name, original)
            original, private = _flattened(cg, original), _flattened(cg, private)
        ctype = original.ctype
        if not (ctype.is_array and ctype.is_complete and ctype.element.is_arithmetic) or len(sections) > 1:
            raise CompileError("a reduction over an array section needs a one-dimensional array "
                               "variable of arithmetic type here", item.coord)
        section = sections[0]
        lower = cg.expr_as(section.lower, ct.LONG) if section.lower is not None else ir.Constant(i64, 0)
        length = cg.expr_as(section.length, ct.LONG) if section.length is not None \
            else cg.builder.sub(ir.Constant(i64, ctype.length), lower)
        bounds = cg.alloca(ct.ArrayType(ct.LONG, 2), f"{item.name}.section")
        cg.builder.store(lower, self._element(bounds, 0))
        cg.builder.store(cg.builder.add(lower, length), self._element(bounds, 1))
        private = private or self._private_copy(item.name, original)
        identity = reduction_identity(op, ctype.element)
        self._for_each(ir.Constant(i64, 0), ir.Constant(i64, ctype.length),
                       lambda k: cg.builder.store(identity, self._element(private.address, k)))
        self.section_reductions.append((op, original, private, bounds))

    def _element(self, array_address, index) -> ir.Value:
        index = index if isinstance(index, ir.Value) else ir.Constant(ir.IntType(64), index)
        return self.cg.builder.gep(array_address, [ir.Constant(ir.IntType(64), 0), index])

    def _for_each(self, lower, upper, emit) -> None:
        """for (k = lower; k < upper; k++) emit(k)"""
        cg, b = self.cg, self.cg.builder
        k = cg.alloca(ct.LONG, "k")
        b.store(lower, k)
        test, body, done = cg.new_block("each.test"), cg.new_block("each.body"), cg.new_block("each.done")
        b.branch(test)
        b.position_at_end(test)
        b.cbranch(b.icmp_signed("<", b.load(k), upper), body, done)
        b.position_at_end(body)
        emit(b.load(k))
        b.store(b.add(b.load(k), ir.Constant(ir.IntType(64), 1)), k)
        b.branch(test)
        b.position_at_end(done)

    def _fold_sections(self) -> None:
        for op, original, private, bounds in self.section_reductions:
            element = original.ctype.element

            def fold(k, op=op, element=element, original=original, private=private):
                return self.combine_section_element(op, LValue(element, self._element(original.address, k)),
                                                    LValue(element, self._element(private.address, k)))
            self._for_each(self.cg.builder.load(self._element(bounds, 0)),
                           self.cg.builder.load(self._element(bounds, 1)), fold)

    def _fold_sequentially(self, op, original: LValue, private: LValue) -> None:
        if isinstance(op, user_reductions.UserReduction):
            user_reductions.combine(self.cg, op, original, private)
            return
        builder = self.cg.builder
        value = combine(self.cg, op, original.ctype, builder.load(original.address),
                        builder.load(private.address))
        builder.store(value, original.address)

    def finish(self) -> None:
        """Fold reductions and lastprivate values into the originals."""
        for op, original, private in self.reductions:
            self.combine_reduction(op, original, private)
        if self.after_reductions is not None:
            self.after_reductions()
        self._fold_sections()
        for index, (original, private, at) in enumerate(self.conditionals):
            self.conditional_copy(self.cg, index, original, private, at)
        if not self.lastprivates:
            return
        done = None
        if self.lastprivate_condition is not None:
            copy, done = self.cg.new_block("lastprivate.copy"), self.cg.new_block("lastprivate.done")
            self.cg.builder.cbranch(self.lastprivate_condition(), copy, done)
            self.cg.builder.position_at_end(copy)
        for emit in self._final_values.values():
            emit()
        for original, private in self.lastprivates:
            self._copy(private, original)
        if done is not None:
            self.cg.builder.branch(done)
            self.cg.builder.position_at_end(done)

    def final_value(self, name: str, emit) -> None:
        """emit() stores `name`'s private copy's value after the construct before a
        lastprivate clause copies it out (a loop's iteration variable: one step past
        the last iteration)."""
        if any(item.name == name for _, item in list_items(self.directive, "lastprivate")):
            self._final_values[name] = emit

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None and not self.cg.builder.block.is_terminated:
            self.finish()
            allocate_storage.free_copies(self.cg, self._allocated)
        for _, private, _ in self.conditionals:
            self.cg.openmp_state.assigned_iteration.pop(id(private.address), None)
        if exc_type is None:
            self.cg.release_variable_arrays(self.cg.scope)      # VLA copies' stack storage
        self.cg.scope = self._saved_scope
        return False


def _copy_if_assigned(cg, index: int, original: LValue, private: LValue, at: ir.Value) -> None:
    """lastprivate(conditional:) where one thread ran every iteration: its copy, if it was assigned."""
    b = cg.builder
    with b.if_then(b.icmp_signed(">=", b.load(at), ir.Constant(ir.IntType(64), 0))):
        b.store(b.load(private.address), original.address)


def _flattened(cg, array: LValue) -> LValue:
    """`T a[m][n]` seen as `T a[m * n]`: the same bytes, one element per scalar."""
    count, element = array_scalars(array.ctype)
    flat = ct.ArrayType(element, count)
    return LValue(flat, cg.builder.bitcast(array.address, flat.ir_type().as_pointer()))


def _check_iteration_variables(directive, names) -> None:
    """The iteration variables of a loop construct may be private or lastprivate, never
    firstprivate or a reduction's (OpenMP 4.5 2.15.1.1; gcc rejects them too)."""
    for clause_name in ("firstprivate", "reduction"):
        for _, item in list_items(directive, clause_name):
            if item.name in names:
                what = "firstprivate" if clause_name == "firstprivate" else "a reduction variable"
                raise CompileError(f"iteration variable '{item.name}' should not be {what}", item.coord)


def loop_nest(statement, depth: int) -> list[c_ast.For]:
    """The `depth` perfectly nested loops a collapse clause covers."""
    loops = []
    node = statement
    for _ in range(depth):
        while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
            node = node.block_items[0]
        if not isinstance(node, c_ast.For):
            raise CompileError(f"collapse({depth}) needs {depth} perfectly nested loops",
                               getattr(node, "coord", None) or statement.coord)
        loops.append(node)
        node = node.stmt
    if depth > 1:       # a non-rectangular nest's forms are checked where its loops are read
        affine_nest.dependence([canonical_loop.analyze(loop) for loop in loops])
    return loops


def iteration_variable(loop: c_ast.For) -> str | None:
    """The loop variable of a canonical loop when it is declared outside the loop."""
    init = loop.init
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    if isinstance(init, c_ast.DeclList):
        return None                         # `for (int i = ...)`: already private
    raise CompileError("the loop of an OpenMP loop construct must initialise its iteration "
                       "variable (canonical loop form)", loop.coord)


# reduction(op: z) over a complex z for the operators that do not split into its parts:
# the combiner's right-hand side (omp_out op omp_in) and the identity.
_COMPLEX_AS_DECLARED = {
    op: (c_ast.BinaryOp(op, c_ast.ID("omp_out"), c_ast.ID("omp_in")), c_ast.Constant("int", identity))
    for op, identity in COMPLEX_DECLARED_IDENTITIES.items()}


def _complex_part(cg, whole: LValue, index: int) -> LValue:
    """The real (0) or imaginary (1) part of a complex object, as an object."""
    address = cg.builder.gep(whole.address, [ir.Constant(I32, 0), ir.Constant(I32, index)], inbounds=True)
    return LValue(whole.ctype.real, address)
