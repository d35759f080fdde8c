"""The host side of offloading: target constructs become launcher calls.

At a target region the host code fills the map-entry arrays of
offload/abi.py, asks the launcher to run the region's kernel, and runs the
host version (HostOpenMP) when the launcher says no (no device, offload
disabled, `if(false)`, a failed launch). Each region's plan (region_plan.py) is
made here, before its code, and kept: the device builds turn each into a kernel
afterwards.
"""

from __future__ import annotations

import re
from dataclasses import replace

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32, I64
from omp2gpu.codegen.openmp import dispatch
from omp2gpu.codegen.openmp.data import allocate_storage, mappers, strided_sections
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named
from omp2gpu.codegen.openmp.data.map_iterators import check_item
from omp2gpu.codegen.openmp.data.target_regions import (
    Capture,
    capture_entries,
    clause_capture,
    evaluate_clause,
    map_bits,
)
from omp2gpu.codegen.openmp.data.task_depend import for_each_iteration
from omp2gpu.codegen.openmp.host import interop, task_reductions
from omp2gpu.codegen.openmp.host.threads import ThreadedHostOpenMP
from omp2gpu.codegen.openmp.plan import launch_shape
from omp2gpu.codegen.openmp.plan.region_facts import UnitFacts
from omp2gpu.codegen.openmp.region_plan import PlanningInputs, RegionPlan, plan_region
from omp2gpu.codegen.openmp.runtime_entries import OffloadRuntime, RuntimeFunction
from omp2gpu.codegen.openmp.schemes import AUTO
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.variant_clauses import DeviceTypeClause
from omp2gpu.offload import abi
from omp2gpu.offload.abi import MapType
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.requires import is_reverse_offload, requirements_of
from omp2gpu.sema.scopes import Symbol

# (device, count, bases, begins, sizes, types) of the data entry points


