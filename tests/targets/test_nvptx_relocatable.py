"""nvptx/relocatable.py: PTX whose functions recurse (directly or through each other) carries
the record that asks for a relocatable build; other PTX does not. ptxas.py then compiles it
with `-c` and links it with nvlink, and the kernel's registers are nvlink's (they count the
functions it calls). No GPU needed."""

from __future__ import annotations

import textwrap

import pytest

from omp2gpu import device_driver, driver
from omp2gpu.pipeline import CompileOptions
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import relocatable

RECURSIVE = """
#pragma omp declare target
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
#pragma omp end declare target
int main(void) {
    int f[12], e[12], k;
    #pragma omp target map(from: f, e)
    for (k = 0; k < 12; k++) {
        f[k] = fib(k);
        e[k] = is_even(k);
    }
    return f[11] + e[3];
}
"""

FLAT = """
static int square(int x) { return x * x; }
int main(void) {
    int a[100], k;
    #pragma omp target teams distribute parallel for map(from: a)
    for (k = 0; k < 100; k++) a[k] = square(k);
    return a[7];
}
"""


def ptx_of(tmp_path, source: str) -> str:
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    program = driver.compile_program(str(path), CompileOptions(), whole_program=True)
    return device_driver.compile_device(program.device, "sm_90").ptx


# PTX as LLVM 22 writes calls, and as LLVM 19 (Clang's) splits them over lines
CALLS = """
.func  (.param .b32 func_retval0) a(
	.param .b32 a_param_0
)
{
	call.uni (retval0), b, (param0);
	ret;
}
.func  (.param .b32 func_retval0) b(
	.param .b32 b_param_0
)
{
	call.uni (retval0),
	a,
	(
	param0
	);
	call.uni c, (param0);
	ret;
}
.func c(
	.param .b32 c_param_0
)
{
	ret;
}
.visible .entry k(
	.param .u64 k_param_0
)
{
	call.uni (retval0), a, (param0);
	ret;
}
"""


def test_the_call_graph_reads_both_spellings_of_a_call():
    assert relocatable.call_graph(CALLS) == {"a": {"b"}, "b": {"a", "c"}, "c": set()}
    assert relocatable.recursive_functions(CALLS) == {"a", "b"}
    assert relocatable.recursive_functions(CALLS.replace("call.uni (retval0), b,", "call.uni (retval0), c,")) \
        == set()


def test_recursive_device_code_asks_to_be_linked(tmp_path):
    ptx = ptx_of(tmp_path, RECURSIVE)
    assert relocatable.recursive_functions(ptx) >= {"fib"}
    assert relocatable.links_relocatable(ptx)
    assert ptx.index(relocatable.PTX_TAG) < ptx.index(".version")       # a record of the header


def test_device_code_without_recursion_keeps_the_whole_program_build(tmp_path):
    ptx = ptx_of(tmp_path, FLAT)
    assert not relocatable.recursive_functions(ptx)
    assert not relocatable.links_relocatable(ptx)


def test_nvlinks_figures_replace_the_kernels_own():
    messages = textwrap.dedent("""\
        ptxas info    : Compiling entry function 'k' for 'sm_90'
        ptxas info    : Function properties for k
            0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
        ptxas info    : Used 24 registers, used 0 barriers
        ptxas info    : Compiling entry function 'flat' for 'sm_90'
        ptxas info    : Used 8 registers, used 0 barriers
        nvlink warning : Stack size for entry function 'k' cannot be statically determined
        nvlink info    : Function properties for 'k':
        nvlink info    : used 26 registers, used 0 barriers, 0 stack, 1040 bytes smem, 536 bytes cmem[0], 0 bytes lmem
        nvlink info    : Function properties for 'flat':
        nvlink info    : used 8 registers, used 0 barriers, 0 stack, 1024 bytes smem, 536 bytes cmem[0], 0 bytes lmem
        """)
    usage = nvptx.parse_verbose_output(messages)
    assert (usage["k"].registers, usage["k"].linked_shared_bytes, usage["k"].stack_unbounded) == (26, 1040, True)
    assert (usage["flat"].linked_shared_bytes, usage["flat"].stack_unbounded) == (1024, False)


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="needs ptxas")
def test_ptxas_and_nvlink_build_the_recursive_image(tmp_path):
    ptx = ptx_of(tmp_path, RECURSIVE)
    if nvptx.ptxas.find_nvlink(nvptx.find_ptxas()) is None:
        pytest.skip("needs nvlink")
    cubin = nvptx.assemble(ptx, "sm_90")
    assert cubin[:4] == b"\x7fELF"
    kernel = next(name for name in nvptx.entry_sections(ptx) if "main" in name)
    assert b"fib" in cubin and kernel.encode() in cubin
    usage = nvptx.resource_usage(ptx, "sm_90")[kernel]
    assert usage.registers > 0 and usage.stack_unbounded
    assert usage.linked_shared_bytes >= 1024          # the driver's reserve, which nvlink counts in
