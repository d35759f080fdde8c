"""Loads of mapped arrays under a branch, made before it (issue 29: a kernel that waits on
its chains of dependent loads, bench/lulesh/sweep-experiments-session27.md).

In a target region, an `if` or `switch` whose arms only compute values into the region's
own scalars (LULESH's boundary-mask switches: `case 0: delvm = delv_xi[lxim[e]]; break;
case SYMM: delvm = delv_xi[e]; break; ...`) waits for its condition's loads before it can
issue the loads of the arm it takes. Rewritten, every arm runs, into copies of the
scalars it assigns, and the scalars then take the copies of the arm the condition picks:

    if (len > 0) {                           the mapped sections' lengths, loop-invariant
        double t0 = delvm, t1 = delvm;
        { t0 = delv_xi[IN(lxim[e])]; }        each arm's code, its loads' indices clamped
        { t1 = delv_xi[e]; }                  (an index used before the statement on an
        delvm = mask == 0 ? t0 : mask == SYMM ? t1 : delvm;   array mapped alike is not)
    } else { the statement as written }

so all its loads issue together and the arms become selects. The rewrite may not make
a load that the program would not be allowed to make: a load is only of a pointer that
the construct maps as a section `p[lo:len]` (its own map clause), at an index clamped into
`[lo, lo + len)` (IN(i): `(unsigned long long)(i - lo) < (unsigned long long)len ? i : lo`),
under `len > 0`. The pointer and the section's bounds must not change in the region (not
written, not private in it, the same declaration where the statement is). An arm may
only declare scalars, assign the region's own scalars (declared in the region), and hold
`if`s of the same kind; its expressions may not call, write memory, divide integers or
read volatile objects, so running an arm that was not taken has no effect but the values
it leaves in its copies. Nothing such an arm computes that LLVM may take as poison (a
signed overflow, a shift too far, a float out of an integer's range; with -ffast-math an
infinity or NaN) may reach a branch or an index there: only the select may drop it.

It runs on the parsed tree before the region facts (driver.translate), with -O1 and
above unless -fno-speculate-mapped-loads (code_rules.CodeRules.speculate_loads), so
every build of the region (GPU, CPU device, host fallback) runs the same code; not in a
file that `requires unified_shared_memory`, where a region may read past what it maps.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.expression_types import type_of_expression
from omp2gpu.sema.typed_scopes import TypedScopes

MAX_ARM_LOADS = 32                  # loads one statement may speculate (code size, registers)
_PURE_UNARY = frozenset({"-", "+", "!", "~"})
_PURE_BINARY = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
                          "<", ">", "<=", ">=", "==", "!=", "&&", "||"})
_DIVIDING = frozenset({"/", "%", "/=", "%="})
_WRITING_UNARY = frozenset({"++", "--", "p++", "p--", "&"})
# Clauses whose items are not the outer variable inside the construct.
_PRIVATISING = frozenset({"private", "lastprivate", "reduction", "in_reduction", "task_reduction",
                          "linear", "allocate", "uses_allocators", "copyin"})
_TEMP_PREFIX = "__omp2gpu_spec"
_GENERATOR = c_generator.CGenerator()


def speculate_mapped_loads(ast: c_ast.FileAST, fast_math: bool = False) -> list:
    """Rewrite the qualifying statements of every target region in `ast`, in place; the
    coordinates of those rewritten. `fast_math` (-ffast-math): floating arithmetic may make
    poison too, so it may not reach an arm's branch or index."""
    scopes = TypedScopes(ast)
    rewritten: list = []
    counter = [0]
    for node in ast.ext:
        if not isinstance(node, c_ast.FuncDef):
            continue
        regions = [(construct, scope) for construct, scope in scopes.walk(node, scopes.file_scope)
                   if isinstance(construct, OmpConstruct) and _is_target_region(construct)]
        for construct, scope in regions:
            rewritten += _Region(construct, scope, scopes, counter, fast_math).rewrite()
    return rewritten


def speculation_remarks(coords) -> list[str]:
    """--explain's line for each statement `speculate_mapped_loads` rewrote."""
    return [f"{SourceLocation.of(coord)}: remark: every arm of this statement runs, its loads of mapped "
            "sections made first (clamped into them), and a select keeps the taken arm's values "
            "(-fno-speculate-mapped-loads: as written)" for coord in coords]


def _is_target_region(construct: OmpConstruct) -> bool:
    directive = construct.directive
    return (construct.body is not None and directive.constructs[:1] == ("target",)
            and not any(word in directive.kind for word in ("target data", "target update",
                                                              "target enter", "target exit")))


