"""How large inlining may make a function (GCC's large-function limits), decided
on codegen's llvmlite.ir module before LLVM parses it: functions called once that
would take their caller past the cap are marked `noinline`."""

from __future__ import annotations

import re

from llvmlite import ir

# Inlining growth (see limit_inlining_growth), in unoptimised IR instructions.
LARGE_FUNCTION_INSTRUCTIONS = 3000   # a caller may grow by inlining up to this size...
LARGE_FUNCTION_GROWTH = 1.0          # ...or to (1 + this) times its own size, if more
SMALL_FUNCTION_INSTRUCTIONS = 100    # callees this small are left to LLVM's own cost model


def _holds_pointers(ir_type: ir.Type) -> bool:
    if isinstance(ir_type, ir.PointerType):
        return True
    if isinstance(ir_type, ir.ArrayType):
        return _holds_pointers(ir_type.element)
    if isinstance(ir_type, ir.BaseStructType):
        return any(_holds_pointers(element) for element in ir_type.elements or ())
    return False


def _successors(block: ir.Block) -> list:
    terminator = block.terminator
    if terminator is None:
        return []
    targets = [op for op in terminator.operands if isinstance(op, ir.Block)]
    if isinstance(terminator, ir.SwitchInstr):
        targets += [terminator.default, *(target for _, target in terminator.cases)]
    elif isinstance(terminator, ir.IndirectBranch):
        targets += terminator.destinations
    return targets


def _blocks_in_loops(function: ir.Function) -> set:
    """The blocks on a cycle of `function`'s control-flow graph (Tarjan's strongly
    connected components, iteratively)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    looping: set = set()
    counter = 0
    for root in function.blocks:
        if root in index:
            continue
        work = [(root, iter(_successors(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            block, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(_successors(successor))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[block] = min(low[block], index[successor])
                    if successor is block:
                        looping.add(block)              # a self-loop
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[block])
            if low[block] == index[block]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is block:
                        break
                if len(component) > 1:
                    looping.update(component)
    return looping


# A global's name in LLVM assembly: @"quoted" or @plain.
_GLOBAL_REFERENCE = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([-\w.$]+))')


def limit_inlining_growth(module: ir.Module, whole_program: bool = False) -> list[str]:
    """Cap how large inlining makes a function, as GCC does (its large-function-insns
    and large-function-growth parameters), by marking `noinline` the functions with a
    single call site that would take their caller past the cap.

    LLVM inlines a static function called once whatever its size (a bonus that makes
    it all but certain), so a `main` that calls a hundred such functions once each
    becomes one function of tens of thousands of instructions, and several passes
    (loop vectorisation above all) take time that grows faster than linearly with a
    function's size: on the start-up benchmark's generated program, -O2 takes 0.95 s
    at 2,000 lines and 2.5 s at 4,000 without the cap, 0.7 s and 1.3 s with it. What
    the cap gives up is one call's overhead per call of a function that LLVM's own
    measure would not inline without the bonus. Sizes are counted in `module`'s
    unoptimised instructions, bottom-up in the call graph (a callee's size includes
    what is inlined into it). A call inside a loop is never marked: its callee is
    inlined as LLVM decides, and counts towards the cap. Nor is a function holding a
    loop inlined into a caller already past LARGE_FUNCTION_INSTRUCTIONS, however
    small: scalar evolution's work per loop grows with the blocks above it, so loops
    inlined into a huge main made -O2 quadratic (a 50,000-line file: 82 s, 28 s with
    its loops left in their functions). `whole_program`: every
    function but main is to become internal (host.internalise), so external ones
    count as static. Returns the names marked."""
    functions = [f for f in module.functions if f.blocks]
    defined = set(functions)
    own: dict[ir.Function, int] = {}
    calls: dict[ir.Function, list] = {}     # caller -> (direct callee, in a loop), in order
    call_sites: dict[ir.Function, int] = {}
    address_taken: set[ir.Function] = set()
    has_loops: dict[ir.Function, bool] = {}     # itself or what is inlined into it
    for function in functions:
        size, callees = 0, []
        looping = _blocks_in_loops(function)
        has_loops[function] = bool(looping)
        for block in function.blocks:
            size += len(block.instructions)
            for instruction in block.instructions:
                callee = getattr(instruction, "callee", None) \
                    if isinstance(instruction, ir.CallInstr) else None
                if callee in defined:
                    callees.append((callee, block in looping))
                    call_sites[callee] = call_sites.get(callee, 0) + 1
                for operand in instruction.operands:
                    if isinstance(operand, ir.Function) and operand is not callee:
                        address_taken.add(operand)
        own[function], calls[function] = size, callees
    by_name = {f.name: f for f in functions}
    for variable in module.global_values:
        if isinstance(variable, ir.GlobalVariable) and variable.initializer is not None \
                and _holds_pointers(variable.value_type):
            # The names the initializer's text refers to, looked up: linear in the module
            # (testing every function's name against every initializer was not).
            for quoted, plain in _GLOBAL_REFERENCE.findall(str(variable.initializer)):
                function = by_name.get(quoted or plain)
                if function is not None:
                    address_taken.add(function)

    def bonus_inlined(callee: ir.Function) -> bool:
        """Whether LLVM would inline `callee` whatever its size."""
        local = callee.linkage in ("internal", "private") or (whole_program
                                                               and callee.name != "main")
        return (local and call_sites.get(callee) == 1
                and callee not in address_taken and "noinline" not in callee.attributes)

    grown: dict[ir.Function, int] = {}
    marked: list[str] = []

    def visit(function: ir.Function, active: set) -> int:
        if function in grown:
            return grown[function]
        active.add(function)
        size = own[function]
        limit = max(LARGE_FUNCTION_INSTRUCTIONS, int(own[function] * (1 + LARGE_FUNCTION_GROWTH)))
        for callee, in_loop in calls[function]:
            if callee in active or not bonus_inlined(callee):
                continue
            callee_size = visit(callee, active)
            # A loop inlined at a call made once gains one call's overhead, but LLVM's loop
            # passes (scalar evolution walking the blocks above each loop) take time that
            # grows with the caller's size per loop: past LARGE_FUNCTION_INSTRUCTIONS,
            # loops stay in their own functions.
            loop_into_large = has_loops[callee] and size > LARGE_FUNCTION_INSTRUCTIONS
            if in_loop or "alwaysinline" in callee.attributes or not loop_into_large and (
                    callee_size <= SMALL_FUNCTION_INSTRUCTIONS or size + callee_size <= limit):
                size += callee_size
                has_loops[function] = has_loops[function] or has_loops[callee]
            else:
                callee.attributes.add("noinline")
                marked.append(callee.name)
        active.discard(function)
        grown[function] = size
        return size

    for function in functions:
        visit(function, set())
    return marked
