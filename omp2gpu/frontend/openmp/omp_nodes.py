"""AST nodes that the front end adds to pycparser's tree for OpenMP directives.

`OmpConstruct` replaces a `#pragma omp` and the statement it governs (or stands
alone for executable directives such as `barrier` and `target update`).
`OmpDeclareTarget` wraps the file-scope declarations between
`#pragma omp declare target` and `#pragma omp end declare target`.
Both are ordinary pycparser nodes, so `c_ast.NodeVisitor` walks into them.
The parser makes each `#pragma` a `PragmaLine`, which knows where the next token is.
"""

from __future__ import annotations

from pycparser import c_ast


class OmpConstruct(c_ast.Node):
    """A directive (omp2gpu.frontend.openmp.directives.Directive) and its associated statement."""

    __slots__ = ("directive", "body", "coord", "__weakref__")
    attr_names = ()

    def __init__(self, directive, body, coord=None):
        self.directive = directive
        self.body = body            # a statement node, or None for stand-alone directives
        self.coord = coord

    def children(self):
        return (("body", self.body),) if self.body is not None else ()

    def __iter__(self):
        if self.body is not None:
            yield self.body


class OmpDeclareTarget(c_ast.Node):
    """File-scope declarations compiled for the device as well as the host."""

    __slots__ = ("directive", "decls", "coord", "__weakref__")
    attr_names = ()

    def __init__(self, directive, decls, coord=None):
        self.directive = directive
        self.decls = list(decls)
        self.coord = coord

    def children(self):
        return tuple((f"decls[{i}]", d) for i, d in enumerate(self.decls))

    def __iter__(self):
        yield from self.decls


class PragmaLine(c_ast.Pragma):
    """A `#pragma` and where the token after it is: a directive without the statement
    it needs is reported there, as gcc does ("for statement expected before '}'")."""

    __slots__ = ("next_token_coord",)

    def __init__(self, string, coord=None, next_token_coord=None):
        super().__init__(string, coord)
        self.next_token_coord = next_token_coord


class OmpMetadirective(c_ast.Node):
    """`#pragma omp metadirective when(...: directive) ... default(directive)` and the
    statement it governs (None when every variant stands alone). Which variant applies is
    decided for each device the code is compiled for (sema/metadirectives.py); `context`
    is the constructs around it (frontend/openmp/variant_sites.py)."""

    __slots__ = ("directive", "body", "coord", "context", "__weakref__")
    attr_names = ()

    def __init__(self, directive, body, coord=None):
        self.directive = directive
        self.body = body
        self.coord = coord
        self.context = ()

    def children(self):
        return (("body", self.body),) if self.body is not None else ()

    def __iter__(self):
        if self.body is not None:
            yield self.body