@dataclass(frozen=True)
class _Section:
    """`p[lower:length]` of a map clause: p's symbol and the bounds' text and nodes."""
    symbol: object
    lower: c_ast.Node | None
    length: c_ast.Node

    @property
    def key(self) -> str:
        return f"{_text(self.lower) if self.lower is not None else '0'}:{_text(self.length)}"


@dataclass
class _Candidate:
    """One statement's arms (each a list of statements) and how each is chosen."""
    arms: list[list]
    chooser: object                 # callable(arm index, the condition's copy) -> its test, or None
    default_arm: int | None         # the arm taken when no condition holds (None: none)
    condition_type: list[str]       # the type the condition's value is kept in, as words
    assigned: list[str] = field(default_factory=list)


class _Region:
    def __init__(self, construct: OmpConstruct, scope, scopes: TypedScopes, counter: list[int],
                 fast_math: bool = False):
        self.construct, self.scopes, self.counter = construct, scopes, counter
        self.fast_math = fast_math
        self.resolver = scopes.resolver
        self.scope_of: dict[int, object] = {}          # id(node) -> its scope
        self.decl_of: dict[int, c_ast.Decl] = {}       # id(symbol) -> its declaration
        self.local_symbols: set[int] = set()           # symbols declared in the region
        for node, inner in scopes.walk(construct.body, scope):
            self.scope_of[id(node)] = inner
            if isinstance(node, c_ast.Decl) and node.name and node.name in inner.names:
                symbol = inner.names[node.name]
                self.decl_of[id(symbol)] = node
                self.local_symbols.add(id(symbol))
        self.sections = self._sections(scope)
        self.stable = self._unwritten_names() | {
            name for section in self.sections.values() for bound in (section.lower, section.length)
            for name in _names_in(bound)}
        body_nodes = list(_nodes(construct.body))
        address_taken = {name for node in body_nodes if isinstance(node, c_ast.UnaryOp) and node.op == "&"
                         for name in _root_names(node.expr)}
        self.region_names = {node.name for node in body_nodes if isinstance(node, c_ast.Decl) and node.name}
        self.private_names = self.region_names - address_taken

    # ---------------------------------------------------------------- what the region allows
    def _sections(self, scope) -> dict[str, _Section]:
        """The pointers the construct maps as one section each, whose bounds and pointer
        nothing in the region changes."""
        constructs = [self.construct] + [node for node in _nodes(self.construct.body)
                                         if isinstance(node, OmpConstruct)]
        if any(clause.name == "default" for c in constructs for clause in c.directive.clauses):
            return {}                   # default(none): new references would need clauses
        privatised = {item.name for c in constructs for clause in c.directive.clauses
                      if clause.name in _PRIVATISING for item in getattr(clause, "items", ())}
        written = _written_names(self.construct.body)
        found: dict[str, _Section | None] = {}
        for clause in self.construct.directive.clauses:
            if clause.name != "map":
                continue
            for item in clause.items:
                found[item.name] = None if item.name in found else self._section(item, clause, scope)
        sections = {}
        for name, section in found.items():
            if section is None:
                continue
            names = {name} | _names_in(section.lower) | _names_in(section.length)
            if names & (privatised | written):
                continue
            sections[name] = section
        return sections

    def _section(self, item, clause, scope) -> _Section | None:
        if (not isinstance(item.expr, c_ast.ID) or len(item.sections) != 1 or item.shape
                or clause.mapper or clause.iterators):
            return None
        section = item.sections[0]
        lower = None if _is_zero(section.lower) else section.lower
        if section.is_element or section.length is None or section.stride is not None:
            return None
        if not all(_pure_bound(bound) for bound in (section.lower, section.length) if bound is not None):
            return None
        symbol = scope.lookup(item.name)
        ctype = getattr(symbol, "ctype", None)
        if symbol is None or symbol.kind != "object" or ctype is None or symbol.volatile:
            return None
        if ctype.is_array:
            element = ctype.element
        elif ctype.is_pointer and not ctype.pointee_volatile:
            element = ctype.pointee
        else:
            return None
        if not element.is_scalar:
            return None
        return _Section(symbol, lower, section.length)

    def _unwritten_names(self) -> set[str]:
        """Names no statement of the region assigns (a declaration's initialiser aside):
        an index made of them means the same before a statement as in it."""
        body = self.construct.body
        everything = {node.name for node in _nodes(body) if isinstance(node, c_ast.ID)}
        declarations = [node.name for node in _nodes(body) if isinstance(node, c_ast.Decl)]
        twice = {name for name in declarations if declarations.count(name) > 1}
        return everything - _written_names(body, loop_headers=False) - twice

    # ---------------------------------------------------------------- the walk
    def rewrite(self) -> list:
        if not self.sections:
            return []
        self.done: list = []
        self.arms_of: dict[int, list[c_ast.Compound]] = {}     # an unguarded rewrite -> its arms
        self.loads = 0
        self.construct.body = self._statement(self.construct.body, {})
        return self.done

    def _statement(self, node, valid: dict[str, set[str]]):
        """`node`, or what replaces it; `valid`: section key -> indices the statements
        before it used on an array mapped so (in range for every such array)."""
        if isinstance(node, (c_ast.If, c_ast.Switch)):
            replacement = self._speculated(node, valid)
            if replacement is not None:
                return replacement
        if isinstance(node, c_ast.Compound):
            inner = {key: set(indices) for key, indices in valid.items()}
            items = node.block_items or []
            for index, item in enumerate(items):
                items[index] = self._statement(item, inner)
                changed = _written_names(items[index])     # a loop's variable, after it
                for key in inner:
                    inner[key] = {text for text in inner[key] if not _names_in_text(text) & changed}
                self._note_unconditional(items[index], inner)
            self._hoist_loads(node)
        elif isinstance(node, c_ast.For):
            # its variable is the same throughout an iteration, not as before the loop
            changed = _written_names(node.init) | _written_names(node.next)
            node.stmt = self._statement(node.stmt, {key: {index for index in indices if not
                                                          _names_in_text(index) & changed}
                                                    for key, indices in valid.items()})
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            node.stmt = self._statement(node.stmt, _copy(valid))
        elif isinstance(node, c_ast.If):
            node.iftrue = self._statement(node.iftrue, _copy(valid))
            if node.iffalse is not None:
                node.iffalse = self._statement(node.iffalse, _copy(valid))
        elif isinstance(node, c_ast.Switch):
            node.stmt = self._statement(node.stmt, _copy(valid))
        elif isinstance(node, (c_ast.Case, c_ast.Default)):
            node.stmts = [self._statement(stmt, _copy(valid)) for stmt in node.stmts or []]
        elif isinstance(node, (OmpConstruct, c_ast.Label)):
            attribute = "body" if isinstance(node, OmpConstruct) else "stmt"
            if getattr(node, attribute) is not None:
                setattr(node, attribute, self._statement(getattr(node, attribute), _copy(valid)))
        return node

    def _note_unconditional(self, statement, valid: dict[str, set[str]]) -> None:
        """The section indices `statement` always uses, when it is a declaration or an
        expression (not under ?:, && or ||), their names unwritten in the region."""
        if not isinstance(statement, (c_ast.Decl, c_ast.DeclList, c_ast.Assignment, c_ast.BinaryOp,
                                      c_ast.UnaryOp, c_ast.FuncCall, c_ast.Cast, c_ast.ArrayRef)):
            return
        for ref in _unconditional_array_refs(statement):
            section = self._section_of(ref)
            if section is not None and _names_in(ref.subscript) <= self.stable:
                valid.setdefault(section.key, set()).add(_text(ref.subscript))

    def _section_of(self, ref: c_ast.ArrayRef) -> _Section | None:
        """The section `ref` reads, if its base is a mapped pointer of the construct's,
        the same one where `ref` is."""
        if not isinstance(ref.name, c_ast.ID) or ref.name.name not in self.sections:
            return None
        section = self.sections[ref.name.name]
        scope = self.scope_of.get(id(ref))
        if scope is None or scope.lookup(ref.name.name) is not section.symbol:
            return None
        for name in _names_in(section.lower) | _names_in(section.length):
            if scope.lookup(name) is not self._outer_symbol(name):
                return None             # a bound's name shadowed here
        return section

    def _outer_symbol(self, name: str):
        return self.scope_of[id(self.construct.body)].lookup(name)

    # ---------------------------------------------------------------- loads first
    def _hoist_loads(self, compound: c_ast.Compound) -> None:
        """The loads of the unguarded rewrites among `compound`'s statements, each made
        into a constant as early in the block as its names and the block's writes allow,
        the loads of indices before the loads through them: LLVM keeps the order of a
        block, so a rewrite's loads would wait on its index loads one statement at a time.
        The same load twice is one constant. A load may be made before the statement that
        showed its index in range (_note_unconditional): nothing between them stops
        (_stops_hoisting), so that statement runs after it in the same iteration."""
        items = compound.block_items or []
        rewritten = [index for index, item in enumerate(items) if id(item) in self.arms_of]
        if not rewritten:
            return
        barrier, set_at = 0, {}                 # after the last write to memory; name -> its item
        made: dict[str, tuple[str, int, int]] = {}      # load text -> (constant, position, depth)
        placed: dict[int, list[tuple[int, c_ast.Decl]]] = {}
        for index, item in enumerate(items):
            if id(item) in self.arms_of:
                choice, *arms = self.arms_of[id(item)]
                loads = [load for load in _loads_inner_first(choice, unconditional=True)
                         if self._mapped(load[2])] + [load for arm in arms for load in _loads_inner_first(arm)]
            elif index < rewritten[-1] and isinstance(item, (c_ast.Decl, c_ast.Assignment)):
                loads = [load for load in _loads_inner_first(item, unconditional=True)   # made anyway
                         if self._mapped(load[2])]
            else:
                loads = []
            for parent, attribute, ref in loads:
                names = _names_in(ref)
                if not names <= self.stable | {constant for constant, _, _ in made.values()}:
                    continue
                text = _text(ref)
                if text not in made:
                    earlier = [made[other] for other in made if made[other][0] in names]
                    position = max([barrier, *(set_at.get(name, -1) + 1 for name in names),
                                    *(at for _, at, _ in earlier)])
                    depth = 1 + max((depth for _, _, depth in earlier), default=0)
                    self.loads += 1
                    constant = f"{_TEMP_PREFIX}_load{self.loads}"
                    made[text] = (constant, position, depth)
                    placed.setdefault(position, []).append((depth, _constant_decl(constant, ref)))
                _set_child(parent, attribute, c_ast.ID(made[text][0], ref.coord))
            if _stops_hoisting(item, self.private_names):
                barrier, made = index + 1, {}       # a load after it may read another value
            for name in _set_names(item):
                set_at[name] = index
        ordered = []
        for index, item in enumerate(items + [None]):
            ordered += [decl for _, decl in sorted(placed.get(index, []), key=lambda entry: entry[0])]
            if item is not None:
                ordered.append(item)
        compound.block_items = ordered

    def _mapped(self, ref: c_ast.ArrayRef) -> bool:
        """Whether `ref` (a copy's, whose scope is not known) reads one of the construct's
        sections: its base names a section's pointer no declaration of the region hides."""
        return (isinstance(ref.name, c_ast.ID) and ref.name.name in self.sections
                and ref.name.name not in self.region_names)

    # ---------------------------------------------------------------- one statement
    def _speculated(self, node, valid: dict[str, set[str]]):
        candidate = self._if(node) if isinstance(node, c_ast.If) else self._switch(node)
        if candidate is None:
            return None
        scope = self.scope_of.get(id(node))
        assigned: list[str] = []
        declared: set[str] = set()
        loads = 0
        for arm in candidate.arms:
            checker = _ArmChecker(self, scope)
            if not all(checker.statement(statement) for statement in arm):
                return None
            loads += checker.loads
            declared |= checker.declared
            assigned += [name for name in checker.assigned_outer if name not in assigned]
        if loads == 0 or loads > MAX_ARM_LOADS or not assigned or declared & set(assigned):
            return None
        if any(self.decl_of.get(id(scope.lookup(name))) is None for name in assigned):
            return None
        candidate.assigned = assigned
        return self._rewritten(node, candidate, valid, scope)

    def _if(self, node: c_ast.If) -> _Candidate | None:
        arms = [_statements(node.iftrue), _statements(node.iffalse) if node.iffalse is not None else []]
        return _Candidate(arms, lambda index, chosen: chosen if index == 0 else None, 1, ["int"])

    def _switch(self, node: c_ast.Switch) -> _Candidate | None:
        """A switch whose labels all sit at its top level and whose every arm ends in a
        `break` (the last may end the switch)."""
        scope = self.scope_of.get(id(node))
        if not isinstance(node.stmt, c_ast.Compound):
            return None
        try:
            controlling = ct.integer_promotion(type_of_expression(node.cond, scope, self.resolver))
        except CompileError:
            return None
        if not controlling.is_integer:
            return None
        arms: list[list] = []
        labels: list[list] = []                 # per arm: its case constants
        default_arm, pending, pending_default = None, [], False
        items = node.stmt.block_items or []
        for position, item in enumerate(items):
            if not isinstance(item, (c_ast.Case, c_ast.Default)):
                return None
            if isinstance(item, c_ast.Case):
                pending.append(item.expr)
            else:
                pending_default = True
            statements = list(item.stmts or [])
            if not statements:
                continue
            if isinstance(statements[-1], c_ast.Break):
                statements.pop()
            elif position != len(items) - 1:
                return None                     # falls into the next arm's code
            if pending_default:
                default_arm = len(arms)
            arms.append(statements)
            labels.append(pending)
            pending, pending_default = [], False
        if pending or pending_default:
            return None                         # labels at the end with no code

        def chooser(index: int, chosen: c_ast.ID):
            if index == default_arm:
                return None
            tests = [c_ast.BinaryOp("==", copy.deepcopy(chosen), _cast(controlling, copy.deepcopy(label)))
                     for label in labels[index]]
            test = tests[0]
            for more in tests[1:]:
                test = c_ast.BinaryOp("|", test, more)     # no branch: both are compares
            return test

        return _Candidate(arms, chooser, default_arm, str(controlling).split())

    def _rewritten(self, node, candidate: _Candidate, valid: dict[str, set[str]], scope):
        """The guarded block of the module's docstring, around a copy of `node`."""
        coord = node.coord
        self.counter[0] += 1
        tag = f"{_TEMP_PREFIX}{self.counter[0]}"
        used_sections: dict[str, _Section] = {}
        chosen = c_ast.ID(f"{tag}_chosen", coord)
        condition = (c_ast.UnaryOp("!", c_ast.UnaryOp("!", node.cond)) if isinstance(node, c_ast.If)
                     else node.cond)
        choice = _declaration(chosen.name, candidate.condition_type, copy.deepcopy(condition), coord)
        block: list = [choice]
        copies: list[dict[str, str]] = []
        for index, arm in enumerate(candidate.arms):
            # an empty arm (an `if` with no `else`) leaves the scalars as they are
            names = {name: f"{tag}_{index}_{name}" if arm else name for name in candidate.assigned}
            copies.append(names)
            for name, temp in names.items():
                if temp != name:
                    block.append(_temp_decl(self.decl_of[id(scope.lookup(name))], temp, name, coord))
        arms = []
        for index, arm in enumerate(candidate.arms):
            if not arm:
                continue
            body = [copy.deepcopy(statement) for statement in arm]
            for statement in body:
                self._prepare(statement, copies[index], valid, used_sections)
            arms.append(c_ast.Compound(body, coord))
        block += arms
        for name in candidate.assigned:
            value = (c_ast.ID(copies[candidate.default_arm][name], coord) if candidate.default_arm is not None
                     else c_ast.ID(name, coord))
            for index in reversed(range(len(candidate.arms))):
                test = candidate.chooser(index, chosen)
                if test is not None:
                    value = c_ast.TernaryOp(test, c_ast.ID(copies[index][name], coord), value, coord)
            block.append(c_ast.Assignment("=", c_ast.ID(name, coord), value, coord))
        # An index used before on an array mapped so shows the section is not empty.
        guards = [c_ast.BinaryOp(">", copy.deepcopy(section.length), c_ast.Constant("int", "0"))
                  for section in used_sections.values()
                  if not _positive_constant(section.length) and not valid.get(section.key)]
        speculated = c_ast.Compound(block, coord)
        self.done.append(coord)
        if not guards:
            # the condition's loads too: the statement made them wherever it went
            self.arms_of[id(speculated)] = [choice, *arms]
            return speculated
        test = guards[0]
        for more in guards[1:]:
            test = c_ast.BinaryOp("&&", test, more)
        return c_ast.If(test, speculated, c_ast.Compound([node], coord), coord)

    def _prepare(self, statement, names: dict[str, str], valid, used_sections) -> None:
        """Rename the assigned scalars to the arm's copies and clamp the loads' indices,
        in place, inner loads first."""
        for node in list(_nodes(statement)):
            if isinstance(node, c_ast.StructRef):
                continue
            for attribute, child in list(node.children()):
                if isinstance(child, c_ast.ID) and child.name in names and not (
                        isinstance(node, c_ast.StructRef) and attribute == "field"):
                    _set_child(node, attribute, c_ast.ID(names[child.name], child.coord))
        for ref in reversed([node for node in _nodes(statement) if isinstance(node, c_ast.ArrayRef)]):
            section = self.sections[ref.name.name]
            used_sections[section.key] = section
            if _text(ref.subscript) in valid.get(section.key, ()):
                continue
            ref.subscript = _clamped(ref.subscript, section)


