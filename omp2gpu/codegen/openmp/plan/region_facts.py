"""Region facts: what every target region of a translation unit is, read from the typed
tree before any code exists (issue 31), as one immutable record per region.

`unit_facts(file_ast)` runs after sema, on the tree codegen has not seen: it types every
name (sema/typed_scopes.py) and records, for each target construct, the outer variables
it uses with their C types and whether it writes them, the OpenMP constructs inside
(its own and those of the functions the kernel takes in, with whether a parallel region
of the kernel encloses them), the functions it reaches, its first use of long double,
the variable-length arrays a team would share, its user-defined reductions, the
reduction items that name whole arrays, and a reverse offload inside. The schemes'
`device_refusal(facts)` (scheme_interface.py) read them: a region whose code the chosen
GPU scheme cannot build runs on the host, decided by the chooser (choose.py) before any
IR exists, for the reason the remark prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.codegen.openmp.plan.inlined_callees import kernel_constructs_callees
from omp2gpu.codegen.openmp.plan.region_shape import host_readable_at_launch
from omp2gpu.codegen.openmp.plan.team_shared_names import shared_in_parallel_regions
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget, OmpMetadirective
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import assigned_names, clause_expressions, directive_expressions, free_identifiers
from omp2gpu.sema.reduction_items import COMPLEX_DECLARED_IDENTITIES, array_scalars
from omp2gpu.sema.requires import is_reverse_offload
from omp2gpu.sema.typed_scopes import TypedScopes, visible_names

# Declarative directives in a block: codegen handles them, whatever the scheme.
_DECLARATIVE = ("declare target", "declare reduction", "declare mapper", "declare simd", "declare variant")
_BUILTIN_REDUCTIONS = ("+", "-", "*", "&", "|", "^", "&&", "||", "min", "max")
_PARALLEL_LEAVES = ("parallel", "teams")


@dataclass(frozen=True)
class UsedVariable:
    """An outer variable the region's code names (what becomes a capture)."""
    name: str
    ctype: object               # sema.ctypes.CType, None where sema could not type it
    storage: str                # "auto", "static", "extern", "global"
    written: bool               # the region assigns it
    device_copy: bool = False   # a `declare target` global: the device has its own


@dataclass(frozen=True)
class InnerConstruct:
    """An OpenMP construct the kernel meets (in the region, or a function it takes in)."""
    kind: str
    coord: object
    parallel_depth: int         # parallel regions of the kernel around it (2 and more: nested)
    clauses: frozenset          # clause names
    has_body: bool
    function: str | None = None     # the callee it is in, None in the region's own code


