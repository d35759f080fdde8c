"""leaf_clauses.py: a combined directive split at `parallel`, each clause on its leaf."""

from __future__ import annotations

from pycparser import c_parser

from omp2gpu.codegen.openmp.plan.leaf_clauses import split_at_parallel
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragmas import attach_pragmas


def _directive(pragma: str):
    source = f"void f(int n, double *a, double s, int k) {{\n{pragma}\nfor (int i = 0; i < n; i++) s += a[i];\n}}"
    ast = attach_pragmas(c_parser.CParser().parse(source))
    return next(node for node in ast.ext[0].body.block_items if isinstance(node, OmpConstruct)).directive


def _names(directive):
    return None if directive is None else (directive.kind, sorted(c.name for c in directive.clauses))


def test_target_teams_distribute_parallel_for():
    split = split_at_parallel(_directive(
        "#pragma omp target teams distribute parallel for map(to: a[0:n]) num_teams(4) "
        "num_threads(8) reduction(+: s) schedule(dynamic) firstprivate(k) collapse(1)"))
    assert _names(split.outer) == ("target teams", ["map", "num_teams", "shared"])   # s: the original
    assert _names(split.parallel) == ("parallel", ["firstprivate", "num_threads"])
    assert _names(split.worksharing) == ("for", ["collapse", "reduction", "schedule"])


def test_firstprivate_and_lastprivate_of_one_variable_go_to_the_loop():
    split = split_at_parallel(_directive("#pragma omp parallel for firstprivate(k, s) lastprivate(k)"))
    assert _names(split.parallel) == ("parallel", ["firstprivate"])
    assert [i.name for c in split.worksharing.clauses for i in c.items] == ["k", "k"]
    assert split.outer is None


def test_parallel_alone():
    split = split_at_parallel(_directive("#pragma omp parallel if(n > 4) private(k)"))
    assert (split.outer, split.worksharing) == (None, None)
    assert _names(split.parallel) == ("parallel", ["if", "private"])