class _ArmChecker:
    """Whether an arm's statements may run when the arm is not taken (the docstring's
    rules), and what they assign and load."""

    def __init__(self, region: _Region, scope):
        self.region, self.scope = region, scope
        self.declared: set[str] = set()
        self.assigned_outer: list[str] = []
        self.loads = 0
        # Names whose value in an arm not taken may be poison to LLVM (a signed overflow, a
        # shift too far, a float out of an integer's range): fine in a copy the select drops,
        # undefined as a branch's condition or a load's index. Those take none.
        self.tainted: set[str] = set()

    def statement(self, node) -> bool:
        if isinstance(node, c_ast.Compound):
            return all(self.statement(item) for item in node.block_items or [])
        if isinstance(node, c_ast.EmptyStatement):
            return True
        if isinstance(node, c_ast.Decl):
            return self._declaration(node)
        if isinstance(node, c_ast.DeclList):
            return all(self._declaration(decl) for decl in node.decls)
        if isinstance(node, c_ast.Assignment):
            return self._assignment(node)
        if isinstance(node, c_ast.If):
            return (self.expression(node.cond) and self._never_poison(node.cond) and self.statement(node.iftrue)
                    and (node.iffalse is None or self.statement(node.iffalse)))
        return False

    def _never_poison(self, node) -> bool:
        """Whether `node` (a branch's condition, a load's index) holds no value an arm not
        taken could make poison: no risky operation, no tainted name."""
        for inner in _nodes(node):
            if isinstance(inner, c_ast.ID) and inner.name in self.tainted:
                return False
            if self._risky(inner):
                return False
        return True

    def _risky(self, node) -> bool:
        """A signed + - * or negation, a shift, or a conversion of a floating value to an
        integer: each may make poison (nsw flags, LLVM's shift and fptosi rules); under
        -ffast-math also floating arithmetic and comparisons (`fast`: infinities and NaN)."""
        scope = self.region.scope_of.get(id(node))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("<<", ">>"):
            return True
        if isinstance(node, c_ast.Cast):
            to, source = self._typed(node, scope), self._typed(node.expr, scope)
            return to is None or source is None or to.is_integer and not source.is_integer
        arithmetic = (isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*")
                      or isinstance(node, c_ast.UnaryOp) and node.op == "-")
        compared = isinstance(node, c_ast.BinaryOp) and node.op in ("/", "<", ">", "<=", ">=", "==", "!=")
        if not (arithmetic or compared):
            return False
        ctype = self._typed(node.left if compared else node, scope) if scope is not None else None
        if ctype is None:
            return True
        if ctype.is_floating:
            return self.region.fast_math
        return arithmetic and ctype.is_integer and ctype.signed

    def _taints(self, name: str, value) -> None:
        if value is not None and not self._never_poison(value):
            self.tainted.add(name)

    def _declaration(self, decl: c_ast.Decl) -> bool:
        scope = self.region.scope_of.get(id(decl))
        symbol = scope.names.get(decl.name) if scope is not None and decl.name else None
        if symbol is None or symbol.kind != "object" or symbol.ctype is None or not symbol.ctype.is_scalar:
            return False
        if symbol.volatile or (decl.storage and set(decl.storage) - {"register", "auto"}) or decl.bitsize:
            return False
        self.declared.add(decl.name)
        self._taints(decl.name, decl.init)
        return decl.init is None or self.expression(decl.init)

    def _assignment(self, node: c_ast.Assignment) -> bool:
        target = node.lvalue
        if not isinstance(target, c_ast.ID):
            return False
        scope = self.region.scope_of.get(id(node))
        symbol = scope.lookup(target.name) if scope is not None else None
        if (symbol is None or symbol.kind != "object" or symbol.ctype is None or not symbol.ctype.is_scalar
                or symbol.volatile or id(symbol) not in self.region.local_symbols):
            return False
        if node.op in _DIVIDING and not symbol.ctype.is_floating:
            return False
        if target.name not in self.declared and target.name not in self.assigned_outer:
            self.assigned_outer.append(target.name)
        self._taints(target.name, node.rvalue)
        if node.op != "=" and node.op[:-1] in ("+", "-", "*", "<<", ">>") and not symbol.ctype.is_floating:
            self.tainted.add(target.name)
        return self.expression(node.rvalue)

    def expression(self, node) -> bool:
        scope = self.region.scope_of.get(id(node))
        if scope is None:
            return False
        if isinstance(node, c_ast.Constant):
            return node.type != "string"
        if isinstance(node, c_ast.ID):
            symbol = scope.lookup(node.name)
            if symbol is None or symbol.kind == "enum-constant":
                return symbol is not None
            return (symbol.kind == "object" and symbol.ctype is not None and symbol.ctype.is_scalar
                    and not symbol.volatile)
        if isinstance(node, c_ast.ArrayRef):
            if self.region._section_of(node) is None or not self.expression(node.subscript):
                return False
            if not self._never_poison(node.subscript):
                return False
            if not self._integer(node.subscript, scope):
                return False
            self.loads += 1
            return True
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                return True
            return node.op in _PURE_UNARY and self.expression(node.expr)
        if isinstance(node, c_ast.BinaryOp):
            if node.op not in _PURE_BINARY:
                return False
            if node.op in _DIVIDING and not self._floating(node, scope):
                return False
            return self.expression(node.left) and self.expression(node.right)
        if isinstance(node, c_ast.TernaryOp):
            return (all(self.expression(part) for part in (node.cond, node.iftrue, node.iffalse))
                    and self._never_poison(node.cond))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):       # they branch
            return (self.expression(node.left) and self.expression(node.right)
                    and self._never_poison(node.left) and self._never_poison(node.right))
        if isinstance(node, c_ast.Cast):
            try:
                to = self.region.resolver.resolve(node.to_type, scope)
            except CompileError:
                return False
            return to is not None and to.is_scalar and self.expression(node.expr)
        return False

    def _typed(self, node, scope):
        try:
            return type_of_expression(node, scope, self.region.resolver)
        except (CompileError, AttributeError, TypeError):
            return None

    def _floating(self, node, scope) -> bool:
        ctype = self._typed(node, scope)
        return ctype is not None and ctype.is_floating

    def _integer(self, node, scope) -> bool:
        ctype = self._typed(node, scope)
        return ctype is not None and ctype.is_integer