@dataclass(frozen=True)
class RegionFacts:
    construct: object                           # the OmpConstruct (read, never written)
    function: str                               # the function holding it
    used: tuple[UsedVariable, ...]
    constructs: tuple[InnerConstruct, ...]      # source order
    callees: tuple[str, ...]                    # functions of the file it calls or names, sorted
    called_constructs: tuple[InnerConstruct, ...]   # in the callees it calls (not taken in)
    long_double: object = None                  # coord of its first long double value, if any
    host_file_output: object = None             # coord of its first fprintf to a FILE not stdout/stderr
    team_shared_vlas: tuple[str, ...] = ()      # VLAs a team's threads would share
    user_reductions: tuple[str, ...] = ()       # declare reduction identifiers its reductions use
    whole_array_reductions: frozenset = frozenset()   # (directive coord, name): an array, no section
    reverse_offload: bool = False               # a `target device(ancestor: 1)` inside
    small_integer_reductions: tuple = ()        # the types of its reduction items narrower than 32 bits
    callee_globals: tuple[tuple[str, str], ...] = ()    # (function, object): a file-scope object, not
                                                        # `declare target`, that a function it calls uses
                                                        # (or the region, through an `extern` inside it)
    inlined: frozenset = frozenset()            # the callees a control-loop kernel expands in place
    callee_holding_constructs: str | None = None    # the first function it calls that holds OpenMP constructs
    variable_lengths: tuple[tuple[object, str], ...] = ()   # (id of a declaration or a name, its VLA type):
                                                            # its declarations and the outer variables it uses
    array_reductions: tuple = ()                # ((directive coord, name), scalars, scalar type): reduction
                                                # items (sections or whole) of an array variable of fixed length
    launch_read_num_threads: frozenset = frozenset()    # directive coords: a num_threads the host
                                                        # reads harmlessly (region_shape.host_readable_at_launch)

    @property
    def directive(self):
        return self.construct.directive

    @property
    def host_function_pointers(self) -> list[str]:
        """Outer function pointers the region uses (the device's own globals are no captures)."""
        return [used.name for used in self.used if not used.device_copy and used.ctype is not None
                and used.ctype.is_pointer and used.ctype.pointee.is_function]

    def host_globals_in_callees(self, expanded: bool = False) -> list[str]:
        """The host's globals functions it calls use, which no device has. `expanded`: the
        kernel expands its inlined callees in place, where the region's own captures serve."""
        captured = {variable.name for variable in self.used}
        return [name for callee, name in self.callee_globals
                if not (expanded and callee in self.inlined and name in captured)]

    def variable_length_type(self, declaration_or_name) -> str | None:
        """The variable-length array type of a declaration in the region (a Decl node) or of
        a variable it names (a name), as C spells it; None if it has none."""
        key = declaration_or_name if isinstance(declaration_or_name, str) else id(declaration_or_name)
        return dict(self.variable_lengths).get(key)

    def host_reads_num_threads(self, directive) -> bool:
        """Whether the host can evaluate `directive`'s num_threads at the launch harmlessly."""
        return _key(directive.coord) in self.launch_read_num_threads

    def reduces_whole_array(self, directive, name: str) -> bool:
        return (_key(directive.coord), name) in self.whole_array_reductions

    def reduced_array(self, directive, name: str):
        """(scalars, scalar type) of the array variable a reduction item of `directive`
        reduces a section of (or the whole of); None when it names no fixed-length array."""
        return next(((count, ctype) for key, count, ctype in self.array_reductions
                     if key == (_key(directive.coord), name)), None)


def _key(coord):
    return (getattr(coord, "file", None), getattr(coord, "line", None), getattr(coord, "column", None))


