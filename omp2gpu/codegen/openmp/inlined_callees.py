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

from pycparser import c_ast

from omp2gpu.frontend.omp_nodes import OmpConstruct

# Constructs a device function runs correctly by itself, in whichever thread calls it.
SELF_CONTAINED = ("atomic", "flush", "taskyield", "taskwait", "simd")


def kernel_constructs_callees(definitions: dict[str, c_ast.FuncDef],
                              file_ast: c_ast.FileAST | None = None) -> dict[str, c_ast.FuncDef]:
    """name -> definition of every function that qualifies (see the module docstring)."""
    calls = {name: _called_names(definition.body) for name, definition in definitions.items()}
    taken = _address_taken(file_ast if file_ast is not None else list(definitions.values()))
    recursive = _recursive(calls)
    holding = {name for name, definition in definitions.items() if _holds_constructs(definition.body)}
    changed = True
    while changed:                          # through callees, to a fixed point
        changed = False
        for name, callees in calls.items():
            if name not in holding and callees & holding:
                holding.add(name)
                changed = True
    return {name: definitions[name] for name in holding
            if name not in taken and name not in recursive and _expandable(definitions[name])}


def calls_any(node, names) -> str | None:
    """The first of `names` that code in `node` calls, or None."""
    return next((name for name in _called_names_in_order(node) if name in names), None)


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
        if name not in inlined and any(isinstance(n, OmpConstruct) and n.directive.has("parallel")
                                       for n in _walk(definition.body)):
            return True
        stack.extend(_called_names(definition.body))
    return False


def functions_holding(definitions: dict[str, c_ast.FuncDef], kind: str) -> frozenset[str]:
    """Functions of the translation unit that hold a `kind` construct, or call one that does."""
    holding = {name for name, definition in definitions.items()
               if any(isinstance(n, OmpConstruct) and n.directive.has(kind) for n in _walk(definition.body))}
    grew = True
    while grew:
        grew = False
        for name, definition in definitions.items():
            if name not in holding and holding & set(_called_names(definition.body)):
                holding.add(name)
                grew = True
    return frozenset(holding)


# ----------------------------------------------------------------- the analyses
def _walk(node):
    """node and everything under it, in source order. An explicit stack: a recursive
    generator costs O(depth) per node, quadratic in a 10,000-term sum."""
    stack = [node] if node is not None else []
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed([child for _, child in node.children()]))


def _called_names_in_order(node) -> list[str]:
    return [n.name.name for n in _walk(node) if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID)]


def _called_names(node) -> set[str]:
    return set(_called_names_in_order(node))


def _holds_constructs(body) -> bool:
    return any(isinstance(n, OmpConstruct) and n.directive.kind not in SELF_CONTAINED for n in _walk(body))


def _address_taken(roots) -> set[str]:
    """Names used other than as the function of a call: candidates for function pointers
    (a variable of the same name is harmless here: it only makes a function not qualify)."""
    called_ids = set()
    names = set()
    for root in roots if isinstance(roots, list) else [roots]:
        for node in _walk(root):
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
    return not any(isinstance(n, c_ast.Decl) and "static" in (n.storage or []) for n in _walk(definition.body))
