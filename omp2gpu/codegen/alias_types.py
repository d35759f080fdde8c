"""Type-based alias information (C99 6.5p7, strict aliasing): each load and store of a
scalar object carries an LLVM TBAA tag naming its type, so LLVM knows that an `int`
store cannot change a `long` or a `double`, and keeps such values in registers across
it (a sum in a mapped `long` over an `int` array: one store after the loop, not one an
iteration). gcc assumes the same at -O2 and above; -fno-strict-aliasing
(code_rules.CodeRules.strict_aliasing) turns it off.

What C lets alias gets one type node, or no tag at all (a tagless access may alias
anything):
- an integer type and its signed/unsigned counterpart, qualified or not: one node
  (`int` and `unsigned int`, an enum and its `int`); `long` and `long long` are not
  compatible types, so two nodes, as gcc and Clang have them;
- character types: no tag (they may read any object's bytes);
- every pointer type: one node, `any pointer`, as Clang's C mode has it;
- structs, unions, arrays and complex values (whole copies): no tag;
- an object reached through a union member, the type punning C allows and gcc
  honours (`u.f`, `u.words[i]`): no tag (lvalues.py sets LValue.may_alias).
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.sema import ctypes as ct

ROOT = "omp2gpu C TBAA"
_INTEGER_NODES = {2: "short", 3: "int", 4: "long", 5: "long long"}   # by conversion rank


def type_node_name(ctype: ct.CType) -> str | None:
    """The TBAA type node of an object of `ctype`; None where an access needs no tag."""
    if ctype.is_pointer:
        return "any pointer"
    if ctype.is_integer:
        if ctype.is_bool:
            return "_Bool"
        return _INTEGER_NODES.get(ctype.rank)
    if ctype.is_floating:
        return ctype.name
    return None


class AliasTags:
    """One module's TBAA nodes: a root, `omnipotent char` under it, a node per type
    name under that, and an access tag per type (made as first used)."""

    def __init__(self, module: ir.Module):
        self.module = module
        self.tags: dict[str, object] = {}
        root = module.add_metadata([ir.MetaDataString(module, ROOT)])
        self.char = module.add_metadata([ir.MetaDataString(module, "omnipotent char"), root,
                                         ir.Constant(ir.IntType(64), 0)])

    def tag(self, ctype: ct.CType):
        name = type_node_name(ctype)
        if name is None:
            return None
        if name not in self.tags:
            zero = ir.Constant(ir.IntType(64), 0)
            node = self.module.add_metadata([ir.MetaDataString(self.module, name), self.char, zero])
            self.tags[name] = self.module.add_metadata([node, node, zero])
        return self.tags[name]

    def mark(self, access: ir.Instruction, ctype: ct.CType) -> None:
        """Tag a load or store of an object of `ctype`."""
        tag = self.tag(ctype)
        if tag is not None:
            access.set_metadata("tbaa", tag)
