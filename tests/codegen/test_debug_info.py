"""debug_info.py (-g): the compile unit, a DISubprogram for every function codegen fills
(C functions, outlined parallel regions, the CPU device's work-group functions), each
statement's instructions at its line, llvm.dbg.declare for parameters, locals and a
region's captures; modules that LLVM verifies before and after optimisation; the GPU's
PTX with the regions' lines; and without -g, no debug metadata at all (the IR as before)."""

from __future__ import annotations

import re

import llvmlite.binding as llvm
import pytest

from omp2gpu import device_driver, driver
from omp2gpu.pipeline import CompileOptions
from omp2gpu.targets import host, nvptx

SOURCE = """\
#include <stdlib.h>
struct node { int value; struct node *next; };
union word { int i; float f; };

static int length(struct node *list)
{
    int count = 0;
    for (; list; list = list->next)
        count++;
    return count;
}

int main(void)
{
    struct node second = { 2, NULL }, first = { 1, &second };
    union word w; w.i = 3;
    double a[16];
    int n = length(&first) + w.i;
    #pragma omp parallel for
    for (int i = 0; i < 16; i++)
        a[i] = i;
    #pragma omp target teams distribute parallel for map(tofrom: a) firstprivate(n)
    for (int i = 0; i < 16; i++) {
        double twice = 2.0 * a[i];
        a[i] = twice + n;
    }
    return (int)a[3];
}
static double scale = 1.5;
struct node *free_list;
int next_id(void) { static int issued = 40; return ++issued; }
"""
REGION_BODY_LINE = 24          # `double twice = ...` inside the target region


@pytest.fixture(scope="module")
def translations(tmp_path_factory):
    path = tmp_path_factory.mktemp("debug") / "prog.c"
    path.write_text(SOURCE)
    with_g = driver.translate(path, CompileOptions(debug_info=True, opt_level=0), cpu=True)
    without = driver.translate(path, CompileOptions(), cpu=True)
    return with_g, without


def _subprograms(text: str) -> dict[str, int]:
    """IR function name -> the line of its DISubprogram."""
    nodes = {m.group(1): m.group(2) for m in re.finditer(r"^(!\d+) = distinct !DISubprogram\((.*)\)$", text, re.M)}
    found = {}
    for m in re.finditer(r'^define .*?@"?([\w.$]+)"?\(.*\) .*!dbg (!\d+)', text, re.M):
        found[m.group(1)] = int(re.search(r"\bline: (\d+)", nodes[m.group(2)]).group(1))
    return found


def _lines(text: str) -> set[int]:
    return {int(m.group(1)) for m in re.finditer(r"!DILocation\(.*?line: (\d+)", text)}


def _variables(text: str) -> set[str]:
    return set(re.findall(r'!DILocalVariable\(.*?name: "(\w+)"', text))


def test_without_g_there_is_no_debug_metadata(translations):
    _, without = translations
    for text in (str(without.host), str(without.cpu.module), str(without.device.module)):
        assert "!dbg" not in text and "llvm.dbg" not in text and "DICompileUnit" not in text


def test_host_functions_and_outlined_regions_have_subprograms(translations):
    text = str(translations[0].host)
    assert "!llvm.dbg.cu" in text and '"Debug Info Version"' in text and '"Dwarf Version"' in text
    subprograms = _subprograms(text)
    assert subprograms["main"] == 13 and subprograms["length"] == 5
    assert any(name.startswith("main._omp_fn") for name in subprograms), subprograms   # the parallel region
    assert {7, 8, 9, 10, 15, 16, 18, 19, 21, 22, REGION_BODY_LINE, 25} <= _lines(text)   # the fallback too
    assert {"list", "count", "first", "second", "w", "a", "n", "twice"} <= _variables(text)
    assert 'name: "list", arg: 1' in text or re.search(r'arg: 1.*name: "list"', text)


def test_cpu_device_work_group_function_has_the_regions_lines_and_variables(translations):
    text = str(translations[0].cpu.module)
    work_groups = {name: line for name, line in _subprograms(text).items() if name.endswith(".wg")}
    assert list(work_groups.values()) == [22], work_groups       # the construct's line
    assert {REGION_BODY_LINE, 25} <= _lines(text)
    assert {"twice", "a", "n", "i"} <= _variables(text)


def test_records_are_described_with_their_members(translations):
    text = str(translations[0].host)
    node = re.search(r'DICompositeType\(.*?name: "node".*?\)', text).group(0)
    assert "DW_TAG_structure_type" in node and "size: 128" in node
    member = next(line for line in text.splitlines() if 'name: "next"' in line)
    assert "DW_TAG_member" in member and "offset: 64" in member
    union = next(line for line in text.splitlines() if 'name: "word"' in line)
    assert "DW_TAG_union_type" in union


