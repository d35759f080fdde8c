"""Every clause the front end knows, on every directive that does not take it, is a
located error at the clause's name; every modifier of a 5.x clause misspelt is a
located error at the misspelt word. The pairs are generated from directive_table.py
and clause_parsers.py themselves, so a clause or directive added there is covered
here (a clause with no sample spelling below fails test_every_clause_has_a_sample).
A few pairs also go through the command line: exit 1, `file:line:col: error:`,
a caret, no traceback."""

from __future__ import annotations

import pytest
from directive_testing import FILE, error, parse

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.clause_parsers import CLAUSES
from omp2gpu.frontend.openmp.directive_table import (
    CONSTRUCT_WORDS,
    DIRECTIVE_PREFIXES,
    DIRECTIVES,
    allowed_clauses,
)
from omp2gpu.frontend.openmp.variant_clauses import VARIANT_CLAUSES, reads
from omp2gpu.tools import cli

# A valid spelling of each clause somewhere it belongs (the rejection must not depend on
# the argument: the name alone decides).
SAMPLES = {
    "private": "private(x)", "firstprivate": "firstprivate(x)", "lastprivate": "lastprivate(x)",
    "shared": "shared(x)", "copyin": "copyin(x)", "copyprivate": "copyprivate(x)",
    "is_device_ptr": "is_device_ptr(p)", "use_device_ptr": "use_device_ptr(p)", "to": "to(x)",
    "from": "from(x)", "link": "link(x)", "uniform": "uniform(x)", "map": "map(tofrom: x)",
    "reduction": "reduction(+: s)", "aligned": "aligned(p: 8)", "linear": "linear(x: 1)",
    "depend": "depend(in: x)", "num_teams": "num_teams(4)", "thread_limit": "thread_limit(4)",
    "doacross": "doacross(source:)",
    "num_threads": "num_threads(4)", "device": "device(0)", "hint": "hint(0)", "final": "final(1)",
    "priority": "priority(1)", "grainsize": "grainsize(4)", "num_tasks": "num_tasks(4)",
    "nogroup": "nogroup", "initializer": "initializer(omp_priv = 0)", "if": "if(1)",
    "default": "default(shared)", "defaultmap": "defaultmap(tofrom: scalar)",
    "proc_bind": "proc_bind(close)", "collapse": "collapse(1)", "ordered": "ordered",
    "safelen": "safelen(4)", "simdlen": "simdlen(4)", "schedule": "schedule(static)",
    "dist_schedule": "dist_schedule(static)", "nowait": "nowait", "seq_cst": "seq_cst",
    "acq_rel": "acq_rel", "release": "release", "acquire": "acquire", "relaxed": "relaxed",
    "compare": "compare", "weak": "weak", "fail": "fail(relaxed)",
    "reverse_offload": "reverse_offload", "unified_address": "unified_address",
    "unified_shared_memory": "unified_shared_memory", "dynamic_allocators": "dynamic_allocators",
    "atomic_default_mem_order": "atomic_default_mem_order(seq_cst)", "inclusive": "inclusive(s)",
    "exclusive": "exclusive(s)", "threads": "threads", "simd": "simd", "untied": "untied",
    "mergeable": "mergeable", "inbranch": "inbranch", "notinbranch": "notinbranch",
    "read": "read", "write": "write", "update": "update", "in_reduction": "in_reduction(+: s)",
    "task_reduction": "task_reduction(+: s)", "affinity": "affinity(x)", "detach": "detach(e)",
    "destroy": "destroy", "capture": "capture", "bind": "bind(thread)",
    "order": "order(concurrent)", "filter": "filter(1)", "at": "at(execution)",
    "severity": "severity(warning)", "message": 'message("m")', "holds": "holds(1)",
    "absent": "absent(parallel)", "contains": "contains(parallel)", "no_openmp": "no_openmp",
    "no_openmp_routines": "no_openmp_routines", "no_parallelism": "no_parallelism",
    "nontemporal": "nontemporal(x)", "sizes": "sizes(2)", "full": "full", "partial": "partial(2)",
    "use_device_addr": "use_device_addr(x)", "has_device_addr": "has_device_addr(x)",
    # OpenMP 5.0 memory management
    "allocator": "allocator(omp_default_mem_alloc)", "align": "align(64)",
    "allocate": "allocate(omp_default_mem_alloc: x) private(x)",
    "uses_allocators": "uses_allocators(omp_pteam_mem_alloc)",
    # OpenMP 5.1 interop
    "init": "init(targetsync: o)", "use": "use(o)",
}
# What a directive needs between its name and its clauses.
_ARGUMENT = {"threadprivate": "(x)", "allocate": "(x)", "depobj": "(d)", "declare variant": "(f)",
             "declare reduction": "(plus: int: omp_out += omp_in)", "cancel": " parallel",
             "declare mapper": "(struct s v)",
             "cancellation point": " parallel"}
