"""-g: DWARF debug information for the code codegen emits (docs/debugging.md).

One `DebugInfo` per module being emitted (the host module, the CPU device's). It
makes the compile unit, a DISubprogram for every function a FunctionEmitter fills
(C functions, outlined parallel regions, work-group functions), locations for
statements (FunctionEmitter.at_statement sets its builder's `debug_metadata`, so
every instruction of a statement carries its line) and DILocalVariables with
llvm.dbg.declare for parameters, locals and a region's captures.

Every variable and location lives in its function's subprogram scope (no lexical
blocks: a block's variables are the function's, as in a debugger at -O0 they are
in scope anyway). Before the module is printed, `finish` makes what schemes emitted
with other builders valid for LLVM's verifier: a location of another function's
subprogram is moved to this one's, a call without a location gets the function's
line, and a function without a subprogram carries no locations.
"""

from __future__ import annotations

import os

from llvmlite import ir

from omp2gpu.codegen.ir_types import I32
from omp2gpu.sema import ctypes as ct

DWARF_VERSION = 4             # read by gdb, valgrind, compute-sanitizer and cuda-gdb alike
DEBUG_INFO_VERSION = 3        # LLVM's metadata format (what Clang writes)


def _token(text: str) -> ir.DIToken:
    return ir.DIToken(text)


# One object per token, so that llvmlite's cache of equal metadata finds equal nodes.
_TOKENS = {name: _token(name) for name in (
    "DW_LANG_C99", "FullDebug", "DebugDirectivesOnly", "DW_TAG_pointer_type", "DW_TAG_array_type",
    "DW_TAG_structure_type", "DW_TAG_union_type", "DW_TAG_member", "DW_ATE_signed", "DW_ATE_unsigned",
    "DW_ATE_signed_char", "DW_ATE_unsigned_char", "DW_ATE_boolean", "DW_ATE_float")}


