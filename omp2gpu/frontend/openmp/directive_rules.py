"""The OpenMP 4.5 rules that involve the directive or several of its clauses: clauses
allowed once (checked as each is read: `check_not_repeated`), `if` modifiers, map
types, required clauses, simd lengths, schedule with ordered, ordered(n) deeper than
collapse, depend types, declare target lists, inbranch/notinbranch, critical hints."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import (  # OpenMP 5.1 unroll
    AtClause,
    AtomicClause,
    BindClause,
    CollapseClause,
    CompareClause,
    DependClause,
    ExclusiveClause,
    FailClause,
    FullClause,
    HintClause,
    IfClause,
    InbranchClause,
    InclusiveClause,
    LastprivateClause,
    LinearClause,
    LinkClause,
    MapClause,
    MemoryOrderClause,
    MessageClause,
    NotinbranchClause,
    OrderClause,
    OrderedClause,
    PartialClause,
    ReductionClause,
    SafelenClause,
    ScheduleClause,
    SimdlenClause,
    ToClause,
    WeakClause,
)
from omp2gpu.frontend.openmp.directive_node import Directive
from omp2gpu.frontend.openmp.list_item_rules import check_directive_items
from omp2gpu.frontend.openmp.task_rules import RULES as TASK_RULES
from omp2gpu.frontend.openmp.variant_clauses import EnterClause, IndirectClause, check_variant_clauses

# Clauses that may appear at most once on a directive.
_UNIQUE_CLAUSES = frozenset({
    "num_threads", "default", "proc_bind", "collapse", "schedule", "ordered", "nowait",
    "safelen", "simdlen", "num_teams", "thread_limit", "dist_schedule", "device",
    "hint", "seq_cst", "threads", "simd", "final", "priority", "untied", "mergeable",
    "inbranch", "notinbranch", "grainsize", "num_tasks", "nogroup",
    "acq_rel", "release", "acquire", "relaxed", "compare", "weak", "fail",     # atomic (5.x)
    "reverse_offload", "unified_address", "unified_shared_memory", "atomic_default_mem_order",
    "dynamic_allocators",                                                     # requires (5.0)
    "filter", "at", "severity", "message",          # OpenMP 5.0/5.1: masked, error
    "bind", "order",
    "detach", "update", "destroy",
    "match", "novariants", "nocontext", "device_type", "indirect",         # OpenMP 5.x
    "allocator", "align",                                                   # allocate directive
    "initializer",                                                          # declare reduction
})
# Leaf constructs an `if` directive-name-modifier can name.
_IF_LEAVES = frozenset({"target", "target data", "target enter data", "target exit data",
                        "target update", "parallel", "task", "taskloop", "cancel",
                        "simd"})    # OpenMP 5.0
# Map types each mapping construct accepts; enter/exit data must spell one out.
_MAP_TYPES_ON = {
    "target": ("to", "from", "tofrom", "alloc"),
    "target data": ("to", "from", "tofrom", "alloc"),
    "target enter data": ("to", "alloc"),
    "target exit data": ("from", "release", "delete"),
    "declare mapper": ("to", "from", "tofrom", "alloc"),             # OpenMP 5.0
}
_MAP_TYPE_REQUIRED = frozenset({"target enter data", "target exit data"})
# Directives that are meaningless without one of these clauses.
_REQUIRED_CLAUSES = {
    "target update": ("to", "from"),
    "target enter data": ("map",),
    "target exit data": ("map",),
    "declare mapper": ("map",),
    "target data": ("map", "use_device_ptr", "use_device_addr"),
    "scan": ("inclusive", "exclusive"),
    "requires": ("reverse_offload", "unified_address", "unified_shared_memory",
                 "atomic_default_mem_order", "dynamic_allocators"),
    "tile": ("sizes",),                                                 # 5.1
    "interop": ("init", "use", "destroy"),                              # 5.1
    "declare variant": ("match",),
    "begin declare variant": ("match",),
}


def check_directive(directive: Directive) -> None:
    """Raise CompileError at the first rule the directive breaks."""
    for rule in RULES:
        rule(directive)


def _on(directive: Directive) -> str:
    return f"'#pragma omp {directive.kind}'"


def check_not_repeated(directive: Directive, earlier: list, clause) -> None:
    """A clause allowed once, given again: reported as it is read, before what follows
    it, as gcc does ("too many 'num_threads' clauses")."""
    if clause.name in _UNIQUE_CLAUSES and any(c.name == clause.name for c in earlier):
        raise CompileError(f"duplicate '{clause.name}' clause on {_on(directive)}", clause.coord)


def _check_atomic_clauses(directive: Directive) -> None:
    atomics = directive.find(AtomicClause)
    # capture is no atomic-clause in 5.1: `update capture` is one (as gcc takes it).
    if len(atomics) > 1 and {clause.kind for clause in atomics} != {"update", "capture"}:
        raise CompileError("at most one of 'read', 'write', 'update' and 'capture' may appear "
                           "on '#pragma omp atomic'", atomics[1].coord)
    _check_atomic_5x_clauses(directive)


# Memory orders an atomic of each kind must not have (OpenMP 5.1 2.19.7, as gcc 12).
_ORDERS_NOT_ON = {"read": ("release",), "write": ("acquire",)}


def _check_atomic_5x_clauses(directive: Directive) -> None:
    """One memory order, valid for the kind; compare not with read or write; fail
    and weak only with compare (their form is checked with the statement)."""
    orders = directive.find(MemoryOrderClause)
    if len(orders) > 1:
        raise CompileError("at most one memory-order clause ('seq_cst', 'acq_rel', 'release', "
                           f"'acquire' or 'relaxed') may appear on {_on(directive)}",
                           orders[1].coord)
    kind = directive.atomic_kind
    if orders and orders[0].order in _ORDERS_NOT_ON.get(kind, ()):
        raise CompileError(f"'#pragma omp atomic {kind}' is incompatible with the "
                           f"'{orders[0].order}' clause", orders[0].coord)
    compare = directive.first(CompareClause)
    if compare and kind in ("read", "write"):
        raise CompileError(f"the 'compare' clause is incompatible with the '{kind}' clause",
                           compare.coord)
    for clause in directive.find(FailClause) + directive.find(WeakClause):
        if compare is None:
            raise CompileError(f"the '{clause.name}' clause requires the 'compare' clause",
                               clause.coord)


def _check_if_clauses(directive: Directive) -> None:
    clauses = directive.find(IfClause)
    modifiers = [c.modifier for c in clauses]
    for clause in clauses:
        if clause.modifier is not None and (clause.modifier not in _IF_LEAVES
                                            or clause.modifier not in directive.constructs):
            raise CompileError(f"directive-name-modifier '{clause.modifier}' does not apply to "
                               f"{_on(directive)}", clause.modifier_coord)
    for index, clause in enumerate(clauses):
        if clause.modifier in modifiers[:index]:
            what = f"'if({clause.modifier}:...)'" if clause.modifier else "'if'"
            raise CompileError(f"duplicate {what} clause on {_on(directive)}", clause.coord)
        if clause.modifier is None and any(modifiers):
            raise CompileError("when one 'if' clause has a directive-name-modifier, all must",
                               clause.coord)


def _check_map_types(directive: Directive) -> None:
    mapping = next((c for c in directive.constructs if c in _MAP_TYPES_ON), None)
    for clause in directive.find(MapClause):
        if not clause.map_type_explicit and mapping in _MAP_TYPE_REQUIRED:
            choices = " or ".join(f"'{t}'" for t in _MAP_TYPES_ON[mapping])
            raise CompileError(f"'map' clause on {_on(directive)} needs a map type ({choices})",
                               clause.coord)
        if clause.map_type not in _MAP_TYPES_ON[mapping]:
            raise CompileError(f"map type '{clause.map_type}' is not valid on {_on(directive)}",
                               clause.map_type_coord)


def _check_required_clauses(directive: Directive) -> None:
    required = _REQUIRED_CLAUSES.get(directive.kind)
    if required and not any(c.name in required for c in directive.clauses):
        names = " or ".join(f"'{name}'" for name in required)
        raise CompileError(f"{_on(directive)} needs at least one {names} clause", directive.coord)


def _check_simd_lengths(directive: Directive) -> None:
    safelen, simdlen = directive.first(SafelenClause), directive.first(SimdlenClause)
    if safelen and simdlen and simdlen.length > safelen.length:
        raise CompileError(f"'simdlen' ({simdlen.length}) must not be greater than "
                           f"'safelen' ({safelen.length})", simdlen.coord)


def _check_schedule(directive: Directive) -> None:
    schedule = directive.first(ScheduleClause)
    if schedule and "nonmonotonic" in schedule.modifiers and directive.first(OrderedClause):
        raise CompileError("a 'nonmonotonic' schedule cannot be combined with 'ordered'",
                           schedule.coord)


def _check_ordered_depth(directive: Directive) -> None:
    """`ordered(n)` associates n loops, at least the collapsed ones (OpenMP 4.5 2.7.1)."""
    ordered = directive.first(OrderedClause)
    if ordered is None or ordered.count is None:
        return
    collapse = directive.first(CollapseClause)
    collapsed = collapse.count if collapse is not None else 1
    if ordered.count < collapsed:
        raise CompileError(f"'ordered({ordered.count})' must not be smaller than 'collapse({collapsed})'",
                           ordered.coord)


def _check_depend(directive: Directive) -> None:
    for clause in directive.find(DependClause):
        doacross = clause.dep_type in ("source", "sink")
        if doacross != (directive.kind == "ordered"):
            raise CompileError(f"'depend({clause.dep_type})' is not valid on {_on(directive)}",
                               clause.coord)
    # an iteration says once that it is done, and either that or what it waits for (4.5 2.13.8)
    sources = [c for c in directive.find(DependClause) if c.dep_type == "source"]
    if len(sources) > 1:
        raise CompileError("more than one 'depend(source)' clause on an 'ordered' construct", sources[1].coord)
    if sources and any(c.dep_type == "sink" for c in directive.find(DependClause)):
        raise CompileError("'depend(source)' and 'depend(sink: ...)' on the same 'ordered' construct",
                           sources[0].coord)


def _check_declare_target(directive: Directive) -> None:
    if directive.kind != "declare target":
        return
    lists = directive.find((ToClause, LinkClause, EnterClause))
    for clause in lists:
        for item in clause.items:
            if not item.is_variable:
                raise CompileError(f"expected a variable or function name in '{clause.name}' clause",
                                   item.coord)
    named: set = set()
    for clause in lists:
        for item in clause.items:
            if item.is_variable and item.name in named:
                raise CompileError(f"'{item.name}' appears more than once in the clauses of one "
                                   "'declare target' directive", item.coord)
            named.add(item.name)
    if directive.clauses and not lists:
        raise CompileError(f"'{directive.clauses[0].name}' needs a 'to', 'enter' or 'link' list on "
                           "'#pragma omp declare target' (or '#pragma omp begin declare target')",
                           directive.clauses[0].coord)
    indirect = directive.first(IndirectClause)
    if indirect is not None and directive.find(LinkClause):
        raise CompileError("'indirect' cannot be combined with 'link'", indirect.coord)


def _check_branch(directive: Directive) -> None:
    branch = directive.find((InbranchClause, NotinbranchClause))
    if len(branch) > 1:
        raise CompileError(f"'inbranch' and 'notinbranch' cannot both appear on {_on(directive)}",
                           branch[1].coord)


def _check_critical(directive: Directive) -> None:
    hint = directive.first(HintClause)
    if hint and directive.kind == "critical" and directive.critical_name is None:
        raise CompileError("'hint' needs a named '#pragma omp critical (name)'", hint.coord)


def _check_linear_modifiers(directive: Directive) -> None:
    """The modifier written around the list (`linear(val(x))`) is declare simd's alone before
    OpenMP 5.2, which spells it after the colon (`linear(x: val)`), as gcc reads them."""
    for clause in directive.clauses:
        if isinstance(clause, LinearClause) and clause.modifier_around_list and directive.kind != "declare simd":
            raise CompileError("modifier should not be specified in 'linear' clause on 'simd' or 'for' constructs "
                               "when not using OpenMP 5.2 modifiers", clause.coord)


def _check_order(directive: Directive) -> None:
    """`order` and `ordered` exclude each other (OpenMP 5.0 2.9.2)."""
    order, ordered = directive.first(OrderClause), directive.first(OrderedClause)
    if order and ordered:
        raise CompileError("'order' clause must not be used together with 'ordered'", order.coord)


# A combined loop construct's `loop` binds to the construct it is combined with.
_COMBINED_BINDING = {"teams": "teams", "parallel": "parallel"}


def _check_combined_bind(directive: Directive) -> None:
    bind = directive.first(BindClause)
    if bind is None or len(directive.constructs) < 2 or directive.constructs[-1] != "loop":
        return
    binding = _COMBINED_BINDING[directive.constructs[-2]]
    if bind.kind != binding:
        raise CompileError(f"'bind({bind.kind})' on {_on(directive)}: the loop of a combined "
                           f"'{directive.constructs[-2]} loop' binds to that {binding} region "
                           f"(bind({binding}))", bind.coord)


_MEMORY_ORDERS = ("seq_cst", "acq_rel", "release", "acquire")


def _check_flush(directive: Directive) -> None:
    """OpenMP 5.0 2.17.8: acq_rel, release or acquire with no list (one order at most:
    _check_atomic_5x_clauses)."""
    if directive.kind != "flush":
        return
    orders = [c for c in directive.clauses if c.name in _MEMORY_ORDERS]
    if orders and orders[0].name != "seq_cst" and directive.flush_list:
        raise CompileError(f"'{orders[0].name}' clause on '#pragma omp flush' with a list",
                           orders[0].coord)


def _check_message(directive: Directive) -> None:
    """error's message: a string literal where the compiler prints it (at(compilation))."""
    message = directive.first(MessageClause)
    at = directive.first(AtClause)
    if message and not (at and at.kind == "execution") and not (
            isinstance(message.expr, c_ast.Constant) and message.expr.type == "string"):
        raise CompileError("the 'message' of a compile-time '#pragma omp error' must be a string literal",
                           message.coord)


