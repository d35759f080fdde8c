"""Target regions for the CPU device: OpenCL-style work-group functions
(shared/design/cpu-workgroup.md).

A league of teams is an NDRange of work-groups; the worker pool
(runtime/cpu_device/pool.c) calls each region's entry function once per
work-group:

    void <kernel>(void **args, long group, long num_groups, int threads)

which unpacks the kernel parameters (args[i] points at parameter i's bytes, as
CUDA's kernelParams) and runs the work-group function `<kernel>.wg`, inlined.

- "cpu-combined": `target teams distribute parallel for` (the regions the GPU's
  combined scheme takes, region_shape.py): work-group g runs one contiguous block of
  the (collapsed) iteration space, sizes differing by at most one, as a plain
  counted loop over its work-items -- the innermost loop, with no runtime call
  in it, so LLVM's loop vectoriser sees it (paper Section 8's advice: make the
  work-item loop the innermost one). Reductions: one private partial result per
  work-group, combined into the mapped variable with one atomic per group;
  lastprivate: the group holding the last iteration copies out.
- "cpu-sequential": every other region runs as one work-group of one work-item,
  with the host scheme's sequential semantics for what it holds (a team may
  have one thread, a league one team) -- the serial regions exactly, and the
  regions the GPU needs the control loop for, correctly if not in parallel.

The module is compiled for the host (its triple and data layout; C library
and math calls stay calls to libc and libm) and becomes part of the program's device
image (native_image.py) with runtime/cpu_device/omp_device.c linked in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.function import FunctionEmitter
from omp2gpu.codegen.ir_types import I8P, I32, I64
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.cpu.barrier_phases import (
    LEVEL,
    THREAD_NUM,
    team_state,
)
from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    clauses_named,
    loop_nest,
)
from omp2gpu.codegen.openmp.data.linear_clause import Linear
from omp2gpu.codegen.openmp.data.named_globals import named_global
from omp2gpu.codegen.openmp.gpu.device_module import (
    DeviceModuleEmitter,
    RegionScope,
    calls_openmp_api,
    declare_captures,
)
from omp2gpu.codegen.openmp.gpu.kernels import DeviceOpenMP
from omp2gpu.codegen.openmp.host import loops as host_loops
from omp2gpu.codegen.openmp.host.scheme import HostOpenMP
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.plan.region_shape import (
    combined_ineligibility,
    combined_shape,
    nested_constructs,
    team_size_ineligibility,
)
from omp2gpu.codegen.openmp.plan.scheme_interface import BuiltKernel, WorkGroupScheme, accepted_region
from omp2gpu.diagnostics import SourceLocation
from omp2gpu.offload.abi import COMBINED_BLOCK_SIZE, CPU_COMBINED, CPU_SEQUENTIAL
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.loop_construct import loop_lowering_remarks
from omp2gpu.sema.metadirectives import metadirective_remarks
from omp2gpu.sema.openmp_context import DEVICES
from omp2gpu.targets import host


@dataclass
class CpuBuild:
    module: object                                   # llvmlite ir.Module for the host
    kernels: list[BuiltKernel] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    variables: tuple = ()                           # the declare target variables it defines


class CpuOpenMP(DeviceOpenMP):
    """Constructs inside CPU work-group functions: atomics are real atomics and critical
    sections real locks (teams run at once on several workers); everything else runs as
    on the host, in one thread, with the nesting calls going to the CPU device's omp_*
    state (omp_device.c)."""

    atomic_syncscope = None             # the workers are host threads
    device_name = "cpu"

    nesting_calls = HostOpenMP.nesting_calls
    host_compute_construct = HostOpenMP.emit_compute_construct
    emit_error = HostOpenMP.emit_error          # runtime/host/error_directive.c is linked in too

    # In a CPU teams region (cpu_teams.py) its scheme object takes the constructs it splits.
    def emit_construct(self, cg, construct) -> None:
        teams = cg.openmp_state.cpu_team
        if teams is None or not teams.construct(cg, construct):
            super().emit_construct(cg, construct)

    def local_address(self, cg, declaration, ctype):
        teams = cg.openmp_state.cpu_team
        return None if teams is None else teams.local_address(cg, declaration, ctype)

    def emit_critical(self, cg, construct) -> None:
        """A spin lock per critical name, shared by every work-group of the program."""
        b = cg.builder
        lock = critical_lock(cg.module.module, construct.directive.critical_name)
        acquire, body = cg.new_block("critical.acquire"), cg.new_block("critical.body")
        b.branch(acquire)
        b.position_at_end(acquire)
        pair = b.cmpxchg(lock, ir.Constant(I32, 0), ir.Constant(I32, 1), "acquire", "monotonic")
        b.cbranch(b.extract_value(pair, 1), body, acquire)
        b.position_at_end(body)
        self._emit_body(cg, construct)
        if not b.block.is_terminated:
            b.store_atomic(ir.Constant(I32, 0), lock, "release", 4)


def critical_lock(module: ir.Module, name: str | None) -> ir.GlobalVariable:
    return named_global(module, f"omp2gpu.critical.{name or 'unnamed'}", I32, "internal", ir.Constant(I32, 0),
                        align=64)                # a line of its own


class CpuModuleEmitter(DeviceModuleEmitter):
    """The device module emitter, targeting the host: no special builtins (printf and
    the math library are the C library's), the host's triple and data layout."""

    has_x86_fp80 = True
    emits_alias_types = True
    device_name = "cpu"

    def target_builtins(self) -> dict:
        return {}

    def configure_module(self) -> None:
        machine = host.target_machine()
        self.module.triple = machine.triple
        self.module.data_layout = str(machine.target_data)

    def library_function(self, name: str) -> str | None:
        return None

    def mark_kernel(self, kernel: ir.Function) -> None:
        pass

    def debug_info_of(self, host):
        return host.debug_info and host.debug_info.for_module(self.module)

    def emit_workgroup(self, region, scheme) -> ir.Function:
        """The work-group function (internal) and the entry the pool calls."""
        params = [capture.param_ir_type() for capture in region.captures]
        wg_type = ir.FunctionType(ir.VoidType(), params + [I64, I64, I32])
        wg = ir.Function(self.module, wg_type, name=f"{region.kernel_name}.wg")
        wg.linkage = "internal"
        scope = RegionScope(region.scope, self.file_scope)
        cg = FunctionEmitter(self, wg, ct.FunctionType(ct.VOID, ()), scope)
        if cg.debug is not None:
            cg.subprogram(region.construct.coord)          # -g: the function is the region's
        declare_captures(cg, scope, region.captures, wg.args)
        group, num_groups, threads = wg.args[len(params):]
        group.name, num_groups.name, threads.name = "group", "num_groups", "threads"
        scheme.emit_workgroup_body(cg, region, group, num_groups, threads)
        cg.finish()
        self._emit_entry(region, wg, params)
        return wg

    def _emit_entry(self, region, wg, params) -> ir.Function:
        entry_type = ir.FunctionType(ir.VoidType(), [I8P.as_pointer(), I64, I64, I32])
        entry = ir.Function(self.module, entry_type, name=region.kernel_name)
        args, group, num_groups, threads = entry.args
        args.name = "args"
        b = ir.IRBuilder(entry.append_basic_block("entry"))
        values = []
        for index, (capture, param_type) in enumerate(zip(region.captures, params)):
            slot = b.load(b.gep(args, [ir.Constant(I64, index)]))
            if capture.kind == "literal":           # the parameter's bytes, maybe unaligned
                value = b.load(b.bitcast(slot, param_type.as_pointer()), align=1)
            else:                                   # an 8-byte device address
                value = b.bitcast(b.load(b.bitcast(slot, I8P.as_pointer()), align=1), param_type)
            values.append(value)
        b.call(wg, values + [group, num_groups, threads])
        b.ret_void()
        return entry


def _team_word(cg, state, index: int) -> ir.Value:
    return cg.builder.gep(state, [ir.Constant(I64, index)])


# ----------------------------------------------------------------- schemes
# Constructs a work-item loop runs as they are: one work-group's work-items run one after
# another on one worker, and atomics and critical sections synchronise the workers.
WORK_ITEM_CONSTRUCTS = ("atomic", "critical", "simd")


class CpuCombined(WorkGroupScheme):
    """`target teams distribute parallel for` as a work-item loop over the group's block."""

    name = CPU_COMBINED
    block_size = COMBINED_BLOCK_SIZE    # the GPU's default team size, which only omp_get_num_threads sees

    @staticmethod
    def ineligibility(construct, facts=None) -> str | None:
        """Wider than the GPU's combined scheme (region_shape.combined_ineligibility):
        schedules, critical sections and array reductions cost a work-item loop nothing."""
        shape = combined_shape(construct)
        if shape is None:
            return combined_ineligibility(construct)
        for clause in clauses_named(shape.loop_directive, "dist_schedule"):
            if clause.chunk is not None:
                return "dist_schedule with a chunk size deals iterations to teams round-robin"
        reason = team_size_ineligibility(construct, shape)
        if reason:
            return reason
        inner = [c for c in nested_constructs(shape.loop) if c.directive.kind not in WORK_ITEM_CONSTRUCTS]
        if inner:
            return f"the loop body holds '#pragma omp {inner[0].directive.kind}'"
        return None

    def emit_workgroup_body(self, cg, region, group, num_groups, threads) -> None:
        shape = combined_shape(region.construct)
        depth = max([c.count for c in clauses_named(shape.clauses, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(shape.loop, depth)]
        api = calls_openmp_api(shape.loop, cg.module.host.function_definitions)
        b = cg.builder
        with cg.block_scope():
            for declaration in shape.prelude:       # read-only: once per group
                cg.stmt(declaration)
            bounds, iv_type, trips, total = canonical_loop.loop_nest_space(cg, loops)
            ir_iv = iv_type.ir_type()
            # This group's block [first, end): a balanced split, sizes differing by one at most.
            g = b.trunc(group, ir_iv) if ir_iv.width < 64 else group
            parts = b.trunc(num_groups, ir_iv) if ir_iv.width < 64 else num_groups
            share, rest = b.udiv(total, parts), b.urem(total, parts)
            extra = b.select(b.icmp_unsigned("<", g, rest), g, rest)
            first = b.add(b.mul(g, share), extra)
            one_more = b.zext(b.icmp_unsigned("<", g, rest), ir_iv)
            end = b.add(b.add(first, share), one_more)
            holds_last = b.and_(b.icmp_unsigned("==", end, total), b.icmp_unsigned("<", first, end))
            # A distribute's linear names only the loop's variable (sema): lastprivate.
            linear = Linear(cg, shape.clauses, {loop.variable for loop in loops})
            environment = DataEnvironment(
                cg, linear.other_clauses, loop_variables=[],
                combine_reduction=lambda op, original, private: _combine_atomically(cg, op, original, private),
                lastprivate_condition=lambda: holds_last)
            with environment:
                variables = canonical_loop.declare_loop_variables(cg, loops, bounds, environment)
                per_thread = None
                if api:
                    state = team_state(cg)
                    b.store(ir.Constant(I32, 1), _team_word(cg, state, LEVEL))
                    length = b.sub(end, first)
                    workers = convert(b, threads, ct.INT, iv_type)
                    workers = b.select(b.icmp_signed(">", workers, ir.Constant(ir_iv, 0)), workers,
                                       ir.Constant(ir_iv, 1))
                    per_thread = b.udiv(b.add(length, b.sub(workers, ir.Constant(ir_iv, 1))), workers)
                    per_thread = b.select(b.icmp_unsigned("==", per_thread, ir.Constant(ir_iv, 0)),
                                          ir.Constant(ir_iv, 1), per_thread)
                self._work_item_loop(cg, loops[-1].body, bounds, trips, iv_type, variables, first, end,
                                     (state, per_thread) if api else None)
                if api:
                    b.store(ir.Constant(I32, 0), _team_word(cg, state, LEVEL))

    @staticmethod
    def _work_item_loop(cg, body, bounds, trips, iv_type, variables, first, end, numbering) -> None:
        if numbering is None and canonical_loop.dependent_innermost(bounds):
            # a triangle: row by row, its row found once a row (host_loops._dependent_rows)
            host_loops.counted_loop(cg, body, (bounds, trips, iv_type, variables), first, end, iv_type)
            return
        b = cg.builder
        ir_iv = iv_type.ir_type()
        iv, next_block, end_block = canonical_loop.loop_head(cg, "wi", first, end, signed=False, with_next=True)
        canonical_loop.set_loop_variables(cg, bounds, trips, iv_type, iv, variables)
        if numbering is not None:               # omp_get_thread_num(): blocks of work-items
            state, per_thread = numbering
            thread = b.udiv(b.sub(iv, first), per_thread)
            b.store(convert(b, thread, iv_type, ct.INT), _team_word(cg, state, THREAD_NUM))
        with cg.loop_targets(end_block, next_block):
            cg.stmt(body)
        cg.branch_if_open(next_block)
        b.position_at_end(next_block)
        canonical_loop.close_loop(cg, iv, b.add(iv, ir.Constant(ir_iv, 1), flags=["nuw"]), end_block)


class CpuSequential(WorkGroupScheme):
    """The region as the host runs it: one work-group, one work-item (its initial thread)."""

    name = CPU_SEQUENTIAL

    def emit_workgroup_body(self, cg, region, group, num_groups, threads) -> None:
        cg.openmp.emit_compute_construct(cg, region.construct)


def _combine_atomically(cg, op: str, original, private) -> None:
    """One atomic per work-group folds its partial result into the mapped variable."""
    atomic_combine(cg, op, original.ctype, original.address, cg.builder.load(private.address))


# ----------------------------------------------------------------- the module
def build_cpu_module(host_emitter, offload) -> CpuBuild:
    """A work-group function for every target region the host launches, by the first of
    its plan's CPU schemes whose `device_refusal` its facts pass (a region that runs on
    the host has none)."""
    emitter = CpuModuleEmitter(host_emitter, CpuOpenMP(), offload.declare_target_globals, name="cpu")
    emitter.host_only_functions = frozenset(offload.host_only_functions)
    build = CpuBuild(emitter.module)
    for plan in offload.regions:
        if not plan.cpu:
            continue
        where = SourceLocation.of(plan.construct.coord)
        on_cpu = plan.for_device("cpu")
        passed_over = []
        for scheme in plan.cpu:
            refusal = scheme.device_refusal(on_cpu.facts)
            if refusal is not None:
                passed_over.append(f"not {scheme.name}: {refusal}")
                continue
            with accepted_region(on_cpu, scheme):
                build.kernels.append(scheme().emit_region(emitter, on_cpu))
                emitter.emit_pending_functions()
            why = f" ({'; '.join(passed_over)})" if passed_over else ""
            build.remarks.append(f"{where}: remark: target region -> CPU work-group function "
                                 f"{plan.kernel_name}: {scheme.name}{why}")
            break
        else:
            build.remarks.append(f"{where}: remark: target region runs on the host instead of the "
                                 f"CPU device: {refusal}")
        build.remarks += loop_lowering_remarks(plan.construct)    # how each `loop` was lowered
        build.remarks += metadirective_remarks(plan.construct, DEVICES["cpu"])   # what each became
    build.remarks += emitter.export_declare_target(offload, with_functions=offload.separate_compilation)
    build.variables = emitter.declare_target_variables()
    emitter.finish_debug_info()
    return build


def describe(build: CpuBuild) -> str:
    return "\n".join(build.remarks)
