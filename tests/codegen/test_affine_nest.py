"""affine_nest.py: which loop of a collapsed nest is non-rectangular and its bounds'
affine forms (the located errors for the forms OpenMP 5.0 forbids or omp2gpu does not
support), and RowCounts' closed forms, run as machine code against counting by hand."""

from __future__ import annotations

import ctypes
import itertools
from types import SimpleNamespace

import llvmlite.binding as llvm
import pytest
from llvmlite import ir
from pycparser import c_generator, c_parser

from omp2gpu.codegen.openmp.loops import affine_nest, canonical_loop
from omp2gpu.diagnostics import CompileError


def _nest(text: str):
    unit = c_parser.CParser().parse("void f(int n, int m) { " + text + " }")
    node, loops = unit.ext[0].body.block_items[0], []
    while node is not None and node.__class__.__name__ == "For":
        loops.append(canonical_loop.analyze(node))
        node = node.stmt
    return loops


def _c(node) -> str:
    return c_generator.CGenerator().visit(node)


def test_rectangular_nest_has_no_dependence():
    assert affine_nest.dependence(_nest("for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) ;")) is None


@pytest.mark.parametrize(("text", "outer", "inner", "lower", "upper"), [
    ("for (int i = 0; i < n; i++) for (int j = i; j < n; j++) ;", 0, 1, (1, "0"), (0, "n")),
    ("for (int i = 0; i < n; i++) for (int j = 0; j < n - i; j++) ;", 0, 1, (0, "0"), (-1, "n")),
    ("for (int i = 0; i < n; i++) for (int k = 0; k < 3; k++) for (int j = 2 * i + 1; j <= 3 * (m - i); j++) ;",
     0, 2, (2, "1"), (-3, "m * 3")),
    ("for (int i = 0; i < n; i++) for (int j = -i + m; j > i * 2 - 4; j--) ;", 0, 1, (-1, "m"), (2, "-4")),
])
def test_affine_forms(text, outer, inner, lower, upper):
    found = affine_nest.dependence(_nest(text))
    assert (found.outer, found.inner) == (outer, inner)
    assert (found.lower.coefficient, _c(found.lower.rest)) == lower
    assert (found.upper.coefficient, _c(found.upper.rest).replace("(", "").replace(")", "")) == upper


@pytest.mark.parametrize(("text", "message"), [
    ("for (int i = 0; i < n; i++) for (int j = 0; j < i / 2; j++) ;", "affine expression of the outer loop"),
    ("for (int i = 0; i < n; i++) for (int j = 0; j < i * i; j++) ;", "affine expression"),
    ("for (int i = 0; i < n; i++) for (int j = 0; j < n * i; j++) ;", "not an integer constant"),
    ("for (int i = 0; i < n; i++) for (int j = 0; j < n; j += i) ;", "increment of a collapsed loop may not use 'i'"),
    ("for (int i = 0; i < n; i++) for (int j = i; j < n; j++) for (int k = j; k < n; k++) ;",
     "more than one loop"),
    ("for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) for (int k = i; k < j; k++) ;", "two outer loops"),
    ("for (int i = 0; i < n; i++) for (int j = 0; j < i; j += 2) ;", "not a multiple of its step 2"),
    ("for (int i = 0; i < n; i++) for (int j = i; j < n; j += 2) ;", "move by -1 from one 'i' iteration"),
])
def test_forbidden_or_unsupported_forms_are_located_errors(text, message):
    with pytest.raises(CompileError, match=message) as caught:
        affine_nest.dependence(_nest(text))
    assert caught.value.location is not None


def test_strided_forms_whose_step_divides_are_accepted():
    assert affine_nest.dependence(_nest("for (int i = 0; i < n; i++) for (int j = 2 * i; j < n; j += 2) ;"))
    assert affine_nest.dependence(_nest("for (int i = 0; i < n; i += 3) for (int j = i; j < n; j += 3) ;"))


# ----------------------------------------------------------------- RowCounts as machine code
I64 = ir.IntType(64)


@pytest.fixture(scope="module")
def row_counts():
    """f(distance0, change, step, rows, pair, out*): out = [pairs, row_of(pair), pairs_before(row), count(row)]"""
    module = ir.Module("rows")
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), [I64] * 5 + [I64.as_pointer()]), "f")
    builder = ir.IRBuilder(function.append_basic_block("entry"))
    cg = SimpleNamespace(new_block=lambda name: function.append_basic_block(name))
    distance0, change, step, rows, pair, out = function.args
    counts = affine_nest.RowCounts(builder, distance0, change, step, rows)
    row = counts.row_of(cg, pair)
    for index, value in enumerate((counts.pairs, row, counts.pairs_before(row), counts.count(row))):
        builder.store(value, builder.gep(out, [ir.Constant(I64, index)]))
    builder.ret_void()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(str(module)), target)
    engine.finalize_object()
    kind = ctypes.CFUNCTYPE(None, *[ctypes.c_int64] * 5, ctypes.POINTER(ctypes.c_int64))
    run = kind(engine.get_function_address("f"))

    def call(*args):
        out = (ctypes.c_int64 * 4)()
        run(*args, out)
        return list(out)
    call.engine = engine
    return call


@pytest.mark.parametrize(("distance0", "change", "step"),
                         list(itertools.product((-7, -1, 0, 1, 5, 12), (-3, -1, 0, 2), (1, 2))))
def test_row_counts_match_counting(row_counts, distance0, change, step):
    if change % step:
        return
    for rows in (0, 1, 4, 9):
        counts = [max(0, -(-(distance0 + change * r) // step)) for r in range(rows)]
        pairs = sum(counts)
        assert row_counts(distance0, change, step, rows, 0)[0] == pairs
        for pair in range(pairs):
            row = next(r for r in range(rows) if sum(counts[:r + 1]) > pair)
            assert row_counts(distance0, change, step, rows, pair)[1:] == [row, sum(counts[:row]), counts[row]]


@pytest.mark.parametrize(("distance0", "change"), [(0, 1), (200_001, -1), (5, 3), (600_000, -3), (7, 0),
                                                   (-40_000, 2)])
def test_row_of_is_exact_on_large_nests(row_counts, distance0, change):
    """The double-precision guess and its correction against bisect over the prefix sums
    of 200000 rows, at sampled pairs (the first and last of rows among them)."""
    import bisect
    import random
    rows = 200_000
    prefix, total = [], 0
    for r in range(rows):
        prefix.append(total)
        total += max(0, distance0 + change * r)
    assert row_counts(distance0, change, 1, rows, 0)[0] == total
    generator = random.Random(distance0 * 7 + change)
    samples = {0, total - 1} | {generator.randrange(total) for _ in range(300)}
    samples |= {prefix[r] for r in generator.sample(range(rows), 50) if prefix[r] < total}
    for pair in samples:
        row = bisect.bisect_right(prefix, pair) - 1
        assert row_counts(distance0, change, 1, rows, pair)[1:3] == [row, prefix[row]]
