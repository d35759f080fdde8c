"""Which GPU scheme runs a target region, decided once per region with the reason
(as Clang's supportsSPMDExecutionMode does); `omp2gpu compile --explain` prints it.

- "combined": `target teams distribute parallel for [simd]` (or `target teams`
  holding only `distribute parallel for`, after read-only scalar declarations
  that every thread can make itself) in the shape of the paper's Section 4;
- "serial":   a target region with no parallelism inside: one GPU thread runs it,
  which is the OpenMP semantics of such a region (its initial thread);
- "control-loop": anything else (paper Section 3), and every region when asked for;
- "host":     when asked for (`--scheme host`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.codegen.openmp.data_sharing import clauses_named
from omp2gpu.frontend.omp_nodes import OmpConstruct
from omp2gpu.sema.captures import assigned_names, free_identifiers

COMBINED_KINDS = ("target teams distribute parallel for", "target teams distribute parallel for simd")
PARALLEL_LEAVES = ("teams", "distribute", "parallel", "for", "simd", "sections")
SCHEMES = ("auto", "combined", "control-loop", "serial", "host")


@dataclass(frozen=True)
class SchemeChoice:
    scheme: str
    reason: str


def nested_constructs(node) -> list[OmpConstruct]:
    found = []

    def walk(n):
        if isinstance(n, OmpConstruct):
            found.append(n)
        for _, child in n.children():
            walk(child)
    if node is not None:
        walk(node)
    return found


def combined_form(construct):
    """The loop directive and loop of a combined construct, or (None, None)."""
    kind = construct.directive.kind
    if kind in COMBINED_KINDS:
        return construct.directive, construct.body
    if kind == "target teams":
        split = _teams_prelude_and_loop(construct)
        if split is not None:
            return split[1].directive, split[1].body
    return None, None


def combined_prelude(construct) -> list:
    """Declarations a `target teams` region makes before its `distribute parallel for`
    that every thread may make for itself (see _spmd_prelude): the combined scheme runs
    them in each thread before the loop, as LLVM's SPMDization does; [] otherwise."""
    split = _teams_prelude_and_loop(construct) if construct.directive.kind == "target teams" else None
    return split[0] if split is not None else []


_LOOP_KINDS = ("distribute parallel for", "distribute parallel for simd")


def _teams_prelude_and_loop(construct):
    """([declarations], loop construct) of `target teams { decls; distribute parallel for }`."""
    body = construct.body
    while isinstance(body, c_ast.Compound) and len(body.block_items or ()) == 1:
        body = body.block_items[0]
    if isinstance(body, OmpConstruct):
        return ([], body) if body.directive.kind in _LOOP_KINDS else None
    if not isinstance(body, c_ast.Compound) or not body.block_items:
        return None
    *prelude, last = body.block_items
    if isinstance(last, OmpConstruct) and last.directive.kind in _LOOP_KINDS and _spmd_prelude(prelude, last):
        return prelude, last
    return None


# What an initialiser may hold: values of variables, not memory through pointers (the
# loop may write that memory while a slower thread still runs its prelude).
_PURE_EXPRESSIONS = (c_ast.Constant, c_ast.ID, c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast,
                     c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType, c_ast.PtrDecl)
_WRITING_OPERATORS = ("++", "--", "p++", "p--", "&")


def _spmd_prelude(prelude: list, loop: OmpConstruct) -> bool:
    """Whether each thread may run the declarations itself with the same effect as the team
    master running them once: scalar locals with initialisers that only read (no calls,
    no assignments, no address taken), which the loop only reads and its clauses and
    header do not name."""
    names, read = set(), set()
    for item in prelude:
        decls = item.decls if isinstance(item, c_ast.DeclList) else [item]
        for decl in decls:
            if not (isinstance(decl, c_ast.Decl) and decl.name and not decl.storage and decl.init is not None
                    and "volatile" not in decl.quals
                    and isinstance(decl.type, (c_ast.TypeDecl, c_ast.PtrDecl)) and _reads_only(decl.init)):
                return False
            names.add(decl.name)
            read |= set(free_identifiers(decl.init))
    header = [part for loop_node in _outer_loops(loop.body) for part in (loop_node.init, loop_node.cond,
                                                                            loop_node.next)]
    clause_names = {getattr(item, "name", None) for clause in loop.directive.clauses
                    for item in getattr(clause, "items", ())}
    written = assigned_names(loop.body)
    return not (names & clause_names or (names | read) & written or
                any(names & set(free_identifiers(part)) for part in header))