class UnitFacts:
    """The facts of every target region of one parsed file, by the construct's location."""

    def __init__(self, file_ast: c_ast.FileAST):
        self.types = TypedScopes(file_ast)
        definitions = self.types.definitions
        self.inlined = kernel_constructs_callees(definitions, file_ast)
        self._function_facts: dict[str, _FunctionFacts] = {}
        self.regions: dict[tuple, RegionFacts] = {}
        self.declare_target_names = _declare_target_names(file_ast)
        # Where a target construct may stand: its function and the names it sees there.
        self._contexts: dict[tuple, tuple] = {}
        self._versions: dict[int, tuple] = {}      # id(construct) -> (construct, its facts)
        for name, definition in definitions.items():
            for node, scope in self.types.walk(definition.body, self.types.function_scope(definition)):
                if isinstance(node, OmpMetadirective) or isinstance(node, OmpConstruct) and \
                        node.directive.has("target") and node.body is not None:
                    context = self._contexts.setdefault(_key(node.coord), (name, visible_names(scope)))
                    if isinstance(node, OmpConstruct):
                        self.regions.setdefault(_key(node.coord), self._region(node, *context))

    def of(self, construct) -> RegionFacts | None:
        """The facts of a target construct: the region's, or, for a version of it whose code
        differs (a device's metadirectives resolved, sema/metadirectives.specialized; a
        metadirective's target variant), that version's, from the same names."""
        key = _key(construct.coord)
        known = self.regions.get(key)
        if known is not None and known.construct.body is construct.body:
            return known
        context = self._contexts.get(key) or self._enclosing_context(key)
        if id(construct) not in self._versions and context is not None:
            self._versions[id(construct)] = (construct, self._region(construct, *context))
        return self._versions.get(id(construct), (None, None))[1]

    def _enclosing_context(self, key):
        """A metadirective's `target` variant is located at its own word, inside the
        metadirective's pragma: the context of the nearest construct at or before it."""
        file, line, column = key
        before = [known for known in self._contexts if known[0] == file and known[1:] <= (line, column)]
        return self._contexts[max(before, key=lambda known: known[1:])] if before else None

    # ----------------------------------------------------------------- one region
    def _region(self, construct, function: str, scope) -> RegionFacts:
        body_facts = self._code_facts(construct.body, scope.child())
        for expression in _device_clause_expressions(construct.directive):
            body_facts.merge(self._code_facts(expression, scope))
        written = assigned_names(construct.body)
        used = []
        for name in free_identifiers(construct):
            symbol = scope.lookup(name)
            if symbol is not None and symbol.kind == "object":
                used.append(UsedVariable(name, symbol.ctype, symbol.storage, name in written,
                                         name in self.declare_target_names))
        constructs = tuple(_inner_constructs(construct, self.inlined))
        callees = self.reached(body_facts.calls | {name for c in constructs if c.function
                                                    for name in [c.function]})
        long_double = self._first_of(body_facts, callees, "long_double")
        called = tuple(c for name in callees if name not in self.inlined for c in self.function_facts(name).constructs)
        callee_globals = sorted({(callee, name) for callee in callees for name in self.function_facts(callee).globals
                                 if name not in self.declare_target_names})
        # A global the region's own code names through an `extern` declaration inside it is
        # no capture (the region declares the name), so nothing maps it either.
        captured = {variable.name for variable in used}
        callee_globals += sorted((function, name) for name in body_facts.globals
                                 if name not in captured and name not in self.declare_target_names)
        host_file_output = self._first_of(body_facts, callees, "host_file_output")
        return RegionFacts(construct, function, tuple(used), constructs, tuple(sorted(callees)), called,
                           long_double, host_file_output, tuple(self._team_shared_vlas(construct, scope)),
                           tuple(_user_reductions(construct, scope)), frozenset(_whole_arrays(construct, scope)),
                           _holds_reverse_offload(construct.body), tuple(_small_integer_reductions(construct, scope)),
                           tuple(callee_globals), frozenset(self.inlined) & frozenset(callees),
                           self._first_callee_holding_constructs(construct.body, set()),
                           tuple(self._variable_lengths(construct, scope)), tuple(_array_reductions(construct, scope)),
                           frozenset(self._launch_read_num_threads(construct, scope)))

    def _first_of(self, body_facts: "_FunctionFacts", callees, fact: str):
        """The coord `fact` names in the region's own code, else in the first callee that has one."""
        return getattr(body_facts, fact) or next(
            (getattr(self.function_facts(name), fact) for name in callees
             if getattr(self.function_facts(name), fact)), None)

    def _launch_read_num_threads(self, construct, scope):
        for directive in [construct.directive] + [c.directive for c in _constructs_in(construct.body)]:
            for clause in directive.clauses:
                if clause.name == "num_threads" and host_readable_at_launch(
                        clause.expr, construct, scope.lookup, self.types.definitions):
                    yield _key(directive.coord)

    def _variable_lengths(self, construct, scope):
        for name in free_identifiers(construct):
            symbol = scope.lookup(name)
            if symbol is not None and symbol.ctype is not None and symbol.ctype.is_variable:
                yield name, str(symbol.ctype)
        for node, where in self.types.walk(construct.body, scope.child()):
            if isinstance(node, c_ast.Decl) and node.name:
                symbol = where.lookup(node.name)
                if symbol is not None and symbol.ctype is not None and symbol.ctype.is_variable:
                    yield id(node), str(symbol.ctype)
                    yield node.name, str(symbol.ctype)

    def _first_callee_holding_constructs(self, node, seen: set) -> str | None:
        """The first function the code calls, directly or not, that holds OpenMP constructs
        (depth first, in the order free identifiers are met)."""
        for name in free_identifiers(node):
            definition = self.types.definitions.get(name)
            if definition is None or name in seen:
                continue
            seen.add(name)
            if _constructs_in(definition.body):
                return name
            found = self._first_callee_holding_constructs(definition.body, seen)
            if found is not None:
                return found
        return None

    def reached(self, names: set[str]) -> set[str]:
        reached, stack = set(), [n for n in names if n in self.types.definitions]
        while stack:
            name = stack.pop()
            if name in reached:
                continue
            reached.add(name)
            stack += [n for n in self.function_facts(name).calls if n in self.types.definitions]
        return reached

    def function_facts(self, name: str) -> _FunctionFacts:
        if name not in self._function_facts:
            definition = self.types.definitions[name]
            facts = self._code_facts(definition.body, self.types.function_scope(definition))
            facts.constructs = [InnerConstruct(c.directive.kind, c.coord, 0, clause_names(c), c.body is not None,
                                               name) for c in _constructs_in(definition.body)]
            self._function_facts[name] = facts
        return self._function_facts[name]

    def _code_facts(self, root, scope) -> _FunctionFacts:
        facts = _FunctionFacts()
        unevaluated: set[int] = set()       # sizeof's operand, and the object `&x` names: no value made
        for node, where in self.types.walk(root, scope):
            if isinstance(node, c_ast.UnaryOp) and node.op in ("sizeof", "_Alignof", "&"):
                operand = [node.expr] if node.op == "&" else [n for n, _ in self.types.walk(node.expr, where)]
                unevaluated |= {id(n) for n in operand}
            if isinstance(node, c_ast.ID):
                symbol = where.lookup(node.name)
                if symbol is not None and symbol.kind == "function" and node.name in self.types.definitions:
                    facts.calls.add(node.name)          # called or its address taken: the device compiles it
                elif symbol is not None and symbol.kind == "object" and (
                        self.types.file_scope.names.get(node.name) is symbol or symbol.storage == "extern"):
                    facts.globals.add(node.name)        # a block's `extern` declaration names one too
            if (isinstance(node, c_ast.Decl) and node.name and "extern" in node.storage
                    and not isinstance(node.type, c_ast.FuncDecl)):
                facts.globals.add(node.name)            # declared, even if unused: codegen binds it there
            if facts.long_double is None and id(node) not in unevaluated and self._is_long_double(node, where):
                facts.long_double = node.coord
            if facts.host_file_output is None and writes_a_host_file(node):
                facts.host_file_output = node.coord
            if isinstance(node, OmpConstruct):      # its clauses' expressions run on the device too
                for expression in directive_expressions(node.directive):
                    facts.merge(self._code_facts(expression, where))
        return facts

    def _is_long_double(self, node, scope) -> bool:
        """Whether `node` makes a long double value (codegen refuses it on the GPU)."""
        if isinstance(node, c_ast.Constant):
            return node.type == "long double" or (node.type in ("double", "float") and
                                                  node.value.lower().endswith("l"))
        if isinstance(node, c_ast.Cast):
            return _long_double_inside(self.types.type_of(node.to_type, scope))
        if isinstance(node, c_ast.ID):
            symbol = scope.lookup(node.name)
            if symbol is None or symbol.ctype is None:
                return False
            if symbol.kind == "function":
                return _long_double_inside(symbol.ctype.result)
            return symbol.kind == "object" and _long_double_inside(symbol.ctype)
        return False

    def _team_shared_vlas(self, construct, scope) -> list[str]:
        """VLAs the control loop would give a team-shared copy: private/firstprivate items of
        a plain target or a teams construct, and block-scope ones its parallel regions share."""
        names = []
        for directive in [construct.directive] + [c.directive for c in _constructs_in(construct.body)]:
            kinds = ("private", "firstprivate", "reduction") if directive.has("teams") else (
                ("private", "firstprivate") if directive.constructs == ("target",) else ())
            for clause in directive.clauses:
                for item in getattr(clause, "items", ()) if clause.name in kinds else ():
                    symbol = scope.lookup(item.name)
                    if symbol is not None and symbol.ctype is not None and symbol.ctype.is_variable:
                        names.append(item.name)
        shared = shared_in_parallel_regions(construct.body).declarations
        for node, where in self.types.walk(construct.body, scope.child()):
            if isinstance(node, c_ast.Decl) and id(node) in shared:
                symbol = where.lookup(node.name)
                if symbol is not None and symbol.ctype is not None and symbol.ctype.is_variable:
                    names.append(node.name)
        return names


