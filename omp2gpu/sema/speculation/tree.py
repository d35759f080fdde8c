"""Tree helpers of the speculation package: walking a region's statements, the names they
read and write, and the C the rewrite builds (pycparser nodes)."""

from __future__ import annotations

import copy
import re

from pycparser import c_ast, c_generator

from omp2gpu.frontend.tree_walks import names_used, nodes  # noqa: F401  (nodes: the package's walk)

WRITING_UNARY = frozenset({"++", "--", "p++", "p--", "&"})
TEMP_PREFIX = "__omp2gpu_spec"       # the names the rewrite declares
# The builtin that chooses a statement's speculated form: 1 in GPU code, 0 on the host and
# the CPU device (codegen/builtins.py, codegen/openmp/gpu/device_module.py)
SPECULATING = "__omp2gpu_speculating"


def is_build_choice(node) -> bool:
    """Whether `node` is the call `__omp2gpu_speculating()`: a constant of the build."""
    return isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name == SPECULATING
_GENERATOR = c_generator.CGenerator()


def names_in_text(text: str) -> set[str]:
    """The identifiers of an index's text (as text_of writes it)."""
    return set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))


def names_in(node) -> set[str]:
    return names_used(node) if node is not None else set()


def written_names(root, loop_headers: bool = True) -> set[str]:
    """Names assigned, incremented or whose address is taken under `root` (the
    initialisers of declarations aside; without `loop_headers`, those of `for` headers);
    a store through a pointer, `p[i] = x`, does not write p."""
    headers = set() if loop_headers else {id(inner) for loop in nodes(root) if isinstance(loop, c_ast.For)
                                           for part in (loop.init, loop.next) for inner in nodes(part)}
    written = set()
    for node in nodes(root):
        if id(node) in headers:
            continue
        if isinstance(node, c_ast.Assignment):
            target = node.lvalue
        elif isinstance(node, c_ast.UnaryOp) and node.op in WRITING_UNARY:
            target = node.expr
            if node.op == "&":
                written |= root_names(target)       # it may be written through the address
                continue
        else:
            continue
        while isinstance(target, c_ast.Cast):
            target = target.expr
        if isinstance(target, c_ast.ID):
            written.add(target.name)
        elif isinstance(target, c_ast.StructRef) and target.type == ".":
            written |= root_names(target)           # a member of a struct variable
    return written


def root_names(lvalue) -> set[str]:
    while isinstance(lvalue, (c_ast.ArrayRef, c_ast.StructRef, c_ast.Cast)):
        lvalue = lvalue.name if not isinstance(lvalue, c_ast.Cast) else lvalue.expr
    return {lvalue.name} if isinstance(lvalue, c_ast.ID) else names_in(lvalue)


def unconditional_array_refs(node):
    """The elements `node` reads or writes whatever its values (not under ?:, && or ||,
    nor an address `&a[i]` or sizeof's operand, which touch none)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current is None or isinstance(current, c_ast.UnaryOp) and current.op in ("&", "sizeof"):
            continue
        if isinstance(current, c_ast.TernaryOp):
            stack.append(current.cond)
            continue
        if isinstance(current, c_ast.BinaryOp) and current.op in ("&&", "||"):
            stack.append(current.left)
            continue
        if isinstance(current, c_ast.ArrayRef):
            yield current
        stack.extend(child for _, child in current.children())


def loads_inner_first(root, unconditional: bool = False):
    """(parent, attribute, ArrayRef) for each load of an element under `root` (not what
    an assignment, increment or `&` names, nor sizeof's operand), an index's loads before
    the load through it; `unconditional`: only those evaluated whatever the values (not
    under ?:'s arms, nor the right of && or ||)."""
    found = []

    def visit(node):
        if isinstance(node, c_ast.UnaryOp) and node.op in (*WRITING_UNARY, "sizeof"):
            return                                  # a store, an address, or nothing made
        for attribute, child in node.children():
            if isinstance(node, c_ast.Assignment) and attribute == "lvalue":
                continue
            if unconditional and (isinstance(node, c_ast.TernaryOp) and attribute != "cond"
                                  or isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||")
                                  and attribute == "right"):
                continue
            visit(child)
            if isinstance(child, c_ast.ArrayRef):
                found.append((node, attribute, child))
    visit(root)
    return found


def pure_bound(node) -> bool:
    return all(isinstance(n, (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.Cast, c_ast.Typename,
                              c_ast.TypeDecl, c_ast.IdentifierType, c_ast.PtrDecl))
               or isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+", "sizeof")
               for n in nodes(node))


def is_zero(node) -> bool:
    return isinstance(node, c_ast.Constant) and node.type == "int" and node.value in ("0", "0u", "0U")


def positive_constant(node) -> bool:
    if not isinstance(node, c_ast.Constant) or node.type not in ("int", "long int", "unsigned int"):
        return False
    try:
        return int(node.value.rstrip("uUlL"), 0) > 0
    except ValueError:
        return False


def statements_of(node) -> list:
    return list(node.block_items or []) if isinstance(node, c_ast.Compound) else [node]


def copy_valid(valid: dict[str, set[str]]) -> dict[str, set[str]]:
    return {key: set(indices) for key, indices in valid.items()}


def text_of(node) -> str:
    return _GENERATOR.visit(node)


def set_child(parent, attribute: str, value) -> None:
    """Replace child `attribute` of `parent` (pycparser names list children `items[3]`)."""
    if "[" in attribute:
        name, index = attribute[:-1].split("[")
        getattr(parent, name)[int(index)] = value
    else:
        setattr(parent, attribute, value)


def unsigned_long_long(node):
    name = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["unsigned", "long", "long"]))
    return c_ast.Cast(c_ast.Typename(None, [], None, name), node)


def cast_to(ctype, node):
    name = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(str(ctype).split()))
    return c_ast.Cast(c_ast.Typename(None, [], None, name), node)


def declaration(name: str, type_words: list[str], init, coord) -> c_ast.Decl:
    declarator = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(list(type_words)))
    return c_ast.Decl(name, [], [], [], [], declarator, init, None, coord)


def temp_decl(original: c_ast.Decl, temp: str, name: str, coord) -> c_ast.Decl:
    """`T temp = name;` with the type `name` was declared with (an object the arms
    assign, so not const itself)."""
    declarator = copy.deepcopy(original.type)
    inner = declarator
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = temp
    return c_ast.Decl(temp, list(original.quals), [], [], [], declarator, c_ast.ID(name, coord), None, coord)


def constant_decl(name: str, load: c_ast.ArrayRef) -> c_ast.Decl:
    """`const typeof(p[0]) name = load;`."""
    element = c_ast.ArrayRef(copy.deepcopy(load.name), c_ast.Constant("int", "0"))
    declarator = c_ast.TypeDecl(name, ["const"], None, c_ast.TypeOf("typeof", element))
    return c_ast.Decl(name, ["const"], [], [], [], declarator, load, None, load.coord)