def _reads_only(node) -> bool:
    if node is None:
        return True
    member_of_value = isinstance(node, c_ast.StructRef) and node.type == "."     # not p->x
    if not isinstance(node, _PURE_EXPRESSIONS + (c_ast.UnaryOp,)) and not member_of_value:
        return False
    if isinstance(node, c_ast.UnaryOp) and (node.op in _WRITING_OPERATORS or node.op == "*"):
        return False
    return all(_reads_only(child) for _, child in node.children())


def _outer_loops(node) -> list:
    while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    return [node] if isinstance(node, c_ast.For) else []


def combined_ineligibility(construct) -> str | None:
    """Why the combined scheme cannot run this region (None: it can)."""
    loop_directive, loop = combined_form(construct)
    if loop_directive is None:
        return (f"'{construct.directive.kind}' is not 'target teams distribute parallel for' "
                "(or 'target teams' around only 'distribute parallel for')")
    for clause in clauses_named(loop_directive, "schedule"):
        chunk = getattr(clause.chunk, "value", None)
        if clause.kind != "static" or (clause.chunk is not None and chunk != "1"):
            return "schedule must be absent or static,1 for the grid-stride loop"
    for clause in clauses_named(loop_directive, "dist_schedule"):
        if clause.chunk is not None:
            return "dist_schedule with a chunk size needs the team master to distribute"
    for directive in (construct.directive, loop_directive):
        for clause in clauses_named(directive, "reduction"):
            if any(item.sections for item in clause.items):
                return "reductions over array sections need the control-loop scheme"
    # Atomics are single instructions for each thread; anything else needs coordination.
    inner = [c for c in nested_constructs(loop) if c.directive.kind != "atomic"]
    if inner:
        return f"the loop body holds '#pragma omp {inner[0].directive.kind}'"
    return None


def choose_scheme(construct, requested: str = "auto") -> SchemeChoice:
    if requested == "host":
        return SchemeChoice("host", "runs on the host: --scheme host")
    if requested == "control-loop":
        return SchemeChoice("control-loop", "control loop (--scheme control-loop)")
    reason = combined_ineligibility(construct)
    if requested in ("auto", "combined") and reason is None:
        prelude = " (the teams region's declarations run in every thread)" if combined_prelude(construct) else ""
        return SchemeChoice("combined", f"combined construct: SPMD grid-stride loop, no runtime calls{prelude}")
    parallel = [c for c in nested_constructs(construct.body)
                if any(c.directive.has(leaf) for leaf in PARALLEL_LEAVES)]
    own_parallelism = any(construct.directive.has(leaf) for leaf in PARALLEL_LEAVES)
    if requested in ("auto", "serial") and not parallel and not own_parallelism:
        return SchemeChoice("serial", "no parallel construct inside: one GPU thread runs the region")
    if requested == "serial":
        return SchemeChoice("host", "runs on the host: it has parallel constructs, which "
                                    "--scheme serial cannot run")
    why = reason or "it contains parallel constructs"
    return SchemeChoice("control-loop", f"control loop: {why}")


def reconsider_for_callees(region, callees, requested: str = "auto") -> None:
    """Once the whole translation unit is known: a region that calls a function whose
    OpenMP constructs the control loop takes in (inlined_callees.py) needs the control
    loop, which runs them with the team, rather than one thread or the grid-stride loop."""
    from omp2gpu.codegen.openmp.inlined_callees import calls_any
    if requested != "auto" or region.scheme not in ("serial", "combined"):
        return
    name = calls_any(region.construct.body, callees)
    if name is not None:
        region.scheme = "control-loop"
        region.reason = f"control loop: it calls '{name}', whose OpenMP constructs run as the kernel's own"
