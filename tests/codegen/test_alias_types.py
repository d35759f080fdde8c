"""codegen/alias_types.py: TBAA tags on scalar loads and stores under strict aliasing
(gcc's default from -O2), none through union members or character types, none with
-fno-strict-aliasing, none in the runtime's own C; and what they buy, on the host and in
GPU code: a mapped sum kept in a register across an int array's loads."""

from __future__ import annotations

import re
import textwrap

import llvmlite.binding as llvm
import pytest

from omp2gpu import device_driver, driver
from omp2gpu.codegen import alias_types, code_rules
from omp2gpu.codegen.openmp.cpu.workgroup import CpuModuleEmitter
from omp2gpu.codegen.openmp.gpu.device_module import DeviceModuleEmitter
from omp2gpu.pipeline import CompileOptions
from omp2gpu.sema import ctypes as ct
from omp2gpu.targets import host
from omp2gpu.tools import cli_flags

SOURCE = """
long sum_ints(const int *a, long *total, int n) {
    int j;
    for (j = 0; j < n; j++)
        *total += a[j];
    return *total;
}

union words { double d; unsigned int w[2]; struct { float lo, hi; } f; };

unsigned int high_word(double x) {
    union words u;
    u.d = x;                      /* through the union: no tag */
    return u.w[1];                /* an array member of the union: no tag */
}

int bytes_of(const double *x) {
    const unsigned char *c = (const unsigned char *)x;
    return c[0] + c[7];           /* character type: no tag */
}
"""


def host_ir(tmp_path, rules: code_rules.CodeRules = code_rules.DEFAULT) -> str:
    path = tmp_path / "unit.c"
    path.write_text(textwrap.dedent(SOURCE))
    return str(driver.translate(path, CompileOptions(code_rules=rules), offload=False).host)


def function_ir(ir_text: str, name: str) -> str:
    return re.search(rf"define [^\n]*@\"?{name}\"?\(.*?\n}}", ir_text, re.S).group(0)


@pytest.mark.parametrize("ctype,node", [
    (ct.INT, "int"), (ct.UINT, "int"), (ct.LONG, "long"), (ct.ULONG, "long"), (ct.LLONG, "long long"),
    (ct.SHORT, "short"), (ct.BOOL, "_Bool"), (ct.FLOAT, "float"), (ct.DOUBLE, "double"),
    (ct.PointerType(ct.INT), "any pointer"), (ct.PointerType(ct.DOUBLE), "any pointer"),
    (ct.CHAR, None), (ct.UCHAR, None), (ct.SCHAR, None), (ct.COMPLEX_DOUBLE, None), (ct.ArrayType(ct.INT, 4), None),
])
def test_types_that_may_alias_share_a_node(ctype, node):
    assert alias_types.type_node_name(ctype) == node


def test_scalar_accesses_are_tagged_by_type(tmp_path):
    text = function_ir(host_ir(tmp_path), "sum_ints")
    int_tag = re.search(r"load i32, i32\* %\"\.\d+\", !tbaa (!\d+)", text).group(1)
    long_tag = re.search(r"load i64, i64\* %\"\.\d+\", !tbaa (!\d+)", text).group(1)
    assert int_tag != long_tag


def test_union_members_and_character_types_are_not_tagged(tmp_path):
    ir_text = host_ir(tmp_path)
    punning = function_ir(ir_text, "high_word")
    assert re.search(r"store double [^\n]*!tbaa", punning) is None          # u.d = x
    assert re.search(r"load i32, [^\n]*!tbaa", punning) is None             # u.w[1]
    assert re.search(r"load i8, [^\n]*!tbaa", function_ir(ir_text, "bytes_of")) is None


def test_no_strict_aliasing_leaves_no_tags(tmp_path):
    assert "!tbaa" not in host_ir(tmp_path, code_rules.CodeRules(strict_aliasing=False))


@pytest.mark.parametrize("flags,opt_level,strict", [
    ([], 2, True), ([], 3, True), ([], 1, False), ([], 0, False),
    (["no-strict-aliasing"], 2, False), (["strict-aliasing"], 1, True),
    (["no-strict-aliasing", "strict-aliasing"], 2, True),
])
def test_the_command_line_follows_gcc(flags, opt_level, strict):
    assert cli_flags.code_rules(flags, opt_level).strict_aliasing is strict


def test_a_sum_through_a_pointer_stays_in_a_register(tmp_path):
    """The loop's store of *total moves after it: an int load cannot change a long."""

    def stores_in_loop(rules):
        module = llvm.parse_assembly(host_ir(tmp_path, rules))
        host.optimise(host.prepare(module), 2)
        body = function_ir(str(module), "sum_ints")
        loop = re.search(r"\nfor\.body:.*?(?=\n\n|\n[a-z_.0-9]+:)", body, re.S).group(0)
        return loop.count("store ")
    assert stores_in_loop(code_rules.DEFAULT) == 0
    assert stores_in_loop(code_rules.CodeRules(strict_aliasing=False)) == 1


def test_the_runtime_has_no_tags():
    assert code_rules.RUNTIME.strict_aliasing is False
    assert not any("!tbaa" in text for text in device_driver.device_runtime_ir())
    assert DeviceModuleEmitter.emits_alias_types is True and CpuModuleEmitter.emits_alias_types is True


TARGET_SUM = """
#include <stdio.h>
#define N 1000
int a[N];
int main(void) {
    long total = 0;
    int j;
    for (j = 0; j < N; j++) a[j] = j;
#pragma omp target map(tofrom: a[0:N], total)
    for (j = 0; j < N; j++)
        total += a[j];
    printf("%ld\\n", total);
    return 0;
}
"""


@pytest.mark.parametrize("rules,stores", [(code_rules.DEFAULT, 1), (code_rules.CodeRules(strict_aliasing=False), 10)])
def test_a_mapped_sum_in_gpu_code_stays_in_a_register(tmp_path, rules, stores):
    """session 19's peer rows (target_map_tofrom): without tags the GPU kernel stores the
    mapped long after every int load (ten times in LLVM's unrolled loop); with them, once."""
    path = tmp_path / "sum.c"
    path.write_text(TARGET_SUM)
    program = driver.compile_program(str(path), CompileOptions(code_rules=rules), whole_program=True)
    ptx = device_driver.compile_ptx(program.device, "sm_90")
    assert ptx.split(".entry", 1)[1].count("st.global.b64") == stores