# -------------------------------------------------------------------- tree helpers
def _nodes(root, skipped: set[int] = frozenset()):
    """Every node under `root`, root first (not those under a node whose id is in `skipped`)."""
    if root is None:
        return
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in skipped:
            continue
        yield node
        stack.extend(child for _, child in reversed(list(node.children())))


def _names_in_text(text: str) -> set[str]:
    """The identifiers of an index's text (as _text writes it)."""
    return set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))


def _names_in(node) -> set[str]:
    return {n.name for n in _nodes(node) if isinstance(n, c_ast.ID)} if node is not None else set()


def _written_names(root, loop_headers: bool = True) -> set[str]:
    """Names assigned, incremented or whose address is taken under `root` (the
    initialisers of declarations aside; without `loop_headers`, those of `for` headers);
    a store through a pointer, `p[i] = x`, does not write p."""
    written = set()
    skipped = set()
    if not loop_headers:
        skipped = {id(part) for node in _nodes(root) if isinstance(node, c_ast.For)
                   for part in (node.init, node.next) if part is not None}
    for node in _nodes(root, skipped):
        if isinstance(node, c_ast.Assignment):
            target = node.lvalue
        elif isinstance(node, c_ast.UnaryOp) and node.op in _WRITING_UNARY:
            target = node.expr
            if node.op == "&":
                written |= _root_names(target)      # it may be written through the address
                continue
        else:
            continue
        while isinstance(target, c_ast.Cast):
            target = target.expr
        if isinstance(target, c_ast.ID):
            written.add(target.name)
        elif isinstance(target, c_ast.StructRef) and target.type == ".":
            written |= _root_names(target)          # a member of a struct variable
    return written


