"""Functions of the translation unit whose OpenMP constructs a control-loop kernel
takes in as its own, by expanding calls to them in place.

The paper (Section 3.3) serialises a parallel region in a called function,
because the callee may live in another translation unit. When it lives in this
one we can do better: a call from the kernel's sequential code is expanded
where it stands, so the callee's parallel regions become states of the control
loop and run with the whole team; a call from inside a parallel region is
expanded too, so that the callee's orphaned `for`, `barrier`, `master`,
`single` and `critical` bind to that region (its nested `parallel` is
serialised there, as in the kernel's own code).

A function qualifies when it holds such a construct, itself or through a
qualifying callee, is defined here, and can be expanded: it is not recursive
(directly or through others), not variadic or unprototyped, has no static
locals (one object whatever the call site), and its address is never taken
(a call through a pointer could not be expanded).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget, OmpMetadirective
from omp2gpu.frontend.openmp.variant_sites import variant_names
from omp2gpu.frontend.tree_walks import called_names, nodes

# Constructs a device function runs correctly by itself, in whichever thread calls it.
SELF_CONTAINED = ("atomic", "flush", "taskyield", "taskwait", "simd")


def kernel_constructs_callees(definitions: dict[str, c_ast.FuncDef],
                              file_ast: c_ast.FileAST | None = None) -> dict[str, c_ast.FuncDef]:
    """name -> definition of every function that qualifies (see the module docstring)."""
    calls = {name: _facts(definition).called for name, definition in definitions.items()}
    taken = _address_taken(file_ast if file_ast is not None else list(definitions.values()))
    recursive = _recursive(calls)
    holding = _closed_over_callers({name for name, definition in definitions.items()
                                    if _facts(definition).kinds - set(SELF_CONTAINED)}, calls)
    return {name: definitions[name] for name in holding
            if name not in taken and name not in recursive and _expandable(definitions[name])}


def calls_any(node, names) -> str | None:
    """The first of `names` that code in `node` calls, or None."""
    return next((name for name in called_names(node) if name in names), None)


def reaches_called_parallel(node, definitions: dict[str, c_ast.FuncDef], inlined) -> bool:
    """Whether code in `node` calls, directly or through other functions of the translation
    unit, a function that is not expanded in place and holds a parallel construct (a kernel
    running one serialises it, and keeps per-thread nesting depths for that)."""
    seen: set[str] = set()
    stack = list(_called_names(node))
    while stack:
        name = stack.pop()
        definition = definitions.get(name)
        if name in seen or definition is None:
            continue
        seen.add(name)
        facts = _facts(definition)
        if name not in inlined and facts.has_parallel:
            return True
        stack.extend(facts.called)
    return False


def functions_holding(definitions: dict[str, c_ast.FuncDef], kind: str) -> frozenset[str]:
    """Functions of the translation unit that hold a `kind` construct, or call one that does."""
    calls = {name: _facts(definition).called for name, definition in definitions.items()}
    return frozenset(_closed_over_callers(
        {name for name, definition in definitions.items() if kind in _facts(definition).constructs}, calls))


def _closed_over_callers(names: set[str], calls: dict[str, frozenset[str]]) -> set[str]:
    """`names` and every function that calls one of them, directly or not: a walk of the
    reversed call graph, linear in its edges."""
    callers: dict[str, list[str]] = {}
    for caller, callees in calls.items():
        for callee in callees:
            callers.setdefault(callee, []).append(caller)
    found, stack = set(names), list(names)
    while stack:
        for caller in callers.get(stack.pop(), ()):
            if caller not in found:
                found.add(caller)
                stack.append(caller)
    return found


@dataclass(frozen=True)
class _FunctionFacts:
    """What the analyses ask of one function body, gathered in one walk."""
    called: frozenset[str]           # names of the functions it calls directly
    kinds: frozenset[str]            # kinds of the OpenMP constructs in it
    constructs: frozenset[str]       # every name Directive.has answers for one of them
    has_static_local: bool

    @property
    def has_parallel(self) -> bool:
        return "parallel" in self.constructs


# One walk per definition, however many regions and analyses ask (the device build and
# every control-loop kernel did, which made the work grow with regions x code).
_FACTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _facts(definition: c_ast.FuncDef) -> _FunctionFacts:
    facts = _FACTS.get(definition)
    if facts is None:
        called, kinds, constructs = set(), set(), set()
        has_static_local = False
        for node in nodes(definition.body):
            if isinstance(node, c_ast.FuncCall):
                if isinstance(node.name, c_ast.ID):
                    called.add(node.name.name)
                    called.update(variant_names(node))      # declare variant: any may be called
            elif isinstance(node, (OmpConstruct, OmpMetadirective)):
                # A metadirective counts as every directive it may be, on some device.
                directives = [node.directive] if isinstance(node, OmpConstruct) else \
                    [d for d in node.directive.metadirective_variants if d is not None]
                for directive in directives:
                    kinds.add(directive.kind)
                    constructs.update(directive.constructs)
                    constructs.add(directive.kind)
            elif isinstance(node, c_ast.Decl) and "static" in (node.storage or []):
                has_static_local = True
        facts = _FACTS[definition] = _FunctionFacts(frozenset(called), frozenset(kinds),
                                                    frozenset(constructs), has_static_local)
    return facts


# ----------------------------------------------------------------- the analyses
def _called_names(node) -> set[str]:
    return set(called_names(node))


def _address_taken(roots) -> set[str]:
    """Names used other than as the function of a call: candidates for function pointers
    (a variable of the same name is harmless here: it only makes a function not qualify)."""
    called_ids = set()
    names = set()
    for root in roots if isinstance(roots, list) else [roots]:
        for node in nodes(root):
            if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
                called_ids.add(id(node.name))
            elif isinstance(node, c_ast.ID) and id(node) not in called_ids:
                names.add(node.name)
    return names


def _recursive(calls: dict[str, set[str]]) -> set[str]:
    """Functions that can reach themselves through calls within the translation unit."""
    found = set()
    for start in calls:
        seen, stack = set(), list(calls[start])
        while stack:
            name = stack.pop()
            if name == start:
                found.add(start)
                break
            if name in seen or name not in calls:
                continue
            seen.add(name)
            stack.extend(calls[name])
    return found


def _expandable(definition: c_ast.FuncDef) -> bool:
    declarator = definition.decl.type
    params = declarator.args.params if declarator.args else None
    if params is None or any(isinstance(p, c_ast.EllipsisParam) for p in params):
        return False                                    # unprototyped or variadic
    if definition.param_decls:
        return False                                    # K&R definition
    return not _facts(definition).has_static_local


def definitions_in(file_ast: c_ast.FileAST) -> dict[str, c_ast.FuncDef]:
    """name -> definition of every function a translation unit defines, `declare target`
    blocks included: what codegen will define, known before it starts."""
    definitions, stack = {}, list(reversed(file_ast.ext))
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.FuncDef):
            definitions.setdefault(node.decl.name, node)
        elif isinstance(node, OmpDeclareTarget):
            stack.extend(reversed(node.decls))
    return definitions
