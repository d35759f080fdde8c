"""Demote SSA values that no longer dominate their uses (LLVM's reg2mem, for just those values).

Generic codegen keeps an expression's intermediate values in SSA registers. A scheme
that splits a function into states reached only through a dispatcher (the control
loop expanding a callee's parallel regions in place, as in `first + f()`) leaves a
value computed before the split used in a block it no longer dominates. Each such
value gets an entry-block slot: stored where it is computed, loaded before each use
(for a phi, at the end of the incoming block). Every other value is left alone.
"""

from __future__ import annotations

from llvmlite import ir


def successors(block: ir.Block) -> list[ir.Block]:
    terminator = block.terminator
    if terminator is None:
        return []
    targets = [op for op in terminator.operands if isinstance(op, ir.Block)]
    if isinstance(terminator, ir.SwitchInstr):
        targets += [terminator.default] + [target for _, target in terminator.cases]
    return targets + list(getattr(terminator, "destinations", ()))


def dominators(function: ir.Function) -> tuple[dict, list[ir.Block]]:
    """Immediate dominators of the reachable blocks (Cooper, Harvey and Kennedy's
    iterative algorithm over reverse postorder) and that order."""
    entry = function.blocks[0]
    order, seen, stack = [], {entry}, [(entry, iter(successors(entry)))]
    while stack:                                   # iterative DFS: postorder
        block, children = stack[-1]
        child = next(children, None)
        if child is None:
            order.append(block)
            stack.pop()
        elif child not in seen:
            seen.add(child)
            stack.append((child, iter(successors(child))))
    order.reverse()
    number = {block: i for i, block in enumerate(order)}
    predecessors: dict = {block: [] for block in order}
    for block in order:
        for child in successors(block):
            predecessors[child].append(block)
    idom = {entry: entry}

    def intersect(a, b):
        while a is not b:
            while number[a] > number[b]:
                a = idom[a]
            while number[b] > number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            done = [p for p in predecessors[block] if p in idom]
            new = done[0]
            for other in done[1:]:
                new = intersect(other, new)
            if idom.get(block) is not new:
                idom[block] = new
                changed = True
    return idom, order


def _dominates(idom: dict, a: ir.Block, b: ir.Block) -> bool:
    while True:
        if b is a:
            return True
        parent = idom[b]
        if parent is b:
            return False
        b = parent


def demote_undominated_values(function: ir.Function) -> int:
    """Give every instruction used where it does not dominate a stack slot; returns how many."""
    idom, order = dominators(function)
    position = {}
    for block in order:
        for index, instruction in enumerate(block.instructions):
            position[instruction] = (block, index)

    def available(value, block, index) -> bool:
        """value's definition dominates the point (block, index)."""
        home = position.get(value)
        if home is None:                 # arguments, constants, globals; or defined in dead code
            return not isinstance(value, ir.Instruction)
        if home[0] is block:
            return home[1] < index
        return _dominates(idom, home[0], block)

    broken: dict = {}                    # value -> [(user, incoming block or None)]
    for block in order:
        for index, user in enumerate(block.instructions):
            if isinstance(user, ir.PhiInstr):
                for value, incoming in user.incomings:
                    if incoming in idom and isinstance(value, ir.Instruction) and \
                            not available(value, incoming, len(incoming.instructions)):
                        broken.setdefault(value, []).append((user, incoming))
            else:
                for value in user.operands:
                    if isinstance(value, ir.Instruction) and not available(value, block, index):
                        broken.setdefault(value, []).append((user, None))
    if not broken:
        return 0
    entry = function.blocks[0]
    builder = ir.IRBuilder(entry)
    for value, uses in broken.items():
        builder.position_at_start(entry)
        slot = builder.alloca(value.type, name="demoted")
        home = position[value][0]
        after = home.instructions.index(value) + 1
        if isinstance(value, ir.PhiInstr):       # after the block's last phi
            while isinstance(home.instructions[after], ir.PhiInstr):
                after += 1
        builder.position_before(home.instructions[after])
        builder.store(value, slot)
        for user, incoming in uses:
            if incoming is None:
                builder.position_before(user)
                _replace_operand(user, value, builder.load(slot))
            else:                                # this edge only: others may have their own
                builder.position_before(incoming.terminator)
                loaded = builder.load(slot)
                user.incomings = [(loaded if v is value and b is incoming else v, b)
                                  for v, b in user.incomings]
                user._clear_string_cache()
    return len(broken)


def _replace_operand(user: ir.Instruction, old: ir.Value, new: ir.Value) -> None:
    """user.replace_usage, and a GEP's own copies of its operands, which llvmlite prints
    from (a dynamic alloca used after a split is a GEP's pointer)."""
    user.replace_usage(old, new)
    if isinstance(user, ir.GEPInstr):
        user.pointer = new if user.pointer is old else user.pointer
        user.indices = [new if index is old else index for index in user.indices]
        user._clear_string_cache()