class _FunctionFacts:
    def __init__(self):
        self.calls: set[str] = set()
        self.globals: set[str] = set()          # file-scope objects it names
        self.long_double = None
        self.host_file_output = None
        self.constructs: list[InnerConstruct] = []

    def merge(self, other: "_FunctionFacts") -> None:
        """Add what another piece of the same code (a clause's expression) calls and names."""
        self.calls |= other.calls
        self.globals |= other.globals
        self.long_double = self.long_double or other.long_double
        self.host_file_output = self.host_file_output or other.host_file_output


# The target directive's clauses that its leaves evaluate in the kernel, not the host at
# the launch (num_teams, thread_limit, device, map, if(target:)...): a call there is the
# device's (`num_threads(f(k))`, gcc's 'declare target' rule for it).
_DEVICE_EVALUATED = ("num_threads", "schedule", "dist_schedule", "grainsize", "num_tasks", "final", "priority",
                     "filter", "safelen", "simdlen", "aligned", "linear")


def _device_clause_expressions(directive) -> list:
    return clause_expressions(clause for clause in directive.clauses if clause.name in _DEVICE_EVALUATED
                              or (clause.name == "if" and clause.modifier not in (None, "target", "target data")))


STANDARD_STREAMS = ("stdout", "stderr")       # what device code's fprintf may write (gpu/printf.py)


