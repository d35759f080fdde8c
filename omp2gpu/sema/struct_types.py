"""Struct and union types (C99 6.7.2.1): completed in place when their definition
is seen, laid out as gcc does (record_layout.py), and named in IR by a serial number
per LLVM context so that the same program gives the same IR every run.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field

from llvmlite import ir

from omp2gpu.sema.ctypes import CType
from omp2gpu.sema.record_layout import Field, Member, lay_out

# Per LLVM context (each module emitter has its own): struct IR names numbered in the order
# the program declares them, whatever else this process compiled before.
_STRUCT_SERIALS: "weakref.WeakKeyDictionary[ir.Context, itertools.count]" = weakref.WeakKeyDictionary()


@dataclass(eq=False)
class StructType(CType):
    """struct or union; completed in place when its definition is seen."""

    tag: str | None
    is_union: bool = False
    fields: list[Field] | None = None
    _ir: ir.Type | None = field(default=None, repr=False)
    _size: int = 0
    _align: int = 1
    const_fields: frozenset = frozenset()      # members declared const
    volatile_fields: frozenset = frozenset()   # members declared volatile
    storage: list = field(default_factory=list)   # IR body elements (record_layout.Layout)
    is_struct = True

    @property
    def is_complete(self) -> bool:
        return self.fields is not None

    @property
    def size(self):
        return self._size

    @property
    def align(self):
        return self._align

    def complete(self, members: list, context: ir.Context) -> None:
        """Lay out `members` (record_layout.Member, or (name, type) pairs) as gcc does."""
        members = [m if isinstance(m, Member) else Member(*m) for m in members]
        layout = lay_out(members, self.is_union)
        self.fields, self.storage = layout.fields, layout.storage
        self._align, self._size = layout.align, layout.size
        self._set_body(context)

    @property
    def stored_member(self) -> CType | None:
        """The member type a union's IR body holds: the most aligned, then the widest."""
        if not self.fields:
            return None
        return max(self.fields, key=lambda f: (f.ctype.align, f.ctype.size)).ctype

    def _set_body(self, context: ir.Context) -> None:
        ident = self.ir_type(context)
        if self.is_union:
            # A union is stored as its most-aligned member plus padding bytes;
            # members are reached through pointer casts.
            body, stored = [], self.stored_member
            if stored is not None:
                body.append(stored.ir_type())
            pad = self._size - (stored.size if stored is not None else 0)
            if pad:
                body.append(ir.ArrayType(ir.IntType(8), pad))
        else:
            body = [storage_ir_type(element) for element in self.storage]
        ident.set_body(*body)

    def ir_type(self, context: ir.Context | None = None):
        if self._ir is None:
            context = context or ir.global_context
            kind = "union" if self.is_union else "struct"
            # A serial number, not id(self): the same program gives the same IR every run.
            serial = next(_STRUCT_SERIALS.setdefault(context, itertools.count()))
            self._ir = context.get_identified_type(f"{kind}.{self.tag or 'anon'}.{serial}")
        return self._ir

    def field(self, name: str) -> Field | None:
        for member in self.fields or ():
            if member.name == name:
                return member
        # anonymous struct/union members
        for member in self.fields or ():
            if member.name is None and member.ctype.is_struct:
                if member.ctype.field(name) is not None:
                    return member
        return None

    def named_field(self, name: str) -> Field | None:
        """The member `name` itself, found through anonymous struct/union members."""
        member = self.field(name)
        while member is not None and member.name != name:
            member = member.ctype.field(name)
        return member

    def __str__(self):
        return f"{'union' if self.is_union else 'struct'} {self.tag or '<anonymous>'}"

    def __hash__(self):
        return id(self)


def storage_ir_type(element) -> ir.Type:
    """The IR type of one struct body element (a Field or a record_layout element)."""
    if isinstance(element, Field):
        return element.ctype.ir_type()
    if hasattr(element, "length"):                  # record_layout.ByteRun
        return ir.ArrayType(ir.IntType(8), element.length)
    return ir.ArrayType(ir.IntType(element.align * 8), 0)     # record_layout.AlignmentAnchor

