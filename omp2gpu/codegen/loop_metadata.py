"""Loop metadata LLVM reads (`!llvm.loop` on a loop's back edge): an OpenMP `simd` loop is
one the program asks to be vectorised, which LLVM then does whether or not its cost model
would (`llvm.loop.vectorize.enable`). At -O2 the host's pipeline vectorises no other loop,
as gcc -O2 (targets/host/optimisation.py), and gcc vectorises `simd` loops there too."""

from __future__ import annotations

from llvmlite import ir


def vectorize(back_edge: ir.Instruction) -> None:
    """Mark the loop whose back edge (its latch's branch) is `back_edge` as one to vectorise.
    Each loop gets a loop ID of its own (a node naming itself), as LLVM asks."""
    module = back_edge.parent.parent.module
    enable = module.add_metadata([ir.MetaDataString(module, "llvm.loop.vectorize.enable"),
                                  ir.Constant(ir.IntType(1), 1)])
    loop_id = ir.values.MDValue(module, [enable], name=str(len(module.metadata)))
    loop_id.operands = (loop_id, enable)
    back_edge.set_metadata("llvm.loop", loop_id)
