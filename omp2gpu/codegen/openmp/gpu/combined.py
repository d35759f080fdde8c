"""The combined-construct scheme (paper Section 4): an SPMD grid-stride loop.

For `target teams distribute parallel for` every GPU thread computes its own
share of the iteration space; there is no team master, no state machine and
no runtime call (`target parallel for` is one team of it):

    for (iv = blockIdx.x * blockDim.x + threadIdx.x; iv < trip_count;
         iv += blockDim.x * gridDim.x)
        { vars = lb + decompose(iv) * step; body; }

`collapse(n)` linearises the nest into one iv; with dist_schedule(static, chunk) the
teams take the chunks round-robin and a team's threads a chunk's iterations in turn
(an outer loop over the team's chunks). Reductions: each thread keeps a
private partial result; after the loop a warp-shuffle tree and a shared-memory
step reduce them per team, and one atomic per team folds the team's result
into the mapped variable; an array (section) of a short array, element by element.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I1, I32
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    clauses_named,
    loop_nest,
    reduction_identity,
)
from omp2gpu.codegen.openmp.data.linear_clause import Linear
from omp2gpu.codegen.openmp.gpu.device_module import kernel_init, uses_openmp_api
from omp2gpu.codegen.openmp.gpu.warp_reductions import WARP_SIZE, bounded, warp_reduce
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.plan.device_refusals import combined_refusal, kernel_refusal
from omp2gpu.codegen.openmp.plan.region_shape import combined_ineligibility, combined_shape
from omp2gpu.codegen.openmp.plan.scheme_interface import GpuKernelScheme
from omp2gpu.diagnostics import CompileError
from omp2gpu.offload.abi import COMBINED_BLOCK_SIZE, GPU_COMBINED
from omp2gpu.sema import ctypes as ct
from omp2gpu.targets import nvptx

MAX_WARPS = 32

class CombinedConstruct(GpuKernelScheme):
    name = GPU_COMBINED
    block_size = COMBINED_BLOCK_SIZE

    @staticmethod
    def ineligibility(construct, facts=None) -> str | None:
        return combined_ineligibility(construct, facts, gpu=True)

    @staticmethod
    def device_refusal(facts) -> str | None:
        return kernel_refusal(facts) or combined_refusal(facts)

    def emit_kernel_body(self, cg, region) -> None:
        shape = combined_shape(region.construct, gpu=True)
        depth = max([c.count for c in clauses_named(shape.clauses, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(shape.loop, depth)]
        if uses_openmp_api(shape.loop):
            kernel_init(cg, spmd=True)
        with cg.block_scope():
            for declaration in shape.prelude:       # each thread its own copy
                cg.stmt(declaration)
            bounds, iv_type, trips, total = canonical_loop.loop_nest_space(cg, loops)
            chunk = _dist_chunk(cg, shape, iv_type)     # before the privates: the original variables
            last_flag = cg.alloca(ct.BOOL, "is.last")
            cg.builder.store(ir.Constant(ir.IntType(8), 0), last_flag)
            # linear of the loop's own variable is lastprivate; of another variable (a
            # `parallel for`'s), each thread's copy is x0 + iteration * step, and the thread
            # that ran the last iteration copies it out.
            linear = Linear(cg, shape.clauses, {loop.variable for loop in loops})

            def ran_last():
                return cg.builder.trunc(cg.builder.load(last_flag), I1)
            reductions = TeamReductions(cg)
            environment = DataEnvironment(
                cg, linear.other_clauses, loop_variables=[],
                combine_reduction=reductions, after_reductions=reductions.fold_gathered,
                lastprivate_condition=ran_last,
                combine_section_element=lambda op, original, private: reduce_into(cg, op, original, private))
            with environment:
                variables = canonical_loop.declare_loop_variables(cg, loops, bounds, environment)
                linear.declare_copies()
                self._grid_stride_loop(cg, loops[-1].body, bounds, trips, total, iv_type,
                                       variables, last_flag, linear, chunk, shape.per_team)
                linear.copy_out(ran_last())

    def _grid_stride_loop(self, cg, body, bounds, trips, total, iv_type, variables, last_flag, linear,
                          chunk=None, per_team=False):
        """The loop over the iteration space: a grid-stride loop; with `chunk` (dist_schedule's,
        in iv_type), the teams take chunks of that many iterations round-robin and a team's
        threads take the iterations of its chunk in turn; `per_team`, each team's threads
        take all the iterations in turn (a teams region's `parallel for`)."""
        b = cg.builder
        ir_iv = iv_type.ir_type()

        def sreg(name):
            return convert(b, nvptx.read_sreg(b, name), ct.UINT, iv_type)
        # The block size read first, once: ptxas (12.x/13.x, sm_90) then allocates two
        # fewer registers for vadd, the 20 of nvcc's own grid-stride loop.
        block = sreg("ntid.x")
        last = b.sub(total, ir.Constant(ir_iv, 1))
        strided = (body, bounds, trips, iv_type, variables, last_flag, linear, last)
        if per_team:
            self._strided_loop(cg, *strided, sreg("tid.x"), block, total)
            return
        if chunk is None:
            start = b.add(b.mul(sreg("ctaid.x"), block), sreg("tid.x"))
            self._strided_loop(cg, *strided, start, b.mul(block, sreg("nctaid.x")), total)
            return
        first, stride = b.mul(sreg("ctaid.x"), chunk), b.mul(sreg("nctaid.x"), chunk)
        thread = sreg("tid.x")
        base, _, after = canonical_loop.loop_head(cg, "chunk", first, total)
        end = b.add(base, chunk)
        end = b.select(b.icmp_signed("<", end, total), end, total)
        self._strided_loop(cg, *strided, b.add(base, thread), block, end)
        canonical_loop.close_loop(cg, base, b.add(base, stride), after)

    @staticmethod
    def _strided_loop(cg, body, bounds, trips, iv_type, variables, last_flag, linear, last, start, stride, limit):
        """for (iv = start; iv < limit; iv += stride) body, noting whether this thread ran
        iteration `last`."""
        b = cg.builder
        iv, next_block, end_block = canonical_loop.loop_head(cg, "grid", start, limit, with_next=True)
        canonical_loop.set_loop_variables(cg, bounds, trips, iv_type, iv, variables)
        linear.set_for(iv)
        with cg.loop_targets(end_block, next_block):
            cg.stmt(body)
        cg.branch_if_open(next_block)
        b.position_at_end(next_block)
        is_last = b.icmp_unsigned("==", iv, last)
        previous = b.load(last_flag)
        b.store(b.select(is_last, ir.Constant(ir.IntType(8), 1), previous), last_flag)
        canonical_loop.close_loop(cg, iv, b.add(iv, stride), end_block)


def _dist_chunk(cg, shape, iv_type):
    """dist_schedule(static, chunk)'s chunk in iv_type (at least 1), None without one."""
    clause = next(iter(clauses_named(shape.clauses, "dist_schedule")), None)
    if clause is None or clause.chunk is None:
        return None
    b = cg.builder
    chunk = cg.expr_as(clause.chunk, iv_type)
    one = ir.Constant(iv_type.ir_type(), 1)
    return b.select(b.icmp_signed("<", chunk, one), one, chunk)


# ----------------------------------------------------------------- reductions
class TeamReductions:
    """The kernel's reduction variables, folded together (its combine_reduction): as the
    environment hands each over, its threads' values are reduced across each warp and the
    warp's lane 0 stores the result in shared memory; then (fold_gathered) the team meets
    once, and warp 0 folds each variable and its lane 0 makes the atomics. One barrier for
    any number of variables: reduction_all_operators' nine met nine, one after another."""

    def __init__(self, cg):
        self.cg = cg
        self.stored = []

    def __call__(self, op: str, original, private) -> None:
        self.stored.append((op, original, _store_warp_partial(self.cg, op, original, private)))

    def fold_gathered(self) -> None:
        stored, self.stored = self.stored, []
        if stored:
            nvptx.diverged_barrier(self.cg.builder)     # lane 0 arrives from its stores
            _fold_warp_partials(self.cg, stored)


def reduce_into(cg, op: str, original, private) -> None:
    """Fold one value of every thread into `original` (global memory), emitted once for
    several values (an array section's elements, in a loop): the team waits until warp 0
    has read the shared values before the next are stored."""
    shared = _store_warp_partial(cg, op, original, private)
    nvptx.diverged_barrier(cg.builder)
    _fold_warp_partials(cg, [(op, original, shared)])
    nvptx.diverged_barrier(cg.builder)


def _lane_and_warp(b):
    tid = nvptx.read_sreg(b, "tid.x")
    return b.and_(tid, ir.Constant(I32, WARP_SIZE - 1)), b.lshr(tid, ir.Constant(I32, 5))


def _store_warp_partial(cg, op: str, original, private):
    """Every thread's private value folded across its warp (shuffles); lane 0 stores the
    warp's partial in a shared array, which is returned."""
    ctype = original.ctype
    if ctype.is_integer and ctype.bits < 32:
        raise CompileError(f"a reduction on '{ctype}' is not supported on the GPU")
    b = cg.builder
    value = b.load(private.address)
    lane, warp = _lane_and_warp(b)
    in_warp = b.sub(nvptx.read_sreg(b, "ntid.x"), b.mul(warp, ir.Constant(I32, WARP_SIZE)))
    value = warp_reduce(cg, op, ctype, value, lane, bounded(b, in_warp, WARP_SIZE))
    shared = _shared_array(cg, ctype)
    store_block, after_store = cg.new_block("red.store"), cg.new_block("red.stored")
    b.cbranch(b.icmp_unsigned("==", lane, ir.Constant(I32, 0)), store_block, after_store)
    b.position_at_end(store_block)
    b.store(value, b.gep(shared, [ir.Constant(I32, 0), warp]))
    b.branch(after_store)
    b.position_at_end(after_store)
    return shared


def _fold_warp_partials(cg, stored) -> None:
    """After the team barrier: warp 0 folds each variable's warp partials, (op, original,
    shared array) each, and its lane 0 makes one atomic per variable for the team."""
    b = cg.builder
    lane, warp = _lane_and_warp(b)
    ntid = nvptx.read_sreg(b, "ntid.x")
    first_warp, done = cg.new_block("red.warp0"), cg.new_block("red.done")
    b.cbranch(b.icmp_unsigned("==", warp, ir.Constant(I32, 0)), first_warp, done)
    b.position_at_end(first_warp)
    warps = b.lshr(b.add(ntid, ir.Constant(I32, WARP_SIZE - 1)), ir.Constant(I32, 5))
    has_value = b.icmp_unsigned("<", lane, warps)
    index = b.select(has_value, lane, ir.Constant(I32, 0))
    folded = []
    for op, original, shared in stored:
        partial = b.select(has_value, b.load(b.gep(shared, [ir.Constant(I32, 0), index])),
                           reduction_identity(op, original.ctype))
        folded.append(warp_reduce(cg, op, original.ctype, partial, lane, bounded(b, ntid, WARP_SIZE)))
    atomic_block = cg.new_block("red.atomic")
    b.cbranch(b.icmp_unsigned("==", lane, ir.Constant(I32, 0)), atomic_block, done)
    b.position_at_end(atomic_block)
    for (op, original, _), partial in zip(stored, folded):
        atomic_combine(cg, op, original.ctype, original.address, partial)
    b.branch(done)
    b.position_at_end(done)


def _shared_array(cg, ctype):
    module = cg.module.module
    name = f"omp2gpu.reduction.{len(module.globals)}"
    array_type = ir.ArrayType(ctype.ir_type(), MAX_WARPS)
    variable = ir.GlobalVariable(module, array_type, name=name, addrspace=nvptx.SHARED_ADDRESS_SPACE)
    variable.linkage = "internal"
    variable.initializer = ir.Constant(array_type, ir.Undefined)
    variable.align = max(ctype.align, 4)
    return variable
