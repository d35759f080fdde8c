"""Threadprivate variables and `copyin` on the host's threads (OpenMP 4.5 2.15.2,
2.15.4.1), as Clang's getAddrOfThreadPrivate: generic codegen asks the scheme for a
threadprivate variable's address (hooks.threadprivate_symbol), and the host scheme
answers with the calling thread's copy, from runtime/host/threadprivate.c, looked up
once per function in its entry block.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named, copy_bytes
from omp2gpu.codegen.openmp.host.gomp import call
from omp2gpu.codegen.openmp.runtime_entries import THREADPRIVATE_KEY, HostRuntime
from omp2gpu.sema.scopes import Symbol

COPYIN_MASTER = "{}@copyin"                         # the encountering thread's copy (not a C name)


def mark_threadprivate(scope, items) -> None:
    """`#pragma omp threadprivate(list)`: each variable's accesses become per thread."""
    for item in items:
        symbol = scope.lookup(item.name)
        if symbol is not None and symbol.kind == "object":
            symbol.storage = "threadprivate"


def thread_copy(cg, symbol: Symbol) -> Symbol:
    """The calling thread's copy of a threadprivate variable, as a Symbol of cg's function."""
    copies = cg.openmp_state.threadprivate_copies
    if symbol.name not in copies:
        lookup = HostRuntime.threadprivate.declare(cg.module.module)
        address = cg.in_entry_block(lambda b: b.bitcast(
            b.call(lookup, [b.bitcast(symbol.address, I8P), _initial_image(cg, symbol),
                            ir.Constant(I64, symbol.ctype.size), _key(cg, symbol)]),
            symbol.address.type))
        copies[symbol.name] = Symbol(symbol.name, symbol.ctype, "object", address, storage="auto",
                                     coord=symbol.coord, const=symbol.const, volatile=symbol.volatile)
    return copies[symbol.name]


def declare_copyin_sources(cg, directive) -> None:
    """Before a parallel region is outlined: the encountering thread's copy of each
    `copyin` variable, under a name C cannot spell, so the region captures its address."""
    for clause in clauses_named(directive, "copyin"):
        for item in clause.items:
            own = cg.lookup_symbol(item)
            cg.scope.declare(Symbol(COPYIN_MASTER.format(item.name), own.ctype, "object", own.address))


def copy_in(cg, directive) -> None:
    """In each thread of the new team: copy the encountering thread's values into this
    thread's copies (its own copy is left alone), then wait for every thread to have
    copied before anyone changes them."""
    items = [item for clause in clauses_named(directive, "copyin") for item in clause.items]
    if not items:
        return
    b = cg.builder
    for item in items:
        source = cg.scope.lookup(COPYIN_MASTER.format(item.name))
        target = cg.lookup_symbol(item)
        differ = b.icmp_unsigned("!=", b.bitcast(source.address, I8P), b.bitcast(target.address, I8P))
        with b.if_then(differ):
            copy_bytes(cg, target.address, source.address, ir.Constant(I64, target.ctype.size))
    call(cg, "GOMP_barrier")


def _initial_image(cg, symbol: Symbol) -> ir.Value:
    """A constant copy of the variable's initialiser (null: zeros), what a new thread's
    copy starts from."""
    module = cg.module.module
    name = f"{symbol.address.name}.threadprivate.init"
    image = module.globals.get(name)
    initializer = symbol.address.initializer if isinstance(symbol.address, ir.GlobalVariable) else None
    if image is None and initializer is not None:
        image = ir.GlobalVariable(module, initializer.type, name=name)
        image.initializer = initializer
        image.global_constant = True
        image.linkage = "internal"
    return ir.Constant(I8P, None) if image is None else image.bitcast(I8P)


def _key(cg, symbol: Symbol) -> ir.Value:
    module = cg.module.module
    name = f"{symbol.address.name}.threadprivate.key"
    key = module.globals.get(name)
    if key is None:
        key = ir.GlobalVariable(module, THREADPRIVATE_KEY, name=name)
        key.initializer = ir.Constant(THREADPRIVATE_KEY, None)
        key.linkage = "internal"
    return key
