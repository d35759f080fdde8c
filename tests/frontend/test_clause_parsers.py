"""Unit tests for the clause parsers (frontend/openmp/clause_parsers.py): map/to/from and
array sections, data-sharing and other list clauses, loop clauses, expression
clauses and the if clause."""

import pytest
from directive_testing import FILE, PRAGMA_COLUMN, assert_error, column_of, error, expr_text, parse
from pycparser import c_ast

from omp2gpu.frontend.openmp.clause_types import (
    AlignedClause,
    CollapseClause,
    CopyinClause,
    CopyprivateClause,
    DefaultClause,
    DefaultmapClause,
    DeviceClause,
    DistScheduleClause,
    FirstprivateClause,
    FromClause,
    HintClause,
    IfClause,
    IsDevicePtrClause,
    LastprivateClause,
    LinearClause,
    MapClause,
    NowaitClause,
    NumTeamsClause,
    NumThreadsClause,
    OrderedClause,
    PrivateClause,
    ProcBindClause,
    ReductionClause,
    SafelenClause,
    ScheduleClause,
    SharedClause,
    SimdlenClause,
    ThreadLimitClause,
    ToClause,
    UseDevicePtrClause,
)

# --------------------------------------------------------------------------
# map, to, from and list items
# --------------------------------------------------------------------------

def test_map_default_type_is_tofrom():
    m = parse("omp target map(a)").first(MapClause)
    assert m.map_type == "tofrom" and not m.map_type_explicit and not m.always
    [item] = m.items
    assert item.name == "a" and isinstance(item.expr, c_ast.ID) and item.sections == []
    assert item.is_variable


@pytest.mark.parametrize("map_type", ["to", "from", "tofrom", "alloc"])
def test_map_types_on_target(map_type):
    m = parse(f"omp target map({map_type}: x)").first(MapClause)
    assert m.map_type == map_type and m.map_type_explicit


@pytest.mark.parametrize("text", ["omp target map(always, to: a)", "omp target map(always to: a)",
                                  "omp target map( always ,to :a)"])
def test_map_always(text):
    m = parse(text).first(MapClause)
    assert m.always and m.map_type == "to"


def test_map_variable_named_like_a_map_type():
    m = parse("omp target map(to, from)").first(MapClause)
    assert m.map_type == "tofrom" and [i.name for i in m.items] == ["to", "from"]


def test_map_array_sections():
    text = "omp target map(tofrom: a[0:n], b[:n], c[lo:], d[i], e[:], f[0:n][0:m], g[1][2:3])"
    items = parse(text).first(MapClause).items
    a, b, c, d, e, f, g = items
    assert [x.name for x in items] == list("abcdefg")

    [s] = a.sections
    assert expr_text(s.lower) == "0" and expr_text(s.length) == "n" and not s.is_element
    [s] = b.sections
    assert s.lower is None and expr_text(s.length) == "n"
    [s] = c.sections
    assert expr_text(s.lower) == "lo" and s.length is None
    [s] = d.sections
    assert s.is_element and expr_text(s.lower) == "i"
    assert isinstance(s.length, c_ast.Constant) and s.length.value == "1"
    [s] = e.sections
    assert s.lower is None and s.length is None
    bounds = [(expr_text(s.lower), expr_text(s.length)) for s in f.sections]
    assert bounds == [("0", "n"), ("0", "m")]
    assert [s.is_element for s in g.sections] == [True, False]
    assert not a.is_variable
    assert f.spelling == "f[0:n][0:m]"


def test_section_bounds_are_expressions():
    text = "omp target map(to: a[i * 2 + 1 : n - (i + 1)], b[(size_t)k : sizeof(T)])"
    a, b = parse(text, {"size_t", "T"}).first(MapClause).items
    assert expr_text(a.sections[0].lower) == "i * 2 + 1"
    assert expr_text(a.sections[0].length) == "n - (i + 1)"
    assert isinstance(b.sections[0].lower, c_ast.Cast)


def test_section_bound_with_conditional_operator():
    [item] = parse("omp target map(to: a[c ? 1 : 2 : n])").first(MapClause).items
    [s] = item.sections
    assert isinstance(s.lower, c_ast.TernaryOp) and expr_text(s.length) == "n"
    [item] = parse("omp target map(to: a[0 : c ? n : m])").first(MapClause).items
    assert isinstance(item.sections[0].length, c_ast.TernaryOp)


