"""Lexical scopes: ordinary identifiers (objects, functions, typedefs, enum constants) and tags."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.sema.ctypes import CType, variably_modified


@dataclass
class Symbol:
    name: str
    ctype: CType
    kind: str                 # "object", "function", "typedef", "enum-constant"
    address: Any = None       # ir.Value: where the object lives (pointer), or the ir.Function
    value: int | None = None  # enum constants
    storage: str = "auto"     # "auto", "static", "extern", "global", "register"
    coord: Any = None
    defined: bool = True
    const: bool = False       # a const-qualified object: assignments to it are errors
    volatile: bool = False    # a volatile-qualified object: each access made, in order


@dataclass
class Scope:
    parent: "Scope | None" = None
    names: dict[str, Symbol] = field(default_factory=dict)
    tags: dict[str, CType] = field(default_factory=dict)
    # An outlined function's outermost scope (codegen/openmp/outline.py) captures the
    # enclosing function's locals on lookup: walks up the chain stop at it.
    captures_enclosing: ClassVar[bool] = False

    # Recursive, so that a special scope (a device view of the host's scope) can
    # override lookup for everything nested inside it.
    def lookup(self, name: str) -> Symbol | None:
        symbol = self.names.get(name)
        if symbol is not None or self.parent is None:
            return symbol
        return self.parent.lookup(name)

    def lookup_tag(self, tag: str) -> CType | None:
        found = self.tags.get(tag)
        if found is not None or self.parent is None:
            return found
        return self.parent.lookup_tag(tag)

    def declared_elsewhere(self, name: str, coord) -> bool:
        """`name` is already declared in this very scope, by another declaration than the
        one at `coord` (a scheme may emit the same declaration again, for another copy of
        a region body: that is not a redefinition)."""
        previous = self.names.get(name)
        return previous is not None and previous.coord is not None and \
            SourceLocation.of(previous.coord) != SourceLocation.of(coord)

    def variably_modified_here(self) -> frozenset[int]:
        """The identifiers of variably modified type visible here (their symbols' ids):
        no goto or case label may enter their scope from outside (C99 6.8.6.1p1, 6.8.4.2p2)."""
        found: set[int] = set()
        scope = self
        # A loop: blocks may nest a thousand deep. The outermost scope is left out: every
        # label and jump of a function sees it whole, so it never tells them apart, and it
        # holds thousands of names in a large file.
        while scope.parent is not None:
            found.update(id(symbol) for symbol in scope.names.values() if variably_modified(symbol.ctype))
            scope = scope.parent
        return frozenset(found)

    def declare(self, symbol: Symbol) -> Symbol:
        self.names[symbol.name] = symbol
        return symbol

    def child(self) -> "Scope":
        return Scope(parent=self)
