"""`#pragma omp ...` text -> `Directive`: the directive name, its leaf constructs and
its clauses, checked against the OpenMP 4.5 rules for which clauses each
directive accepts.

    parse_directive("omp target teams distribute parallel for map(tofrom: a[0:n])", coord)

Clause syntax lives in `pragma_syntax.py` (tokens, C expressions, list items),
`clause_types.py` (the clause classes) and `clause_parsers.py` (one parser per
clause, the `CLAUSES` table); this module reads the directive name, dispatches
each clause to its parser and applies the rules that involve the directive or
several clauses (allowed clauses, duplicates, map types, `if` modifiers,
required clauses).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..diagnostics import CompileError, SourceLocation
from .clause_parsers import CLAUSES, OTHER_OPENMP_CLAUSES
from .clause_types import (  # noqa: F401  (re-exported: callers import clause classes from here)
    AlignedClause,
    ArraySection,
    AtomicClause,
    Clause,
    CollapseClause,
    CopyinClause,
    CopyprivateClause,
    DefaultClause,
    DefaultmapClause,
    DependClause,
    DeviceClause,
    DistScheduleClause,
    ExprClause,
    FinalClause,
    FirstprivateClause,
    FromClause,
    HintClause,
    IfClause,
    InbranchClause,
    IsDevicePtrClause,
    LastprivateClause,
    LinearClause,
    LinkClause,
    ListClause,
    ListItem,
    MapClause,
    MergeableClause,
    NotinbranchClause,
    NowaitClause,
    NumTeamsClause,
    NumThreadsClause,
    OrderedClause,
    PriorityClause,
    PrivateClause,
    ProcBindClause,
    ReductionClause,
    SafelenClause,
    ScheduleClause,
    SeqCstClause,
    SharedClause,
    SimdClause,
    SimdlenClause,
    ThreadLimitClause,
    ThreadsClause,
    ToClause,
    UniformClause,
    UntiedClause,
    UseDevicePtrClause,
)
from .pragma_syntax import PragmaContext, Token, parse_list, take_parenthesized

# --------------------------------------------------------------------------
# Directive names
# --------------------------------------------------------------------------

# Directives that are one construct, even when their name has several words.
_SINGLE_CONSTRUCTS = (
    "target", "target data", "target enter data", "target exit data", "target update",
    "declare target", "end declare target", "teams", "distribute", "parallel", "for", "simd",
    "sections", "section", "single", "master", "critical", "barrier", "atomic", "flush",
    "taskwait", "taskyield", "ordered", "task", "taskgroup", "threadprivate", "declare simd",
    "taskloop", "cancel", "cancellation point",
)
# Combined and composite constructs: their leaves are their words.
_COMBINED_CONSTRUCTS = (
    "parallel for", "parallel for simd", "parallel sections", "for simd",
    "distribute simd", "distribute parallel for", "distribute parallel for simd",
    "teams distribute", "teams distribute simd", "teams distribute parallel for",
    "teams distribute parallel for simd",
    "target parallel", "target parallel for", "target parallel for simd", "target simd",
    "target teams", "target teams distribute", "target teams distribute simd",
    "target teams distribute parallel for", "target teams distribute parallel for simd",
    "taskloop simd",
)
DIRECTIVES: dict[str, tuple[str, ...]] = {
    **{kind: (kind,) for kind in _SINGLE_CONSTRUCTS},
    **{kind: tuple(kind.split()) for kind in _COMBINED_CONSTRUCTS},
}
_PREFIXES = frozenset(" ".join(kind.split()[:n]) for kind in DIRECTIVES
                      for n in range(1, len(kind.split()) + 1))

# Real OpenMP directives outside this compiler's scope.
_UNSUPPORTED = frozenset({
    "declare reduction", "workshare",
})
# Words that name constructs: seeing one after a complete directive name means a bad
# combination.  `ordered`, `update` and `reduction` are clauses too (`for ordered`, `atomic
# update`, `single reduction(...)`), so after a directive name they are read as clauses.
_CONSTRUCT_WORDS = (frozenset(word for kind in DIRECTIVES for word in kind.split())
                    | frozenset(word for name in _UNSUPPORTED for word in name.split())
                    ) - {"ordered", "update", "reduction"}

_STANDALONE = frozenset({
    "barrier", "taskwait", "taskyield", "flush", "target update", "target enter data",
    "target exit data", "end declare target", "threadprivate", "cancel", "cancellation point",
})

# --------------------------------------------------------------------------
# Which clauses each leaf construct accepts (OpenMP 4.5)
# --------------------------------------------------------------------------

_DATA_SHARING = {"private", "firstprivate", "shared", "reduction"}
LEAF_CLAUSES: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in {
    "target": {"if", "device", "private", "firstprivate", "map", "is_device_ptr", "defaultmap",
               "nowait", "depend"},
    "target data": {"if", "device", "map", "use_device_ptr"},
    "target enter data": {"if", "device", "map", "depend", "nowait"},
    "target exit data": {"if", "device", "map", "depend", "nowait"},
    "target update": {"if", "device", "to", "from", "depend", "nowait"},
    "declare target": {"to", "link"},
    "end declare target": set(),
    "teams": _DATA_SHARING | {"num_teams", "thread_limit", "default"},
    "distribute": {"private", "firstprivate", "lastprivate", "collapse", "dist_schedule"},
    "parallel": _DATA_SHARING | {"if", "num_threads", "default", "copyin", "proc_bind"},
    "for": {"private", "firstprivate", "lastprivate", "linear", "reduction", "schedule",
            "collapse", "ordered", "nowait"},
    "simd": {"safelen", "simdlen", "linear", "aligned", "private", "lastprivate", "reduction",
             "collapse"},
    "sections": {"private", "firstprivate", "lastprivate", "reduction", "nowait"},
    "section": set(),
    "single": {"private", "firstprivate", "copyprivate", "nowait"},
    "master": set(),
    "critical": {"hint"},
    "barrier": set(),
    "taskwait": set(),
    "taskyield": set(),
    "flush": set(),
    "atomic": {"read", "write", "update", "capture", "seq_cst"},
    "ordered": {"threads", "simd", "depend"},
    "task": {"if", "final", "untied", "default", "mergeable", "private", "firstprivate",
             "shared", "depend", "priority"},
    "taskgroup": set(),
    "taskloop": {"if", "shared", "private", "firstprivate", "lastprivate", "default", "grainsize",
                 "num_tasks", "collapse", "final", "priority", "untied", "mergeable", "nogroup"},
    "threadprivate": set(),
    "cancel": {"if"},
    "cancellation point": set(),
    "declare simd": {"simdlen", "linear", "aligned", "uniform", "inbranch", "notinbranch"},
}.items()}

# A combined construct accepts the union of its leaves' clauses, except these
# (the spec removes them from the named combination; an outer `target` may add
# `nowait` back, since it then means the target task's nowait).
_COMBINED_EXCLUSIONS: dict[str, frozenset[str]] = {
    "parallel for": frozenset({"nowait"}),
    "parallel for simd": frozenset({"nowait"}),
    "parallel sections": frozenset({"nowait"}),
    "distribute parallel for": frozenset({"ordered", "linear"}),
    "distribute parallel for simd": frozenset({"ordered"}),
}


@lru_cache(maxsize=None)
def allowed_clauses(constructs: tuple[str, ...]) -> frozenset[str]:
    """Clause names a directive made of these leaf constructs accepts."""
    allowed = LEAF_CLAUSES[constructs[0]]
    if len(constructs) > 1:
        allowed = allowed | allowed_clauses(constructs[1:])
    return allowed - _COMBINED_EXCLUSIONS.get(" ".join(constructs), frozenset())


# Clauses that may appear at most once on a directive.
_UNIQUE_CLAUSES = frozenset({
    "num_threads", "default", "proc_bind", "collapse", "schedule", "ordered", "nowait",
    "safelen", "simdlen", "num_teams", "thread_limit", "dist_schedule", "device", "defaultmap",
    "hint", "seq_cst", "threads", "simd", "final", "priority", "untied", "mergeable",
    "inbranch", "notinbranch", "grainsize", "num_tasks", "nogroup",
})
# Leaf constructs an `if` directive-name-modifier can name.
_IF_LEAVES = frozenset({"target", "target data", "target enter data", "target exit data",
                        "target update", "parallel", "task", "taskloop", "cancel"})
# Map types each mapping construct accepts; enter/exit data must spell one out.
_MAP_TYPES_ON = {
    "target": ("to", "from", "tofrom", "alloc"),
    "target data": ("to", "from", "tofrom", "alloc"),
    "target enter data": ("to", "alloc"),
    "target exit data": ("from", "release", "delete"),
}
_MAP_TYPE_REQUIRED = frozenset({"target enter data", "target exit data"})
# Directives that are meaningless without one of these clauses.
_REQUIRED_CLAUSES = {
    "target update": ("to", "from"),
    "target enter data": ("map",),
    "target exit data": ("map",),
    "target data": ("map", "use_device_ptr"),
}


# --------------------------------------------------------------------------
# Directive
# --------------------------------------------------------------------------

@dataclass
class Directive:
    kind: str                               # e.g. "target teams distribute parallel for"
    constructs: tuple[str, ...]             # leaf constructs, e.g. ("target", "teams", ...)
    clauses: list[Clause]
    coord: SourceLocation                   # the first word of the directive name
    critical_name: str | None = None        # critical (name)
    flush_list: list[ListItem] = field(default_factory=list)    # flush (list)
    threadprivate_list: list[ListItem] = field(default_factory=list)    # threadprivate (list)
    has_extended_list: bool = False         # declare target (list); the list is a ToClause
    cancel_kind: str | None = None          # cancel / cancellation point: parallel, for, ...

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
        return self.kind in _STANDALONE

    @property
    def is_declare_target_begin(self) -> bool:
        """`declare target` that opens a region closed by `end declare target`."""
        return self.kind == "declare target" and not self.clauses

    @property
    def atomic_kind(self) -> str | None:
        if self.kind != "atomic":
            return None
        clause = self.first(AtomicClause)
        return clause.kind if clause else "update"

    @property
    def seq_cst(self) -> bool:
        return bool(self.find(SeqCstClause))


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------

def parse_directive(text: str, coord, typedef_names: frozenset[str] = frozenset()) -> Directive:
    """Parse the text of `#pragma omp ...` (starting at "omp"); raise CompileError if invalid."""
    ctx = PragmaContext(text, coord, typedef_names)
    tokens = ctx.tokenize()
    if not tokens or tokens[0].text != "omp":
        raise ctx.error("expected 'omp' after '#pragma'", tokens[0].offset if tokens else 0)
    kind, i = _read_name(ctx, tokens, 1)
    directive = Directive(kind, DIRECTIVES[kind], [], ctx.loc(tokens[1].offset))
    if kind in CANCEL_DIRECTIVES:
        directive.cancel_kind, i = tokens[i].text, i + 1
    i = _read_directive_argument(ctx, tokens, i, directive)
    directive.clauses += _read_clauses(ctx, tokens, i, directive)
    for check in _CHECKS:
        check(directive)
    return directive


def _read_name(ctx: PragmaContext, tokens: list[Token], i: int) -> tuple[str, int]:
    """Longest run of words that spells a directive; returns it and the index after it."""
    if i == len(tokens) or tokens[i].kind != "id":
        where = tokens[i].offset if i < len(tokens) else tokens[0].end
        raise ctx.error("expected an OpenMP directive name after 'omp'", where)
    words, j = [], i
    while j < len(tokens) and tokens[j].kind == "id" \
            and " ".join(words + [tokens[j].text]) in _PREFIXES:
        words.append(tokens[j].text)
        j += 1
    name = " ".join(words)
    if name not in DIRECTIVES:
        _reject_name(ctx, tokens, i, j, words)
    if name in CANCEL_DIRECTIVES:               # `cancel for`: the construct type is no combination
        return name, _read_cancel_kind(ctx, tokens, j, name)
    _reject_combination(ctx, tokens, j, name)
    return name, j


CANCEL_DIRECTIVES = ("cancel", "cancellation point")
CANCEL_KINDS = ("parallel", "sections", "for", "taskgroup")


def _read_cancel_kind(ctx: PragmaContext, tokens: list[Token], j: int, name: str) -> int:
    if j == len(tokens) or tokens[j].text not in CANCEL_KINDS:
        where = tokens[j].offset if j < len(tokens) else tokens[j - 1].end
        raise ctx.error(f"expected 'parallel', 'sections', 'for' or 'taskgroup' after '{name}'", where)
    return j


def _reject_name(ctx: PragmaContext, tokens: list[Token], i: int, j: int, words: list[str]):
    following = tokens[j].text if j < len(tokens) and tokens[j].kind == "id" else None
    for candidate in (" ".join(words + [following or ""]).strip(), tokens[i].text):
        if candidate in _UNSUPPORTED:
            raise ctx.error(f"unsupported OpenMP directive '{candidate}'", tokens[i].offset)
    if not words:
        raise ctx.error(f"unknown OpenMP directive '{tokens[i].text}'", tokens[i].offset)
    name = " ".join(words)
    continuations = sorted({kind.split()[len(words)] for kind in DIRECTIVES
                            if kind.startswith(name + " ")})
    expected = " or ".join(f"'{word}'" for word in continuations)
    where = tokens[j].offset if j < len(tokens) else tokens[j - 1].end
    raise ctx.error(f"expected {expected} after '{name}'", where)


def _reject_combination(ctx: PragmaContext, tokens: list[Token], j: int, name: str):
    """`target for`, `parallel teams`, ...: construct words that do not combine with `name`."""
    allowed = allowed_clauses(DIRECTIVES[name])
    extra = []
    for tok in tokens[j:]:
        if tok.kind != "id" or tok.text not in _CONSTRUCT_WORDS or tok.text in allowed:
            break
        extra.append(tok.text)
    if extra:
        raise ctx.error(f"invalid combination '{name} {' '.join(extra)}'", tokens[j].offset)


def _read_directive_argument(ctx: PragmaContext, tokens: list[Token], i: int,
                             directive: Directive) -> int:
    """critical (name), flush (list), declare target (list), threadprivate (list)."""
    kind = directive.kind
    if i == len(tokens) or not tokens[i].is_punct("("):
        if kind == "threadprivate":
            raise ctx.error("expected '(' after 'threadprivate'",
                            tokens[i].offset if i < len(tokens) else tokens[i - 1].end)
        return i
    if kind not in ("critical", "flush", "declare target", "threadprivate"):
        raise ctx.error(f"unexpected '(' after '#pragma omp {kind}'", tokens[i].offset)
    args, after = take_parenthesized(ctx, tokens, i, f"the argument of '#pragma omp {kind}'")
    if kind == "critical":
        if len(args.tokens) != 1 or args.tokens[0].kind != "id":
            where = args.tokens[1].offset if len(args.tokens) > 1 else args.start
            raise ctx.error("expected a name in '#pragma omp critical (name)'", where)
        directive.critical_name = args.tokens[0].text
    elif kind == "flush":
        directive.flush_list = parse_list(ctx, args, "flush", plain=True,
                                          what="'#pragma omp flush' list")
    elif kind == "threadprivate":
        directive.threadprivate_list = parse_list(ctx, args, "threadprivate", plain=True,
                                                  what="'#pragma omp threadprivate' list")
    else:
        items = parse_list(ctx, args, "to", plain=True,
                           what="'#pragma omp declare target' list")
        directive.clauses.append(ToClause(coord=ctx.loc(tokens[i].offset), items=items))
        directive.has_extended_list = True
    return after


def _read_clauses(ctx: PragmaContext, tokens: list[Token], i: int, directive: Directive) -> list:
    clauses = []
    while i < len(tokens):
        if tokens[i].is_punct(",") and (clauses or directive.clauses):    # optional separator
            i += 1
            if i == len(tokens):
                raise ctx.error("expected a clause after ','", tokens[i - 1].end)
        if directive.has_extended_list:
            raise ctx.error("no clauses may follow the list of '#pragma omp declare target'",
                            tokens[i].offset)
        clause, i = _read_clause(ctx, tokens, i, directive)
        clauses.append(clause)
    return clauses


def _read_clause(ctx: PragmaContext, tokens: list[Token], i: int, directive: Directive):
    tok, where = tokens[i], f"'#pragma omp {directive.kind}'"
    if tok.kind != "id":
        raise ctx.error(f"expected a clause on {where}, found '{tok.text}'", tok.offset)
    spec = CLAUSES.get(tok.text)
    if spec is None and tok.text not in OTHER_OPENMP_CLAUSES:
        raise ctx.error(f"unknown clause '{tok.text}' on {where}", tok.offset)
    if spec is None or tok.text not in allowed_clauses(directive.constructs):
        raise ctx.error(f"clause '{tok.text}' is not valid on {where}", tok.offset)
    args, i = None, i + 1
    if i < len(tokens) and tokens[i].is_punct("("):
        if spec.arguments == "none":
            raise ctx.error(f"clause '{tok.text}' takes no arguments", tokens[i].offset)
        args, i = take_parenthesized(ctx, tokens, i, f"'{tok.text}' clause arguments")
    elif spec.arguments == "required":
        raise ctx.error(f"expected '(' after '{tok.text}'", tok.end)
    return spec.parse(ctx, tok, args), i


# --------------------------------------------------------------------------
# Rules involving the directive or several clauses
# --------------------------------------------------------------------------

def _on(directive: Directive) -> str:
    return f"'#pragma omp {directive.kind}'"


def _check_unique(directive: Directive) -> None:
    seen = set()
    for clause in directive.clauses:
        if clause.name in _UNIQUE_CLAUSES and clause.name in seen:
            raise CompileError(f"duplicate '{clause.name}' clause on {_on(directive)}",
                               clause.coord)
        seen.add(clause.name)
    atomics = directive.find(AtomicClause)
    if len(atomics) > 1:
        raise CompileError("at most one of 'read', 'write', 'update' and 'capture' may appear "
                           "on '#pragma omp atomic'", atomics[1].coord)


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


def _check_depend(directive: Directive) -> None:
    for clause in directive.find(DependClause):
        doacross = clause.dep_type in ("source", "sink")
        if doacross != (directive.kind == "ordered"):
            raise CompileError(f"'depend({clause.dep_type})' is not valid on {_on(directive)}",
                               clause.coord)


def _check_declare_target(directive: Directive) -> None:
    for clause in directive.find(ToClause) if directive.kind == "declare target" else ():
        for item in clause.items:
            if not item.is_variable:
                raise CompileError("expected a variable or function name in 'to' clause",
                                   item.coord)


def _check_branch(directive: Directive) -> None:
    branch = directive.find((InbranchClause, NotinbranchClause))
    if len(branch) > 1:
        raise CompileError(f"'inbranch' and 'notinbranch' cannot both appear on {_on(directive)}",
                           branch[1].coord)


def _check_critical(directive: Directive) -> None:
    hint = directive.first(HintClause)
    if hint and directive.critical_name is None:
        raise CompileError("'hint' needs a named '#pragma omp critical (name)'", hint.coord)


_CHECKS = (_check_unique, _check_if_clauses, _check_map_types, _check_required_clauses,
           _check_simd_lengths, _check_schedule, _check_depend, _check_declare_target,
           _check_critical, _check_branch)