def test_section_coords():
    text = "omp target map(to: a[lo:len])"
    [item] = parse(text).first(MapClause).items
    assert item.coord.column == column_of(text, "a[")
    assert item.sections[0].coord.column == column_of(text, "[")
    assert item.sections[0].lower.coord.column == column_of(text, "lo")
    assert item.sections[0].length.coord.column == column_of(text, "len")


def test_map_struct_members():
    s, p, q = parse("omp target map(to: s.x, p->a[0:n], s.in.y)").first(MapClause).items
    assert s.name == "s" and isinstance(s.expr, c_ast.StructRef)
    assert s.expr.type == "." and s.expr.field.name == "x"
    assert p.name == "p" and p.expr.type == "->" and len(p.sections) == 1
    assert q.expr.name.field.name == "in" and q.expr.field.name == "y"
    assert not s.is_variable


@pytest.mark.parametrize("kind,good,bad", [
    ("target", ["to", "from", "tofrom", "alloc"], ["release", "delete"]),
    ("target data", ["to", "from", "tofrom", "alloc"], ["release", "delete"]),
    ("target enter data", ["to", "alloc"], ["from", "tofrom", "release", "delete"]),
    ("target exit data", ["from", "release", "delete"], ["to", "tofrom", "alloc"]),
    ("target teams distribute parallel for", ["to", "alloc"], ["delete"]),
])
def test_map_types_per_directive(kind, good, bad):
    for map_type in good:
        assert parse(f"omp {kind} map({map_type}: a)").first(MapClause).map_type == map_type
    for map_type in bad:
        text = f"omp {kind} map({map_type}: a)"
        assert_error(text, f"map type '{map_type}' is not valid on '#pragma omp {kind}'",
                     f"{map_type}:")


def test_enter_exit_data_need_a_map_type():
    assert_error("omp target enter data map(a)",
                 "'map' clause on '#pragma omp target enter data' needs a map type "
                 "('to' or 'alloc')", "map")
    assert_error("omp target exit data map(always: a)",
                 "expected a map type before ':' in 'map' clause", ":")


@pytest.mark.parametrize("text,message,at", [
    ("omp target map(tofro: a)", "unknown map type or modifier 'tofro' in 'map' clause", "tofro"),
    ("omp target map(to from: a)", "expected ':' after the map type", "from"),
    ("omp target map(to, always: a)", "unexpected ',' in 'map' clause", ","),
    ("omp target map(always always to: a)", "the 'always' modifier is given twice", "always always"[7:]),
    ("omp target map(to: a: b)", "unexpected ':' in 'map' clause", ": b"),
    ("omp target map(to:)", "expected a variable name in 'map' clause", ")"),
    ("omp target map()", "expected a variable name in 'map' clause", ")"),
    ("omp target map(to: a,)", "expected a variable name in 'map' clause", ")"),
    ("omp target map(to: a[1:2:3])", "a stride ('[lower:length:stride]') in array section in 'map' clause: "
     "strided sections are allowed only in the 'to' and 'from' clauses of 'target update'", ":3"),
    ("omp target map(to: a[])", "expected an expression in array section in 'map' clause", "]"),
    ("omp target map(to: a[n +])", "invalid expression in array section in 'map' clause", "n +"),
    ("omp target map(to: a + 1)", "unexpected '+' in 'map' clause", "+"),
    ("omp target map(to: *p)", "expected a variable name in 'map' clause", "*"),
    ("omp target map(to: f(x))", "unexpected '(' in 'map' clause", "(x"),
    ("omp target map(to: s.)", "expected a member name after '.'", ")"),  # where the name should be
    ("omp target map(to: a[0:n]x)", "unexpected 'x' in 'map' clause", "x)"),
    ("omp target map", "expected '(' after 'map'", "map"),
])
def test_map_errors(text, message, at):
    err = error(text)
    assert err.message == message
    if at == "always":
        assert err.location.column == column_of(text, "always", 2)
    elif message.startswith("expected '(' after"):
        assert err.location.column == column_of(text, at) + len(at)
    else:
        assert err.location.column == column_of(text, at)