def _root_names(lvalue) -> set[str]:
    while isinstance(lvalue, (c_ast.ArrayRef, c_ast.StructRef, c_ast.Cast)):
        lvalue = lvalue.name if not isinstance(lvalue, c_ast.Cast) else lvalue.expr
    return {lvalue.name} if isinstance(lvalue, c_ast.ID) else _names_in(lvalue)


def _unconditional_array_refs(node):
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


def _pure_bound(node) -> bool:
    return all(isinstance(n, (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.Cast, c_ast.Typename,
                              c_ast.TypeDecl, c_ast.IdentifierType, c_ast.PtrDecl))
               or isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+", "sizeof")
               for n in _nodes(node))


def _loads_inner_first(root, unconditional: bool = False):
    """(parent, attribute, ArrayRef) for each load of an element under `root` (not what
    an assignment, increment or `&` names, nor sizeof's operand), an index's loads before
    the load through it; `unconditional`: only those evaluated whatever the values (not
    under ?:'s arms, nor the right of && or ||)."""
    found = []

    def visit(node):
        if isinstance(node, c_ast.UnaryOp) and node.op in (*_WRITING_UNARY, "sizeof"):
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


def _stops_hoisting(statement, private_names: set[str]) -> bool:
    """Whether no load may move above `statement`: it may write memory a load could read
    (any assignment or increment but of a name in `private_names`, the region's own
    scalars whose address it never takes, or of this module's copies), call, or jump (the
    statements after it might not run, and an index they show in range might not be)."""
    for node in _nodes(statement):
        if isinstance(node, (c_ast.FuncCall, OmpConstruct, c_ast.Continue, c_ast.Break, c_ast.Return,
                             c_ast.Goto, c_ast.Label)):
            return True
        target = node.lvalue if isinstance(node, c_ast.Assignment) else (
            node.expr if isinstance(node, c_ast.UnaryOp) and node.op in _WRITING_UNARY else None)
        if target is None:
            continue
        if node.op == "&" or not isinstance(target, c_ast.ID):
            return True
        if target.name not in private_names and not target.name.startswith(_TEMP_PREFIX):
            return True
    return False