class DebugInfo:
    """The debug metadata of one llvmlite module."""

    def __init__(self, module: ir.Module, source: str, optimised: bool, lines_only: bool = False):
        self.module = module
        self.source = source
        self.optimised = optimised
        # The GPU's: `.loc` directives in the PTX and nothing else (nvcc's -lineinfo), which
        # compute-sanitizer and ncu show; no variables.
        self.lines_only = lines_only
        self.directory = os.getcwd()
        self.files: dict[str, ir.DIValue] = {}
        self.types: dict = {}
        self.global_variables: list = []   # DIGlobalVariableExpressions, the unit's `globals`
        self.declared: set = set()         # (DILocalVariable, function) given their llvm.dbg.declare
        self.unit = _distinct(module, "DICompileUnit", {
            "language": _TOKENS["DW_LANG_C99"], "file": self.file(source), "producer": "omp2gpu",
            "isOptimized": optimised, "runtimeVersion": 0,
            "emissionKind": _TOKENS["DebugDirectivesOnly" if lines_only else "FullDebug"],
        })
        module.add_named_metadata("llvm.dbg.cu", self.unit)
        module.add_named_metadata("llvm.module.flags", [ir.Constant(I32, 7), "Dwarf Version",
                                                        ir.Constant(I32, DWARF_VERSION)])
        module.add_named_metadata("llvm.module.flags", [ir.Constant(I32, 2), "Debug Info Version",
                                                        ir.Constant(I32, DEBUG_INFO_VERSION)])

    def for_module(self, module: ir.Module, lines_only: bool = False) -> "DebugInfo":
        """The same compilation's debug information for another module (a device's)."""
        return DebugInfo(module, self.source, self.optimised, lines_only)

    # ----------------------------------------------------------------- files, functions, lines
    def file(self, name: str | None) -> ir.DIValue:
        name = name or self.source
        if name not in self.files:
            directory, base = os.path.split(name)
            self.files[name] = self.module.add_debug_info("DIFile", {
                "filename": base, "directory": os.path.join(self.directory, directory)})
        return self.files[name]

    def subprogram(self, function: ir.Function, coord, name: str | None = None) -> ir.DIValue:
        """`function`'s DISubprogram (made on the first call), its line `coord`'s."""
        existing = function.metadata.get("dbg")
        if existing is not None:
            return existing
        file = self.file(getattr(coord, "file", None))
        line = getattr(coord, "line", 0) or 0
        subroutine = self.module.add_debug_info("DISubroutineType", {"types": self.module.add_metadata([None])})
        node = _distinct(self.module, "DISubprogram", {
            "name": name or function.name, "linkageName": function.name, "scope": file, "file": file,
            "line": line, "scopeLine": line, "type": subroutine, "isLocal": function.linkage in ("internal", "private"),
            "isDefinition": True, "isOptimized": self.optimised, "unit": self.unit,
        })
        function.set_metadata("dbg", node)
        return node

    def lexical_block(self, scope: ir.DIValue, coord) -> ir.DIValue:
        """A C block inside `scope` (a subprogram or block), starting at `coord`."""
        return _distinct(self.module, "DILexicalBlock", {
            "scope": scope, "file": self.file(getattr(coord, "file", None)),
            "line": getattr(coord, "line", 0) or 0, "column": getattr(coord, "column", 0) or 0})

    def location(self, scope: ir.DIValue, coord) -> ir.DIValue:
        """A DILocation of `coord` in `scope` (a subprogram or block; through a
        DILexicalBlockFile where `coord` is in another file than the scope: a header's
        inline function expanded here)."""
        line, column = getattr(coord, "line", 0) or 0, getattr(coord, "column", 0) or 0
        return self._location(scope, line, column, getattr(coord, "file", None))

    def _location(self, scope, line: int, column: int, file_name) -> ir.DIValue:
        if file_name is not None and self.file(file_name) is not _operand(scope, "file"):
            scope = self.module.add_debug_info("DILexicalBlockFile", {
                "scope": scope, "file": self.file(file_name), "discriminator": 0})
        return self.module.add_debug_info("DILocation", {"line": line, "column": column, "scope": scope})

    # ----------------------------------------------------------------- variables
    def declare_variable(self, builder: ir.IRBuilder, scope, name: str, ctype: ct.CType,
                         address: ir.Value, coord, argument: int = 0, lengths: dict | None = None):
        """llvm.dbg.declare of the C object `name` at `address` in `scope` (a subprogram or
        block; argument: its parameter number, from 1). A type that cannot be described yet
        is left undeclared. Returns the DILocalVariable, or None."""
        if self.lines_only or not isinstance(address.type, ir.PointerType):
            return None
        di_type = self.type(ctype, lengths)
        if di_type is None:
            return None
        fields = {"name": name, "scope": scope, "file": self.file(getattr(coord, "file", None)),
                  "line": getattr(coord, "line", 0) or 0, "type": di_type}
        if argument:
            fields["arg"] = argument
        variable = self.module.add_debug_info("DILocalVariable", fields)
        key = (variable, builder.function)     # once: at its declaration, or its first use
        if key in self.declared:
            return variable
        self.declared.add(key)
        expression = self.module.add_debug_info("DIExpression", {})
        saved = builder.debug_metadata
        builder.debug_metadata = self.location(scope, coord)
        try:
            builder.call(self.declare_function(), [address, variable, expression])
        finally:
            builder.debug_metadata = saved
        return variable

    def describe_globals(self, symbols) -> None:
        """The file-scope objects (codegen's Symbols) as DIGlobalVariables of the unit."""
        for symbol in symbols:
            self.describe_global(symbol, self.unit)

    def describe_global(self, symbol, scope) -> None:
        """An object with static storage as a DIGlobalVariable of `scope` (the unit; a
        static local's function), listed in the unit by `finish`."""
        di_type = None if self.lines_only else self.type(symbol.ctype)
        if di_type is None or self.module.globals.get(symbol.address.name) is not symbol.address:
            return
        variable = self.module.add_debug_info("DIGlobalVariable", {
            "name": symbol.name, "scope": scope,      # (no linkageName: gdb would look a C static up by it)
            "file": self.file(getattr(symbol.coord, "file", None)), "line": getattr(symbol.coord, "line", 0) or 0,
            "type": di_type, "isLocal": symbol.address.linkage in ("internal", "private"), "isDefinition": True})
        expression = self.module.add_debug_info("DIGlobalVariableExpression", {
            "var": variable, "expr": self.module.add_debug_info("DIExpression", {})})
        symbol.address.set_metadata("dbg", expression)
        self.global_variables.append(expression)

    def declare_function(self) -> ir.Function:
        """Looked up each time: a failed region's emission takes back the globals it added."""
        return self.module.globals.get("llvm.dbg.declare") or ir.Function(
            self.module, ir.FunctionType(ir.VoidType(), [ir.MetaDataType()] * 3), name="llvm.dbg.declare")

    # ----------------------------------------------------------------- types
    def type(self, ctype: ct.CType, lengths: dict | None = None):
        """The DIType of a C type, None where it has none here (an incomplete type, a
        variable-length array whose length variable is not in `lengths`: length name ->
        the DILocalVariable holding it, in the function at hand)."""
        if ct.variably_modified(ctype):  # one function's: its lengths are that function's variables
            return self._make_type(ctype, lengths or {})
        key = id(ctype) if ctype.is_struct else ctype
        if key not in self.types:        # (a record enters itself before its members: _record)
            self.types[key] = self._make_type(ctype)
        return self.types[key]

    def _make_type(self, ctype: ct.CType, lengths: dict | None = None):
        add = self.module.add_debug_info
        if ctype.is_integer:
            return add("DIBasicType", {"name": ctype.name, "size": ctype.size * 8, "encoding": _encoding(ctype)})
        if ctype.is_floating:
            return add("DIBasicType", {"name": ctype.name, "size": ctype.size * 8, "encoding": _TOKENS["DW_ATE_float"]})
        if ctype.is_pointer:
            pointee = None if ctype.pointee.is_void or ctype.pointee.is_function else self.type(ctype.pointee, lengths)
            return add("DIDerivedType", {"tag": _TOKENS["DW_TAG_pointer_type"], "baseType": pointee, "size": 64})
        if ctype.is_variable:            # `double a[n]`: its count is the variable holding n
            element, count = self.type(ctype.element, lengths), lengths.get(ctype.length_name)
            if element is None or count is None:
                return None
            subrange = add("DISubrange", {"count": count})
            return add("DICompositeType", {"tag": _TOKENS["DW_TAG_array_type"], "baseType": element,
                                           "elements": self.module.add_metadata([subrange])})
        if ctype.is_array and not ctype.is_variable and ctype.length is not None:
            element = self.type(ctype.element)
            if element is None:
                return None
            subrange = add("DISubrange", {"count": ctype.length})
            return add("DICompositeType", {"tag": _TOKENS["DW_TAG_array_type"], "baseType": element,
                                           "size": ctype.size * 8, "elements": self.module.add_metadata([subrange])})
        if ctype.is_struct and ctype.is_complete:
            return self._record(ctype)
        return None

    def _record(self, ctype) -> ir.DIValue:
        """A struct or union with its members (bit-fields left out); distinct, so that two
        records of the same shape stay two types."""
        kind = _TOKENS["DW_TAG_union_type" if ctype.is_union else "DW_TAG_structure_type"]
        fields = {"tag": kind, "name": ctype.tag or "", "size": ctype.size * 8, "file": self.file(None)}
        node = _distinct(self.module, "DICompositeType", fields)
        self.types[id(ctype)] = node          # members pointing back at the record find it
        members = []
        for member in ctype.fields:
            member_type = None if member.is_bit_field or member.name is None else self.type(member.ctype)
            if member_type is None:
                continue
            members.append(self.module.add_debug_info("DIDerivedType", {
                "tag": _TOKENS["DW_TAG_member"], "name": member.name, "scope": node, "baseType": member_type,
                "size": member.ctype.size * 8, "offset": member.offset * 8}))
        node.operands = tuple(sorted({**dict(node.operands), "elements": self.module.add_metadata(members)}.items()))
        return node

    # ----------------------------------------------------------------- before printing
    def finish(self) -> None:
        """Make the module's debug information what LLVM's verifier accepts (see the module's
        docstring)."""
        if self.global_variables:
            self.unit.operands = tuple(sorted({**dict(self.unit.operands),
                                               "globals": self.module.add_metadata(self.global_variables)}.items()))
        declare = self.module.globals.get("llvm.dbg.declare")
        for function in self.module.functions:
            if not function.blocks:
                continue
            subprogram = function.metadata.get("dbg") or self._caller_subprogram(function)
            for block in function.blocks:
                for instruction in list(block.instructions):
                    self._fix(instruction, subprogram, block, declare, function)

    def _caller_subprogram(self, function: ir.Function):
        """A subprogram for a function no FunctionEmitter filled that calls one that has
        one (the CPU device's entry calling its work-group function): without it, LLVM's
        inliner drops the callee's locations. Its line is the callee's."""
        for block in function.blocks:
            for instruction in block.instructions:
                callee = getattr(instruction, "callee", None)
                callee_subprogram = getattr(callee, "metadata", {}).get("dbg")
                if isinstance(instruction, ir.CallInstr) and callee_subprogram is not None:
                    file = _operand(callee_subprogram, "file")
                    name = next((name for name, node in self.files.items() if node is file), None)
                    coord = _Coord(name, _operand(callee_subprogram, "line") or 0)
                    return self.subprogram(function, coord)
        return None

    def _fix(self, instruction, subprogram, block, declare, function) -> None:
        location = instruction.metadata.get("dbg")
        is_declare = isinstance(instruction, ir.CallInstr) and declare is not None and instruction.callee is declare
        if subprogram is None:
            if is_declare:
                block.instructions.remove(instruction)
            elif location is not None:
                del instruction.metadata["dbg"]
            return
        if is_declare and _subprogram_of(instruction.args[1]) is not subprogram:
            block.instructions.remove(instruction)     # a variable of another function's
            return
        if location is not None and _subprogram_of(location) is not subprogram:
            scope = _operand(location, "scope")
            file = _operand(scope, "file") if scope is not None else None
            file_name = next((name for name, node in self.files.items() if node is file), None)
            instruction.metadata["dbg"] = self._location(subprogram, _operand(location, "line") or 0,
                                                         _operand(location, "column") or 0, file_name)
        elif location is None and isinstance(instruction, ir.CallInstr):
            instruction.metadata["dbg"] = self._location(subprogram, _operand(subprogram, "line") or 0, 0, None)


