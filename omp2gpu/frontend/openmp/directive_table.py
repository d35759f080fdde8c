"""Which OpenMP 4.5 directives exist, the leaf constructs each is made of, and which
clauses each accepts (the union of its leaves', less the spec's exclusions)."""

from __future__ import annotations

from functools import lru_cache

# --------------------------------------------------------------------------
# Directive names
# --------------------------------------------------------------------------

# Directives that are one construct, even when their name has several words.
_SINGLE_CONSTRUCTS = (
    "target", "target data", "target enter data", "target exit data", "target update",
    "declare target", "end declare target", "teams", "distribute", "parallel", "for", "simd",
    "sections", "section", "single", "master", "critical", "barrier", "atomic", "flush",
    "taskwait", "taskyield", "ordered", "task", "taskgroup", "threadprivate", "declare simd",
    "taskloop", "cancel", "cancellation point", "declare reduction",
    "requires",                                                     # OpenMP 5.0
    "depobj",                                                   # OpenMP 5.0 tasking
    "interop",                                                      # OpenMP 5.1
    "scan",                                                         # OpenMP 5.0
    # OpenMP 5.x: choosing code by context (variant_clauses.py), declare target's 5.1 form
    "declare variant", "begin declare variant", "end declare variant", "metadirective", "dispatch",
    "begin declare target",
    "declare mapper",                                           # OpenMP 5.0 (declare_mapper.py)
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
# OpenMP 5.0/5.1 constructs (issue 26): masked, scope, the utility directives, assume.
_SINGLE_CONSTRUCTS_5X = (
    "masked", "scope", "nothing", "error", "assume", "assumes", "begin assumes", "end assumes",
    "allocate",                                                 # 5.0 memory management (issue 28)
)
# 5.0/5.1 combinations of master/masked (frontend/openmp/masked_combined.py nests their leaves).
_COMBINED_CONSTRUCTS_5X = (
    "parallel master", "parallel masked", "master taskloop", "master taskloop simd",
    "masked taskloop", "masked taskloop simd", "parallel master taskloop",
    "parallel master taskloop simd", "parallel masked taskloop", "parallel masked taskloop simd",
)
# OpenMP 5.0 `loop` and its combined forms (sema/loop_construct.py lowers each to the
# 4.5 construct its binding implies). There is no `target loop` in 5.0/5.1.
_LOOP_CONSTRUCTS = ("loop",)
_COMBINED_LOOP_CONSTRUCTS = ("teams loop", "target teams loop", "parallel loop",
                             "target parallel loop")
# OpenMP 5.1 loop transformations (sema/loop_transformations.py rewrites them into loops).
LOOP_TRANSFORMATIONS = ("tile", "unroll")
DIRECTIVES: dict[str, tuple[str, ...]] = {
    **{kind: (kind,) for kind in _SINGLE_CONSTRUCTS + _SINGLE_CONSTRUCTS_5X + _LOOP_CONSTRUCTS
       + LOOP_TRANSFORMATIONS},
    **{kind: tuple(kind.split()) for kind in _COMBINED_CONSTRUCTS + _COMBINED_CONSTRUCTS_5X
                                     + _COMBINED_LOOP_CONSTRUCTS},
}
DIRECTIVE_PREFIXES = frozenset(" ".join(kind.split()[:n]) for kind in DIRECTIVES
                      for n in range(1, len(kind.split()) + 1))

# Real OpenMP directives outside this compiler's scope.
UNSUPPORTED_DIRECTIVES = frozenset({
    "workshare",
})
# Words that name constructs: seeing one after a complete directive name means a bad
# combination.  `ordered`, `update` and `reduction` are clauses too (`for ordered`, `atomic
# update`, `single reduction(...)`), so after a directive name they are read as clauses.
CONSTRUCT_WORDS = (frozenset(word for kind in DIRECTIVES for word in kind.split())
                    | frozenset(word for name in UNSUPPORTED_DIRECTIVES for word in name.split())
                    ) - {"ordered", "update", "reduction", "allocate"}

# --------------------------------------------------------------------------
# Which clauses each leaf construct accepts (OpenMP 4.5)
# --------------------------------------------------------------------------

_DATA_SHARING = {"private", "firstprivate", "shared", "reduction"}
_ASSUMPTIONS = {"absent", "contains", "no_openmp", "no_openmp_routines", "no_parallelism"}
LEAF_CLAUSES: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in {
    "target": {"if", "device", "private", "firstprivate", "map", "is_device_ptr", "defaultmap",
               "nowait", "depend",
               "thread_limit"},                                       # 5.1
    "target data": {"if", "device", "map", "use_device_ptr"},
    "target enter data": {"if", "device", "map", "depend", "nowait"},
    "target exit data": {"if", "device", "map", "depend", "nowait"},
    "target update": {"if", "device", "to", "from", "depend", "nowait"},
    "declare target": {"to", "link", "device_type", "indirect", "enter"},
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
    "atomic": {"read", "write", "update", "capture", "seq_cst",
               "acq_rel", "release", "acquire", "relaxed", "hint", "compare", "fail", "weak"},
    "scan": {"inclusive", "exclusive"},
    "requires": {"reverse_offload", "unified_address", "unified_shared_memory",
                 "atomic_default_mem_order", "dynamic_allocators"},
    "ordered": {"threads", "simd", "depend", "doacross"},
    "task": {"if", "final", "untied", "default", "mergeable", "private", "firstprivate",
             "shared", "depend", "priority"},
    "taskgroup": set(),
    "taskloop": {"if", "shared", "private", "firstprivate", "lastprivate", "default", "grainsize",
                 "num_tasks", "collapse", "final", "priority", "untied", "mergeable", "nogroup"},
    "depobj": {"depend", "update", "destroy"},
    "interop": {"init", "use", "destroy", "device", "depend", "nowait"},        # OpenMP 5.1
    "cancel": {"if"},
    "cancellation point": set(),
    "threadprivate": set(),
    "declare reduction": {"initializer"},
    "declare simd": {"simdlen", "linear", "aligned", "uniform", "inbranch", "notinbranch"},
    # OpenMP 5.0/5.1 constructs (issue 26)
    "masked": {"filter"},
    "scope": {"private", "firstprivate", "reduction", "nowait"},
    "nothing": set(),
    "error": {"at", "severity", "message"},
    "assume": _ASSUMPTIONS | {"holds"},
    "assumes": _ASSUMPTIONS | {"holds"},
    "begin assumes": _ASSUMPTIONS | {"holds"},
    "end assumes": set(),
    # OpenMP 5.x (the clauses variant_clauses.py reads, and the usual ones)
    "declare variant": {"match", "adjust_args", "append_args"},
    "begin declare variant": {"match"},
    "end declare variant": set(),
    "metadirective": {"when", "default", "otherwise"},
    "dispatch": {"device", "depend", "nowait", "novariants", "nocontext", "is_device_ptr"},
    "begin declare target": {"device_type", "indirect"},
}.items()}
# OpenMP 5.0/5.1 clauses on 4.5 leaves (issue 26): flush's memory orders, simd's if and nontemporal.
LEAF_CLAUSES = {**LEAF_CLAUSES,
                "flush": LEAF_CLAUSES["flush"] | {"seq_cst", "acq_rel", "release", "acquire"},
                "simd": LEAF_CLAUSES["simd"] | {"if", "nontemporal"}}