# Where each clause's sample is shown to parse (the first directive, in table order,
# that takes it, unless named here: the sample needs that context).
_HOME = {"update": "atomic", "destroy": "depobj", "fail": "atomic compare", "weak": "atomic compare",
         "simd": "ordered", "threads": "ordered",
         "depend": "task", "to": "target update", "from": "target update", "ordered": "for",
         "read": "atomic", "write": "atomic", "capture": "atomic", "compare": "atomic",
         "linear": "for", "default": "parallel", "hint": "atomic", "device": "target"}


def _text(directive: str, clause: str) -> str:
    return f"omp {directive}{_ARGUMENT.get(directive, '')} {SAMPLES[clause]}"


def _assert_error_at_last(text: str, message: str, needle: str):
    err = error(text)
    assert (err.message, err.location) == (message, SourceLocation(FILE, 12, 9 + text.rindex(needle)))


def _misplaced() -> list:
    pairs = []
    for directive, leaves in DIRECTIVES.items():
        allowed = allowed_clauses(leaves) | VARIANT_CLAUSES.get(directive, frozenset())
        # `for simd`, `target update`: the two words spell another directive
        pairs += [pytest.param(directive, clause, id=f"{clause}-on-{directive.replace(' ', '_')}")
                  for clause in sorted(CLAUSES) if clause not in allowed
                  and (f"{directive} {clause}" not in DIRECTIVE_PREFIXES or directive in _ARGUMENT)]
    return pairs


def test_every_clause_has_a_sample():
    assert set(CLAUSES) <= set(SAMPLES), sorted(set(CLAUSES) - set(SAMPLES))


@pytest.mark.parametrize("clause", sorted(CLAUSES))
def test_the_sample_parses_where_the_clause_belongs(clause):
    home = _HOME.get(clause) or next(d for d, leaves in DIRECTIVES.items() if clause in allowed_clauses(leaves))
    assert clause in allowed_clauses(DIRECTIVES[home if home in DIRECTIVES else home.split()[0]])
    parse(f"omp {home}{_ARGUMENT.get(home, '')} {SAMPLES[clause]}")


@pytest.mark.parametrize("directive, clause", _misplaced())
def test_a_clause_on_a_directive_that_does_not_take_it(directive, clause):
    text = _text(directive, clause)
    if clause in CONSTRUCT_WORDS and not _ARGUMENT.get(directive):
        # `parallel simd`: read as a combination of constructs, not as a clause.
        _assert_error_at_last(text, f"invalid combination '{directive} {clause}'", SAMPLES[clause])
    else:
        _assert_error_at_last(text, f"clause '{clause}' is not valid on '#pragma omp {directive}'",
                              SAMPLES[clause])


# ----------------------------------------------------------------- modifiers
# (directive, clause text with {} where the modifier goes, the modifiers it takes)
MODIFIERS = [
    ("parallel", "reduction({}, +: s)", ("task", "default")),
    ("for", "reduction({}, +: s)", ("inscan", "task", "default")),
    ("task", "depend({}: x)", ("in", "out", "inout", "mutexinoutset", "inoutset", "depobj")),
    ("for", "order({}: concurrent)", ("reproducible", "unconstrained")),
    ("for", "order({})", ("concurrent",)),
    ("loop", "bind({})", ("teams", "parallel", "thread")),
    ("parallel", "default({})", ("shared", "none", "firstprivate", "private")),
    ("atomic compare", "fail({})", ("relaxed", "acquire", "seq_cst")),
    ("error", "at({})", ("compilation", "execution")),
    ("error", "severity({})", ("fatal", "warning")),
    ("requires", "atomic_default_mem_order({})", ("seq_cst", "acq_rel", "relaxed")),
    ("taskloop", "grainsize({}: 4)", ("strict",)),
    ("taskloop", "num_tasks({}: 4)", ("strict",)),
    ("declare simd", "linear({}(x): 1)", ("val",)),        # on loops: OpenMP 5.2's linear(x: val)
    ("for", "schedule({}: dynamic)", ("monotonic", "nonmonotonic")),
    ("parallel", "proc_bind({})", ("master", "close", "spread", "primary")),
    ("depobj(d)", "update({})", ("in", "out", "inout", "mutexinoutset", "inoutset")),
    ("target", "defaultmap({}: scalar)", ("alloc", "to", "from", "tofrom", "firstprivate", "none", "default",
                                          "present")),
    ("target", "map({}: x)", ("to", "from", "tofrom", "alloc")),
    ("target", "map({}, tofrom: x)", ("always", "close", "present")),
    ("target", "map({} to: x)", ("always", "close", "present")),
    ("target update", "to({}: x)", ("present",)),
    ("target update", "from({}: x)", ("present",)),
]


