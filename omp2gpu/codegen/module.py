"""A translation unit -> one llvmlite ir.Module: file-scope declarations,
globals with their initialisers, functions, string literals."""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.alias_types import AliasTags
from omp2gpu.codegen.builtins import Builtins
from omp2gpu.codegen.code_rules import DEFAULT as DEFAULT_RULES
from omp2gpu.codegen.code_rules import CodeRules
from omp2gpu.codegen.debug_info import DebugInfo
from omp2gpu.codegen.function import FunctionEmitter
from omp2gpu.codegen.initializers import Initializers
from omp2gpu.diagnostics import CompileError, warn
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.declarators import TypeResolver, declared_const, declared_volatile
from omp2gpu.sema.kr_definitions import prototype_definition
from omp2gpu.sema.scopes import Scope, Symbol
from omp2gpu.sema.static_assertions import check_static_assertion


class ModuleEmitter:
    has_x86_fp80 = True          # the target computes long double (the host and CPU device do)
    emits_alias_types = True     # TBAA tags where the code rules say strict aliasing

    def __init__(self, module_name: str, openmp, builtins: Builtins | None = None,
                 context: ir.Context | None = None, resolver: TypeResolver | None = None,
                 debug_source: str | None = None, optimised: bool = True, code_rules: CodeRules = DEFAULT_RULES):
        self.context = context or ir.Context()
        self.code_rules = code_rules         # -fwrapv, -ffast-math, -fno-math-errno (code_rules.py)
        self.module = ir.Module(name=module_name, context=self.context)
        # TBAA tags on scalar loads and stores (alias_types.py), under strict aliasing
        self.alias_tags = AliasTags(self.module) if code_rules.strict_aliasing and self.emits_alias_types else None
        # -g: the module's DWARF (debug_source: the C file's path), else None.
        self.debug_info = DebugInfo(self.module, debug_source, optimised) if debug_source else None
        self.openmp = openmp
        self.resolver = resolver or TypeResolver(self.context)
        self.initializers = Initializers(self)
        self.builtins = builtins or Builtins()
        self.file_scope = Scope()
        self.strings: dict[bytes, ir.GlobalVariable] = {}
        self.static_counter = 0
        self.function_definitions: dict[str, c_ast.FuncDef] = {}
        self.initialized_globals: set[str] = set()
        self.tentative_arrays: list[tuple[Symbol, c_ast.Decl]] = []     # `int a[];` at file scope
        self.static_objects: list[Symbol] = []      # file-scope and static local objects
        self.translation_unit: c_ast.FileAST | None = None
        openmp.attach(self)

    # ----------------------------------------------------------------- traversal
    def emit_translation_unit(self, ast: c_ast.FileAST) -> None:
        self.translation_unit = ast
        for node in ast.ext:
            self.emit_external(node)
        self._define_tentative_arrays()
        self._undefined_statics_left_to_the_linker()
        self.openmp.finish_module(self)

    def finish_debug_info(self) -> None:
        """Under -g, once the module is complete (device builds may add to it)."""
        if self.debug_info is not None:
            self.debug_info.describe_globals(symbol for symbol in self.static_objects
                                             if symbol.defined and symbol.storage == "global")
            self.debug_info.finish()

    def _define_tentative_arrays(self) -> None:
        """`int a[];` with no later size: one element, zeroed (C99 6.9.2p2), as gcc warns."""
        for symbol, node in self.tentative_arrays:
            if symbol.defined:
                continue
            if not symbol.ctype.is_complete:
                warn(f"array '{node.name}' assumed to have one element", node.coord)
                self._resize_global(symbol, ct.ArrayType(symbol.ctype.element, 1))
            symbol.address.initializer = ir.Constant(symbol.ctype.ir_type(), None)
            symbol.defined = True

    def _undefined_statics_left_to_the_linker(self) -> None:
        """`static int f(void);` called but never defined: as with gcc, the link says so
        ("undefined reference"); a declaration may not be internal in LLVM IR."""
        for function in self.module.functions:
            if function.is_declaration and function.linkage == "internal":
                function.linkage = ""

    def emit_external(self, node) -> None:
        if isinstance(node, c_ast.FuncDef):
            self.define_function(node)
        elif isinstance(node, c_ast.Decl):
            self.declare_file_scope(node)
        elif isinstance(node, c_ast.Typedef):
            self.declare_typedef(node, self.file_scope)
            _not_variably_modified(self.file_scope.names[node.name].ctype, node)
        elif isinstance(node, OmpDeclareTarget):
            self.openmp.declare_target(self, node)
        elif isinstance(node, OmpConstruct):
            self.openmp.emit_file_scope_construct(self, node)
        elif isinstance(node, c_ast.Pragma):
            pass
        elif isinstance(node, c_ast.StaticAssert):
            check_static_assertion(node, self.file_scope, self.resolver)
        else:
            raise CompileError(f"unsupported file-scope construct ({type(node).__name__})", node.coord)

    def declare_typedef(self, node: c_ast.Typedef, scope: Scope) -> None:
        ctype = self.resolver.resolve(node.type, scope)
        if scope.declared_elsewhere(node.name, node.coord):    # C11 6.7p3: the same type again only
            previous = scope.names[node.name]
            if previous.kind != "typedef":
                raise CompileError(f"'{node.name}' redeclared as a different kind of symbol", node.coord)
            if previous.ctype != ctype:
                raise CompileError(f"conflicting types for '{node.name}'", node.coord)
        scope.declare(Symbol(node.name, ctype, "typedef", coord=node.coord))

    # ----------------------------------------------------------------- functions
    def function_symbol(self, name: str, ftype: ct.FunctionType, static: bool, coord) -> Symbol:
        existing = self.file_scope.lookup(name)
        if existing is not None and existing.kind == "function":
            if existing.ctype.result != ftype.result or (
                    not existing.ctype.unprototyped and not ftype.unprototyped
                    and existing.ctype != ftype):
                raise CompileError(f"conflicting types for '{name}'", coord)
            if existing.ctype.unprototyped and not ftype.unprototyped:
                # A prototype after `int f();` refines it; the IR signature must agree.
                if existing.address.function_type != ftype.ir_type():
                    raise CompileError(f"prototype of '{name}' after an unprototyped declaration "
                                       "with different parameters is not supported", coord)
                existing.ctype = ftype
            return existing
        if existing is not None:
            raise CompileError(f"redefinition of '{name}' as a different kind of symbol", coord)
        ir_type = (ftype.unprototyped and self._later_prototype(name, ftype)) or ftype.ir_type()
        function = ir.Function(self.module, ir_type, name=name)
        if static:
            function.linkage = "internal"
        symbol = Symbol(name, ftype, "function", function, storage="static" if static else "global",
                        coord=coord, defined=False)
        return self.file_scope.declare(symbol)

    def _later_prototype(self, name: str, declared: ct.FunctionType) -> ir.FunctionType | None:
        """`int f();` before this unit's prototyped definition `int f(int a, double b) {...}`:
        the IR function takes the definition's signature from the start (calls before it
        pass promoted arguments, as C's unprototyped calls do), so the definition refines
        the declaration instead of conflicting with its IR type. None where the unit has no
        such definition, or its type cannot be read here yet (a type declared later)."""
        definition = self.definition_of(name)
        if definition is None or definition.param_decls is not None:      # none, or K&R
            return None
        try:
            defined = self.resolver.resolve(definition.decl.type, self.file_scope)
        except CompileError:
            return None
        if not defined.is_function or defined.unprototyped or defined.result != declared.result:
            return None
        return defined.ir_type()

    def definition_of(self, name: str) -> c_ast.FuncDef | None:
        """This translation unit's definition of function `name`, if it has one."""
        unit = self.translation_unit
        return next((node for node in (unit.ext if unit is not None else ())
                     if isinstance(node, c_ast.FuncDef) and node.decl.name == name), None)

    def define_function(self, node: c_ast.FuncDef) -> None:
        prototype_definition(node)         # K&R: the prototyped definition, before its type
        ftype = self.resolver.resolve(node.decl.type, self.file_scope)
        if not ftype.is_function:         # `f {}`: a body after a declarator with no (...)
            raise CompileError(f"expected '=', ',' or ';' before '{{': '{node.decl.name}' is not "
                               "declared as a function", node.body.coord or node.decl.coord)
        if ftype.unprototyped:            # `int main()` defines a function with no parameters
            ftype = ct.FunctionType(ftype.result, (), False)
        _complete_signature(node, ftype)
        symbol = self.function_symbol(node.decl.name, ftype, "static" in node.decl.storage,
                                      node.decl.coord)
        if symbol.defined:
            raise CompileError(f"redefinition of '{node.decl.name}'", node.decl.coord)
        if symbol.ctype.unprototyped or symbol.ctype != ftype:
            if symbol.ctype.params != ftype.params and not symbol.ctype.unprototyped:
                raise CompileError(f"conflicting types for '{node.decl.name}'", node.decl.coord)
            symbol.ctype = ftype
        symbol.defined = True
        function = symbol.address
        if function.blocks:
            raise CompileError(f"redefinition of '{node.decl.name}'", node.decl.coord)
        if "inline" in node.decl.funcspec and "static" not in node.decl.storage:
            function.linkage = "linkonce_odr"
        self.function_definitions[node.decl.name] = node
        self.emit_function_body(node, function, ftype)

    def emit_function_body(self, node: c_ast.FuncDef, function: ir.Function, ftype) -> None:
        emitter = FunctionEmitter(self, function, ftype, self.file_scope.child())
        self.openmp.enter_function(self, node, emitter)
        emitter.emit_body(node)

    # ----------------------------------------------------------------- objects
    def declare_file_scope(self, node: c_ast.Decl) -> None:
        if node.name is None:
            self.resolver.resolve(node.type, self.file_scope)
            return
        ctype = self.resolver.resolve(node.type, self.file_scope)
        if ctype.is_function:
            self.function_symbol(node.name, ctype, "static" in node.storage, node.coord)
            return
        _not_variably_modified(ctype, node)
        ctype = self.initializers.complete_array_type(ctype, node.init, self.file_scope)
        is_extern = "extern" in node.storage and node.init is None
        if ctype.is_void:                  # no object; `extern void v;` declares nothing usable
            if is_extern:
                return
            raise CompileError(f"variable '{node.name}' has incomplete type 'void'", node.coord)
        symbol = self.global_symbol(node.name, ctype, node.coord, internal="static" in node.storage)
        symbol.const = symbol.const or declared_const(node)
        symbol.volatile = symbol.volatile or declared_volatile(node)
        if is_extern:
            return
        if node.init is None:
            if symbol.defined:
                return                      # a tentative definition repeated
            if ctype.is_array and not ctype.is_complete:
                self.tentative_arrays.append((symbol, node))    # a later declaration may size it
                return
            if not ctype.is_complete:
                raise CompileError(f"tentative definition of '{node.name}' has incomplete type", node.coord)
            symbol.address.initializer = ir.Constant(ctype.ir_type(), None)
            symbol.defined = True
            return
        if node.name in self.initialized_globals:
            raise CompileError(f"redefinition of '{node.name}'", node.coord)
        _require_complete(ctype, node)
        symbol.address.initializer = self.initializers.constant(ctype, node.init, self.file_scope)
        symbol.defined = True
        self.initialized_globals.add(node.name)

    def global_symbol(self, name: str, ctype: ct.CType, coord, internal: bool) -> Symbol:
        existing = self.file_scope.lookup(name)
        if existing is not None and existing.kind == "object":
            if existing.ctype.is_array and ctype.is_array and existing.ctype.length is None \
                    and ctype.length is not None:
                self._resize_global(existing, ctype)
            return existing
        if existing is not None:
            raise CompileError(f"redefinition of '{name}' as a different kind of symbol", coord)
        variable = ir.GlobalVariable(self.module, ctype.ir_type(), name=name)
        variable.align = max(ctype.align, 1)
        if internal:
            variable.linkage = "internal"
        symbol = Symbol(name, ctype, "object", variable, storage="global", coord=coord, defined=False)
        self.static_objects.append(symbol)
        self.openmp.declare_global(self, symbol)
        return self.file_scope.declare(symbol)

    def large_static_objects(self, min_bytes: int) -> list[tuple[str, int, object]]:
        """(C name, bytes, coord) of each object this file defines with static storage
        of at least min_bytes: the program's process must find room for them (targets/host/static_data)."""
        return [(symbol.name, symbol.ctype.size, symbol.coord) for symbol in self.static_objects
                if symbol.defined and symbol.ctype.is_complete and symbol.ctype.size >= min_bytes]

    def _resize_global(self, symbol: Symbol, ctype: ct.CType) -> None:
        """`extern int a[]; int a[10];`: the definition gives the size. The variable is
        retyped in place: code already emitted refers to it (`extern double a[];` in a
        header, functions using `a`, then the definition)."""
        variable = symbol.address
        variable.value_type = ctype.ir_type()
        variable.type = variable.value_type.as_pointer(variable.addrspace)
        symbol.ctype = ctype

    def define_static_local(self, node: c_ast.Decl, ctype: ct.CType, scope: Scope, owner: str) -> Symbol:
        ctype = self.initializers.complete_array_type(ctype, node.init, scope)
        _require_complete(ctype, node)
        self.static_counter += 1
        variable = ir.GlobalVariable(self.module, ctype.ir_type(),
                                     name=f"{owner}.{node.name}.{self.static_counter}")
        variable.linkage = "internal"
        variable.align = max(ctype.align, 1)
        variable.initializer = self.initializers.constant(ctype, node.init, scope)
        symbol = Symbol(node.name, ctype, "object", variable, storage="static", coord=node.coord,
                        const=declared_const(node), volatile=declared_volatile(node), defined=True)
        self.static_objects.append(symbol)
        return scope.declare(symbol)

    def declare_external_in_block(self, node: c_ast.Decl, ctype: ct.CType, scope: Scope) -> None:
        """Block-scope `extern int x;` or a function prototype: refers to the file-scope entity."""
        if node.init is not None:           # a definition needs file scope (C99 6.7.8p5)
            what = "is initialized like a variable" if ctype.is_function else "has both 'extern' and initializer"
            raise CompileError(f"'{node.name}' {what}", node.coord)
        previous = scope.names.get(node.name)
        if previous is not None and previous.kind == "object" and previous.storage in ("auto", "register", "static") \
                and scope.declared_elsewhere(node.name, node.coord):
            # a name without linkage declared twice in one block (C11 6.7p3), as gcc words it
            raise CompileError(f"extern declaration of '{node.name}' follows declaration with no linkage"
                               if str(previous.ctype) == str(ctype) else f"conflicting types for '{node.name}'",
                               node.coord)
        if ctype.is_function:
            symbol = self.function_symbol(node.name, ctype, False, node.coord)
        else:
            symbol = self.global_symbol(node.name, ctype, node.coord, internal=False)
        scope.declare(symbol)

    def implicit_symbol(self, node: c_ast.ID) -> Symbol:
        raise CompileError(f"use of undeclared identifier '{node.name}'", node.coord)

    # ----------------------------------------------------------------- literals
    def string_global(self, data: bytes) -> ir.GlobalVariable:
        """A private constant char array per distinct string literal."""
        found = self.strings.get(data)
        if found is None:
            payload = bytearray(data + b"\0")
            ir_type = ir.ArrayType(ir.IntType(8), len(payload))
            found = ir.GlobalVariable(self.module, ir_type, name=f".str.{len(self.strings)}")
            found.global_constant = True
            found.linkage = "private"
            found.unnamed_addr = True
            found.initializer = ir.Constant(ir_type, payload)
            self.strings[data] = found
        return found


