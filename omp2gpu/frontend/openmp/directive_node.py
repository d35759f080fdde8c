"""`Directive`: one parsed `#pragma omp ...` -- its name, leaf constructs, clauses and
the directive's own argument (critical name, flush or threadprivate list)."""

from __future__ import annotations

from dataclasses import dataclass, field

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.clause_types import (
    AtomicClause,
    Clause,
    CompareClause,
    DependClause,
    ListItem,
    MemoryOrderClause,
)
from omp2gpu.frontend.openmp.declare_mapper import DeclaredMapper
from omp2gpu.frontend.openmp.declare_reduction import DeclaredReduction

_STANDALONE = frozenset({
    "barrier", "taskwait", "taskyield", "flush", "target update", "target enter data",
    "target exit data", "end declare target", "threadprivate", "cancel", "cancellation point",
    "declare reduction", "declare mapper",
    "requires", "scan",
    "nothing", "error", "assumes", "begin assumes", "end assumes",      # OpenMP 5.1
    "depobj", "interop",
    "declare variant", "begin declare variant", "end declare variant",
    "begin declare target",
    "allocate",                                                         # OpenMP 5.0
})


@dataclass
class Directive:
    kind: str                               # e.g. "target teams distribute parallel for"
    constructs: tuple[str, ...]             # leaf constructs, e.g. ("target", "teams", ...)
    clauses: list[Clause]
    coord: SourceLocation                   # the first word of the directive name
    critical_name: str | None = None        # critical (name)
    flush_list: list[ListItem] = field(default_factory=list)    # flush (list)
    threadprivate_list: list[ListItem] = field(default_factory=list)    # threadprivate (list)
    allocate_list: list[ListItem] = field(default_factory=list)         # allocate (list), 5.0
    has_extended_list: bool = False         # declare target (list); the list is a ToClause
    cancel_kind: str | None = None          # cancel / cancellation point: parallel, for, ...
    declared_reduction: DeclaredReduction | None = None     # declare reduction (...)
    declared_mapper: DeclaredMapper | None = None           # declare mapper (...), OpenMP 5.0
    # An atomic's order when it names none: relaxed, or the file's `requires
    # atomic_default_mem_order` (sema.requires sets it).
    default_memory_order: str = field(default="relaxed", compare=False)
    depobj: ListItem | None = None          # depobj (obj): the omp_depend_t it sets
    variant_name: str | None = None         # declare variant (name)
    # The pragma as preprocessed, from "omp" on, spaces collapsed: what reports and
    # lib.kernels show of a construct (the clauses are not turned back into text).
    text: str = field(default="", compare=False)
    # A `loop` directive lowered by sema/loop_construct.py: the directive name as written
    # ("target teams loop") and the region it binds to; None for any other directive.
    lowered_from: str | None = field(default=None, compare=False)
    binding: str | None = field(default=None, compare=False)
    # The construct inside a target task with `nowait` and no `depend` (host/tasks.py
    # emit_target_task drops those clauses): its kernel may run ahead of the host, and its
    # launch may be fused with others (targets/nvptx/fusion.py).
    in_target_task_running_ahead: bool = field(default=False, compare=False)

    def has(self, construct_name: str) -> bool:
        return construct_name in self.constructs or construct_name == self.kind

    def find(self, clause_class) -> list:
        return [c for c in self.clauses if isinstance(c, clause_class)]

    def first(self, clause_class):
        return next((c for c in self.clauses if isinstance(c, clause_class)), None)

    @property
    def is_standalone(self) -> bool:
        """No associated statement.  `declare target` with a list (or to/link clauses)
        is declarative and reported False here; the region-opening form is True."""
        if self.kind == "declare target":
            return self.is_declare_target_begin
        if self.kind == "ordered":          # ordered depend(source|sink: ...) stands alone
            return bool(self.find(DependClause))
        if self.kind == "metadirective":    # stands alone when every variant does
            return all(d is None or d.is_standalone for d in self.metadirective_variants)
        return self.kind in _STANDALONE

    @property
    def is_declare_target_begin(self) -> bool:
        """`declare target` (or 5.1's `begin declare target`) that opens a region closed by
        `end declare target`."""
        return self.kind == "begin declare target" or (self.kind == "declare target" and not self.clauses)

    @property
    def metadirective_variants(self) -> list:
        """A metadirective's directive variants, `when` clauses' then the default's (None:
        `nothing`)."""
        return [clause.directive for clause in self.clauses if hasattr(clause, "directive")]

    @property
    def atomic_kind(self) -> str | None:
        if self.kind != "atomic":
            return None
        kinds = {clause.kind for clause in self.find(AtomicClause)}
        if "capture" in kinds:                  # `update capture` (5.1) is a capture
            return "capture"
        return kinds.pop() if kinds else "update"

    @property
    def memory_order_clause(self) -> str | None:
        """The memory-order clause written on the directive (OpenMP 5.0), if any."""
        clause = self.first(MemoryOrderClause)
        return clause.order if clause else None

    @property
    def atomic_compare(self) -> bool:
        return bool(self.find(CompareClause))
