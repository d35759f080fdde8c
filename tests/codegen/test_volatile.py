"""Volatile objects (C99 6.7.3p6): every read and write of one is a volatile load or store,
which LLVM keeps, in order, at every optimisation level. Before, the qualifier was parsed
and dropped: `for (volatile int k = 0; k < n; k++) ;`, a delay loop, vanished at -O2."""

from __future__ import annotations

import re

import llvmlite.binding as llvm
from host_programs import host_ir

from omp2gpu.targets import host

FORMS = r"""
struct device { volatile int status; int count; };
static volatile double sink;
int forms(volatile int *port, int n) {
    volatile int local = 1;
    volatile int table[3] = {1, 2, 3};
    struct device d = {0, 0};
    volatile struct device whole = {0, 0};
    int plain = 0;
    local++;
    *port = local;
    table[1] += 2;
    d.status = 4;
    whole.count = 5;
    sink = sink + 1.0;
    *(volatile int *)&plain = 6;
    return d.count + plain + n;
}
"""


def _function(ir_text: str, name: str) -> str:
    return re.search(rf'define [^\n]*@"?{name}"?\(.*?\n}}\n', ir_text, re.S).group(0)


def test_each_form_of_volatile_object_is_read_and_written_volatile(tmp_path):
    body = _function(host_ir(tmp_path, FORMS), "forms")
    loads = re.findall(r"load volatile (\w+)", body)
    stores = re.findall(r"store volatile (\w+)", body)
    # local: its initial store, ++ (a load, a store), a load for *port; the store to *port;
    # table[1] += 2 (a load, a store); d.status; whole.count; sink (a load, a store); the
    # store through the cast. (An aggregate's initializer is stored plainly.)
    assert loads == ["i32", "i32", "i32", "double"], body
    assert stores.count("i32") == 7 and stores.count("double") == 1, body
    assert "load volatile i32, i32* %\"plain\"" not in body      # `plain` itself is not volatile


def test_a_volatile_delay_loop_survives_optimisation(tmp_path):
    source = "int main(void) { for (volatile int k = 0; k < 100000; k++) ; return 0; }\n"
    module = llvm.parse_assembly(host_ir(tmp_path, source))
    host.optimise(module, 2)
    main = _function(str(module), "main")
    assert "load volatile i32" in main and "store volatile i32" in main, main