def test_target_update_motion_clauses():
    d = parse("omp target update to(a[0:n], s.x) from(b[i:1]) if(n > 0) device(0) nowait")
    assert [i.name for i in d.first(ToClause).items] == ["a", "s"]
    assert d.first(FromClause).items[0].sections[0].lower is not None
    assert d.first(NowaitClause) and d.first(DeviceClause) and d.first(IfClause)


def test_target_update_needs_motion_clause():
    text = "omp target update if(x)"
    assert_error(text, "'#pragma omp target update' needs at least one 'to' or 'from' clause",
                 "target")
    assert_error("omp target update map(to: a)",
                 "clause 'map' is not valid on '#pragma omp target update'", "map")


def test_required_map_clauses():
    assert_error("omp target enter data nowait",
                 "'#pragma omp target enter data' needs at least one 'map' clause", "target")
    assert_error("omp target exit data",
                 "'#pragma omp target exit data' needs at least one 'map' clause", "target")
    assert_error("omp target data device(1)", "'#pragma omp target data' needs at least one "
                 "'map' or 'use_device_ptr' or 'use_device_addr' clause", "target")
    assert parse("omp target data use_device_ptr(p)").first(UseDevicePtrClause).items[0].name == "p"


# --------------------------------------------------------------------------
# Data-sharing and other list clauses
# --------------------------------------------------------------------------

@pytest.mark.parametrize("directive,clause,cls", [
    ("parallel", "private", PrivateClause),
    ("parallel", "firstprivate", FirstprivateClause),
    ("for", "lastprivate", LastprivateClause),
    ("teams", "shared", SharedClause),
    ("parallel", "copyin", CopyinClause),
    ("single", "copyprivate", CopyprivateClause),
    ("target", "is_device_ptr", IsDevicePtrClause),
    ("target data", "use_device_ptr", UseDevicePtrClause),
    ("target", "private", PrivateClause),
    ("target", "firstprivate", FirstprivateClause),
])
def test_plain_list_clauses(directive, clause, cls):
    d = parse(f"omp {directive} {clause}(a, b ,c)")
    [found] = d.find(cls)
    assert [i.name for i in found.items] == ["a", "b", "c"]
    assert all(isinstance(i.expr, c_ast.ID) and i.is_variable for i in found.items)
    text = f"omp {directive} {clause}(a, b[0:2])"
    assert_error(text, f"expected a variable name in '{clause}' clause", "[")
    text = f"omp {directive} {clause}(a, s.x)"
    assert_error(text, f"expected a variable name in '{clause}' clause", ".")
    text = f"omp {directive} {clause}(a, 3)"
    assert_error(text, f"expected a variable name in '{clause}' clause", "3")
    text = f"omp {directive} {clause}()"
    assert_error(text, f"expected a variable name in '{clause}' clause", ")")


def test_several_list_clauses_of_one_kind_are_allowed():
    d = parse("omp target teams map(to: a) map(from: b) private(i) private(j) firstprivate(k)")
    assert len(d.find(MapClause)) == 2 and len(d.find(PrivateClause)) == 2


def test_list_item_coords():
    text = "omp parallel private(alpha,  beta)"
    items = parse(text).first(PrivateClause).items
    assert [i.coord.column for i in items] == [column_of(text, "alpha"), column_of(text, "beta")]
    assert items[1].expr.coord.column == column_of(text, "beta")
    assert items[1].expr.coord.file == FILE and items[1].expr.coord.line == 12


@pytest.mark.parametrize("op", ["+", "*", "-", "&", "|", "^", "&&", "||", "max", "min"])
def test_reduction_operators(op):
    r = parse(f"omp parallel for reduction({op}: s, t)").first(ReductionClause)
    assert r.op == op and [i.name for i in r.items] == ["s", "t"]


@pytest.mark.parametrize("text,message,at", [
    ("omp parallel reduction(s)", "expected ':' after the reduction operator", ")"),
    ("omp parallel reduction(/: s)", "invalid reduction operator '/'", "/"),
    ("omp parallel reduction(+ +: s)", "invalid reduction operator '++'", "+"),
    ("omp parallel reduction(: s)", "expected a reduction operator before ':'", ":"),
    ("omp parallel reduction(+: s) reduction(*: )",
     "expected a variable name in 'reduction' clause", " )"),
])
def test_reduction_errors(text, message, at):
    err = error(text)
    assert err.message == message
    if at == ")" and "':'" in message:
        assert err.location.column == column_of(text, "s)") + 1
    elif at == " )":
        assert err.location.column == column_of(text, at) + 1
    else:
        assert err.location.column == column_of(text, at)