class _Coord:
    """A place as pycparser's Coord gives it."""

    def __init__(self, file, line: int, column: int = 0):
        self.file, self.line, self.column = file, line, column


def _operand(node, key: str):
    for name, value in getattr(node, "operands", ()):
        if name == key:
            return value
    return None


def _subprogram_of(location):
    scope = _operand(location, "scope")
    while scope is not None and getattr(scope, "kind", None) != "DISubprogram":
        scope = _operand(scope, "scope")
    return scope


class _DistinctNode(ir.values.DIValue):
    """A node equal only to itself: a record's members may lead back to it (a list's
    `next`), as the unit's global variables do to the unit, which llvmlite's hashing of
    operands would follow for ever (and the scopes of each location, at every lookup)."""

    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other


def _distinct(module: ir.Module, kind: str, fields: dict) -> ir.DIValue:
    """A distinct node made anew (add_debug_info would return an equal earlier one)."""
    return _DistinctNode(module, True, kind, tuple(sorted(fields.items())), name=str(len(module.metadata)))


def _encoding(ctype: ct.IntType) -> ir.DIToken:
    if ctype.is_bool:
        return _TOKENS["DW_ATE_boolean"]
    if ctype.bits == 8 and ctype.name.endswith("char"):
        return _TOKENS["DW_ATE_signed_char" if ctype.signed else "DW_ATE_unsigned_char"]
    return _TOKENS["DW_ATE_signed" if ctype.signed else "DW_ATE_unsigned"]
