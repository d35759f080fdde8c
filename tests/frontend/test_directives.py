"""Unit tests for the OpenMP directive parser: directive names and forms, which
clauses each directive takes, and the directive-specific clauses (depend, atomic,
critical, flush, tasks, threadprivate, declare simd)."""

import random

import pytest
from directive_testing import FILE, PRAGMA_COLUMN, assert_error, column_of, error, expr_text, parse

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.openmp.clause_types import (
    AlignedClause,
    AtomicClause,
    DefaultClause,
    DependClause,
    FinalClause,
    FirstprivateClause,
    HintClause,
    IfClause,
    InbranchClause,
    LinearClause,
    LinkClause,
    MapClause,
    MergeableClause,
    NotinbranchClause,
    NumTeamsClause,
    OrderedClause,
    PriorityClause,
    PrivateClause,
    SeqCstClause,
    SharedClause,
    SimdClause,
    SimdlenClause,
    ThreadsClause,
    ToClause,
    UniformClause,
    UntiedClause,
)
from omp2gpu.frontend.openmp.directive_table import DIRECTIVES, allowed_clauses
from omp2gpu.frontend.openmp.directives import parse_directive

# --------------------------------------------------------------------------
# Directive names
# --------------------------------------------------------------------------

# Clauses a directive cannot do without, so every form parses.
_MINIMAL_CLAUSES = {
    "threadprivate": "(a)",
    "allocate": "(a)",
    "declare reduction": "(merge : int : omp_out += omp_in)",
    "declare mapper": "(struct s v) map(v)",                       # OpenMP 5.0 (test_declare_mapper.py)
    "target update": " to(a)",
    "target enter data": " map(to: a)",
    "target exit data": " map(from: a)",
    "target data": " map(a)",
    "cancel": " parallel",
    "tile": " sizes(4, 4)",
    "cancellation point": " taskgroup",
    "requires": " dynamic_allocators",
    "depobj": "(o) destroy",
    "interop": " init(targetsync: obj)",                              # OpenMP 5.1 (interop_clauses.py)
    "scan": " inclusive(x)",
    "declare variant": "(f) match(construct={parallel})",         # OpenMP 5.x (test_variant_clauses.py)
    "begin declare variant": " match(device={kind(gpu)})",
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
    ("taskloop", ("taskloop",)),
    ("taskloop simd", ("taskloop", "simd")),
    ("cancel", ("cancel",)),
    ("cancellation point", ("cancellation point",)),
    ("threadprivate", ("threadprivate",)),
    ("declare reduction", ("declare reduction",)),
    ("declare mapper", ("declare mapper",)),
    ("declare simd", ("declare simd",)),
    ("requires", ("requires",)),
    ("depobj", ("depobj",)),
    ("interop", ("interop",)),
    ("scan", ("scan",)),
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
    # OpenMP 5.x: choosing code by context (test_variant_clauses.py)
    ("declare variant", ("declare variant",)),
    ("begin declare variant", ("begin declare variant",)),
    ("end declare variant", ("end declare variant",)),
    ("metadirective", ("metadirective",)),
    ("dispatch", ("dispatch",)),
    ("begin declare target", ("begin declare target",)),
]
# OpenMP 5.0/5.1: masked, scope, the utility and assumption directives, master/masked combinations.
ALL_FORMS += [(kind, (kind,)) for kind in ("masked", "scope", "nothing", "error", "assume", "assumes",
                                           "begin assumes", "end assumes")]
ALL_FORMS += [(kind, tuple(kind.split())) for kind in (
    "parallel master", "parallel masked", "master taskloop", "master taskloop simd", "masked taskloop",
    "masked taskloop simd", "parallel master taskloop", "parallel master taskloop simd",
    "parallel masked taskloop", "parallel masked taskloop simd")]
# OpenMP 5.0 `loop` (tests/frontend/test_loop_clauses.py has its clauses).
ALL_FORMS += [
    ("loop", ("loop",)),
    ("teams loop", ("teams", "loop")),
    ("target teams loop", ("target", "teams", "loop")),
    ("parallel loop", ("parallel", "loop")),
    ("target parallel loop", ("target", "parallel", "loop")),
]
# OpenMP 5.1 loop transformations (tests/sema/test_loop_transformations.py has what they make).
ALL_FORMS += [("tile", ("tile",)), ("unroll", ("unroll",))]
ALL_FORMS += [("allocate", ("allocate",))]        # OpenMP 5.0 memory management


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
    assert d.text == "omp target teams distribute parallel for simd"