def writes_a_host_file(node) -> bool:
    """An fprintf whose stream is not stdout or stderr: the GPU writes no host file."""
    if not (isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name == "fprintf"):
        return False
    stream = node.args.exprs[0] if node.args is not None and node.args.exprs else None
    return not (isinstance(stream, c_ast.ID) and stream.name in STANDARD_STREAMS)


def _long_double_inside(ctype) -> bool:
    """A long double, or a pointer to, array of or struct holding one."""
    while ctype is not None and (ctype.is_pointer or ctype.is_array):
        ctype = ctype.pointee if ctype.is_pointer else ctype.element
    return ctype is not None and not ctype.is_function and ct.holds_long_double(ctype)


CONDITIONAL_LASTPRIVATE = "lastprivate(conditional:)"       # a clause name of its own, for the devices' refusal


def clause_names(construct) -> frozenset:
    """The names of a construct's clauses, lastprivate(conditional:) under a name of its own."""
    return frozenset(CONDITIONAL_LASTPRIVATE if getattr(clause, "conditional", False) else clause.name
                     for clause in construct.directive.clauses)


def _constructs_in(node) -> list:
    return [construct for construct in nodes_of(node, OmpConstruct) if construct.directive.kind not in _DECLARATIVE]


def _inner_constructs(construct, inlined: dict):
    """The constructs a kernel meets, in source order, with whether a parallel region
    encloses them; a call to a function the kernel takes in brings its constructs."""
    seen_calls: set[str] = set()

    def walk(node, depth: int, function):
        if node is None:
            return
        if isinstance(node, OmpConstruct) and node.directive.kind not in _DECLARATIVE:
            yield InnerConstruct(node.directive.kind, node.coord, depth, clause_names(node),
                                 node.body is not None, function)
            depth += node.directive.has("parallel")
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name in inlined \
                and node.name.name not in seen_calls:
            seen_calls.add(node.name.name)
            yield from walk(inlined[node.name.name].body, depth, node.name.name)
        for _, child in node.children():
            yield from walk(child, depth, function)

    yield from walk(construct.body, int(construct.directive.has("parallel")), None)


