"""One target region's rewrite: the sections its construct maps, the walk of its statements
with the indices known in range, and each qualifying `if` or `switch` made into every arm
run into copies and a select."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.expression_types import type_of_expression
from omp2gpu.sema.speculation.arms import ArmChecker
from omp2gpu.sema.speculation.hoisting import hoist_loads
from omp2gpu.sema.speculation.tree import (
    SPECULATING,
    TEMP_PREFIX,
    cast_to,
    copy_valid,
    declaration,
    is_zero,
    names_in,
    names_in_text,
    nodes,
    positive_constant,
    pure_bound,
    root_names,
    set_child,
    statements_of,
    temp_decl,
    text_of,
    unconditional_array_refs,
    unsigned_long_long,
    written_names,
)
from omp2gpu.sema.typed_scopes import TypedScopes

MAX_ARM_LOADS = 32                  # loads one statement may speculate (code size, registers)
# Clauses whose items are not the outer variable inside the construct.
_PRIVATISING = frozenset({"private", "lastprivate", "reduction", "in_reduction", "task_reduction",
                          "linear", "allocate", "uses_allocators", "copyin"})


@dataclass(frozen=True)
class Section:
    """`p[lower:length]` of a map clause: p's symbol and the bounds' text and nodes."""
    symbol: object
    lower: c_ast.Node | None
    length: c_ast.Node

    @property
    def key(self) -> str:
        return f"{text_of(self.lower) if self.lower is not None else '0'}:{text_of(self.length)}"


@dataclass
class Candidate:
    """One statement's arms (each a list of statements) and how each is chosen."""
    arms: list[list]
    chooser: object                 # callable(arm index, the condition's copy) -> its test, or None
    default_arm: int | None         # the arm taken when no condition holds (None: none)
    condition_type: list[str]       # the type the condition's value is kept in, as words
    assigned: list[str] = field(default_factory=list)


