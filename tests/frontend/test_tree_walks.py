"""frontend/tree_walks.py: the syntax tree's walks visit in source order, parents first,
go past Python's recursion limit, stop below pruned nodes, and read a node's children
after the caller has seen (and maybe rewritten) it."""

from pycparser import c_ast

from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.tree_walks import called_names, holds, names_used, nodes, nodes_of

SOURCE = """
int f(int);
int g(int a) {
    int x = f(a);
    while (x) { x = f(x) + g(a); }
    return h(x);
}
"""


def body():
    return parse(SOURCE, "t.c").ext[1].body


def test_source_order_parents_first():
    tree = body()
    walked = list(nodes(tree))
    assert isinstance(walked[0], c_ast.Compound)
    assert [d.name for d in nodes_of(tree, c_ast.Decl)] == ["x"]
    assert called_names(tree) == ["f", "f", "g", "h"]
    loop = next(nodes_of(tree, c_ast.While))
    assert walked.index(loop) < walked.index(next(nodes_of(loop, c_ast.FuncCall)))


def test_none_is_an_empty_tree():
    assert list(nodes(None)) == [] and not holds(None, c_ast.ID)


def test_prune_keeps_the_node_and_skips_below():
    in_loop = [n.name.name for n in nodes_of(body(), c_ast.FuncCall, prune=lambda n: isinstance(n, c_ast.While))
               if isinstance(n.name, c_ast.ID)]
    assert in_loop == ["f", "h"]
    assert holds(body(), c_ast.While, prune=lambda n: isinstance(n, c_ast.While))


def test_holds_a_kind_or_a_test():
    assert holds(body(), c_ast.Return)
    assert not holds(body(), c_ast.For)
    assert holds(body(), lambda n: isinstance(n, c_ast.ID) and n.name == "h")
    assert not holds(body(), lambda n: isinstance(n, c_ast.ID) and n.name == "y")
    assert {"a", "x", "f", "g", "h"} <= names_used(body())


def test_deep_trees_pass_the_recursion_limit():
    expression = c_ast.ID("v")
    for _ in range(20000):
        expression = c_ast.BinaryOp("+", expression, c_ast.Constant("int", "1"))
    assert sum(1 for _ in nodes_of(expression, c_ast.Constant)) == 20000
    assert holds(expression, c_ast.ID)


def test_a_rewrite_of_the_visited_node_is_walked():
    compound = c_ast.Compound([c_ast.ID("old")])
    seen = []
    for node in nodes(compound):
        if isinstance(node, c_ast.Compound):
            node.block_items = [c_ast.ID("new")]
        elif isinstance(node, c_ast.ID):
            seen.append(node.name)
    assert seen == ["new"]