@pytest.mark.parametrize("kind", ["shared", "none"])
def test_default(kind):
    assert parse(f"omp parallel default({kind})").first(DefaultClause).kind == kind
    assert parse(f"omp target teams default({kind})").first(DefaultClause).kind == kind


def test_default_errors():
    expected = "expected 'shared' or 'none' or 'firstprivate' or 'private' in 'default' clause"
    assert_error("omp parallel default(copy)", expected, "copy")
    assert_error("omp parallel default()", expected, ")")
    assert_error("omp parallel default(shared) default(none)",
                 "duplicate 'default' clause on '#pragma omp parallel'", "default", 2)
    assert_error("omp target default(none)",
                 "clause 'default' is not valid on '#pragma omp target'", "default")


def test_defaultmap():
    d = parse("omp target defaultmap(tofrom:scalar)").first(DefaultmapClause)
    assert (d.behavior, d.category) == ("tofrom", "scalar")
    assert parse("omp target parallel defaultmap( tofrom : scalar )").first(DefaultmapClause)
    d = parse("omp target defaultmap(present)").first(DefaultmapClause)
    assert (d.behavior, d.category) == ("present", None)
    assert parse("omp target defaultmap(none: all)").first(DefaultmapClause).category is None
    assert_error("omp target defaultmap(tofro: scalar)",
                 "expected 'alloc' or 'to' or 'from' or 'tofrom' or 'firstprivate' or 'none' or 'default' or "
                 "'present' in 'defaultmap' clause", "tofro")
    assert_error("omp target defaultmap(tofrom: scalars)",
                 "expected 'scalar' or 'aggregate' or 'pointer' or 'all' in 'defaultmap' category", "scalars")


def test_defaultmap_once_per_category():
    assert len(parse("omp target defaultmap(to: scalar) defaultmap(none: pointer)").find(DefaultmapClause)) == 2
    assert_error("omp target defaultmap(to: scalar) defaultmap(tofrom)",
                 "more than one 'defaultmap' clause for the same category on '#pragma omp target'",
                 "defaultmap", 2)
    assert_error("omp target defaultmap(to: pointer) defaultmap(from: pointer)",
                 "more than one 'defaultmap' clause for the same category on '#pragma omp target'",
                 "defaultmap", 2)


@pytest.mark.parametrize("kind", ["master", "close", "spread"])
def test_proc_bind(kind):
    assert parse(f"omp parallel proc_bind({kind})").first(ProcBindClause).kind == kind


def test_proc_bind_error():
    assert_error("omp parallel proc_bind(near)",
                 "expected 'master' or 'close' or 'spread' or 'primary' in 'proc_bind' clause", "near")


# --------------------------------------------------------------------------
# Loop clauses
# --------------------------------------------------------------------------

@pytest.mark.parametrize("text,cls,attr,value", [
    ("omp for collapse(2)", CollapseClause, "count", 2),
    ("omp for collapse( 3 )", CollapseClause, "count", 3),
    ("omp for collapse(0x2)", CollapseClause, "count", 2),
    ("omp for collapse(1 + 1)", CollapseClause, "count", 2),
    ("omp for ordered(2) collapse(2)", OrderedClause, "count", 2),
    ("omp simd safelen(16)", SafelenClause, "length", 16),
    ("omp simd simdlen(4u)", SimdlenClause, "length", 4),
    ("omp simd aligned(a, b: 64)", AlignedClause, "alignment", 64),
    ("omp simd aligned(a)", AlignedClause, "alignment", None),
])
def test_constant_clauses(text, cls, attr, value):
    assert getattr(parse(text).first(cls), attr) == value


def test_ordered_must_cover_the_collapsed_loops():
    """ordered(n) associates n loops, at least the collapsed ones; more is a doacross
    nest (codegen/openmp/host/doacross.py), which privatises the inner loops' variables."""
    assert_error("omp for collapse(2) ordered(1)", "'ordered(1)' must not be smaller than 'collapse(2)'", "ordered")
    assert parse("omp parallel for ordered(2)").first(OrderedClause).count == 2
    assert parse("omp for collapse(2) ordered(3)").first(OrderedClause).count == 3
    assert parse("omp for ordered(1)").first(OrderedClause).count == 1