@pytest.mark.parametrize("level", [0, 2])
def test_modules_verify_before_and_after_optimisation(translations, level):
    translation = translations[0]
    for module in (translation.host, translation.cpu.module):
        parsed = host.prepare(module)                 # parses and verifies
        host.optimise(parsed, level)
        parsed.verify()
        assert "!llvm.dbg.cu" in str(parsed)
        assert llvm.parse_assembly(str(parsed)) is not None


def test_each_block_is_a_lexical_block_with_its_own_variables(translations):
    """Each `i` (the parallel loop's, the region's host fallback's, the worksharing copy's)
    is a variable of its own scope, the declared ones in their `for`'s lexical block; a
    local is described once (not again where the body first uses it)."""
    text = str(translations[0].host)
    blocks = set(re.findall(r"^(!\d+) = distinct !DILexicalBlock\(", text, re.M))
    scopes = re.findall(r'!DILocalVariable\([^)]*name: "i", scope: (!\d+)', text)
    assert len(set(scopes)) == len(scopes) >= 3 and set(scopes) & blocks, (scopes, blocks)
    assert len(re.findall(r'!DILocalVariable\([^)]*name: "count",', text)) == 1


def test_file_scope_objects_are_global_variables_of_the_unit(translations):
    text = str(translations[0].host)
    for name, local in (("scale", "true"), ("free_list", "false")):
        line = next(line for line in text.splitlines() if "DIGlobalVariable(" in line and f'name: "{name}"' in line)
        assert f"isLocal: {local}" in line and "isDefinition: true" in line
    assert re.search(r"DICompileUnit\(.*globals: !\d+", text)
    assert re.search(r'^@"?scale"? = internal global double .*!dbg !\d+', text, re.M)


@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
def test_gpu_ptx_carries_the_regions_lines(tmp_path, scheme):
    """The GPU module has line directives only (no variables): its PTX's .loc lines include
    the region body's, and ptxas assembles it (with -lineinfo, which omp2gpu adds)."""
    path = tmp_path / "prog.c"
    path.write_text(SOURCE)
    options = CompileOptions(debug_info=True, scheme=scheme)
    translation = driver.translate(path, options)
    assert "DebugDirectivesOnly" in str(translation.device.module)
    assert "DILocalVariable" not in str(translation.device.module)
    ptx = device_driver.device_ptx(translation.device, options)
    assert {REGION_BODY_LINE, 25} <= {int(line) for line in re.findall(r"^\s*\.loc\s+\d+ (\d+)", ptx, re.M)}
    if nvptx.find_ptxas() is None:
        pytest.skip("ptxas is not installed")
    nvptx.assemble(ptx, "sm_90")


def test_a_static_local_is_a_global_variable_of_its_function(translations):
    text = str(translations[0].host)
    line = next(line for line in text.splitlines() if "DIGlobalVariable(" in line and 'name: "issued"' in line)
    scope = re.search(r"scope: (!\d+)", line).group(1)
    assert re.search(rf"^{scope} = distinct !DISubprogram\(", text, re.M)
    assert "linkageName" not in line          # gdb would look the static up by its IR name


def test_variable_length_arrays_count_by_their_length_variable(tmp_path):
    """`double grid[n][n]`, `double (*m)[n]`: array types whose DISubrange counts are the
    variables holding the lengths (as Clang describes them), so gdb prints `grid[2]`."""
    path = tmp_path / "vla.c"
    path.write_text("double trace(int n, double (*m)[n]) { return m[1][1]; }\n"
                    "int main(int argc, char **argv) { int n = argc + 2; double grid[n][n];\n"
                    "  grid[1][1] = 4.0; return (int)trace(n, grid); }\n")
    text = str(driver.translate(path, CompileOptions(debug_info=True, opt_level=0)).host)
    counts = re.findall(r"!DISubrange\(count: (!\d+)\)", text)
    assert len(counts) >= 3, text                     # grid's two dimensions, m's one
    for count in counts:
        assert re.search(rf"^{count} = !DILocalVariable\([^)]*name: \"vla\.\d+\"", text, re.M), count
    for name in ("grid", "m"):
        assert re.search(rf'!DILocalVariable\([^)]*name: "{name}"', text), name
    optimised = host.prepare(driver.translate(path, CompileOptions(debug_info=True)).host)
    host.optimise(optimised, 2)
    optimised.verify()
