"""Loops with `reduction(inscan, op: list)` and a `#pragma omp scan` in their body
(OpenMP 5.0 2.9.6, 2.19.5.4), rewritten into constructs every scheme compiles
(worksharing loops and barriers), right after the directives are checked.

    #pragma omp parallel for reduction(inscan, +: x)
    for (i = 0; i < n; i++) { x += a[i];  #pragma omp scan inclusive(x)  b[i] = x; }

The statements before the scan directive and those after are the two phases: the
input phase updates x, the scan phase reads the prefix reduction (inclusive: of
iterations 0..i; exclusive: of 0..i-1, the phases then swapped in the body).

A `simd` loop without `for` runs in one thread, in order, so there the rewrite is
only dropping the scan directive and the reduction: x, shared, holds the prefix
where each phase runs. A loop with `for` becomes, in every thread of the team:

    count this thread's iterations        #pragma omp for schedule(static) nowait
    input phases, x a thread-local        #pragma omp for schedule(static) nowait
      accumulator starting at the identity; after each, its value is kept in a
      per-iteration buffer (the thread's, malloc'd)
    the threads in turn, between barriers, take x as their prefix and combine
      their total into it (so x ends as the whole reduction)
    the scan phases, x = that prefix     #pragma omp for schedule(static) nowait
      combined with the buffer's value (of the iteration, or the one before:
      exclusive); a barrier.

Both phases run once per iteration, as gcc runs them. The turns cost a barrier a
thread, but need no memory the team shares other than x (the GPU's control loop has
no copyprivate to share a buffer with), and combine the totals in order.
schedule(static) without a chunk gives each thread one block of consecutive
iterations, the blocks in thread order, and the same block in each of the loops
(OpenMP 4.5 2.7.1): that makes the threads' prefix the prefix of the iterations.
min and max start from x's original value rather than an identity (both are
idempotent). `private` and `firstprivate` variables become the team code's own
(declared in it), so a value an input phase leaves in one is still there for the
scan phase.
Not supported, each a located error: user-defined reductions, array sections,
`lastprivate`, `linear`, `ordered`, schedules other than plain static.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, LoweringError
from omp2gpu.frontend.openmp.clause_parsers import REDUCTION_OPS
from omp2gpu.frontend.openmp.clause_types import (
    CollapseClause,
    InclusiveClause,
    MapClause,
    NowaitClause,
    ReductionClause,
    ScheduleClause,
    SharedClause,
)
from omp2gpu.frontend.openmp.directive_node import Directive
from omp2gpu.frontend.openmp.directive_table import allowed_clauses
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.tree_walks import nodes

_PREFIX = "__omp2gpu_scan"
# The combiner of each reduction operator, as C; `-` combines partial results with +.
_COMBINE = {"+": "({a} + {b})", "-": "({a} + {b})", "*": "({a} * {b})", "&": "({a} & {b})",
            "|": "({a} | {b})", "^": "({a} ^ {b})", "&&": "({a} && {b})", "||": "({a} || {b})",
            "max": "({a} > {b} ? {a} : {b})", "min": "({a} < {b} ? {a} : {b})"}
_IDENTITY = {"+": "0", "-": "0", "*": "1", "&": "~({t})0", "|": "0", "^": "0", "&&": "1",
             "||": "0", "max": "{x}", "min": "{x}"}
_NOT_WITH_INSCAN = ("lastprivate", "linear", "ordered")
_LOOP_LEAVES = ("for", "simd")


def lower_scans(ast: c_ast.FileAST, strict: bool = True) -> None:
    """Rewrite every loop with an inscan reduction in place; a scan directive left
    anywhere else is an error. The scan directive's place is checked as gcc checks it,
    once the file is read (LoweringError); without `strict` (error_order compiling
    a prefix of the file, which may cut a loop's body) a misplaced scan directive
    and its loop's inscan reductions are dropped instead."""
    def lowered(node):
        try:
            return _lowered(node)
        except LoweringError:
            if strict:
                raise
            return _dropped(node)
    stack = [ast]
    while stack:
        node = stack.pop()
        for slot in getattr(node, "__slots__", ()):
            value = getattr(node, slot, None)
            if isinstance(value, list):
                value[:] = [lowered(child) for child in value]
                stack.extend(child for child in value if isinstance(child, c_ast.Node))
            elif isinstance(value, c_ast.Node) and slot != "coord":
                replacement = lowered(value)
                setattr(node, slot, replacement)
                stack.append(replacement)


def _lowered(node):
    if not isinstance(node, OmpConstruct):
        return node
    if node.directive.kind == "scan":
        raise LoweringError("'#pragma omp scan' must be directly in the body of a loop with a "
                           "'reduction(inscan, ...)' clause", node.coord)
    if any(c.modifier == "inscan" for c in node.directive.find(ReductionClause)):
        return InscanLoop(node).lowered()
    return node


class InscanLoop:
    """One loop construct with inscan reductions, split into what the rewrite needs."""

    def __init__(self, construct: OmpConstruct):
        self.construct = construct
        self.directive = directive = construct.directive
        self.coord = construct.coord
        self.items = [(clause.op, item) for clause in directive.find(ReductionClause)
                      for item in clause.items]
        for op, item in self.items:
            if op not in REDUCTION_OPS:
                raise CompileError(f"a user-defined reduction ('{op}') with the 'inscan' modifier "
                                   "is not supported", item.coord)
            if not item.is_variable:
                raise CompileError("only variables (no array sections or members) are supported "
                                   "in an 'inscan' reduction", item.coord)
        collapse = directive.first(CollapseClause)
        self.nest = _loop_nest(construct.body, collapse.count if collapse else 1, self.coord)
        body = self.nest[-1].stmt
        scans = [i for i, s in enumerate(body.block_items or ()) if _is_scan(s)] \
            if isinstance(body, c_ast.Compound) else []
        if len(scans) > 1:
            raise LoweringError("only one '#pragma omp scan' may be in the body of a loop with a "
                                "'reduction(inscan, ...)' clause", body.block_items[scans[1]].coord)
        if len(scans) != 1:
            raise LoweringError("a loop with a 'reduction(inscan, ...)' clause needs one '#pragma omp "
                               "scan' directly in its body", getattr(body, "coord", None) or self.coord)
        at = scans[0]
        self.scan = body.block_items[at]
        before, after = body.block_items[:at], body.block_items[at + 1:]
        self.inclusive = bool(self.scan.directive.find(InclusiveClause))
        self.input, self.output = (before, after) if self.inclusive else (after, before)
        listed = {item.name for clause in self.scan.directive.clauses for item in clause.items}
        if listed != {item.name for _, item in self.items}:
            raise CompileError("the list of '#pragma omp scan' must name the loop's inscan "
                               "reduction items", self.scan.coord)
        self.body = body

    def lowered(self):
        if "for" not in self.directive.constructs:
            return self._in_order()
        return TeamScan(self).lowered()

    def _in_order(self) -> OmpConstruct:
        """A simd loop: run as written, without the scan directive, x shared."""
        self.body.block_items = [s for s in self.body.block_items if s is not self.scan]
        clauses = [c for c in self.directive.clauses if not isinstance(c, ReductionClause)]
        if "target" in self.directive.constructs:
            clauses += self._mapped()
        return OmpConstruct(replace(self.directive, clauses=clauses), self.construct.body, self.coord)

    def _mapped(self) -> list:
        """A reduction on a combined target construct maps its items tofrom (5.0)."""
        mapped = {item.name for clause in self.directive.find(MapClause) for item in clause.items}
        items = [item for _, item in self.items if item.name not in mapped]
        return [MapClause(coord=self.coord, items=items, map_type="tofrom", map_type_explicit=True)] \
            if items else []


class TeamScan:
    """The rewrite of a worksharing loop with inscan reductions (the module's docstring)."""

    def __init__(self, loop: InscanLoop):
        self.loop = loop
        self.coord = loop.coord
        # Names from the loop's place: the same on every compilation (reproducible builds).
        where = self.coord
        self.prefix = f"{_PREFIX}_{getattr(where, 'line', 0)}_{getattr(where, 'column', 0)}_"
        self.outer, self.private, self.firstprivate = [], [], []
        self._route_clauses()

    def _route_clauses(self) -> None:
        directive = self.loop.directive
        leaves = tuple(leaf for leaf in directive.constructs if leaf not in _LOOP_LEAVES)
        self.leaves = leaves
        for clause in directive.clauses:
            name = clause.name
            if name in _NOT_WITH_INSCAN:
                raise CompileError(f"'{name}' with an 'inscan' reduction is not supported",
                                   clause.coord)
            if isinstance(clause, ScheduleClause) and (clause.kind != "static" or clause.chunk
                                                       or clause.modifiers):
                raise CompileError("a loop with an 'inscan' reduction supports only "
                                   "'schedule(static)'", clause.coord)
            if name == "private":
                self.private += clause.items
            elif name == "firstprivate":
                self.firstprivate += clause.items
            elif name not in ("reduction", "schedule", "collapse", "order") and leaves \
                    and (name != "nowait" or "target" in leaves) and name in allowed_clauses(leaves):
                self.outer.append(clause)
        for item in self.firstprivate:
            if not item.is_variable:
                raise CompileError("only variables are supported in 'firstprivate' with an "
                                   "'inscan' reduction", item.coord)

    def lowered(self):
        team = self._team_code()
        if not self.leaves:
            return team
        clauses = list(self.outer)
        items = [item for _, item in self.loop.items]
        if "parallel" in self.leaves:
            clauses.append(SharedClause(coord=self.coord, items=items + self.private + self.firstprivate))
        if "target" in self.leaves:
            clauses += self.loop._mapped()
        directive = Directive(" ".join(self.leaves), self.leaves, clauses, self.loop.directive.coord,
                              text=self.loop.directive.text)
        return OmpConstruct(directive, c_ast.Compound([team], self.coord), self.coord)

    # ----------------------------------------------------------------- the team's code
    def _team_code(self) -> c_ast.Compound:
        function = parse(self._template(), f"<{self.prefix}>").ext[-1]
        team = function.body.block_items[0]
        _set_coord(team, self.coord)
        self._fill(team)
        return team

    def _names(self, index: int) -> dict[str, str]:
        """The C spellings the template needs for the index-th reduction item."""
        op, item = self.loop.items[index]
        p, k = f"{self.prefix}{index}_", self.prefix + "k"
        names = {"x": item.name, "t": f"__typeof__({item.name})", "v": p + "v", "acc": p + "acc",
                 "before": p + "before", "k": k, "n": self.prefix + "n"}
        names["init"] = _IDENTITY[op].format(t=names["t"], x=item.name)

        def combine(a, b):
            return _COMBINE[op].format(a=a, b=b)
        names["total"] = combine(names["x"], names["acc"])
        this, previous = f"{names['v']}[{k}]", f"{names['v']}[{k} - 1]"
        names["prefix"] = combine(names["before"], this) if self.loop.inclusive else \
            f"({k} ? {combine(names['before'], previous)} : {names['before']})"
        return names

    def _template(self) -> str:
        p = self.prefix
        each = [self._names(i) for i in range(len(self.loop.items))]

        def lines(fmt: str) -> str:
            return "\n    ".join(fmt.format(**names) for names in each)
        shadows = " ".join(f"__typeof__({v.name}) {p}fp_{v.name} = {v.name};" for v in self.firstprivate)
        inner = " ".join([f"__typeof__({v.name}) {v.name};" for v in self.private]
                         + [f"__typeof__({v.name}) {v.name} = {p}fp_{v.name};" for v in self.firstprivate])
        n, k, j = p + "n", p + "k", p + "turn"
        return f"""
void {p}template(void) {{
{{
  extern void *malloc(unsigned long);
  extern void free(void *);
  extern int omp_get_thread_num(void);
  extern int omp_get_num_threads(void);
  {shadows}
  {{
    {inner}
    long {n} = 0, {k} = 0;
    {lines("{t} *{v}; {t} {acc} = {init}; {t} {before};")}
    {p}loop();
    {{ {n}++; }}
    {lines("{v} = ({t} *) malloc(sizeof({t}) * ({n} + 1));")}
    {p}loop();
    {{
      {{
        {lines("{t} {x} = {acc};")}
        do {p}input(); while (0);
        {lines("{acc} = {x};")}
      }}
      {lines("{v}[{k}] = {acc};")}
      {k}++;
    }}
    for (int {j} = 0; {j} < omp_get_num_threads(); {j}++) {{
      {p}barrier();
      if ({j} == omp_get_thread_num()) {{
        {lines("{before} = {x}; {x} = {total};")}
      }}
    }}
    {k} = 0;
    {p}loop();
    {{
      {lines("{t} {x} = {prefix};")}
      {k}++;
      do {p}output(); while (0);
    }}
    {lines("free({v});")}
    {p}barrier();
  }}
}}
}}
"""

    def _fill(self, team: c_ast.Compound) -> None:
        """Replace the template's placeholders: loop(); {body} -> the loop nest with that
        body; barrier(); input() and output(): the statements of the input and of the
        scan phase."""
        phases = {"input": self.loop.input, "output": self.loop.output}
        stack = [team]
        while stack:
            node = stack.pop()
            if isinstance(node, c_ast.Compound):
                node.block_items = self._statements(node.block_items or [])
            elif isinstance(node, c_ast.DoWhile) and self._placeholder(node.stmt) in phases:
                node.stmt = c_ast.Compound(list(phases[self._placeholder(node.stmt)]), self.coord)
                continue
            # The phases' statements, the only ones of the program here, are not entered.
            stack.extend(child for _, child in node.children())

    def _statements(self, items: list) -> list:
        out, i = [], 0
        while i < len(items):
            kind = self._placeholder(items[i])
            if kind == "barrier":
                out.append(self._construct("barrier", [], None))
            elif kind == "loop":
                i += 1
                out.append(self._construct("for", self._loop_clauses(), self._nest(items[i])))
            else:
                out.append(items[i])
            i += 1
        return out

    def _placeholder(self, node) -> str | None:
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) \
                and node.name.name.startswith(self.prefix):
            return node.name.name[len(self.prefix):]
        return None

    def _construct(self, kind: str, clauses: list, body) -> OmpConstruct:
        return OmpConstruct(Directive(kind, (kind,), clauses, self.coord), body, self.coord)

    def _loop_clauses(self) -> list:
        clauses = [ScheduleClause(coord=self.coord, kind="static"), NowaitClause(coord=self.coord)]
        collapse = self.loop.directive.first(CollapseClause)
        return clauses + ([collapse] if collapse else [])

    def _nest(self, body) -> c_ast.For:
        """A copy of the loop nest's headers around `body`."""
        innermost = self.loop.nest[-1]
        original, innermost.stmt = innermost.stmt, None
        try:
            nest = copy.deepcopy(self.loop.nest[0])
        finally:
            innermost.stmt = original
        inner = nest
        while inner.stmt is not None:
            inner = inner.stmt.block_items[0] if isinstance(inner.stmt, c_ast.Compound) else inner.stmt
        inner.stmt = body
        return nest


def _dropped(node):
    """A misplaced scan directive, or a loop whose scan directive is missing, left out."""
    if node.directive.kind == "scan":
        return c_ast.EmptyStatement(node.coord)
    clauses = [c for c in node.directive.clauses if not isinstance(c, ReductionClause)]
    return OmpConstruct(replace(node.directive, clauses=clauses), node.body, node.coord)


def _is_scan(node) -> bool:
    return isinstance(node, OmpConstruct) and node.directive.kind == "scan"


def _loop_nest(statement, depth: int, coord) -> list[c_ast.For]:
    loops, node = [], statement
    for _ in range(depth):
        while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
            node = node.block_items[0]
        if not isinstance(node, c_ast.For):
            raise CompileError(f"collapse({depth}) needs {depth} perfectly nested loops",
                               getattr(node, "coord", None) or coord)
        loops.append(node)
        node = node.stmt
    return loops


def _set_coord(root, coord) -> None:
    for node in nodes(root):
        node.coord = coord