@pytest.mark.parametrize("clause", ["collapse", "safelen", "simdlen"])
@pytest.mark.parametrize("arg", ["0", "-1", "n", "2.5", "(int)2 + k"])
def test_positive_constant_required(clause, arg):
    text = f"omp simd {clause}({arg})"
    err = error(text)
    assert err.message == f"argument of '{clause}' must be a positive integer constant"
    assert err.location.column == column_of(text, "(") + 1


def test_collapse_missing_argument():
    err = error("omp for collapse")
    assert err.message == "expected '(' after 'collapse'"
    assert err.location.column == PRAGMA_COLUMN + len("omp for collapse")
    assert_error("omp for collapse()", "expected an expression in 'collapse' clause", ")")


def test_simdlen_not_greater_than_safelen():
    assert_error("omp simd safelen(4) simdlen(8)",
                 "'simdlen' (8) must not be greater than 'safelen' (4)", "simdlen")
    assert parse("omp simd safelen(8) simdlen(8)")


@pytest.mark.parametrize("kind", ["static", "dynamic", "guided", "auto", "runtime"])
def test_schedule_kinds(kind):
    s = parse(f"omp for schedule({kind})").first(ScheduleClause)
    assert s.kind == kind and s.chunk is None and s.modifiers == ()


def test_schedule_chunk_and_modifiers():
    s = parse("omp for schedule(static, 4)").first(ScheduleClause)
    assert s.kind == "static" and expr_text(s.chunk) == "4"
    s = parse("omp for schedule(dynamic, n / (size_t)8)", {"size_t"}).first(ScheduleClause)
    assert isinstance(s.chunk, c_ast.BinaryOp)
    s = parse("omp for schedule(monotonic: dynamic)").first(ScheduleClause)
    assert s.modifiers == ("monotonic",)
    s = parse("omp for simd schedule(nonmonotonic, simd: guided, 2)").first(ScheduleClause)
    assert s.modifiers == ("nonmonotonic", "simd") and s.kind == "guided"


@pytest.mark.parametrize("text,message,at", [
    ("omp for schedule(fast)",
     "expected 'static' or 'dynamic' or 'guided' or 'auto' or 'runtime' in 'schedule' clause",
     "fast"),
    ("omp for schedule(runtime, 4)", "schedule kind 'runtime' takes no chunk size", ","),
    ("omp for schedule(static, 4, 5)", "unexpected ',' in 'schedule' clause", ", 5"),
    ("omp for schedule(static,)", "expected an expression in chunk size of 'schedule' clause",
     ")"),
    ("omp for schedule(nonmonotonic: static)",
     "'nonmonotonic' requires schedule kind 'dynamic' or 'guided'", "static"),
    ("omp for schedule(monotonic, nonmonotonic: dynamic)",
     "conflicting schedule modifier 'nonmonotonic'", "nonmonotonic"),
    ("omp for schedule(simd, simd: dynamic)", "conflicting schedule modifier 'simd'", "simd,"),
    ("omp for schedule(fancy: dynamic)",
     "expected 'monotonic' or 'nonmonotonic' or 'simd' in 'schedule' modifier", "fancy"),
    ("omp for schedule(nonmonotonic: dynamic) ordered",
     "a 'nonmonotonic' schedule cannot be combined with 'ordered'", "schedule"),
    ("omp for schedule(static) schedule(static)",
     "duplicate 'schedule' clause on '#pragma omp for'", "schedule(static)", ),
])
def test_schedule_errors(text, message, at):
    err = error(text)
    assert err.message == message
    occurrence = 2 if message.startswith("duplicate") else 1
    if at == "simd,":
        # the second 'simd' is the duplicate
        assert err.location.column == column_of(text, "simd", 2)
    else:
        assert err.location.column == column_of(text, at, occurrence)


def test_dist_schedule():
    d = parse("omp distribute dist_schedule(static)").first(DistScheduleClause)
    assert d.kind == "static" and d.chunk is None
    d = parse("omp teams distribute dist_schedule(static, 128)").first(DistScheduleClause)
    assert expr_text(d.chunk) == "128"
    assert_error("omp distribute dist_schedule(dynamic)",
                 "expected 'static' in 'dist_schedule' clause", "dynamic")
    assert_error("omp for dist_schedule(static)",
                 "clause 'dist_schedule' is not valid on '#pragma omp for'", "dist_schedule")