def _check_conditional_lastprivate(directive: Directive) -> None:
    """lastprivate(conditional:) is for worksharing-loop and simd constructs (OpenMP 5.0
    2.19.4.5; gcc: "conditional 'lastprivate' clause on 'distribute' construct")."""
    conditional = [clause for clause in directive.find(LastprivateClause) if clause.conditional]
    if not conditional:
        return
    leaves = set(directive.constructs)
    wrong = next((leaf for leaf in ("distribute", "taskloop", "sections") if leaf in leaves), None)
    if wrong is not None or not leaves & {"for", "simd"}:
        where = f"a '{wrong}' construct" if wrong else _on(directive)
        raise CompileError(f"the 'conditional' modifier of 'lastprivate' is not valid on {where}: only on "
                           "a worksharing-loop or simd construct", conditional[0].items[0].coord)


def _check_scan(directive: Directive) -> None:
    """`scan` takes one of inclusive and exclusive; an `inscan` reduction is on a
    worksharing-loop or simd construct, not with distribute or taskloop, and then
    every reduction clause there is inscan (OpenMP 5.0 2.19.5.4)."""
    lists = directive.find(InclusiveClause) + directive.find(ExclusiveClause)
    if len(lists) > 1:
        raise CompileError("'#pragma omp scan' takes one 'inclusive' or 'exclusive' clause",
                           lists[1].coord)
    reductions = directive.find(ReductionClause)
    inscan = [clause for clause in reductions if clause.modifier == "inscan"]
    if not inscan:
        return
    leaves = set(directive.constructs)
    if not leaves & {"for", "simd"} or leaves & {"distribute", "taskloop"}:
        raise CompileError(f"the 'inscan' reduction modifier is not valid on {_on(directive)}: "
                           "only on a worksharing-loop or simd construct", inscan[0].coord)
    plain = next((clause for clause in reductions if clause.modifier != "inscan"), None)
    if plain is not None:
        raise CompileError("with an 'inscan' reduction clause every reduction clause on the "
                           "construct must be 'inscan'", plain.coord)