class OffloadHostOpenMP(ThreadedHostOpenMP):
    """ThreadedHostOpenMP plus launches: every target region also becomes a kernel."""

    def __init__(self, scheme: str = AUTO, unit_id: str | None = None, facts: UnitFacts | None = None):
        """`scheme`: `--scheme`. `unit_id`: the file is compiled to be linked with others
        (driver.compile_unit): its kernel names carry the id, as Clang's carry a file id,
        so that two files' kernels never share a name, and its device modules hold every
        `declare target` definition, for the other files' kernels. `facts`: every target region's facts, made from
        the tree before codegen (region_facts.py); made at the first region if not given."""
        super().__init__()
        self.scheme_request = scheme
        self.unit_id = unit_id
        self.regions: list[RegionPlan] = []
        self._inputs: PlanningInputs | None = None
        self._facts = facts
        self.declare_target_globals: dict[str, object] = {}
        self.declare_target_functions: set[str] = set()
        self.declare_target_links: set[str] = set()     # `declare target link(...)` globals
        # device_type(host) / device_type(nohost) functions (OpenMP 5.0): no device / host version
        self.host_only_functions: set[str] = set()
        self.device_only_functions: set[str] = set()
        self._target_depth = 0                      # > 0: emitting a target region's host version
        self._kernel_names: set[str] = set()

    # ----------------------------------------------------------------- declare target
    def _firstprivate_in_target(self, name: str, symbol) -> bool:
        """Whatever its storage (a file-scope or static scalar too, as on the device and in
        GCC), but a `declare target` global, the device's own, and a threadprivate one."""
        return symbol.storage == "auto" or (symbol.storage != "threadprivate"
                                            and name not in self.declare_target_globals)

    def declare_target(self, module, node) -> None:
        for decl in node.decls:
            module.emit_external(decl)
            name = getattr(decl, "name", None) or getattr(getattr(decl, "decl", None), "name", None)
            symbol = module.file_scope.lookup(name) if name else None
            if symbol is not None and symbol.kind == "object":
                self.declare_target_globals[name] = symbol
            elif symbol is not None and symbol.kind == "function":
                self.declare_target_functions.add(name)
                self._device_type(node.directive, name)

    def _device_type(self, directive, function: str) -> None:
        clause = directive.first(DeviceTypeClause)
        kind = clause.kind if clause is not None else "any"
        self.host_only_functions.discard(function)
        self.device_only_functions.discard(function)
        if kind == "host":
            self.host_only_functions.add(function)
        elif kind == "nohost":
            self.device_only_functions.add(function)

    def emit_declare_target(self, cg, construct) -> None:
        """`declare target(list)` in a function (OpenMP 5.0): as at file scope."""
        self.emit_file_scope_construct(cg.module, construct)

    def call_variant(self, cg, call) -> str | None:
        """As the host calls it; a function with no version here is an error: a
        device_type(nohost) one called by host code, a device_type(host) one in a target
        region (its kernel could not call it)."""
        variant = super().call_variant(cg, call)
        name = variant or call.name.name
        caller = cg.function.name.split(".")[0]         # an outlined region's: its function's
        if name in self.device_only_functions and not self._target_depth \
                and caller not in self.device_only_functions:       # whose host copy is never called
            raise CompileError(f"'{name}' is 'declare target device_type(nohost)': it has no host version "
                               "to call here", call.coord)
        if name in self.host_only_functions and self._target_depth:
            raise CompileError(f"'{name}' is 'declare target device_type(host)': it has no device version "
                               "to call in a target region", call.coord)
        return variant

    def variant_arguments(self, cg, call, values: list):
        """adjust_args(need_device_ptr) and append_args of a variant host code calls through
        dispatch (not in a target region's host version, whose pointers are the host's):
        dispatch.py."""
        variant = self.declared_variant(cg, call)
        if variant is None or self._target_depth:
            return super().variant_arguments(cg, call, values)
        if variant.adjust_args:
            values = dispatch.device_arguments(cg, variant, values)
        appended, finish = dispatch.interop_arguments(cg, variant, _where(cg, call))
        return values + appended, finish

    def emit_file_scope_construct(self, module, node) -> None:
        if node.directive.kind != "declare target":
            super().emit_file_scope_construct(module, node)
            return
        for clause in node.directive.clauses:
            for item in getattr(clause, "items", ()):
                symbol = module.file_scope.lookup(item.name)
                if symbol is None:
                    raise CompileError(f"use of undeclared identifier '{item.name}'", item.coord)
                if symbol.kind == "object":
                    self.declare_target_globals[item.name] = symbol
                    if clause.name == "link":
                        self.declare_target_links.add(item.name)
                else:
                    self.declare_target_functions.add(item.name)
                    self._device_type(node.directive, item.name)

    @property
    def planning_inputs(self) -> PlanningInputs:
        """What every region's plan is made from besides the region (the whole file is
        parsed before codegen starts, so the callees are known at the first region)."""
        if self._inputs is None:
            facts = self._facts or UnitFacts(self.module.translation_unit)
            self._inputs = PlanningInputs(self.scheme_request, facts.inlined, facts)
        return self._inputs

    @property
    def unit_facts(self) -> UnitFacts:
        return self.planning_inputs.facts

    @property
    def inlined_callees(self) -> dict:
        """Functions whose OpenMP constructs a kernel takes in (inlined_callees.py), found
        with the file's facts (region_facts.UnitFacts)."""
        return self.unit_facts.inlined

    @property
    def separate_compilation(self) -> bool:
        return self.unit_id is not None

    def finish_module(self, module) -> None:
        """A constructor tells the launcher the file's runtime requirements (`requires
        unified_shared_memory`...: sema/requires.py) and registers every declare-target
        global this file defines (an `extern` one is registered by the file that defines it)."""
        defined = {name: symbol for name, symbol in self.declare_target_globals.items() if symbol.defined}
        requirements = requirements_of(module.translation_unit)
        if not defined and requirements is None:
            return
        ir_module = module.module
        ctor = ir.Function(ir_module, ir.FunctionType(ir.VoidType(), []), name="omp2gpu.register_globals")
        ctor.linkage = "internal"
        builder = ir.IRBuilder(ctor.append_basic_block())
        if requirements is not None:          # first: before any global's device is set up
            declare = OffloadRuntime.requires.declare(ir_module)
            builder.call(declare, [ir.Constant(I64, requirements.flags),
                                   builder.bitcast(_location(module, requirements.coord), I8P)])
        entries = {link: (OffloadRuntime.register_link_global if link else OffloadRuntime.register_global)
                   .declare(ir_module)
                   for link in {name in self.declare_target_links for name in self.declare_target_globals}}
        for name, symbol in defined.items():
            label = module.string_global(name.encode())
            register = entries[name in self.declare_target_links]
            builder.call(register, [builder.bitcast(symbol.address, I8P),
                                    builder.bitcast(label, I8P), ir.Constant(I64, symbol.ctype.size)])
        builder.ret_void()
        _append_global_ctor(ir_module, ctor)

    # ----------------------------------------------------------------- target regions
    def device_copies(self) -> frozenset:
        return frozenset(self.declare_target_globals)

    def emit_construct(self, cg, construct) -> None:
        if clauses_named(construct.directive, "uses_allocators"):
            allocate_storage.check_uses_allocators(cg, construct.directive)
        construct = self.defaultmap_applied(cg, construct)
        if construct.directive.has("target") and clauses_named(construct.directive, "in_reduction"):
            construct = task_reductions.mapped_target(cg, construct)
        directive = construct.directive
        # target, its combinations, and the stand-alone target enter/exit data and update
        # (their leaf is the whole name, so directive.has("target") misses them)
        if directive.kind.split()[0] == "target" and any(c.name in ("nowait", "depend") for c in directive.clauses):
            self.emit_target_task(cg, construct, super().emit_construct)
        else:
            super().emit_construct(cg, construct)

    def emit_compute_construct(self, cg, construct) -> None:
        if not construct.directive.has("target"):
            super().emit_compute_construct(cg, construct)
            return
        if clauses_named(construct.directive, "in_reduction"):     # a participant: task_reductions.py
            with task_reductions.participate(cg, task_reductions.fold_targets(cg, construct.directive)):
                self.emit_compute_construct(cg, task_reductions.without_clauses(construct, ("in_reduction",)))
            return
        if is_reverse_offload(construct.directive):         # on the host, which runs what encloses it
            self._host_version(cg, construct)
            return
        kernel_name = self._kernel_name(cg, construct)
        region = plan_region(cg, construct, kernel_name, self.planning_inputs,
                             frozenset(self.declare_target_globals))
        self.regions.append(region)
        if not region.launched:
            self._run_on_host(cg, region)
            return
        fallback = cg.new_block("target.host")
        done = cg.new_block("target.done")
        self._branch_on_if_clause(cg, construct.directive, "target", fallback)
        status = self._launch(cg, region)
        ran = cg.builder.icmp_signed("==", status, ir.Constant(I32, 0))
        cg.builder.cbranch(ran, done, fallback)
        cg.builder.position_at_end(fallback)
        self._host_version(cg, construct)
        cg.branch_if_open(done)
        cg.builder.position_at_end(done)

    def _run_on_host(self, cg, region) -> None:
        """A region the GPU cannot run sees, and leaves, the device's copy of any data an
        enclosing target data region (or enter data, or declare target) put there: the
        launcher brings the host's copies up to date before and the device's after
        (OffloadRuntime.host_region_*). Every mapping of the device, not only the region's
        captures: the region may reach mapped data through any pointer."""
        device = cg.builder.sext(self._device(cg, region.directive), I64)
        self._host_region_call(cg, OffloadRuntime.host_region_begin, device, region.directive)
        self._host_version(cg, region.construct)
        if not cg.builder.block.is_terminated:
            self._host_region_call(cg, OffloadRuntime.host_region_end, device, region.directive)

    def _host_region_call(self, cg, entry: RuntimeFunction, device: ir.Value, directive) -> None:
        function = entry.declare(cg.module.module)
        cg.builder.call(function, [device, _where(cg, directive)])

    def _host_version(self, cg, construct) -> None:
        self._target_depth += 1
        try:
            super().emit_compute_construct(cg, construct)
        finally:
            self._target_depth -= 1

    def _kernel_name(self, cg, construct) -> str:
        line = getattr(construct.coord, "line", 0)
        unit = f"{self.unit_id}_" if self.unit_id else ""
        # An outlined parallel region's or task's function is `main._omp_fn.N`: a PTX name
        # has no dots.
        function = re.sub(r"[^A-Za-z0-9_]", "_", cg.function.name)
        base = f"__omp_offloading_{unit}{function}_l{line}"
        name, count = base, 1
        while name in self._kernel_names:
            count += 1
            name = f"{base}_{count}"
        self._kernel_names.add(name)
        return name

    def _branch_on_if_clause(self, cg, directive, modifier: str, otherwise) -> None:
        """`if([modifier:] expr)`: false means run on the host."""
        for clause in clauses_named(directive, "if"):
            if clause.modifier in (None, modifier):
                go = cg.new_block("target.if")
                cg.builder.cbranch(cg.condition(clause.expr), go, otherwise)
                cg.builder.position_at_end(go)

    def _launch(self, cg, region) -> ir.Value:
        # The launch is shaped by the GPU's version of the region; the launcher runs a
        # kernel whose version (the CPU device's) has no teams as one team.
        construct = region.for_device("gpu").construct
        arrays, labels = self._entry_arrays(cg, region.captures, target_params=True)
        if region.gpu.fixed_launch is not None:
            num_teams, thread_limit = (ir.Constant(I32, n) for n in region.gpu.fixed_launch)
            fewest = None
        else:
            num_teams, fewest = launch_shape.team_count(cg, construct)
            thread_limit = launch_shape.team_size(cg, construct, region.for_device("gpu").facts)
        device = self._device(cg, construct.directive)
        trip_count, launcher_trip_count = launch_shape.launch_trip_counts(cg, construct)
        num_teams = launch_shape.capped_by_trip_count(cg, num_teams, trip_count, construct, fewest)
        name = cg.builder.bitcast(cg.module.string_global(region.kernel_name.encode()), I8P)
        target = OffloadRuntime.target.declare(cg.module.module)
        return cg.builder.call(target, [cg.builder.sext(device, I64), name, *arrays,
                                        num_teams, thread_limit, launcher_trip_count,
                                        _where(cg, construct.directive, labels)])

    def emit_interop(self, cg, construct) -> None:
        """`#pragma omp interop` (OpenMP 5.1): codegen/openmp/host/interop.py."""
        interop.emit(cg, construct.directive, self._device(cg, construct.directive), _where(cg, construct.directive))

    def _device(self, cg, directive) -> ir.Value:
        """The device clause, else -1: the launcher's default-device-var (which
        omp_set_default_device updates)."""
        return evaluate_clause(cg, directive, "device", abi.DEFAULT_DEVICE)

    def _entry_arrays(self, cg, captures: list[Capture], target_params: bool, update: bool = False,
                      discontiguous=()):
        """alloca'd bases/begins/sizes/types arrays for the launcher, filled now: each
        capture's entries, its kernel parameter's first (TARGET_PARAM with target_params);
        then target update's discontiguous (item, bits) (strided_sections.py). Also the
        entries' labels, for the runtime's messages about an entry (abi.py)."""
        param_bits = MapType.TARGET_PARAM if target_params else MapType.NONE
        entries, labels = [], []
        for capture in captures:
            made = capture_entries(cg, capture, len(entries), param_bits, update)
            entries += made
            labels += [_label(capture)] * len(made)
        for item, bits in discontiguous:
            entries.append(strided_sections.entry(cg, item, bits))
            labels.append(f"'{item.spelling}' (line {getattr(item.coord, 'line', 0)})")
        return _stored_entries(cg, entries), labels

    # ----------------------------------------------------------------- data constructs
    def _data_call(self, cg, construct, entry: RuntimeFunction, clause_names, if_modifier: str):
        """One launcher call for a data construct's clauses, unless its `if` is false.
        Returns (made, arrays, device, labels): a slot that says whether the call was made,
        and the entry arrays, device and entry labels it passed, for target data's exit call."""
        directive = construct.directive
        captures, discontiguous = {}, []
        update = entry is OffloadRuntime.data_update
        for clause in directive.clauses:
            if clause.name not in clause_names:
                continue
            if clause.name == "map":
                bits = map_bits(clause)
            else:
                bits = MapType.TO if clause.name == "to" else MapType.FROM
                bits |= MapType.PRESENT if clause.present else MapType.NONE
            make = clause_capture(cg, clause)
            for item in clause.items:
                if update and strided_sections.is_discontiguous(item):
                    discontiguous.append((item, bits))
                    continue
                mappers.add_mapped_item(cg, captures, item, bits, clause.mapper, make,
                                        lambda name, coord: (name, len(captures)))   # both kept, in order
        captures = list(captures.values())
        made = cg.alloca(ct.INT, "target.data.made")
        device_slot = cg.alloca(ct.LONG, "target.data.device")
        cg.builder.store(ir.Constant(I32, 0), made)
        skip = cg.new_block("target.data.skip")
        self._branch_on_if_clause(cg, directive, if_modifier, skip)
        arrays, labels = self._entry_arrays(cg, captures, target_params=False, update=update,
                                            discontiguous=discontiguous)
        cg.builder.store(cg.builder.sext(self._device(cg, directive), I64), device_slot)
        self._call_data_entry(cg, entry, arrays, device_slot, directive, labels)
        cg.builder.store(ir.Constant(I32, 1), made)
        cg.builder.branch(skip)
        cg.builder.position_at_end(skip)
        return made, arrays, device_slot, labels

    def _call_data_entry(self, cg, entry: RuntimeFunction, arrays, device_slot, directive, labels=()) -> None:
        function = entry.declare(cg.module.module)
        cg.builder.call(function, [cg.builder.load(device_slot), *arrays, _where(cg, directive, labels)])

    def emit_target_enter_data(self, cg, construct) -> None:
        self._data_call(cg, construct, OffloadRuntime.data_begin, ("map",), "target enter data")

    def emit_target_exit_data(self, cg, construct) -> None:
        self._data_call(cg, construct, OffloadRuntime.data_end, ("map",), "target exit data")

    def emit_target_update(self, cg, construct) -> None:
        """The motion clauses in one launcher call; those with an `iterator` modifier
        one call per iteration, each moving that iteration's items alone
        (map_iterators.py), all under the construct's one `if`."""
        directive = construct.directive
        iterated = [c for c in directive.clauses if c.name in ("to", "from") and c.iterators]
        if not iterated:
            self._data_call(cg, construct, OffloadRuntime.data_update, ("to", "from"), "target update")
            return
        skip = cg.new_block("target.update.skip")
        self._branch_on_if_clause(cg, directive, "target update", skip)
        others = [c for c in directive.clauses if c.name != "if" and c not in iterated]
        if any(c.name in ("to", "from") for c in others):
            self._data_call(cg, OmpConstruct(replace(directive, clauses=others), None, construct.coord),
                            OffloadRuntime.data_update, ("to", "from"), "target update")
        device_clauses = [c for c in others if c.name == "device"]
        for clause in iterated:
            for item in clause.items:
                check_item(item, clause.iterators, clause.name)
            one = OmpConstruct(replace(directive, clauses=device_clauses + [replace(clause, iterators=[])]),
                               None, construct.coord)
            for_each_iteration(cg, clause.iterators, lambda one=one: self._data_call(
                cg, one, OffloadRuntime.data_update, ("to", "from"), "target update"))
        cg.builder.branch(skip)
        cg.builder.position_at_end(skip)

    def emit_target_data(self, cg, construct) -> None:
        """Map on entry, unmap on exit; use_device_ptr names the device pointer inside.
        The exit passes the entries made at entry, as Clang does: the storage mapped then
        is what is copied back and released, whatever the body does to the pointers
        (`p = b` inside the region must not send p[0:n]'s data to b)."""
        made, arrays, device_slot, labels = self._data_call(cg, construct, OffloadRuntime.data_begin, ("map",),
                                                    "target data")
        with cg.block_scope():
            self._use_device_pointers(cg, construct.directive)
            cg.stmt(construct.body)
        if not cg.builder.block.is_terminated:
            end, done = cg.new_block("target.data.end"), cg.new_block("target.data.done")
            was_made = cg.builder.icmp_signed("!=", cg.builder.load(made), ir.Constant(I32, 0))
            cg.builder.cbranch(was_made, end, done)
            cg.builder.position_at_end(end)
            self._call_data_entry(cg, OffloadRuntime.data_end, _rebuilt_in_place(cg, arrays), device_slot,
                                  construct.directive, labels)
            cg.builder.branch(done)
            cg.builder.position_at_end(done)

    def _use_device_pointers(self, cg, directive) -> None:
        """use_device_ptr(p): inside, p holds the device address of what it points to;
        use_device_addr(x) (OpenMP 5.0): inside, x is the device's copy of x (`&x`, or an
        array's name, gives the device address). Looked up once, on entry; where x is not
        mapped (no device) the host's own address stays."""
        items = [(clause.name, item) for clause in directive.clauses
                 if clause.name in ("use_device_ptr", "use_device_addr") for item in clause.items]
        if not items:
            return
        b = cg.builder
        entries, symbols = [], []
        for clause_name, item in items:
            symbol = cg.scope.lookup(item.name)
            if symbol is None or symbol.kind != "object":
                raise CompileError(f"'{item.name}' in {clause_name} is not a variable", item.coord)
            if clause_name == "use_device_ptr" and not symbol.ctype.is_pointer:
                raise CompileError(f"'{item.name}' in use_device_ptr is not a pointer", item.coord)
            if symbol.ctype.is_variable:
                raise CompileError(f"variable-length array '{item.name}' in {clause_name} is not supported",
                                   item.coord)
            address = b.load(symbol.address) if clause_name == "use_device_ptr" else symbol.address
            base = b.bitcast(address, I8P)
            entries.append((base, base, ir.Constant(I64, 0), MapType.RETURN_PARAM))
            symbols.append(symbol)
        count, bases, begins, sizes, types = _stored_entries(cg, entries)
        function = OffloadRuntime.data_begin.declare(cg.module.module)
        device = b.sext(self._device(cg, directive), I64)
        b.call(function, [device, count, bases, begins, sizes, types, _where(cg, directive)])
        for index, ((clause_name, item), symbol) in enumerate(zip(items, symbols)):
            device_address = b.load(b.gep(bases, [ir.Constant(I64, index)]))
            if clause_name == "use_device_addr":
                address = b.bitcast(device_address, symbol.ctype.ir_type().as_pointer())
            else:
                address = cg.alloca(symbol.ctype, f"{item.name}.device")
                b.store(b.bitcast(device_address, symbol.ctype.ir_type()), address)
            cg.scope.declare(Symbol(item.name, symbol.ctype, "object", address))


