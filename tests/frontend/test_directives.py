"""Unit tests for the OpenMP directive and clause parser."""

import random

import pytest
from pycparser import c_ast
from pycparser.c_parser import Coord

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.directives import (
    DIRECTIVES, AlignedClause, AtomicClause, CollapseClause, CopyinClause, CopyprivateClause,
    DefaultClause, DefaultmapClause, DependClause, DeviceClause, Directive, DistScheduleClause,
    FinalClause, FirstprivateClause, FromClause, HintClause, IfClause, InbranchClause,
    IsDevicePtrClause, LastprivateClause, LinearClause, LinkClause, MapClause, MergeableClause,
    NotinbranchClause, NowaitClause, NumTeamsClause, NumThreadsClause, OrderedClause,
    PriorityClause, PrivateClause, ProcBindClause, ReductionClause, SafelenClause,
    ScheduleClause, SeqCstClause, SharedClause, SimdClause, SimdlenClause, ThreadLimitClause,
    ThreadsClause, ToClause, UniformClause, UntiedClause, UseDevicePtrClause, allowed_clauses,
    parse_directive,
)

PRAGMA_COLUMN = 9       # "#pragma omp ...": the "o" of "omp" is in column 9
COORD = Coord("prog.c", 12, PRAGMA_COLUMN)


def parse(text: str, typedefs=frozenset()) -> Directive:
    return parse_directive(text, COORD, frozenset(typedefs))


def error(text: str, typedefs=frozenset()) -> CompileError:
    with pytest.raises(CompileError) as info:
        parse(text, typedefs)
    return info.value