def test_the_text_is_kept_as_written_with_spaces_collapsed():
    d = parse("omp target  map(tofrom: a[0:n])\tdevice(1)")
    assert d.text == "omp target map(tofrom: a[0:n]) device(1)"


def test_directive_coord_points_at_name():
    text = "omp  parallel for"
    d = parse(text)
    assert d.coord == SourceLocation(FILE, 12, column_of(text, "parallel"))


def test_has_is_exact_on_leaves():
    d = parse("omp target teams")
    assert d.has("target") and d.has("teams")
    assert not d.has("parallel") and not d.has("target data")


@pytest.mark.parametrize("text,standalone", [
    ("omp barrier", True),
    ("omp taskwait", True),
    ("omp taskyield", True),
    ("omp cancel for if(x)", True),
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
    ("omp cancel", "expected 'parallel', 'sections', 'for' or 'taskgroup' after 'cancel'", "cancel"),
    ("omp cancellation point teams",
     "expected 'parallel', 'sections', 'for' or 'taskgroup' after 'cancellation point'", "teams"),
    ("omp taskloop parallel", "invalid combination 'taskloop parallel'", "parallel"),
    ("omp task parallel", "invalid combination 'task parallel'", "parallel"),
    ("omp workshare", "unsupported OpenMP directive 'workshare'", "workshare"),
    ("omp target enter", "expected 'data' after 'target enter'", "enter"),
    ("omp target exit map(from: a)", "expected 'data' after 'target exit'", "map"),
    ("omp declare", "expected 'mapper' or 'reduction' or 'simd' or 'target' or 'variant' after 'declare'",
     "declare"),
    ("omp end declare", "expected 'target' or 'variant' after 'end declare'", "declare"),
    ("omp parallel (", "unexpected '(' after '#pragma omp parallel'", "("),
])
def test_bad_directive_names(text, message, at):
    err = error(text)
    assert err.message == message
    expected = column_of(text, at, 2 if text.count(at) > 1 and at == "parallel" else 1)
    if message.startswith("expected 'data'") and at == "enter":
        expected = PRAGMA_COLUMN + len(text)            # after the last word
    if message.startswith(("expected 'target'", "expected 'simd'", "expected 'reduction'", "expected 'mapper'")) \
            or text == "omp cancel":
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
    "device(0)",
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


def test_doacross_is_depend_spelled_as_openmp_5_2():
    d = parse("omp ordered doacross(sink: i - 1, j)").first(DependClause)
    assert d.dep_type == "sink" and [expr_text(e) for e in d.sink] == ["i - 1", "j"]
    for text in ("omp ordered doacross(source:)", "omp ordered doacross(source: omp_cur_iteration)"):
        assert parse(text).first(DependClause).dep_type == "source"


@pytest.mark.parametrize("text,message,at", [
    ("omp ordered doacross(source)", "expected ':' after 'source' in 'doacross' clause", ")"),
    ("omp ordered doacross(source: i)", "'doacross(source:)' takes nothing or 'omp_cur_iteration'", "i)"),
    ("omp ordered doacross(sink: omp_cur_iteration - 1)",
     "'doacross(sink: omp_cur_iteration - 1)' is not supported; name the iteration by its loop variables",
     "omp_cur_iteration"),
    ("omp ordered doacross(in: a)", "expected 'source' or 'sink' in 'doacross' clause", "in:"),
    ("omp task doacross(sink: i - 1)", "clause 'doacross' is not valid on '#pragma omp task'", "doacross"),
])
def test_doacross_errors(text, message, at):
    assert_error(text, message, at)


@pytest.mark.parametrize("text,message,at", [
    ("omp target depend(a)",
     "expected 'in' or 'out' or 'inout' or 'mutexinoutset' or 'inoutset' or 'depobj' or 'source' or 'sink' "
     "in 'depend' clause", "a)"),
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
    assert d.atomic_kind == kind and (d.memory_order_clause == "seq_cst") is seq_cst
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
    assert_error("omp atomic relaxd", "unknown clause 'relaxd' on '#pragma omp atomic'",
                 "relaxd")


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
    assert d.first(MapClause).coord == SourceLocation(FILE, 12, column_of(text, "map"))
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