class Region:
    """One target construct: its scopes and declarations, the sections it maps whose
    pointer and bounds nothing in it changes, and the names that keep one value in an
    iteration; `rewrite` walks its statements and rewrites those that qualify."""

    def __init__(self, construct: OmpConstruct, scope, scopes: TypedScopes, counter: list[int],
                 fast_math: bool = False, data_maps: dict[str, set[str]] | None = None):
        self.construct, self.scopes, self.counter = construct, scopes, counter
        self.fast_math = fast_math
        self.data_maps = data_maps or {}            # the function's data constructs' sections
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
        body_nodes = list(nodes(construct.body))
        declared = Counter(node.name for node in body_nodes if isinstance(node, c_ast.Decl) and node.name)
        self.sections = self._sections(scope)
        self.stable = self._unwritten_names(body_nodes, declared) | {
            name for section in self.sections.values() for bound in (section.lower, section.length)
            for name in names_in(bound)}
        address_taken = {name for node in body_nodes if isinstance(node, c_ast.UnaryOp) and node.op == "&"
                         for name in root_names(node.expr)}
        self.region_names = set(declared)
        self.private_names = self.region_names - address_taken

    # ---------------------------------------------------------------- what the region allows
    def _sections(self, scope) -> dict[str, Section]:
        """The pointers the construct maps as one section each, whose bounds and pointer
        nothing in the region changes."""
        constructs = [self.construct] + [node for node in nodes(self.construct.body)
                                         if isinstance(node, OmpConstruct)]
        if any(clause.name == "default" for c in constructs for clause in c.directive.clauses):
            return {}                   # default(none) and its kind: new references would need clauses
        privatised = {item.name for c in constructs for clause in c.directive.clauses
                      if clause.name in _PRIVATISING for item in getattr(clause, "items", ())}
        written = written_names(self.construct.body)
        found: dict[str, Section | None] = {}
        for clause in self.construct.directive.clauses:
            if clause.name != "map":
                continue
            for item in clause.items:
                elsewhere = self.data_maps.get(item.name, set()) - {section_text(item)}
                found[item.name] = None if item.name in found or elsewhere else self._section(item, clause, scope)
        sections = {}
        for name, section in found.items():
            if section is None:
                continue
            names = {name} | names_in(section.lower) | names_in(section.length)
            if names & (privatised | written):
                continue
            sections[name] = section
        return sections

    def _section(self, item, clause, scope) -> Section | None:
        if (not isinstance(item.expr, c_ast.ID) or len(item.sections) != 1 or item.shape
                or clause.mapper or clause.iterators):
            return None
        section = item.sections[0]
        lower = None if is_zero(section.lower) else section.lower
        if section.is_element or section.length is None or section.stride is not None:
            return None
        if not all(pure_bound(bound) for bound in (section.lower, section.length) if bound is not None):
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
        return Section(symbol, lower, section.length)

    def _unwritten_names(self, body_nodes: list, declared: Counter) -> set[str]:
        """Names no statement of the region assigns (a declaration's initialiser aside),
        nor declares twice: an index made of them means the same before a statement as in
        it."""
        everything = {node.name for node in body_nodes if isinstance(node, c_ast.ID)}
        twice = {name for name, count in declared.items() if count > 1}
        return everything - written_names(self.construct.body, loop_headers=False) - twice

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
            inner = copy_valid(valid)
            items = node.block_items or []
            for index, item in enumerate(items):
                items[index] = self._statement(item, inner)
                changed = written_names(items[index])     # a loop's variable, after it
                for key in inner:
                    inner[key] = {text for text in inner[key] if not names_in_text(text) & changed}
                self._note_unconditional(items[index], inner)
            hoist_loads(self, node)
        elif isinstance(node, c_ast.For):
            # its variable is the same throughout an iteration, not as before the loop
            changed = written_names(node.init) | written_names(node.next)
            node.stmt = self._statement(node.stmt, {key: {index for index in indices if not
                                                          names_in_text(index) & changed}
                                                    for key, indices in valid.items()})
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            node.stmt = self._statement(node.stmt, copy_valid(valid))
        elif isinstance(node, c_ast.If):
            node.iftrue = self._statement(node.iftrue, copy_valid(valid))
            if node.iffalse is not None:
                node.iffalse = self._statement(node.iffalse, copy_valid(valid))
        elif isinstance(node, c_ast.Switch):
            node.stmt = self._statement(node.stmt, copy_valid(valid))
        elif isinstance(node, (c_ast.Case, c_ast.Default)):
            node.stmts = [self._statement(stmt, copy_valid(valid)) for stmt in node.stmts or []]
        elif isinstance(node, (OmpConstruct, c_ast.Label)):
            attribute = "body" if isinstance(node, OmpConstruct) else "stmt"
            if getattr(node, attribute) is not None:
                setattr(node, attribute, self._statement(getattr(node, attribute), copy_valid(valid)))
        return node

    def _note_unconditional(self, statement, valid: dict[str, set[str]]) -> None:
        """The section indices `statement` always uses, when it is a declaration or an
        expression (not under ?:, && or ||), their names unwritten in the region."""
        if not isinstance(statement, (c_ast.Decl, c_ast.DeclList, c_ast.Assignment, c_ast.BinaryOp,
                                      c_ast.UnaryOp, c_ast.FuncCall, c_ast.Cast, c_ast.ArrayRef)):
            return
        for ref in unconditional_array_refs(statement):
            section = self._section_of(ref)
            if section is not None and names_in(ref.subscript) <= self.stable:
                valid.setdefault(section.key, set()).add(text_of(ref.subscript))

    def _section_of(self, ref: c_ast.ArrayRef) -> Section | None:
        """The section `ref` reads, if its base is a mapped pointer of the construct's,
        the same one where `ref` is."""
        if not isinstance(ref.name, c_ast.ID) or ref.name.name not in self.sections:
            return None
        section = self.sections[ref.name.name]
        scope = self.scope_of.get(id(ref))
        if scope is None or scope.lookup(ref.name.name) is not section.symbol:
            return None
        for name in names_in(section.lower) | names_in(section.length):
            if scope.lookup(name) is not self._outer_symbol(name):
                return None             # a bound's name shadowed here
        return section

    def _outer_symbol(self, name: str):
        return self.scope_of[id(self.construct.body)].lookup(name)


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
            checker = ArmChecker(self, scope)
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

    def _if(self, node: c_ast.If) -> Candidate | None:
        arms = [statements_of(node.iftrue), statements_of(node.iffalse) if node.iffalse is not None else []]
        return Candidate(arms, lambda index, chosen: chosen if index == 0 else None, 1, ["int"])

    def _switch(self, node: c_ast.Switch) -> Candidate | None:
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
            tests = [c_ast.BinaryOp("==", copy.deepcopy(chosen), cast_to(controlling, copy.deepcopy(label)))
                     for label in labels[index]]
            test = tests[0]
            for more in tests[1:]:
                test = c_ast.BinaryOp("|", test, more)     # no branch: both are compares
            return test

        return Candidate(arms, chooser, default_arm, str(controlling).split())

    def _rewritten(self, node, candidate: Candidate, valid: dict[str, set[str]], scope):
        """The guarded block of the module's docstring, around a copy of `node`."""
        coord = node.coord
        self.counter[0] += 1
        tag = f"{TEMP_PREFIX}{self.counter[0]}"
        used_sections: dict[str, Section] = {}
        chosen = c_ast.ID(f"{tag}_chosen", coord)
        condition = (c_ast.UnaryOp("!", c_ast.UnaryOp("!", node.cond)) if isinstance(node, c_ast.If)
                     else node.cond)
        choice = declaration(chosen.name, candidate.condition_type, copy.deepcopy(condition), coord)
        block: list = [choice]
        copies: list[dict[str, str]] = []
        for index, arm in enumerate(candidate.arms):
            # an empty arm (an `if` with no `else`) leaves the scalars as they are
            names = {name: f"{tag}_{index}_{name}" if arm else name for name in candidate.assigned}
            copies.append(names)
            for name, temp in names.items():
                if temp != name:
                    block.append(temp_decl(self.decl_of[id(scope.lookup(name))], temp, name, coord))
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
                  if not positive_constant(section.length) and not valid.get(section.key)]
        speculated = c_ast.Compound(block, coord)
        if guards:
            test = guards[0]
            for guard in guards[1:]:
                test = c_ast.BinaryOp("&&", test, guard)
            speculated = c_ast.If(test, speculated, c_ast.Compound([copy.deepcopy(node)], coord), coord)
        # GPU code takes the speculated form, the host and the CPU device the written one
        # (codegen/statements.py emits only its build's)
        build_choice = c_ast.FuncCall(c_ast.ID(SPECULATING, coord), None, coord)
        chosen_form = c_ast.If(build_choice, speculated, c_ast.Compound([node], coord), coord)
        self.done.append(coord)
        if not guards:
            # the condition's loads too: the statement made them wherever it went
            self.arms_of[id(chosen_form)] = [choice, *arms]
        return chosen_form

    def _prepare(self, statement, names: dict[str, str], valid, used_sections) -> None:
        """Rename the assigned scalars to the arm's copies and clamp the loads' indices,
        in place, inner loads first."""
        for node in list(nodes(statement)):
            if isinstance(node, c_ast.StructRef):
                continue
            for attribute, child in list(node.children()):
                if isinstance(child, c_ast.ID) and child.name in names and not (
                        isinstance(node, c_ast.StructRef) and attribute == "field"):
                    set_child(node, attribute, c_ast.ID(names[child.name], child.coord))
        for ref in reversed([node for node in nodes(statement) if isinstance(node, c_ast.ArrayRef)]):
            section = self.sections[ref.name.name]
            used_sections[section.key] = section
            if text_of(ref.subscript) in valid.get(section.key, ()):
                continue
            ref.subscript = clamped(ref.subscript, section)


def clamped(index, section: Section):
    """`(unsigned long long)(index - lo) < (unsigned long long)len ? index : lo`."""
    if section.lower is None:
        lower, offset = c_ast.Constant("int", "0"), copy.deepcopy(index)
    else:
        lower = copy.deepcopy(section.lower)
        offset = c_ast.BinaryOp("-", copy.deepcopy(index), copy.deepcopy(lower))
    inside = c_ast.BinaryOp("<", unsigned_long_long(offset), unsigned_long_long(copy.deepcopy(section.length)))
    return c_ast.TernaryOp(inside, index, lower)


def section_text(item) -> str:
    """A map item's sections as text (`lower:length`, each), the whole variable as ''."""
    return ",".join(f"{text_of(section.lower) if section.lower is not None else '0'}:"
                    f"{text_of(section.length) if section.length is not None else ''}"
                    for section in item.sections)