def _modifier_cases(spell) -> list:
    return [pytest.param(directive, clause.format(spell(modifier)),
                         id=f"{directive}-{clause.format(spell(modifier))}")
            for directive, clause, modifiers in MODIFIERS for modifier in modifiers]


@pytest.mark.parametrize("directive, clause", _modifier_cases(lambda m: m))
def test_each_modifier_is_read(directive, clause):
    parse(f"omp {directive} {clause}")


@pytest.mark.parametrize("directive, clause", _modifier_cases(lambda m: m[:-1] + "x"))
def test_a_misspelt_modifier_is_a_located_error(directive, clause):
    text = f"omp {directive} {clause}"
    err = error(text)
    misspelt = clause[clause.index("(") + 1:].split(":")[0].split(",")[0].split("(")[0].strip(" )")
    assert err.location == SourceLocation(FILE, 12, 9 + text.rindex(misspelt)), err.message


def test_lastprivate_conditional_is_read_and_allowed_only_on_loops_and_simd():
    clause = parse("omp parallel for lastprivate(conditional: x, y) lastprivate(z)").clauses
    assert [(c.conditional, [i.name for i in c.items]) for c in clause if c.name == "lastprivate"] == [
        (True, ["x", "y"]), (False, ["z"])]
    text = "omp for lastprivate(conditional: x)"
    assert error("omp for lastprivate(conditionax: x)").location.column == 9 + text.index("conditional")
    for directive, where in (("distribute parallel for", "a 'distribute' construct"),
                             ("taskloop", "a 'taskloop' construct"), ("sections", "a 'sections' construct")):
        text = f"omp {directive} lastprivate(conditional: x)"
        err = error(text)
        assert err.message == (f"the 'conditional' modifier of 'lastprivate' is not valid on {where}: only on a "
                               "worksharing-loop or simd construct")
        assert err.location == SourceLocation(FILE, 12, 9 + text.index("x)"))


# --------------------------------------------------------- through the command line
# One misplaced 5.x clause per directive family, compiled as a user would.
_COMMAND_LINE = ["filter(1)", "bind(thread)", "order(concurrent)", "in_reduction(+: s)",
                 "task_reduction(+: s)", "detach(e)", "at(execution)", "sizes(2)",
                 "default(firstprivate)", "compare", "inclusive(s)", "holds(1)"]


@pytest.mark.parametrize("clause", _COMMAND_LINE)
def test_the_command_line_reports_it_with_a_caret(clause, tmp_path, capsys):
    name = clause.split("(")[0]
    directive = next(d for d in ("single", "critical", "sections", "taskwait", "barrier")
                     if name not in allowed_clauses(DIRECTIVES[d]) and not reads(d, name))
    body = "{ s += 1; }" if directive in ("single", "critical", "sections") else ""
    line = f"    #pragma omp {directive} {clause}"
    source = tmp_path / "prog.c"
    source.write_text("#include <omp.h>\nint main(void) {\n  int s = 0;\n  omp_event_handle_t e;\n"
                      f"  #pragma omp parallel\n  {{\n{line}\n    {body}\n  }}\n  return s;\n}}\n")
    status = cli.main(["compile", str(source), "--emit-llvm", "-o", str(tmp_path / "prog.ll")])
    stderr = capsys.readouterr().err
    assert status == 1, stderr
    assert "Traceback" not in stderr and "internal compiler error" not in stderr
    first = stderr.splitlines()
    assert first[0] == (f"{source}:7:{line.index(clause) + 1}: error: clause '{name}' is not valid on "
                        f"'#pragma omp {directive}'"), stderr
    assert first[2].index("^") == first[1].index(clause), stderr