def _stored_entries(cg, entries):
    """alloca'd bases/begins/sizes/types arrays holding `entries` ((base, begin, size,
    bits) each), stored now: (count, bases, begins, sizes, types) for a launcher call."""
    b = cg.builder
    n = max(len(entries), 1)
    bases = cg.alloca(ct.ArrayType(ct.VOID_PTR, n), "offload.bases")
    begins = cg.alloca(ct.ArrayType(ct.VOID_PTR, n), "offload.begins")
    sizes = cg.alloca(ct.ArrayType(ct.LONG, n), "offload.sizes")
    types = cg.alloca(ct.ArrayType(ct.LONG, n), "offload.types")
    zero = ir.Constant(I64, 0)
    for index, (base, begin, size, flags) in enumerate(entries):
        slot = ir.Constant(I64, index)
        b.store(base, b.gep(bases, [zero, slot]))
        b.store(begin, b.gep(begins, [zero, slot]))
        b.store(size, b.gep(sizes, [zero, slot]))
        b.store(ir.Constant(I64, int(flags)), b.gep(types, [zero, slot]))
    first = [zero, zero]
    return (ir.Constant(I32, len(entries)), b.gep(bases, first), b.gep(begins, first),
            b.gep(sizes, first), b.gep(types, first))


def _rebuilt_in_place(cg, arrays):
    """The entry arrays' element pointers made again at the builder's position: those
    made at entry sit in the branch an `if` clause may skip, so they do not dominate a
    later use (the arrays themselves are entry-block allocas)."""
    return tuple(cg.builder.gep(value.pointer, value.indices) if isinstance(value, ir.GEPInstr) else value
                 for value in arrays)