def _user_reductions(construct, scope) -> list[str]:
    found = []
    for directive in [construct.directive] + [c.directive for c in _constructs_in(construct.body)]:
        for clause in directive.clauses:
            if clause.name not in ("reduction", "in_reduction", "task_reduction"):
                continue
            for item in clause.items:
                symbol = scope.lookup(item.name)
                ctype = symbol.ctype if symbol is not None else None
                # a complex *, && or || is the declared reduction it amounts to (data_sharing.py
                # _complex_reduction): a user-defined one for the schemes
                complex_declared = ctype is not None and ctype.is_complex and clause.op in COMPLEX_DECLARED_IDENTITIES
                if clause.op not in _BUILTIN_REDUCTIONS or (ctype is not None and ctype.is_struct) or complex_declared:
                    found.append(clause.op)
    return found


def _whole_arrays(construct, scope):
    """Reduction items naming an array variable with no section written (codegen reads
    them as the array's whole length: sema/reduction_items.arrays_as_sections)."""
    for directive in [construct.directive] + [c.directive for c in _constructs_in(construct.body)]:
        for clause in directive.clauses:
            if clause.name != "reduction":
                continue
            for item in clause.items:
                symbol = scope.lookup(item.name)
                if not item.sections and item.is_variable and symbol is not None and symbol.kind == "object" \
                        and symbol.ctype is not None and symbol.ctype.is_array:
                    yield _key(directive.coord), item.name


def _array_reductions(construct, scope):
    """((directive key, name), scalars, scalar type) of each reduction item naming an array
    variable of fixed length, with or without a section (its private copy is the whole
    array, as data_sharing.DataEnvironment makes it)."""
    for directive in [construct.directive] + [c.directive for c in _constructs_in(construct.body)]:
        for clause in directive.clauses:
            for item in clause.items if clause.name == "reduction" else ():
                symbol = scope.lookup(item.name)
                ctype = symbol.ctype if symbol is not None and symbol.kind == "object" else None
                if ctype is None or not ctype.is_array or not ctype.is_complete or ctype.is_variable:
                    continue
                yield (_key(directive.coord), item.name), *array_scalars(ctype)


def _small_integer_reductions(construct, scope):
    """The combined construct's reduction items narrower than 32 bits (its directives are
    the region's own and those its body is made of)."""
    for directive in [construct.directive] + [c.directive for c in _constructs_in(construct.body)]:
        for clause in directive.clauses:
            for item in clause.items if clause.name == "reduction" else ():
                symbol = scope.lookup(item.name)
                ctype = symbol.ctype if symbol is not None and symbol.kind == "object" else None
                if ctype is not None and ctype.is_integer and ctype.bits < 32 and not item.sections:
                    yield ctype


def _holds_reverse_offload(body) -> bool:
    return any(is_reverse_offload(c.directive) for c in _constructs_in(body))


def _declare_target_names(file_ast) -> frozenset:
    names = set()
    for node in file_ast.ext:
        if isinstance(node, OmpDeclareTarget):
            names |= {getattr(d, "name", None) or getattr(getattr(d, "decl", None), "name", None)
                      for d in node.decls}
        elif isinstance(node, OmpConstruct) and node.directive.kind == "declare target":
            names |= {item.name for clause in node.directive.clauses for item in getattr(clause, "items", ())}
    return frozenset(names - {None})
