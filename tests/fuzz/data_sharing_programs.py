"""Random, valid, deterministic OpenMP programs that exercise data sharing and mapping.

A program is a list of independent tests (one C function each). A test declares a few
variables of different storage classes and shapes, gives each a *role* (read-only input,
race-free output, reduction, lastprivate, private, firstprivate, device scratch) and a
way of reaching the device (explicit map, implicit rule, clause on an inner construct,
an enclosing `target data`), runs one construct nesting (a `Shape`) and prints every
variable whose value afterwards OpenMP 4.5 defines. gcc -fopenmp is the reference
(tests/fuzz/differential.py); data_sharing_render.py writes the C text.

What keeps a program's output defined (the generator's rules):
- no races: in a worksharing loop a thread writes only element i of an output, scalars
  are written through reduction / lastprivate; elsewhere one thread (target without
  parallel, single, master, one task per output) writes;
- nothing is read before it is written where its value is undefined on entry (map(from),
  map(alloc), private): those are written fully first;
- nothing is printed whose value afterwards is unspecified: an output mapped `to` or
  `alloc` (shared memory keeps the device's write, a discrete device not), the loop
  variable; the originals of private / firstprivate variables are printed (4.5, 2.15.3.3:
  the original is unchanged);
- tasks name the automatic scalars they write (shared / private / firstprivate): whether
  a target region's firstprivate is "shared by all implicit tasks" is unclear; unlisted
  mapped arrays follow omp2gpu's and gcc's reading (firstprivate in a target region
  outside any parallel region: codegen/openmp/host/serial_tasks.py).

Choices come from a `Chooser` (a seeded random.Random: the same seed, the same program);
`shrunk` makes a failing program smaller at the level of this model.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

T = TypeVar("T")


class Chooser(Protocol):
    def pick(self, options: Sequence[T]) -> T: ...
    def number(self, low: int, high: int) -> int: ...


class RandomChooser:
    """Choices from a seeded random.Random: the same seed gives the same program."""

    def __init__(self, seed: int):
        self._random = random.Random(seed)

    def pick(self, options):
        return self._random.choice(list(options))

    def number(self, low, high):
        return self._random.randint(low, high)


# Construct nestings. A layer is one directive; `takes` lists the clauses it accepts.
MAP, PRIVATE, FIRSTPRIVATE, SHARED, REDUCTION, LASTPRIVATE, DEFAULT = (
    "map", "private", "firstprivate", "shared", "reduction", "lastprivate", "default")
ON_TARGET = frozenset({MAP, PRIVATE, FIRSTPRIVATE})
ON_PARALLEL = frozenset({PRIVATE, FIRSTPRIVATE, SHARED, REDUCTION, DEFAULT})
ON_LOOP = frozenset({PRIVATE, FIRSTPRIVATE, LASTPRIVATE, REDUCTION})


@dataclass(frozen=True)
class Layer:
    """One directive of a nesting and the data-sharing clauses it accepts."""
    directive: str
    takes: frozenset


@dataclass(frozen=True)
class Shape:
    """A construct nesting and what its body does."""
    name: str
    body: str                  # loop (iterations shared out), seq (one writer), tasks, nowait, sections
    layers: tuple[Layer, ...]  # outermost first; layers[0] is the target construct
    loop_layer: int = -1       # the layer whose iterations are divided (loop bodies)
    # where a reduction goes: every layer that divides the loop's work among threads or
    # teams (on `teams` alone its `parallel for` threads would race); () where none can
    reduction_layers: tuple[int, ...] = ()


TASKLOOP = Layer("taskloop", frozenset({PRIVATE, FIRSTPRIVATE, LASTPRIVATE, SHARED, DEFAULT}))   # 4.5: no reduction


def _combined(words: str, *parts: frozenset) -> Layer:
    return Layer(words, frozenset().union(*parts))


SHAPES = (
    Shape("target", "seq", (Layer("target", ON_TARGET),)),
    Shape("target_teams_distribute_parallel_for", "loop",
          (_combined("target teams distribute parallel for", ON_TARGET, ON_PARALLEL, ON_LOOP),), 0, (0,)),
    Shape("target_parallel_for", "loop", (_combined("target parallel for", ON_TARGET, ON_PARALLEL, ON_LOOP),), 0,
          (0,)),
    Shape("target_teams_distribute", "loop",
          (_combined("target teams distribute", ON_TARGET, ON_PARALLEL, ON_LOOP),), 0, (0,)),
    Shape("target_then_parallel_for", "loop",
          (Layer("target", ON_TARGET), _combined("parallel for", ON_PARALLEL, ON_LOOP)), 1, (1,)),
    Shape("target_then_teams_distribute_parallel_for", "loop",
          (Layer("target", ON_TARGET), _combined("teams distribute parallel for", ON_PARALLEL, ON_LOOP)), 1, (1,)),
    Shape("target_then_teams_then_distribute_parallel_for", "loop",
          (Layer("target", ON_TARGET), Layer("teams", ON_PARALLEL),
           _combined("distribute parallel for", ON_PARALLEL - {DEFAULT}, ON_LOOP)), 2, (1, 2)),
    Shape("target_parallel_then_for", "loop",
          (_combined("target parallel", ON_TARGET, ON_PARALLEL), Layer("for", ON_LOOP)), 1, (1,)),
    Shape("target_then_taskloop", "loop", (Layer("target", ON_TARGET), TASKLOOP), 1),
    Shape("target_parallel_single_taskloop", "loop",
          (_combined("target parallel", ON_TARGET, ON_PARALLEL), Layer("single", frozenset({PRIVATE, FIRSTPRIVATE})),
           TASKLOOP), 2),
    Shape("target_parallel_single", "seq",
          (_combined("target parallel", ON_TARGET, ON_PARALLEL), Layer("single", frozenset({PRIVATE, FIRSTPRIVATE})))),
    Shape("target_parallel_master", "seq",
          (_combined("target parallel", ON_TARGET, ON_PARALLEL), Layer("master", frozenset()))),
    Shape("target_tasks", "tasks", (Layer("target", ON_TARGET),)),
    Shape("target_parallel_single_tasks", "tasks",
          (_combined("target parallel", ON_TARGET, ON_PARALLEL), Layer("single", frozenset({PRIVATE, FIRSTPRIVATE})))),
    Shape("targets_nowait", "nowait", (Layer("target", ON_TARGET),)),
    # (a target-private variable may not be firstprivate on a worksharing construct)
    Shape("target_sections", "sections", (Layer("target", ON_TARGET), Layer("sections", frozenset({PRIVATE})))),
    Shape("target_parallel_sections", "sections", (_combined("target parallel", ON_TARGET, ON_PARALLEL),
                                                   Layer("sections", frozenset({PRIVATE, FIRSTPRIVATE})))),
    Shape("host_tasks_each_a_target", "nowait", (Layer("target", ON_TARGET),)),
)
SHAPES_BY_NAME = {shape.name: shape for shape in SHAPES}

STORAGE = ("auto", "file_static", "file_extern", "block_static")
SHAPES_OF_VARIABLES = ("array", "scalar", "struct", "vla", "pointer")
ELEMENT_TYPES = ("int", "long", "double", "short", "unsigned char")
REDUCTION_OPS = {"int": "+ max min ^ |", "long": "+ max min |", "short": "+ max ^",
                 "unsigned char": "+ max |", "double": "+ max min"}


@dataclass(frozen=True)
class Variable:
    name: str
    kind: str            # array, scalar, struct, vla, pointer (to an array of `storage`)
    storage: str         # auto, file_static, file_extern, block_static
    ctype: str           # element type
    role: str            # in, out, red, last, priv, fpriv, scratch
    # to, tofrom, from, alloc (map clauses), members (a struct's members mapped one by one),
    # implicit, defaultmap, firstprivate, private, present (mapped by the data region around),
    # declare_target (a file-scope variable the device has a copy of: target update to/from)
    on_target: str
    clauses: tuple = ()  # ((layer index, clause word), ...) on constructs below the target
    task_clause: str = ""  # tasks bodies: shared, private, firstprivate, or "" (implicit)
    reduction_op: str = "+"
    constant: int = 1
    initialised: bool = False   # a static with an initialiser in its declaration

    @property
    def printed(self) -> bool:
        """Whether its value after the test is defined and printed (module docstring)."""
        return self.on_target not in ("to", "alloc") or self.role == "in"


@dataclass(frozen=True)
class Test:
    number: int
    shape: Shape
    size: int
    variables: tuple[Variable, ...]
    data_region: str = ""       # "", data, data_update, enter_exit: an enclosing data environment
    default_none: tuple = ()    # layers given default(none)
    on_host: bool = False       # `if(target: n < 0)`: every target construct falls back to the host
    schedules: tuple = ()       # ((layer index, clause text), ...): how a loop's iterations are divided

    def without(self, name: str) -> Test:
        return replace(self, variables=tuple(v for v in self.variables if v.name != name))


@dataclass(frozen=True)
class Program:
    tests: tuple[Test, ...]


ROLES = {"loop": ("out", "in", "red", "last", "priv", "fpriv", "scratch"),
         "seq": ("out", "in", "priv", "fpriv", "scratch"),
         "tasks": ("out", "in", "priv", "fpriv", "scratch"),
         "nowait": ("out", "in", "priv", "fpriv"),
         "sections": ("out", "in", "priv", "fpriv")}     # one section per output


def generate(choose: Chooser, tests: int | None = None) -> Program:
    count = tests if tests is not None else choose.number(1, 4)
    return Program(tuple(generate_test(choose, number) for number in range(count)))


def generate_test(choose: Chooser, number: int) -> Test:
    shape = choose.pick(SHAPES)
    variables = []
    for index in range(choose.number(1, 4)):
        role = "out" if index == 0 else choose.pick(_roles(shape))   # every test has an output
        variables.append(_variable(choose, shape, f"v{number}_{index}", role))
    data_region = ""
    if shape.name != "host_tasks_each_a_target":
        data_region = choose.pick(("", "", "data", "data_update", "enter_exit"))
    if data_region:
        variables = [_maybe_present(choose, v) for v in variables]
    else:
        variables = [v if v.on_target != "present" else replace(v, on_target="tofrom") for v in variables]
    default_none = tuple(index for index, layer in enumerate(shape.layers)
                         if DEFAULT in layer.takes and choose.pick((False, True)))
    # (not inside a data region nor with declare target: the host's copies are not the device's)
    on_host = not data_region and choose.pick((False, False, False, True)) \
        and not any(v.on_target == "declare_target" for v in variables)
    return Test(number, shape, choose.number(3, 34), tuple(variables), data_region, default_none, on_host,
                _schedules(choose, shape))


def _schedules(choose: Chooser, shape: Shape) -> tuple:
    """Clauses that change which thread or team runs which iterations (lastprivate and
    reductions must not care), and team and thread counts."""
    chosen = []
    for index, layer in enumerate(shape.layers):
        words = layer.directive.split()
        options = [""]
        if "for" in words:
            options += ["schedule(static, 1)", "schedule(dynamic, 3)", "schedule(guided)", "schedule(static)"]
        if "distribute" in words:
            options += ["dist_schedule(static, 2)", "dist_schedule(static)"]
        if "teams" in words:
            options += ["num_teams(3)", "num_teams(1)"]
        if "parallel" in words:
            options += ["num_threads(3)", "num_threads(1)"]
        if "taskloop" in words:
            options += ["grainsize(2)", "num_tasks(3)"]
        clause = choose.pick(options)
        if clause:
            chosen.append((index, clause))
    return tuple(chosen)


def _variable(choose: Chooser, shape: Shape, name: str, role: str) -> Variable:
    kinds = [k for k in SHAPES_OF_VARIABLES if _kind_fits(k, role, shape)]
    kind = choose.pick(kinds)
    storage = "auto" if kind == "vla" else choose.pick(STORAGE)
    ctype = choose.pick(ELEMENT_TYPES)
    on_target, clauses = _reach(choose, shape, role, kind)
    if role in ("in", "out") and storage.startswith("file_") and kind in ("array", "scalar", "struct") \
            and choose.pick((False, False, True)):
        on_target, clauses = "declare_target", ()     # the device's own copy, moved by target update
    if on_target == "defaultmap" and shape.body == "nowait":
        # concurrent regions would share every scalar; and gcc 12 makes such a scalar
        # firstprivate in the task of a target nowait
        on_target = "tofrom"
    if kind == "vla":
        on_target, clauses = _not_copied_into_a_task(shape, on_target, clauses)
    task_clause = _task_clause(choose, role, kind, storage) if shape.body == "tasks" else ""
    if on_target == "from" and not _task_writes_reach_the_target(shape, storage, clauses, task_clause):
        on_target = "tofrom"     # the device copy is never written: a `from` would bring back garbage
    op = choose.pick(REDUCTION_OPS[ctype].split())
    initialised = storage != "auto" and kind in ("array", "scalar") and choose.pick((False, True))
    return Variable(name, kind, storage, ctype, role, on_target, clauses, task_clause, op,
                    choose.number(1, 9), initialised)


def _task_writes_reach_the_target(shape: Shape, storage: str, clauses: tuple, task_clause: str) -> bool:
    """Whether the writes of tasks made in a target region outside any parallel region
    reach the region's copy of an automatic variable: only when the task construct lists
    it shared (unlisted, it is firstprivate there, as gcc and omp2gpu read it)."""
    if storage != "auto":
        return True
    if shape.name == "target_tasks":
        return task_clause == SHARED
    if shape.name == "target_then_taskloop":
        return (shape.loop_layer, SHARED) in clauses
    return True


def _not_copied_into_a_task(shape: Shape, on_target: str, clauses: tuple) -> tuple[str, tuple]:
    """A VLA is never copied into a task (nor a target task, nor a taskloop's): omp2gpu
    says, located, that it cannot (a campaign reports it; common enough to avoid), and
    gcc 12 reads garbage for one firstprivate on a target inside a task."""
    if on_target == "firstprivate" and shape.body == "nowait":
        on_target = "to"
    clauses = tuple((layer, SHARED if shape.layers[layer] is TASKLOOP else word) for layer, word in clauses)
    if not clauses and shape.layers[shape.loop_layer] is TASKLOOP:
        clauses = ((shape.loop_layer, SHARED),)
    return on_target, clauses


def _kind_fits(kind: str, role: str, shape: Shape) -> bool:
    if role in ("red", "last"):
        return kind == "scalar"
    if role == "scratch":
        return kind in ("array", "vla")
    if role == "out" and shape.body == "loop":
        return kind != "scalar"          # a loop writes element i; scalars go by reduction
    if role in ("priv", "fpriv"):
        return kind in ("scalar", "array", "struct")
    return True


def _reach(choose: Chooser, shape: Shape, role: str, kind: str) -> tuple[str, tuple]:
    """How the variable gets to the construct: the target's clause (or implicit rule), and
    clauses on inner layers, ((layer index, clause word), ...)."""
    inner = list(range(1, len(shape.layers)))
    if role == "in":
        on_target = choose.pick(("to", "tofrom", "implicit", "firstprivate", "present")
                                + (("members",) if kind == "struct" else ())
                                if kind != "pointer" else ("to", "tofrom", "present"))
        # a worksharing construct's firstprivate must name what the parallel region shares
        words = (FIRSTPRIVATE, SHARED) if on_target != "firstprivate" else (SHARED,)
        return on_target, _inner_clause(choose, shape, inner, words)
    if role == "out":
        if kind == "pointer":
            return choose.pick(("tofrom", "from", "present")), ()
        options = ("tofrom", "from", "present") + (("defaultmap",) if kind == "scalar" else ("implicit",)) \
            + (("members",) if kind == "struct" else ())
        on_target = choose.pick(options)
        if on_target == "from" and kind == "struct" and shape.body == "loop":
            on_target = "tofrom"         # a loop writes the elements, not the other member
        return on_target, _inner_clause(choose, shape, inner, (SHARED,))
    if role in ("red", "last"):
        word = REDUCTION if role == "red" else LASTPRIVATE
        return choose.pick(("tofrom", "present", "defaultmap")), _loop_clauses(shape, word)
    if role == "scratch":
        how = choose.pick(("alloc", "private", "implicit") if shape.body == "loop" else ("alloc", "private"))
        if how == "private" and shape.loop_layer > 0:
            return "implicit", ((shape.loop_layer, PRIVATE),)   # private to the thread of each iteration
        return how, ()
    if role == "fpriv" and kind == "scalar" and choose.pick((False, True)):
        return "implicit", ()            # a scalar the target does not map is firstprivate
    word = PRIVATE if role == "priv" else FIRSTPRIVATE
    if shape.body == "loop" and role == "priv":
        layers = [shape.loop_layer]      # written in each iteration: private to the thread running it
    elif shape.body in ("loop", "seq", "sections"):
        layers = [i for i, layer in enumerate(shape.layers) if word in layer.takes]
    else:
        layers = [0]                     # tasks name it themselves; each nowait target has its own
    layer = choose.pick(layers)
    return (word, ()) if layer == 0 else ("implicit", ((layer, word),))


def _loop_clauses(shape: Shape, word: str) -> tuple:
    """Where a reduction or lastprivate variable is listed."""
    layers = shape.reduction_layers if word == REDUCTION else (shape.loop_layer,)
    return tuple((layer, word) for layer in layers)


def _roles(shape: Shape) -> tuple[str, ...]:
    """The roles a variable can play in `shape` (no reduction where no layer takes one)."""
    return tuple(role for role in ROLES[shape.body] if role != "red" or shape.reduction_layers)


def _inner_clause(choose: Chooser, shape: Shape, inner: list[int], words: tuple[str, ...]) -> tuple:
    options = [(i, w) for i in inner for w in words if w in shape.layers[i].takes]
    if not options or choose.pick((False, True)) is False:
        return ()
    return (choose.pick(options),)


def _task_clause(choose: Chooser, role: str, kind: str, storage: str) -> str:
    """A task's clause for the variable: automatic variables it writes are always named."""
    if role in ("priv", "fpriv"):
        return PRIVATE if role == "priv" else FIRSTPRIVATE
    if kind == "vla":
        return SHARED        # _not_copied_into_a_task
    if role == "in":
        return choose.pick(("", FIRSTPRIVATE, SHARED))
    static = storage != "auto"
    return choose.pick(("", SHARED) if static or kind != "scalar" else (SHARED,))


def _maybe_present(choose: Chooser, variable: Variable) -> Variable:
    """With a data region around the construct, mapped variables may be mapped by it."""
    if variable.on_target in ("to", "tofrom", "from") and choose.pick((False, True)):
        return replace(variable, on_target="present")
    return variable


def shrunk(program: Program, still_fails) -> Program:
    """A smaller program that still fails: tests dropped, then variables (keeping each
    test's output), while `still_fails(program)` stays true."""
    tests = list(program.tests)
    for test in list(tests):
        trial = [t for t in tests if t is not test]
        if trial and still_fails(Program(tuple(trial))):
            tests = trial
    for position in range(len(tests)):
        for variable in tests[position].variables[1:]:
            trial = list(tests)
            trial[position] = tests[position].without(variable.name)
            if still_fails(Program(tuple(trial))):
                tests = trial
    return Program(tuple(tests))
