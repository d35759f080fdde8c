"""`default(none)` (OpenMP 4.5 2.15.3.1): every variable referenced in the construct
must have its data-sharing attribute listed, as gcc enforces ("'s' not specified in
enclosing 'parallel'"). gcc's rules, followed here:

- exempt: variables declared inside the construct, the iteration variables of its own
  loops and of worksharing loops nested in it (predetermined private), threadprivate
  variables, names that are not objects (functions, enumerators, typedefs), operands
  of sizeof and _Alignof (not evaluated);
- const variables and file-scope (static or extern) variables are not exempt;
- a nested construct's private/lastprivate list items are its own copies (no
  reference); its other clauses (firstprivate, shared, reduction, expressions) are;
- on a combined `target ... parallel`/`teams` construct, a map or is_device_ptr clause lists
  nothing for the leaf `default` belongs to.

Checked when the directive tree is built: `kind_of(name)` is the front end's scope
lookup ("auto", "static", "extern", "threadprivate", "function", ...).
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.captures import _FreeIdentifiers, directive_expressions

_LISTED = frozenset({"private", "firstprivate", "lastprivate", "shared", "reduction", "linear",
                     "copyin", "is_device_ptr", "map"})
# the target leaf's: on a combined construct they list nothing for the parallel and teams
# leaves `default` belongs to (gcc and Clang ask for those variables in shared())
_TARGET_ONLY = frozenset({"map", "is_device_ptr"})
_OWN_COPIES = frozenset({"private", "lastprivate"})
_OBJECTS = frozenset({"auto", "static", "extern", "local static"})
_DEFAULT_LEAVES = ("parallel", "teams", "task")     # innermost first: gcc names that leaf
_LOOP_LEAVES = ("for", "simd", "distribute", "taskloop", "loop")


def check_default_none(construct: OmpConstruct, kind_of) -> None:
    directive = construct.directive
    if not any(c.name == "default" and c.kind == "none" for c in directive.clauses):
        return
    walker = _References()
    walker.scopes[-1].update(listed_names(directive) | loop_iteration_variables(construct))
    walker.walk(construct.body)
    for name, node in walker.first_use.items():
        if kind_of(name) in _OBJECTS:
            leaf = next((leaf for leaf in _DEFAULT_LEAVES if directive.has(leaf)), "parallel")
            raise LoweringError(f"'{name}' not specified in enclosing '{leaf}'", node.coord)


def listed_names(directive) -> set[str]:
    """The variables the directive's clauses give a data-sharing attribute (a combined
    construct's map and is_device_ptr lists are the target leaf's, not `default`'s leaf's)."""
    combined = directive.has("target") and any(directive.has(leaf) for leaf in _DEFAULT_LEAVES)
    return {item.name for c in directive.clauses
            if c.name in _LISTED and not (combined and c.name in _TARGET_ONLY) for item in c.items}


def loop_iteration_variables(construct) -> set[str]:
    """Iteration variables of the loops a loop construct is associated with."""
    directive = construct.directive
    if not any(directive.has(leaf) for leaf in _LOOP_LEAVES):
        return set()
    depth = next((c.count for c in directive.clauses if c.name == "collapse"), 1)
    names, loop = set(), construct.body
    for _ in range(depth):
        while isinstance(loop, c_ast.Compound) and len(loop.block_items or ()) == 1:
            loop = loop.block_items[0]
        if not isinstance(loop, c_ast.For):
            break
        if isinstance(loop.init, c_ast.Assignment) and isinstance(loop.init.lvalue, c_ast.ID):
            names.add(loop.init.lvalue.name)
        loop = loop.stmt
    return names


class _References(_FreeIdentifiers):
    """Free identifiers with the node of each one's first use; sizeof operands and a
    nested construct's own copies left out."""

    def __init__(self):
        super().__init__()
        self.first_use: dict[str, c_ast.ID] = {}

    def walk(self, node) -> None:
        if isinstance(node, c_ast.ID) and not self.declared(node.name):
            self.first_use.setdefault(node.name, node)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("sizeof", "_Alignof"):
            return
        if isinstance(node, OmpConstruct):
            directive = node.directive
            own = {item.name for c in directive.clauses if c.name in _OWN_COPIES for item in c.items}
            for clause in directive.clauses:
                if clause.name not in _OWN_COPIES:
                    for expression in directive_expressions(_Only(clause)):
                        self.walk(expression)
            self.scopes.append(own | loop_iteration_variables(node))
            self.walk(node.body)
            self.scopes.pop()
            return
        super().walk(node)


class _Only:
    """One clause seen as a directive (directive_expressions reads `clauses`)."""

    def __init__(self, clause):
        self.clauses = [clause]