def _not_variably_modified(ctype: ct.CType, node) -> None:
    """VLA types need a block to be evaluated in (C99 6.7.5.2p2)."""
    if ct.variably_modified(ctype):
        raise CompileError(f"variably modified '{node.name}' at file scope", node.coord)


def _complete_signature(node: c_ast.FuncDef, ftype: ct.FunctionType) -> None:
    """A definition's return and parameter types are complete (C99 6.9.1p3, p7)."""
    if not ftype.result.is_void and not ftype.result.is_complete:
        raise CompileError("return type is an incomplete type", node.decl.coord)
    parameters = node.decl.type.args.params if node.decl.type.args else []
    for position, (ptype, parameter) in enumerate(zip(ftype.params, parameters), 1):
        if not ptype.is_complete:
            raise CompileError(f"parameter {position} ('{parameter.name}') has incomplete type "
                               f"'{ptype}'", parameter.coord)


def _require_complete(ctype: ct.CType, node: c_ast.Decl) -> None:
    """A definition with an initialiser, or a block-scope static, needs its object's
    size now (C99 6.7p7); a file-scope one without an initialiser is tentative."""
    if ctype.is_complete:
        return
    if node.init is not None:
        raise CompileError(f"variable '{node.name}' has initializer but incomplete type '{ctype}'",
                           node.coord)
    raise CompileError(f"variable '{node.name}' has incomplete type '{ctype}'", node.coord)