def _where(cg, directive, labels=()) -> ir.Value:
    """The construct's "file:line:col" for the launcher's messages, and after its NUL the
    entries' labels, ended by an empty label (abi.py)."""
    return cg.builder.bitcast(_location(cg.module, directive.coord, labels), I8P)


def _location(module, coord, labels=()):
    """A NUL-terminated "file:line:col" global (then `labels`, each NUL-terminated, and an
    empty one)."""
    text = f"{getattr(coord, 'file', '')}:{getattr(coord, 'line', 0)}:{getattr(coord, 'column', 0)}"
    return module.string_global("\0".join([text, *labels, ""]).encode())


def _label(capture: Capture) -> str:
    """A map entry's list item as the program wrote it, for the runtime's messages."""
    item = capture.item or (capture.members[0].item if capture.members else None)
    if item is None:
        return f"'{capture.name}'"
    spelled = item.spelling if capture.item is not None else capture.name
    return f"'{spelled}' (line {getattr(item.coord, 'line', 0)})"


def _append_global_ctor(module: ir.Module, function: ir.Function) -> None:
    entry_type = ir.LiteralStructType([I32, function.type, I8P])
    array = ir.ArrayType(entry_type, 1)
    ctors = ir.GlobalVariable(module, array, name="llvm.global_ctors")
    ctors.linkage = "appending"
    ctors.initializer = ir.Constant(array, [ir.Constant(entry_type, [
        ir.Constant(I32, 65535), function, ir.Constant(I8P, None)])])