# OpenMP 5.0/5.1: the `loop` construct's clauses, and `order([modifier:]concurrent)` on the
# loop constructs that take it (5.0 for and simd; 5.1 distribute: gcc 12 takes it there too).
LEAF_CLAUSES["declare mapper"] = frozenset({"map"})
LEAF_CLAUSES["loop"] = frozenset({"bind", "collapse", "order", "private", "lastprivate", "reduction"})
LEAF_CLAUSES["tile"] = frozenset({"sizes"})                       # 5.1 loop transformations
LEAF_CLAUSES["unroll"] = frozenset({"full", "partial"})
for _leaf in ("for", "simd", "distribute"):
    LEAF_CLAUSES[_leaf] |= {"order"}

# OpenMP 5.x tasking clauses, added to the 4.5 leaves' (docs/tasks-5x.md).
_TASKING_5X = {
    "task": {"in_reduction", "detach", "affinity"},
    "taskloop": {"reduction", "in_reduction"},
    "taskgroup": {"task_reduction"},
    "taskwait": {"depend", "nowait"},
    "target": {"in_reduction"},
}
LEAF_CLAUSES.update({leaf: LEAF_CLAUSES[leaf] | extra for leaf, extra in _TASKING_5X.items()})
# OpenMP 5.0/5.1 device-address clauses (docs/maps-5x.md).
_MAPS_5X = {"target": {"has_device_addr"}, "target data": {"use_device_addr"}}
LEAF_CLAUSES.update({leaf: LEAF_CLAUSES[leaf] | extra for leaf, extra in _MAPS_5X.items()})

# OpenMP 5.0 memory management (frontend/openmp/allocate_clauses.py): the allocate directive's
# clauses, the allocate clause on constructs that privatise, uses_allocators on target.
LEAF_CLAUSES["allocate"] = frozenset({"allocator", "align"})
for _leaf in ("parallel", "for", "sections", "single", "task", "taskloop", "teams", "distribute",
              "target", "taskgroup", "scope"):
    LEAF_CLAUSES[_leaf] |= {"allocate"}
LEAF_CLAUSES["target"] |= {"uses_allocators"}

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