def _set_names(statement) -> set[str]:
    """The names `statement` declares or assigns."""
    declared = {node.name for node in _nodes(statement) if isinstance(node, c_ast.Decl) and node.name}
    return declared | _written_names(statement)


def _constant_decl(name: str, load: c_ast.ArrayRef) -> c_ast.Decl:
    """`const typeof(p[0]) name = load;`."""
    element = c_ast.ArrayRef(copy.deepcopy(load.name), c_ast.Constant("int", "0"))
    declarator = c_ast.TypeDecl(name, ["const"], None, c_ast.TypeOf("typeof", element))
    return c_ast.Decl(name, ["const"], [], [], [], declarator, load, None, load.coord)


def _is_zero(node) -> bool:
    return isinstance(node, c_ast.Constant) and node.type == "int" and node.value in ("0", "0u", "0U")


def _positive_constant(node) -> bool:
    if not isinstance(node, c_ast.Constant) or node.type not in ("int", "long int", "unsigned int"):
        return False
    try:
        return int(node.value.rstrip("uUlL"), 0) > 0
    except ValueError:
        return False


def _statements(node) -> list:
    return list(node.block_items or []) if isinstance(node, c_ast.Compound) else [node]


def _copy(valid: dict[str, set[str]]) -> dict[str, set[str]]:
    return {key: set(indices) for key, indices in valid.items()}


