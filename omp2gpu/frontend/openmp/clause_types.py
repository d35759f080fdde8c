"""The typed OpenMP clauses, the data model the front end hands on: list items
with their array sections, and one dataclass per clause kind.  Nothing here
parses; `pragma_syntax.py` reads list items and `clause_parsers.py` builds the
clauses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation

# --------------------------------------------------------------------------
# List items and array sections
# --------------------------------------------------------------------------

@dataclass
class ArraySection:
    """`[lower:length]`; lower None means 0, length None means "to the end of the array".
    `[i]` is the element i: lower i, length the constant 1, is_element True.
    `[lower:length:stride]` (OpenMP 5.0, target update's to/from only): every stride-th element."""

    lower: c_ast.Node | None
    length: c_ast.Node | None
    is_element: bool = False
    coord: SourceLocation | None = None
    stride: c_ast.Node | None = None        # None: 1


@dataclass
class ListItem:
    """A variable, a struct member (`s.x`, `p->a`), optionally followed by array sections.
    `name` is the root variable; `expr` the base expression (c_ast.ID or c_ast.StructRef)."""

    name: str
    expr: c_ast.Node
    sections: list[ArraySection]
    coord: SourceLocation
    spelling: str = ""
    # OpenMP 5.0 array shaping `([n][m])p`: the extents, outermost first (p a pointer)
    shape: list[c_ast.Node] = field(default_factory=list)
    # OpenMP 5.0: the allocate clause (allocate_clauses.AllocateClause) whose allocator makes
    # this privatised item's copies; set on the private/firstprivate/... clause's item.
    allocate: object = field(default=None, compare=False, repr=False)

    @property
    def is_variable(self) -> bool:
        return not self.sections and isinstance(self.expr, c_ast.ID)



# --------------------------------------------------------------------------
# Clause classes
# --------------------------------------------------------------------------

@dataclass(kw_only=True)
class Clause:
    coord: SourceLocation
    name: ClassVar[str] = ""


@dataclass(kw_only=True)
class ListClause(Clause):
    items: list[ListItem]


class PrivateClause(ListClause): name = "private"
class FirstprivateClause(ListClause): name = "firstprivate"
@dataclass(kw_only=True)
class LastprivateClause(ListClause):
    """lastprivate([conditional:] list): OpenMP 5.0's `conditional` copies out the value of
    the sequentially last iteration that assigned the item, if any did."""
    name = "lastprivate"
    conditional: bool = False


class SharedClause(ListClause): name = "shared"
class CopyinClause(ListClause): name = "copyin"
class CopyprivateClause(ListClause): name = "copyprivate"
class IsDevicePtrClause(ListClause): name = "is_device_ptr"
class UseDevicePtrClause(ListClause): name = "use_device_ptr"
class LinkClause(ListClause): name = "link"      # declare target
class UniformClause(ListClause): name = "uniform"  # declare simd


@dataclass(kw_only=True)
class MapClause(ListClause):
    name = "map"
    map_type: str = "tofrom"
    always: bool = False
    map_type_explicit: bool = False
    map_type_coord: SourceLocation | None = None
    mapper: str | None = None           # `mapper(identifier)` modifier (OpenMP 5.0)
    close: bool = False                 # 5.0: a hint (device memory is the only kind here)
    present: bool = False               # 5.1: the data must be mapped already
    iterators: list = field(default_factory=list)   # 5.1: `iterator(...)`, frontend Iterator
    implicit: bool = False              # made from a defaultmap clause (codegen/openmp/data/defaultmap.py)


@dataclass(kw_only=True)
class MotionClause(ListClause):
    """target update's `to`/`from` (and declare target's `to`, a plain list)."""
    mapper: str | None = None           # `mapper(identifier):` (OpenMP 5.0)
    present: bool = False               # 5.1: an item not mapped is an error, not ignored
    iterators: list = field(default_factory=list)


class ToClause(MotionClause): name = "to"
class FromClause(MotionClause): name = "from"
class UseDeviceAddrClause(ListClause): name = "use_device_addr"     # target data (5.0)
class HasDeviceAddrClause(ListClause): name = "has_device_addr"     # target (5.1)


@dataclass(kw_only=True)
class ReductionClause(ListClause):
    name = "reduction"
    op: str
    modifier: str | None = None         # OpenMP 5.0: "task", "default" or "inscan"


@dataclass(kw_only=True)
class AlignedClause(ListClause):
    name = "aligned"
    alignment: int | None = None


@dataclass(kw_only=True)
class LinearClause(ListClause):
    name = "linear"
    step: c_ast.Node | None = None      # None means 1
    modifier: str | None = None         # "val" or None
    modifier_around_list: bool = False  # spelt `val(list)`, before OpenMP 5.2: declare simd's only


@dataclass
class Iterator:
    """One definition of an OpenMP 5.0 `iterator(...)` modifier: `[type] name = begin:end[:step]`."""
    name: str
    type_name: c_ast.Typename | None    # None: int
    begin: c_ast.Node
    end: c_ast.Node
    step: c_ast.Node | None
    coord: SourceLocation | None = None


@dataclass(kw_only=True)
class DependClause(ListClause):
    name = "depend"
    dep_type: str                       # in, out, inout, mutexinoutset, inoutset, depobj, source, sink
    sink: list[c_ast.Node] = field(default_factory=list)
    iterators: list[Iterator] = field(default_factory=list)


# ---- OpenMP 5.x tasking clauses (task_clauses.py parses them)
@dataclass(kw_only=True)
class InReductionClause(ListClause):
    name = "in_reduction"               # task, taskloop, target: a participant of a task reduction
    op: str


@dataclass(kw_only=True)
class TaskReductionClause(ListClause):
    name = "task_reduction"             # taskgroup
    op: str


class DestroyClause(ListClause): name = "destroy"                      # depobj


@dataclass(kw_only=True)
class AffinityClause(ListClause):
    name = "affinity"
    iterators: list[Iterator] = field(default_factory=list)


@dataclass(kw_only=True)
class UpdateClause(Clause):
    """The depobj construct's `update(dependence-type)`."""
    name = "update"
    dep_type: str


@dataclass(kw_only=True)
class ExprClause(Clause):
    expr: c_ast.Node


@dataclass(kw_only=True)
class NumTeamsClause(ExprClause):
    """`num_teams([lower:] upper)`: `expr` is the upper bound; `lower` (OpenMP 5.1) the
    fewest teams, else the upper bound is both (exactly that many teams)."""
    name = "num_teams"
    lower: c_ast.Node | None = None


class ThreadLimitClause(ExprClause): name = "thread_limit"
class NumThreadsClause(ExprClause): name = "num_threads"
@dataclass(kw_only=True)
class DeviceClause(ExprClause):
    """`device([device_num: | ancestor:] n)` (the modifiers are OpenMP 5.0's): `ancestor`,
    reverse offload, names the device that encountered the enclosing target region."""
    name = "device"
    ancestor: bool = False


class HintClause(ExprClause): name = "hint"
class FinalClause(ExprClause): name = "final"            # task
@dataclass(kw_only=True)
class GrainsizeClause(ExprClause):
    name = "grainsize"                  # taskloop
    strict: bool = False                # OpenMP 5.1 `strict:` modifier


@dataclass(kw_only=True)
class NumTasksClause(ExprClause):
    name = "num_tasks"                  # taskloop
    strict: bool = False                # OpenMP 5.1 `strict:` modifier
class PriorityClause(ExprClause): name = "priority"      # task
class InitializerClause(ExprClause): name = "initializer"    # declare reduction
class DetachClause(ExprClause): name = "detach"              # task (5.0): its event handle


@dataclass(kw_only=True)
class IfClause(ExprClause):
    name = "if"
    modifier: str | None = None         # directive-name-modifier, e.g. "target enter data"
    modifier_coord: SourceLocation | None = None


@dataclass(kw_only=True)
class DefaultClause(Clause):
    name = "default"
    kind: str                           # shared or none


@dataclass(kw_only=True)
class DefaultmapClause(Clause):
    name = "defaultmap"
    behavior: str = "tofrom"            # alloc to from tofrom firstprivate none default present
    category: str | None = "scalar"     # scalar, aggregate, pointer; None: every category


@dataclass(kw_only=True)
class ProcBindClause(Clause):
    name = "proc_bind"
    kind: str                           # master, close or spread


@dataclass(kw_only=True)
class CollapseClause(Clause):
    name = "collapse"
    count: int


@dataclass(kw_only=True)
class OrderedClause(Clause):
    name = "ordered"
    count: int | None = None


@dataclass(kw_only=True)
class SafelenClause(Clause):
    name = "safelen"
    length: int


@dataclass(kw_only=True)
class SimdlenClause(Clause):
    name = "simdlen"
    length: int


@dataclass(kw_only=True)
class ScheduleClause(Clause):
    name = "schedule"
    kind: str                           # static, dynamic, guided, auto, runtime
    chunk: c_ast.Node | None = None
    modifiers: tuple[str, ...] = ()     # monotonic, nonmonotonic, simd


@dataclass(kw_only=True)
class DistScheduleClause(Clause):
    name = "dist_schedule"
    kind: str = "static"
    chunk: c_ast.Node | None = None


@dataclass(kw_only=True)
class BindClause(Clause):
    """loop bind(binding) (OpenMP 5.0 2.9.5)."""
    name = "bind"
    kind: str                           # teams, parallel or thread


@dataclass(kw_only=True)
class OrderClause(Clause):
    """order([modifier:]concurrent) (OpenMP 5.0 2.9.2; the modifier is 5.1's)."""
    name = "order"
    kind: str = "concurrent"
    modifier: str | None = None         # reproducible, unconstrained or None


@dataclass(kw_only=True)
class AtomicClause(Clause):
    """read, write, update or capture on `#pragma omp atomic`."""
    name = "atomic"
    kind: str


class NowaitClause(Clause): name = "nowait"
class ThreadsClause(Clause): name = "threads"     # ordered threads
class SimdClause(Clause): name = "simd"           # ordered simd
class UntiedClause(Clause): name = "untied"       # task
class MergeableClause(Clause): name = "mergeable"  # task
class NogroupClause(Clause): name = "nogroup"      # taskloop
class InbranchClause(Clause): name = "inbranch"    # declare simd
class NotinbranchClause(Clause): name = "notinbranch"  # declare simd


# --------------------------------------------------------------------------
# OpenMP 5.0/5.1 atomics: memory orders, compare, fail, weak; requires
# --------------------------------------------------------------------------

class MemoryOrderClause(Clause):
    """A memory-order clause (OpenMP 5.0 2.17.7): one class per order, its name the order."""

    @property
    def order(self) -> str:
        return self.name


class SeqCstClause(MemoryOrderClause): name = "seq_cst"
class AcqRelClause(MemoryOrderClause): name = "acq_rel"
class ReleaseClause(MemoryOrderClause): name = "release"
class AcquireClause(MemoryOrderClause): name = "acquire"
class RelaxedClause(MemoryOrderClause): name = "relaxed"
class CompareClause(Clause): name = "compare"     # atomic compare (5.1)
class WeakClause(Clause): name = "weak"           # atomic compare weak (5.1)


@dataclass(kw_only=True)
class FailClause(Clause):
    """`fail(seq_cst|acquire|relaxed)`: the order of an atomic compare that does not write."""
    name = "fail"
    order: str


class InclusiveClause(ListClause): name = "inclusive"     # scan (5.0)
class ExclusiveClause(ListClause): name = "exclusive"     # scan (5.0)


class RequiresClause(Clause):
    """A requirement of `#pragma omp requires` (OpenMP 5.0 2.5.1), named by its class."""


class ReverseOffloadClause(RequiresClause): name = "reverse_offload"
class UnifiedAddressClause(RequiresClause): name = "unified_address"
class UnifiedSharedMemoryClause(RequiresClause): name = "unified_shared_memory"
class DynamicAllocatorsClause(RequiresClause): name = "dynamic_allocators"


@dataclass(kw_only=True)
class AtomicDefaultMemOrderClause(RequiresClause):
    """atomic_default_mem_order(seq_cst|acq_rel|relaxed): the order of atomics without one."""
    name = "atomic_default_mem_order"
    order: str


# --------------------------------------------------------------------------
# OpenMP 5.0/5.1 clauses of masked, error, assume and simd (issue 26)
# --------------------------------------------------------------------------

class FilterClause(ExprClause): name = "filter"      # masked: the thread that runs it
class HoldsClause(ExprClause): name = "holds"        # assume: an expression that is true
class NontemporalClause(ListClause): name = "nontemporal"    # simd: a hint
class NoOpenmpClause(Clause): name = "no_openmp"
class NoOpenmpRoutinesClause(Clause): name = "no_openmp_routines"
class NoParallelismClause(Clause): name = "no_parallelism"


@dataclass(kw_only=True)
class AtClause(Clause):
    name = "at"
    kind: str                           # compilation or execution


@dataclass(kw_only=True)
class SeverityClause(Clause):
    name = "severity"
    kind: str                           # fatal or warning


@dataclass(kw_only=True)
class MessageClause(Clause):
    name = "message"
    expr: c_ast.Node                    # a string literal (at(execution): any const char *)


@dataclass(kw_only=True)
class DirectiveListClause(Clause):
    """absent(...) / contains(...) of assume: directive names."""
    names: list[str]
    name_coords: list[SourceLocation]


class AbsentClause(DirectiveListClause): name = "absent"
class ContainsClause(DirectiveListClause): name = "contains"


# OpenMP 5.1 loop transformations
@dataclass(kw_only=True)
class SizesClause(Clause):
    name = "sizes"
    sizes: list[int]                    # tile sizes, outermost loop first


@dataclass(kw_only=True)
class FullClause(Clause):
    name = "full"


@dataclass(kw_only=True)
class PartialClause(Clause):
    name = "partial"
    factor: int | None = None           # None: the implementation's choice