def test_linear():
    lin = parse("omp for linear(i, j)").first(LinearClause)
    assert [x.name for x in lin.items] == ["i", "j"] and lin.step is None and lin.modifier is None
    lin = parse("omp simd linear(i: 2 * k)").first(LinearClause)
    assert expr_text(lin.step) == "2 * k"
    lin = parse("omp declare simd linear(val(x, y): 4)").first(LinearClause)
    assert lin.modifier == "val" and [x.name for x in lin.items] == ["x", "y"] and lin.modifier_around_list
    # before OpenMP 5.2 the modifier around the list is declare simd's alone (gcc's error)
    assert_error("omp for simd linear(val(x, y): 4)", "modifier should not be specified in 'linear' clause on "
                 "'simd' or 'for' constructs when not using OpenMP 5.2 modifiers", "linear")
    assert_error("omp simd linear(ref(x))", "linear modifier 'ref' is not allowed in C", "ref")
    assert_error("omp simd linear(a[0:2])", "expected a variable name in 'linear' clause", "[")
    assert_error("omp simd linear(i:)", "expected an expression in step of 'linear' clause", ")")


def test_linear_modifiers_after_the_colon():
    """OpenMP 5.2: linear(list: step(s), val) in either order; a lone modifier means step 1."""
    lin = parse("omp for linear(k: step(2 * n), val)").first(LinearClause)
    assert expr_text(lin.step) == "2 * n" and lin.modifier == "val"
    lin = parse("omp simd linear(k: val, step(3))").first(LinearClause)
    assert expr_text(lin.step) == "3" and lin.modifier == "val"
    lin = parse("omp simd linear(k: val)").first(LinearClause)
    assert lin.step is None and lin.modifier == "val"
    lin = parse("omp simd linear(k: step(4))").first(LinearClause)
    assert expr_text(lin.step) == "4" and lin.modifier is None
    assert_error("omp simd linear(k: uval, step(2))", "linear modifier 'uval' is not allowed in C", "uval")
    assert_error("omp simd linear(k: step(1), step(2))", "'step' given twice in 'linear' clause", "step", 2)
    assert_error("omp simd linear(k: val, 2)",
                 "expected 'step(...)' or a linear modifier ('val') after ',' in 'linear' clause", "2")


def test_aligned_errors():
    assert_error("omp simd aligned(p: 0)",
                 "argument of 'aligned' must be a positive integer constant", "0")
    assert_error("omp simd aligned(p[0:2])", "expected a variable name in 'aligned' clause", "[")
    assert_error("omp for aligned(p)", "clause 'aligned' is not valid on '#pragma omp for'",
                 "aligned")


def test_ordered_clause_forms():
    assert parse("omp for ordered").first(OrderedClause).count is None
    assert parse("omp parallel for ordered(1)").first(OrderedClause).count == 1
    assert_error("omp for ordered ordered", "duplicate 'ordered' clause on '#pragma omp for'",
                 "ordered", 2)


# --------------------------------------------------------------------------
# Expression clauses
# --------------------------------------------------------------------------

@pytest.mark.parametrize("directive,clause,cls", [
    ("teams", "num_teams", NumTeamsClause),
    ("teams", "thread_limit", ThreadLimitClause),
    ("parallel", "num_threads", NumThreadsClause),
    ("target", "device", DeviceClause),
    ("target data map(a)", "device", DeviceClause),
    ("critical(name)", "hint", HintClause),
])
def test_expression_clauses(directive, clause, cls):
    text = f"omp {directive} {clause}(n * 2 + f(x, y))"
    c = parse(text).first(cls)
    assert isinstance(c.expr, c_ast.BinaryOp) and expr_text(c.expr) == "n * 2 + f(x, y)"
    assert c.coord.column == column_of(text, clause)
    assert_error(f"omp {directive} {clause}(a, b)", f"unexpected ',' in '{clause}' clause", ",")
    text = f"omp {directive} {clause}()"
    err = error(text)
    assert err.message == f"expected an expression in '{clause}' clause"
    assert err.location.column == column_of(text, "()") + 1