def _check_unroll(directive: Directive) -> None:
    """unroll: `full` or `partial`, not both (OpenMP 5.1 2.11.9.2)."""
    partial = directive.first(PartialClause)
    if directive.kind == "unroll" and partial is not None and directive.first(FullClause) is not None:
        raise CompileError("'full' and 'partial' cannot both appear on '#pragma omp unroll'", partial.coord)


def _check_map_modifiers_5x(directive: Directive) -> None:
    """`to(present: ...)` and iterators are target update's (declare target's `to` is a
    plain list); defaultmap: one per category, and one with no category alone."""
    if directive.kind != "target update":
        for clause in directive.find(ToClause):
            if clause.present or clause.iterators:
                raise CompileError(f"'to' clause modifiers are not valid on {_on(directive)}", clause.coord)
    defaultmaps = [c for c in directive.clauses if c.name == "defaultmap"]
    seen: set = set()
    for clause in defaultmaps:
        categories = {clause.category} if clause.category else {"scalar", "aggregate", "pointer"}
        if seen & categories:
            raise CompileError(f"more than one 'defaultmap' clause for the same category on {_on(directive)}",
                               clause.coord)
        seen |= categories


RULES_5X = (_check_flush, _check_map_modifiers_5x, _check_message, _check_unroll,     # OpenMP 5.0/5.1 (issue 26)
            _check_order, _check_combined_bind, _check_linear_modifiers,
            _check_scan, _check_conditional_lastprivate)
RULES = (_check_atomic_clauses, _check_if_clauses, _check_map_types, _check_required_clauses,
           _check_simd_lengths, _check_schedule, _check_ordered_depth, _check_depend,
           _check_declare_target, _check_critical, _check_branch, check_directive_items) + RULES_5X + TASK_RULES \
    + (check_variant_clauses,)