def column_of(text: str, needle: str, occurrence: int = 1) -> int:
    """Source column of the n-th occurrence of `needle` in the pragma text."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return PRAGMA_COLUMN + index


def assert_error(text: str, message: str, at: str, occurrence: int = 1, typedefs=frozenset()):
    err = error(text, typedefs)
    assert err.message == message
    assert err.location == SourceLocation("prog.c", 12, column_of(text, at, occurrence))


def expr_text(node) -> str:
    from pycparser.c_generator import CGenerator
    return CGenerator(reduce_parentheses=True).visit(node)


# --------------------------------------------------------------------------
# Directive names
# --------------------------------------------------------------------------

# Clauses a directive cannot do without, so every form parses.
_MINIMAL_CLAUSES = {
    "threadprivate": "(a)",
    "target update": " to(a)",
    "target enter data": " map(to: a)",
    "target exit data": " map(from: a)",
    "target data": " map(a)",
}

ALL_FORMS = [
    ("target", ("target",)),
    ("target data", ("target data",)),
    ("target enter data", ("target enter data",)),
    ("target exit data", ("target exit data",)),
    ("target update", ("target update",)),
    ("declare target", ("declare target",)),
    ("end declare target", ("end declare target",)),
    ("teams", ("teams",)),
    ("distribute", ("distribute",)),
    ("parallel", ("parallel",)),
    ("for", ("for",)),
    ("simd", ("simd",)),
    ("sections", ("sections",)),
    ("section", ("section",)),
    ("single", ("single",)),
    ("master", ("master",)),
    ("critical", ("critical",)),
    ("barrier", ("barrier",)),
    ("atomic", ("atomic",)),
    ("flush", ("flush",)),
    ("taskwait", ("taskwait",)),
    ("taskyield", ("taskyield",)),
    ("ordered", ("ordered",)),
    ("task", ("task",)),
    ("taskgroup", ("taskgroup",)),
    ("threadprivate", ("threadprivate",)),
    ("declare simd", ("declare simd",)),
    ("parallel for", ("parallel", "for")),
    ("parallel for simd", ("parallel", "for", "simd")),
    ("parallel sections", ("parallel", "sections")),
    ("for simd", ("for", "simd")),
    ("distribute simd", ("distribute", "simd")),
    ("distribute parallel for", ("distribute", "parallel", "for")),
    ("distribute parallel for simd", ("distribute", "parallel", "for", "simd")),
    ("teams distribute", ("teams", "distribute")),
    ("teams distribute simd", ("teams", "distribute", "simd")),
    ("teams distribute parallel for", ("teams", "distribute", "parallel", "for")),
    ("teams distribute parallel for simd", ("teams", "distribute", "parallel", "for", "simd")),
    ("target parallel", ("target", "parallel")),
    ("target parallel for", ("target", "parallel", "for")),
    ("target parallel for simd", ("target", "parallel", "for", "simd")),
    ("target simd", ("target", "simd")),
    ("target teams", ("target", "teams")),
    ("target teams distribute", ("target", "teams", "distribute")),
    ("target teams distribute simd", ("target", "teams", "distribute", "simd")),
    ("target teams distribute parallel for", ("target", "teams", "distribute", "parallel", "for")),
    ("target teams distribute parallel for simd",
     ("target", "teams", "distribute", "parallel", "for", "simd")),
]


@pytest.mark.parametrize("kind,constructs", ALL_FORMS)
def test_every_directive_form(kind, constructs):
    d = parse("omp " + kind + _MINIMAL_CLAUSES.get(kind, ""))
    assert d.kind == kind
    assert d.constructs == constructs
    for construct in constructs:
        assert d.has(construct)
    assert d.has(kind)


def test_table_covers_exactly_the_tested_forms():
    assert set(DIRECTIVES) == {kind for kind, _ in ALL_FORMS}


def test_whitespace_is_normalised():
    d = parse("omp   target \t teams   distribute  parallel for   simd")
    assert d.kind == "target teams distribute parallel for simd"


def test_directive_coord_points_at_name():
    text = "omp  parallel for"
    d = parse(text)
    assert d.coord == SourceLocation("prog.c", 12, column_of(text, "parallel"))


def test_has_is_exact_on_leaves():
    d = parse("omp target teams")
    assert d.has("target") and d.has("teams")
    assert not d.has("parallel") and not d.has("target data")


@pytest.mark.parametrize("text,standalone", [
    ("omp barrier", True),
    ("omp taskwait", True),
    ("omp taskyield", True),
    ("omp threadprivate(a, b)", True),
    ("omp task", False),
    ("omp taskgroup", False),
    ("omp declare simd", False),
    ("omp flush", True),
    ("omp flush(a, b)", True),
    ("omp target update from(a)", True),
    ("omp target enter data map(to: a)", True),
    ("omp target exit data map(delete: a)", True),
    ("omp end declare target", True),
    ("omp declare target", True),
    ("omp declare target (f, x)", False),
    ("omp declare target to(f) link(x)", False),
    ("omp ordered depend(source)", True),
    ("omp ordered", False),
    ("omp ordered threads", False),
    ("omp target", False),
    ("omp target data map(a)", False),
    ("omp parallel for", False),
    ("omp atomic", False),
    ("omp critical", False),
    ("omp section", False),
])
def test_is_standalone(text, standalone):
    assert parse(text).is_standalone is standalone


def test_declare_target_forms():
    begin = parse("omp declare target")
    assert begin.is_declare_target_begin and begin.clauses == [] and not begin.has_extended_list

    listed = parse("omp declare target (f, x)")
    assert not listed.is_declare_target_begin and listed.has_extended_list
    [to] = listed.find(ToClause)
    assert [item.name for item in to.items] == ["f", "x"]

    clauses = parse("omp declare target to(f, g) link(big)")
    assert [i.name for i in clauses.first(ToClause).items] == ["f", "g"]
    assert [i.name for i in clauses.first(LinkClause).items] == ["big"]

    assert parse("omp end declare target").kind == "end declare target"


def test_declare_target_errors():
    assert_error("omp declare target (a[0:4])", "expected a variable name in "
                 "'#pragma omp declare target' list", "[")
    assert_error("omp declare target to(a[0:4])",
                 "expected a variable or function name in 'to' clause", "a[")
    assert_error("omp declare target (f) to(g)",
                 "no clauses may follow the list of '#pragma omp declare target'", "to")
    assert_error("omp declare target map(a)",
                 "clause 'map' is not valid on '#pragma omp declare target'", "map")
    assert_error("omp end declare target to(a)",
                 "clause 'to' is not valid on '#pragma omp end declare target'", "to")


@pytest.mark.parametrize("text,message,at", [
    ("omp target for", "invalid combination 'target for'", "for"),
    ("omp target for simd", "invalid combination 'target for simd'", "for"),
    ("omp parallel teams", "invalid combination 'parallel teams'", "teams"),
    ("omp for parallel", "invalid combination 'for parallel'", "parallel"),
    ("omp teams target", "invalid combination 'teams target'", "target"),
    ("omp simd for", "invalid combination 'simd for'", "for"),
    ("omp target teams parallel", "invalid combination 'target teams parallel'", "parallel"),
    ("omp distribute teams", "invalid combination 'distribute teams'", "teams"),
    ("omp parallel parallel", "invalid combination 'parallel parallel'", "parallel", ),
    ("omp target data teams", "invalid combination 'target data teams'", "teams"),
    ("omp paralel for", "unknown OpenMP directive 'paralel'", "paralel"),
    ("omp xyz", "unknown OpenMP directive 'xyz'", "xyz"),
    ("omp data", "unknown OpenMP directive 'data'", "data"),
    ("omp taskloop simd", "unsupported OpenMP directive 'taskloop'", "taskloop"),
    ("omp taskloop", "unsupported OpenMP directive 'taskloop'", "taskloop"),
    ("omp task parallel", "invalid combination 'task parallel'", "parallel"),
    ("omp declare reduction(+: int: omp_out)", "unsupported OpenMP directive 'declare reduction'",
     "declare"),
    ("omp target enter", "expected 'data' after 'target enter'", "enter"),
    ("omp target exit map(from: a)", "expected 'data' after 'target exit'", "map"),
    ("omp declare", "expected 'simd' or 'target' after 'declare'", "declare"),
    ("omp end declare", "expected 'target' after 'end declare'", "declare"),
    ("omp parallel (", "unexpected '(' after '#pragma omp parallel'", "("),
])
def test_bad_directive_names(text, message, at):
    err = error(text)
    assert err.message == message
    expected = column_of(text, at, 2 if text.count(at) > 1 and at == "parallel" else 1)
    if message.startswith("expected 'data'") and at == "enter":
        expected = PRAGMA_COLUMN + len(text)            # after the last word
    if message.startswith(("expected 'target'", "expected 'simd'")):
        expected = PRAGMA_COLUMN + len(text)
    assert err.location.column == expected


def test_missing_directive_name():
    err = error("omp")
    assert err.message == "expected an OpenMP directive name after 'omp'"
    assert err.location.column == PRAGMA_COLUMN + 3


def test_ordered_word_after_for_is_a_clause():
    d = parse("omp for ordered")
    assert d.kind == "for" and d.first(OrderedClause).count is None


def test_simd_word_after_ordered_is_a_clause():
    d = parse("omp ordered simd")
    assert d.kind == "ordered" and d.first(SimdClause) is not None
    assert parse("omp ordered threads").first(ThreadsClause) is not None


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
    ("omp target map(tofro: a)", "unknown map type 'tofro'", "tofro"),
    ("omp target map(to from: a)", "expected ':' after the map type", "from"),
    ("omp target map(to, always: a)", "unexpected ',' in 'map' clause", ","),
    ("omp target map(always always to: a)", "'always' must appear once, before the map type",
     "always", ),
    ("omp target map(to: a: b)", "unexpected ':' in 'map' clause", ": b"),
    ("omp target map(to:)", "expected a variable name in 'map' clause", ")"),
    ("omp target map()", "expected a variable name in 'map' clause", ")"),
    ("omp target map(to: a,)", "expected a variable name in 'map' clause", ")"),
    ("omp target map(to: a[1:2:3])", "unexpected ':' in array section in 'map' clause", ":3"),
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
                 "'map' or 'use_device_ptr' clause", "target")
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
    assert items[1].expr.coord.file == "prog.c" and items[1].expr.coord.line == 12


@pytest.mark.parametrize("op", ["+", "*", "-", "&", "|", "^", "&&", "||", "max", "min"])
def test_reduction_operators(op):
    r = parse(f"omp parallel for reduction({op}: s, t)").first(ReductionClause)
    assert r.op == op and [i.name for i in r.items] == ["s", "t"]


@pytest.mark.parametrize("text,message,at", [
    ("omp parallel reduction(s)", "expected ':' after the reduction operator", ")"),
    ("omp parallel reduction(/: s)", "invalid reduction operator '/'", "/"),
    ("omp parallel reduction(+ +: s)", "invalid reduction operator '++'", "+"),
    ("omp parallel reduction(: s)", "expected a reduction operator before ':'", ":"),
    ("omp parallel reduction(myop: s)", "user-defined reduction 'myop' is not supported", "myop"),
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
    assert_error("omp parallel default(private)",
                 "expected 'shared' or 'none' in 'default' clause", "private")
    assert_error("omp parallel default()", "expected 'shared' or 'none' in 'default' clause", ")")
    assert_error("omp parallel default(shared) default(none)",
                 "duplicate 'default' clause on '#pragma omp parallel'", "default", 2)
    assert_error("omp target default(none)",
                 "clause 'default' is not valid on '#pragma omp target'", "default")


def test_defaultmap():
    d = parse("omp target defaultmap(tofrom:scalar)").first(DefaultmapClause)
    assert (d.behavior, d.category) == ("tofrom", "scalar")
    assert parse("omp target parallel defaultmap( tofrom : scalar )").first(DefaultmapClause)
    assert_error("omp target defaultmap(to: scalar)",
                 "expected 'tofrom' in 'defaultmap' clause", "to:")
    assert_error("omp target defaultmap(tofrom)",
                 "expected ':scalar' after 'tofrom' in 'defaultmap' clause", ")")
    assert_error("omp target defaultmap(tofrom: pointer)",
                 "expected 'scalar' in 'defaultmap' clause", "pointer")


@pytest.mark.parametrize("kind", ["master", "close", "spread"])
def test_proc_bind(kind):
    assert parse(f"omp parallel proc_bind({kind})").first(ProcBindClause).kind == kind


def test_proc_bind_error():
    assert_error("omp parallel proc_bind(near)",
                 "expected 'master' or 'close' or 'spread' in 'proc_bind' clause", "near")


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
    lin = parse("omp for simd linear(val(x, y): 4)").first(LinearClause)
    assert lin.modifier == "val" and [x.name for x in lin.items] == ["x", "y"]
    assert_error("omp simd linear(ref(x))", "linear modifier 'ref' is not allowed in C", "ref")
    assert_error("omp simd linear(a[0:2])", "expected a variable name in 'linear' clause", "[")
    assert_error("omp simd linear(i:)", "expected an expression in step of 'linear' clause", ")")


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
    assert (one.coord.file, one.coord.line) == ("prog.c", 12)


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
    ("omp simd if(x)", "clause 'if' is not valid on '#pragma omp simd'", "if"),
    ("omp task if(parallel: x)",
     "directive-name-modifier 'parallel' does not apply to '#pragma omp task'", "parallel"),
])
def test_if_errors(text, message, at):
    assert_error(text, message, at)


# --------------------------------------------------------------------------
# Clause validity per directive
# --------------------------------------------------------------------------

@pytest.mark.parametrize("text,clause,directive", [
    ("omp parallel map(to: a)", "map", "parallel"),
    ("omp target num_teams(4)", "num_teams", "target"),
    ("omp target num_threads(4)", "num_threads", "target"),
    ("omp teams num_threads(4)", "num_threads", "teams"),
    ("omp parallel for nowait", "nowait", "parallel for"),
    ("omp parallel for simd nowait", "nowait", "parallel for simd"),
    ("omp teams distribute parallel for nowait", "nowait", "teams distribute parallel for"),
    ("omp distribute parallel for ordered", "ordered", "distribute parallel for"),
    ("omp distribute parallel for linear(i)", "linear", "distribute parallel for"),
    ("omp target teams distribute parallel for simd ordered", "ordered",
     "target teams distribute parallel for simd"),
    ("omp distribute schedule(static)", "schedule", "distribute"),
    ("omp simd nowait", "nowait", "simd"),
    ("omp target update private(a) to(a)", "private", "target update"),
    ("omp master nowait", "nowait", "master"),
    ("omp barrier nowait", "nowait", "barrier"),
    ("omp target is_device_ptr(p) use_device_ptr(p)", "use_device_ptr", "target"),
    ("omp parallel untied", "untied", "parallel"),
    ("omp atomic seq_cst nowait", "nowait", "atomic"),
    ("omp critical(n) nowait", "nowait", "critical"),
    ("omp for read", "read", "for"),
    ("omp task nowait", "nowait", "task"),
    ("omp task reduction(+: s)", "reduction", "task"),
    ("omp task lastprivate(a)", "lastprivate", "task"),
    ("omp taskgroup private(a)", "private", "taskgroup"),
    ("omp threadprivate(a) copyin(a)", "copyin", "threadprivate"),
    ("omp declare simd private(a)", "private", "declare simd"),
    ("omp declare simd safelen(4)", "safelen", "declare simd"),
    ("omp simd uniform(a)", "uniform", "simd"),
    ("omp for inbranch", "inbranch", "for"),
])
def test_clause_not_valid_on_directive(text, clause, directive):
    assert_error(text, f"clause '{clause}' is not valid on '#pragma omp {directive}'", clause)


@pytest.mark.parametrize("text", [
    "omp target parallel for nowait",
    "omp target teams distribute parallel for nowait map(to: a)",
    "omp target parallel copyin(t)",
    "omp target teams distribute parallel for simd num_teams(4) thread_limit(128) "
    "num_threads(32) schedule(static, 1) dist_schedule(static) collapse(2) safelen(8) "
    "aligned(p) linear(j) reduction(max: m) lastprivate(l) firstprivate(f) private(q) "
    "shared(s) default(shared) proc_bind(close) map(from: out[0:n]) device(0) "
    "is_device_ptr(dp) defaultmap(tofrom: scalar) depend(in: a) nowait if(target: c)",
    "omp distribute parallel for simd linear(i)",
    "omp for simd ordered linear(i) schedule(simd: static)",
    "omp sections private(a) lastprivate(b) reduction(+: c) nowait",
    "omp parallel sections num_threads(2)",
    "omp single copyprivate(x) nowait",
])
def test_combined_clause_sets(text):
    assert parse(text)


def test_allowed_clauses_union_and_exclusions():
    assert allowed_clauses(("parallel", "for")) == (
        (allowed_clauses(("parallel",)) | allowed_clauses(("for",))) - {"nowait"})
    assert "nowait" in allowed_clauses(("target", "parallel", "for"))
    assert "num_teams" in allowed_clauses(("target", "teams", "distribute"))
    assert "map" not in allowed_clauses(("teams", "distribute"))


@pytest.mark.parametrize("clause", [
    "num_threads(2)", "default(none)", "proc_bind(close)", "collapse(1)", "nowait",
    "safelen(4)", "simdlen(2)", "num_teams(2)", "thread_limit(2)", "dist_schedule(static)",
    "device(0)", "defaultmap(tofrom: scalar)",
])
def test_unique_clauses(clause):
    directive = "target teams distribute parallel for simd"
    if clause == "nowait":
        directive = "target"
    text = f"omp {directive} {clause} {clause}"
    name = clause.split("(")[0]
    err = error(text)
    assert err.message == f"duplicate '{name}' clause on '#pragma omp {directive}'"
    assert err.location.column == column_of(text, clause, 2)


def test_clause_separators():
    d = parse("omp parallel private(a), shared(b) ,firstprivate(c)")
    assert [type(c) for c in d.clauses] == [PrivateClause, SharedClause, FirstprivateClause]
    err = error("omp parallel private(a),")
    assert err.message == "expected a clause after ','"
    assert err.location.column == PRAGMA_COLUMN + len("omp parallel private(a),")
    assert_error("omp parallel , private(a)",
                 "expected a clause on '#pragma omp parallel', found ','", ",")
    assert_error("omp parallel private(a),, shared(b)",
                 "expected a clause on '#pragma omp parallel', found ','", ",", 2)


@pytest.mark.parametrize("text,message,at", [
    ("omp parallel foo(x)", "unknown clause 'foo' on '#pragma omp parallel'", "foo"),
    ("omp parallel private(a) bar", "unknown clause 'bar' on '#pragma omp parallel'", "bar"),
    ("omp single nowait()", "clause 'nowait' takes no arguments", "("),
    ("omp for nowait(1)", "clause 'nowait' takes no arguments", "("),
    ("omp parallel private", "expected '(' after 'private'", None),
    ("omp parallel num_threads(4", "expected ')' after 'num_threads' clause arguments", None),
    ("omp parallel num_threads((4)", "expected ')' after 'num_threads' clause arguments", None),
    ("omp target map(to: a[0:n)", "expected ']' before ')'", ")"),
    ("omp target map(to: a[0:n]) )", "expected a clause on '#pragma omp target', found ')'",
     " )"),
    ("omp parallel num_threads(4) @", "unexpected character '@' in OpenMP directive", "@"),
    ("omp parallel private(a) 42", "expected a clause on '#pragma omp parallel', found '42'",
     "42"),
])
def test_malformed_clauses(text, message, at):
    err = error(text)
    assert err.message == message
    if at is None:
        assert err.location.column == PRAGMA_COLUMN + len(text)
    else:       # leading blanks in `at` only disambiguate
        assert err.location.column == column_of(text, at) + len(at) - len(at.lstrip())


# --------------------------------------------------------------------------
# depend, atomic, critical, flush, ordered
# --------------------------------------------------------------------------

@pytest.mark.parametrize("dep_type", ["in", "out", "inout"])
def test_depend_types(dep_type):
    d = parse(f"omp target depend({dep_type}: a, b[0:n]) map(a)").first(DependClause)
    assert d.dep_type == dep_type and [i.name for i in d.items] == ["a", "b"]
    assert d.items[1].sections


def test_depend_on_ordered():
    d = parse("omp ordered depend(sink: i - 1, j)").first(DependClause)
    assert d.dep_type == "sink" and [expr_text(e) for e in d.sink] == ["i - 1", "j"]
    assert parse("omp ordered depend(source)").first(DependClause).dep_type == "source"


@pytest.mark.parametrize("text,message,at", [
    ("omp target depend(a)",
     "expected 'in' or 'out' or 'inout' or 'source' or 'sink' in 'depend' clause", "a)"),
    ("omp target depend(in)", "expected ':' after 'in' in 'depend' clause", ")"),
    ("omp target depend(source)", "'depend(source)' is not valid on '#pragma omp target'",
     "depend"),
    ("omp ordered depend(in: a)", "'depend(in)' is not valid on '#pragma omp ordered'", "depend"),
    ("omp ordered depend(source: a)", "'depend(source)' takes no list", ":"),
    ("omp parallel depend(in: a)", "clause 'depend' is not valid on '#pragma omp parallel'",
     "depend"),
])
def test_depend_errors(text, message, at):
    assert_error(text, message, at)


@pytest.mark.parametrize("text,kind,seq_cst", [
    ("omp atomic", "update", False),
    ("omp atomic read", "read", False),
    ("omp atomic write", "write", False),
    ("omp atomic update", "update", False),
    ("omp atomic capture", "capture", False),
    ("omp atomic seq_cst", "update", True),
    ("omp atomic capture seq_cst", "capture", True),
    ("omp atomic seq_cst, read", "read", True),
    ("omp atomic write, seq_cst", "write", True),
])
def test_atomic(text, kind, seq_cst):
    d = parse(text)
    assert d.atomic_kind == kind and d.seq_cst is seq_cst
    assert (d.first(SeqCstClause) is not None) is seq_cst
    clause = d.first(AtomicClause)
    assert clause is None if kind == "update" and "update" not in text else clause.kind == kind


def test_atomic_errors():
    assert_error("omp atomic read write",
                 "at most one of 'read', 'write', 'update' and 'capture' may appear on "
                 "'#pragma omp atomic'", "write")
    assert_error("omp atomic seq_cst seq_cst", "duplicate 'seq_cst' clause on '#pragma omp atomic'",
                 "seq_cst", 2)
    assert_error("omp atomic read(x)", "clause 'read' takes no arguments", "(")
    assert_error("omp atomic relaxed", "unknown clause 'relaxed' on '#pragma omp atomic'",
                 "relaxed")


def test_non_atomic_has_no_atomic_kind():
    assert parse("omp parallel").atomic_kind is None
    assert parse("omp critical").critical_name is None


def test_critical():
    d = parse("omp critical (update_lock) hint(0)")
    assert d.critical_name == "update_lock" and d.first(HintClause)
    assert_error("omp critical(a b)", "expected a name in '#pragma omp critical (name)'", "b")
    assert_error("omp critical()", "expected a name in '#pragma omp critical (name)'", ")")
    err = error("omp critical(a")
    assert err.message == "expected ')' after the argument of '#pragma omp critical'"
    assert_error("omp critical hint(1)", "'hint' needs a named '#pragma omp critical (name)'",
                 "hint")


def test_flush():
    assert parse("omp flush").flush_list == []
    d = parse("omp flush (a, b)")
    assert [i.name for i in d.flush_list] == ["a", "b"]
    assert_error("omp flush(a[0])", "expected a variable name in '#pragma omp flush' list", "[")
    assert_error("omp flush nowait", "clause 'nowait' is not valid on '#pragma omp flush'",
                 "nowait")


# --------------------------------------------------------------------------
# find / first, locations, robustness
# --------------------------------------------------------------------------

def test_find_and_first():
    d = parse("omp target teams map(to: a) map(from: b) num_teams(4)")
    assert [m.map_type for m in d.find(MapClause)] == ["to", "from"]
    assert d.first(MapClause).map_type == "to"
    assert d.first(PrivateClause) is None and d.find(PrivateClause) == []


def test_clause_coords():
    text = "omp target teams   map(to: a)  num_teams(4)"
    d = parse(text)
    assert d.first(MapClause).coord == SourceLocation("prog.c", 12, column_of(text, "map"))
    assert d.first(NumTeamsClause).coord.column == column_of(text, "num_teams")
    assert d.first(MapClause).map_type_coord.column == column_of(text, "to:")


def test_missing_coord_is_tolerated():
    d = parse_directive("omp parallel num_threads(4)", None)
    assert d.kind == "parallel"
    with pytest.raises(CompileError):
        parse_directive("omp parallel map(a)", None)


def test_random_input_only_raises_compile_errors():
    words = ["target", "teams", "parallel", "for", "simd", "data", "map", "(", ")", "[", "]",
             ":", ",", "to", "always", "a", "n", "0", "?", "+", "->", ".", "reduction", "if",
             "schedule", "static", "collapse", "2", "depend", "in", "sink", "size_t", "{", "}",
             ";", "declare", "end", "atomic", "read", "critical", "flush", "linear", "val"]
    rng = random.Random(1234)
    for _ in range(3000):
        text = "omp " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 10)))
        try:
            parse(text, {"size_t"})
        except CompileError as err:
            assert err.location is not None
            assert PRAGMA_COLUMN <= err.location.column <= PRAGMA_COLUMN + len(text)


def test_reduction_on_array_section():
    """OpenMP 4.5 allows array sections in reduction clauses."""
    directive = parse("omp parallel for reduction(+: h[0:n])")
    (clause,) = directive.clauses
    (item,) = clause.items
    assert item.name == "h" and len(item.sections) == 1


# --------------------------------------------------------------------------
# Tasks, threadprivate, declare simd
# --------------------------------------------------------------------------

def test_task_clauses():
    text = ("omp task if(task: n > 4) final(depth > 8) untied mergeable default(none) "
            "private(p) firstprivate(n) shared(x, y) depend(inout: a[0:n]) priority(2)")
    d = parse(text)
    assert d.kind == "task" and not d.is_standalone
    assert d.first(IfClause).modifier == "task"
    assert expr_text(d.first(FinalClause).expr) == "depth > 8"
    assert d.first(UntiedClause) and d.first(MergeableClause)
    assert d.first(DefaultClause).kind == "none"
    assert [i.name for i in d.first(SharedClause).items] == ["x", "y"]
    assert d.first(DependClause).dep_type == "inout"
    assert expr_text(d.first(PriorityClause).expr) == "2"
    assert d.first(PriorityClause).coord.column == column_of(text, "priority")


@pytest.mark.parametrize("text,message,at", [
    ("omp task untied untied", "duplicate 'untied' clause on '#pragma omp task'", "untied"),
    ("omp task final(a) final(b)", "duplicate 'final' clause on '#pragma omp task'", "final(b)"),
    ("omp task priority(1) priority(2)", "duplicate 'priority' clause on '#pragma omp task'",
     "priority(2)"),
    ("omp task priority(-1)", "argument of 'priority' must be a non-negative integer", "-1"),
    ("omp task untied(1)", "clause 'untied' takes no arguments", "(1)"),
    ("omp task final", "expected '(' after 'final'", "final"),
    ("omp task depend(sink: i - 1)", "'depend(sink)' is not valid on '#pragma omp task'",
     "depend"),
    ("omp taskgroup nowait", "clause 'nowait' is not valid on '#pragma omp taskgroup'", "nowait"),
])
def test_task_errors(text, message, at):
    err = error(text)
    assert err.message == message
    column = column_of(text, at, 2 if at == "untied" else 1)
    if message.startswith("expected '('"):
        column += len(at)
    assert err.location.column == column


def test_threadprivate_list():
    text = "omp threadprivate(counter, scale)"
    d = parse(text)
    assert d.kind == "threadprivate" and d.clauses == [] and d.is_standalone
    assert [i.name for i in d.threadprivate_list] == ["counter", "scale"]
    assert d.threadprivate_list[1].coord.column == column_of(text, "scale")


@pytest.mark.parametrize("text,message,at", [
    ("omp threadprivate", "expected '(' after 'threadprivate'", None),
    ("omp threadprivate shared(a)", "expected '(' after 'threadprivate'", "shared"),
    ("omp threadprivate()", "expected a variable name in '#pragma omp threadprivate' list", ")"),
    ("omp threadprivate(a[2])", "expected a variable name in '#pragma omp threadprivate' list",
     "["),
    ("omp threadprivate(a) (b)", "expected a clause on '#pragma omp threadprivate', found '('",
     "(b"),
])
def test_threadprivate_errors(text, message, at):
    err = error(text)
    assert err.message == message
    assert err.location.column == (PRAGMA_COLUMN + len(text) if at is None else column_of(text, at))


def test_declare_simd_clauses():
    text = ("omp declare simd simdlen(8) uniform(a, n) linear(i: 1) linear(val(j)) "
            "aligned(x: 32) notinbranch")
    d = parse(text)
    assert d.kind == "declare simd" and not d.is_standalone
    assert [i.name for i in d.first(UniformClause).items] == ["a", "n"]
    assert d.first(SimdlenClause).length == 8
    assert [c.modifier for c in d.find(LinearClause)] == [None, "val"]
    assert d.first(AlignedClause).alignment == 32
    assert d.first(NotinbranchClause) and not d.first(InbranchClause)
    assert parse("omp declare simd inbranch").first(InbranchClause)


@pytest.mark.parametrize("text,message,at", [
    ("omp declare simd inbranch notinbranch",
     "'inbranch' and 'notinbranch' cannot both appear on '#pragma omp declare simd'",
     "notinbranch"),
    ("omp declare simd notinbranch inbranch",
     "'inbranch' and 'notinbranch' cannot both appear on '#pragma omp declare simd'",
     "inbranch"),
    ("omp declare simd inbranch inbranch",
     "duplicate 'inbranch' clause on '#pragma omp declare simd'", "inbranch"),
    ("omp declare simd uniform(a[0:2])", "expected a variable name in 'uniform' clause", "["),
    ("omp declare simd simdlen(0)", "argument of 'simdlen' must be a positive integer constant",
     "0"),
])
def test_declare_simd_errors(text, message, at):
    err = error(text)
    assert err.message == message
    occurrence = 2 if at == "inbranch" and text.count("inbranch") > 1 else 1
    if at == "inbranch" and "notinbranch inbranch" in text:
        occurrence = 2          # the second 'inbranch' substring is the clause itself
    assert err.location.column == column_of(text, at, occurrence)