def test_expression_coords_point_into_pragma_line():
    text = "omp target teams num_teams((size_t)n + 1)"
    expr = parse(text, {"size_t"}).first(NumTeamsClause).expr
    assert isinstance(expr, c_ast.BinaryOp)
    cast, one = expr.left, expr.right
    assert isinstance(cast, c_ast.Cast) and cast.to_type.type.type.names == ["size_t"]
    assert cast.coord.column == column_of(text, "(size_t)")
    assert cast.expr.coord.column == column_of(text, "n +")
    assert one.coord.column == column_of(text, "1)")
    assert (one.coord.file, one.coord.line) == (FILE, 12)


def test_num_teams_lower_bound_and_a_conditional_upper_bound():
    """OpenMP 5.1's `num_teams(lower: upper)`; a `?:`'s colon is no bound's."""
    text = "omp target teams num_teams(low + 1 : high)"
    clause = parse(text).first(NumTeamsClause)
    assert (expr_text(clause.lower), expr_text(clause.expr)) == ("low + 1", "high")
    assert clause.lower.coord.column == column_of(text, "low")
    clause = parse("omp teams num_teams(n > 4 ? 4 : n)").first(NumTeamsClause)
    assert clause.lower is None and isinstance(clause.expr, c_ast.TernaryOp)
    clause = parse("omp teams num_teams(k ? 1 : 2 : 8)").first(NumTeamsClause)
    assert isinstance(clause.lower, c_ast.TernaryOp) and expr_text(clause.expr) == "8"


def test_typedef_casts_need_the_typedef_names():
    assert parse("omp parallel num_threads((my_int)n)", {"my_int"})
    assert parse("omp parallel num_threads(sizeof(my_int) * n)", {"my_int", "unused_t"})
    assert_error("omp parallel num_threads((my_int)n)",
                 "invalid expression in 'num_threads' clause", "n)")


def test_conditional_expression_in_clause():
    c = parse("omp parallel num_threads(n > 4 ? 4 : n)").first(NumThreadsClause)
    assert isinstance(c.expr, c_ast.TernaryOp)


@pytest.mark.parametrize("text,at", [
    ("omp parallel num_threads(a b)", "b"),
    ("omp parallel num_threads(a + )", "a"),
    ("omp parallel num_threads(x; y)", ";"),
    ("omp parallel num_threads(int)", "int"),
])
def test_invalid_expressions(text, at):
    err = error(text)
    assert err.message.startswith("invalid expression in 'num_threads' clause") or \
        err.message == "unexpected ';' in 'num_threads' clause"
    assert err.location.line == 12
    assert column_of(text, "(") < err.location.column <= PRAGMA_COLUMN + len(text)
    if at in ("b", ";"):
        assert err.location.column == column_of(text, at)


def test_string_and_char_constants_tokenize():
    c = parse("omp parallel num_threads(sizeof(\"abc\") + 'x')").first(NumThreadsClause)
    assert isinstance(c.expr, c_ast.BinaryOp)


# --------------------------------------------------------------------------
# if clause
# --------------------------------------------------------------------------

def test_if_without_modifier():
    c = parse("omp target if(n > 1000)").first(IfClause)
    assert c.modifier is None and expr_text(c.expr) == "n > 1000"


@pytest.mark.parametrize("directive,modifier", [
    ("target", "target"),
    ("target data map(a)", "target data"),
    ("target enter data map(to: a)", "target enter data"),
    ("target exit data map(from: a)", "target exit data"),
    ("target update to(a)", "target update"),
    ("parallel", "parallel"),
    ("parallel for", "parallel"),
    ("target parallel for", "target"),
    ("target parallel for", "parallel"),
    ("target teams distribute parallel for simd", "parallel"),
    ("task", "task"),
])
def test_if_modifiers(directive, modifier):
    text = f"omp {directive} if({modifier}: c)"
    clause = parse(text).first(IfClause)
    assert clause.modifier == modifier and expr_text(clause.expr) == "c"
    assert clause.modifier_coord.column == column_of(text, modifier + ":")


def test_if_with_conditional_expression():
    c = parse("omp target if(target: a ? b : c)").first(IfClause)
    assert c.modifier == "target" and isinstance(c.expr, c_ast.TernaryOp)
    c = parse("omp target if(a ? b : c)").first(IfClause)
    assert c.modifier is None and isinstance(c.expr, c_ast.TernaryOp)


def test_two_if_clauses_with_different_modifiers():
    d = parse("omp target parallel if(target: a) if(parallel: b)")
    assert [c.modifier for c in d.find(IfClause)] == ["target", "parallel"]