def _text(node) -> str:
    return _GENERATOR.visit(node)


def _set_child(parent, attribute: str, value) -> None:
    """Replace child `attribute` of `parent` (pycparser names list children `items[3]`)."""
    if "[" in attribute:
        name, index = attribute[:-1].split("[")
        getattr(parent, name)[int(index)] = value
    else:
        setattr(parent, attribute, value)


def _unsigned_long_long(node):
    name = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["unsigned", "long", "long"]))
    return c_ast.Cast(c_ast.Typename(None, [], None, name), node)


def _cast(ctype, node):
    name = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(str(ctype).split()))
    return c_ast.Cast(c_ast.Typename(None, [], None, name), node)


def _clamped(index, section: _Section):
    """`(unsigned long long)(index - lo) < (unsigned long long)len ? index : lo`."""
    if section.lower is None:
        lower, offset = c_ast.Constant("int", "0"), copy.deepcopy(index)
    else:
        lower = copy.deepcopy(section.lower)
        offset = c_ast.BinaryOp("-", copy.deepcopy(index), copy.deepcopy(lower))
    inside = c_ast.BinaryOp("<", _unsigned_long_long(offset), _unsigned_long_long(copy.deepcopy(section.length)))
    return c_ast.TernaryOp(inside, index, lower)


def _declaration(name: str, type_words: list[str], init, coord) -> c_ast.Decl:
    declarator = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(list(type_words)))
    return c_ast.Decl(name, [], [], [], [], declarator, init, None, coord)


def _temp_decl(original: c_ast.Decl, temp: str, name: str, coord) -> c_ast.Decl:
    """`T temp = name;` with the type `name` was declared with (an object the arms
    assign, so not const itself)."""
    declarator = copy.deepcopy(original.type)
    inner = declarator
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = temp
    return c_ast.Decl(temp, list(original.quals), [], [], [], declarator, c_ast.ID(name, coord), None, coord)