@pytest.mark.parametrize("text,message,at", [
    ("omp parallel if(target: x)",
     "directive-name-modifier 'target' does not apply to '#pragma omp parallel'", "target"),
    ("omp target teams if(parallel: x)",
     "directive-name-modifier 'parallel' does not apply to '#pragma omp target teams'",
     "parallel"),
    ("omp target if(task: x)",
     "directive-name-modifier 'task' does not apply to '#pragma omp target'", "task"),
    ("omp target if(target data: x)",
     "directive-name-modifier 'target data' does not apply to '#pragma omp target'",
     "target data"),
    ("omp target if(gpu: x)", "unknown directive-name-modifier 'gpu' in 'if' clause", "gpu"),
    ("omp target if(a + 1: x)", "unknown directive-name-modifier 'a + 1' in 'if' clause", "a + 1"),
    ("omp target if(x) if(y)", "duplicate 'if' clause on '#pragma omp target'", "if(y)"),
    ("omp target parallel if(target: x) if(target: y)",
     "duplicate 'if(target:...)' clause on '#pragma omp target parallel'", "if(target: y)"),
    ("omp target parallel if(target: x) if(y)",
     "when one 'if' clause has a directive-name-modifier, all must", "if(y)"),
    ("omp target if(target:)", "expected an expression in 'if' clause", ")"),
    ("omp target if(: x)", "expected a directive-name-modifier before ':' in 'if' clause", ":"),
    ("omp for if(x)", "clause 'if' is not valid on '#pragma omp for'", "if"),
    ("omp task if(parallel: x)",
     "directive-name-modifier 'parallel' does not apply to '#pragma omp task'", "parallel"),
])
def test_if_errors(text, message, at):
    assert_error(text, message, at)


# ----------------------------------------------------------- OpenMP 5.0/5.1: masked, error, assume, simd, flush
def test_5x_clauses_parse():
    from omp2gpu.frontend.openmp.clause_types import (
        AbsentClause,
        AtClause,
        FilterClause,
        MessageClause,
        NontemporalClause,
        SeverityClause,
    )
    assert expr_text(parse("omp masked filter(n - 1)").first(FilterClause).expr) == "n - 1"
    error_directive = parse('omp error at(execution) severity(warning) message("slow path")')
    assert error_directive.first(AtClause).kind == "execution"
    assert error_directive.first(SeverityClause).kind == "warning"
    assert error_directive.first(MessageClause).expr.value == '"slow path"'
    absent = parse("omp assume absent(parallel for, teams) no_openmp_routines").first(AbsentClause)
    assert absent.names == ["parallel for", "teams"]
    assert [item.name for item in parse("omp simd nontemporal(a, b) if(simd: n > 8)").first(
        NontemporalClause).items] == ["a", "b"]
    assert [c.kind for c in parse("omp task default(private)").clauses] == ["private"]
    flush = parse("omp flush seq_cst (a, b)")
    assert [c.name for c in flush.clauses] == ["seq_cst"] and [i.name for i in flush.flush_list] == ["a", "b"]


@pytest.mark.parametrize("text, message, at", [
    ("omp master filter(1)", "clause 'filter' is not valid on '#pragma omp master'", "filter"),
    ("omp masked filter(1) filter(2)", "duplicate 'filter' clause on '#pragma omp masked'", "filter(2)"),
    ("omp error severity(loud)", "expected 'fatal' or 'warning' in 'severity' clause", "loud"),
    ("omp error at(runtime)", "expected 'compilation' or 'execution' in 'at' clause", "runtime"),
    ("omp error message(text)", "the 'message' of a compile-time '#pragma omp error' must be a string literal",
     "message"),
    ("omp assume contains(frobnicate)", "expected an OpenMP directive name in 'contains' clause", "frobnicate"),
    ("omp flush release (a)", "'release' clause on '#pragma omp flush' with a list", "release"),
    ("omp scope lastprivate(x)", "clause 'lastprivate' is not valid on '#pragma omp scope'", "lastprivate"),
    ("omp teams num_teams(1: 4: 8)", "unexpected ':' in 'num_teams' clause", ": 8"),
    ("omp teams num_teams(: 4)", "expected an expression in 'num_teams' clause", ": 4"),
])
def test_5x_clause_errors(text, message, at):
    assert_error(text, message, at)
