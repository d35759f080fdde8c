"""A map section longer than the heap block its pointer starts (issue 32): the runtime's
located error naming the list item and the block (runtime/offload/heap_chunks.c,
docs/map-checks.md), exit status 1, before any byte is copied (the output so far is all
there is), on every path: a target region's first launch, a later launch of a region whose
first was good, target data, enter data and update; for blocks of the main thread's heap
and of a glibc thread arena (its first heap, followed by ~64 MB of no-access reserve, and
its second), 400 KB and 64 MB past the block. A pointer into the middle of an array has no
block of its own: the process's readable mappings bound it (never the `---p` reserve). With
no device the regions run on the host, as gcc's binary runs them: nothing is mapped, nothing
is refused. tests/programs/heap_sections_in_their_blocks.c: the good sections are never
refused."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from test_native_executables import PROGRAMS, build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")

SOURCE = "section_past_heap_block.c"
EXTRAS = {"400KB": "51200", "64MB": "8388608"}             # doubles past the 1000 of the block
ARENAS = {"main-heap": "0", "thread-arena": "1", "second-heap": "2"}
# WHERE -> the construct's text (its line) and the output printed before it
CONSTRUCTS = {"first": ("map(to: u[0:length]) map(from: next[0:length])", ""),
              "second": ("map(to: u[0:length]) map(from: next[0:length])", "step 0: total 100.000000\n"),
              "data": ("target data map(tofrom: u[0:length])", ""),
              "enter": ("target enter data map(to: u[0:length])", ""),
              "update": ("target update to(u[0:length])", "")}
BLOCK_BYTES = 8008                                          # malloc_usable_size of 1000 doubles


def location(text: str) -> tuple[int, int]:
    """The line of the pragma holding `text` and the column of its construct's name."""
    for number, line in enumerate((PROGRAMS / SOURCE).read_text().splitlines(), 1):
        if "#pragma omp" in line and text in line:
            return number, line.index("omp") + 5
    raise AssertionError(f"no pragma with {text!r} in {SOURCE}")


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory.mktemp("past_block"), SOURCE)


def assert_past_block(done, where: str, extra: str, item: str = "u[0:length]") -> None:
    line, column = location(CONSTRUCTS[where][0])
    size = (1000 + int(extra)) * 8
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stdout == CONSTRUCTS[where][1]               # nothing after the construct ran
    assert done.stderr.startswith("omp2gpu: error: ") and done.stderr.count("\n") == 1, done.stderr
    expected = (rf"{SOURCE}:{line}:{column}: map entry 1 '{re.escape(item)}' \(line {line}\) \(host address "
                rf"(0x[0-9a-f]+), {size} bytes\) runs past its heap block \({BLOCK_BYTES} usable bytes malloc'd at "
                rf"(0x[0-9a-f]+)\): an array section goes past its allocation")
    found = re.search(expected, done.stderr)
    assert found and found[1] == found[2], done.stderr


@pytest.mark.parametrize("arena", ARENAS.values(), ids=ARENAS.keys())
@pytest.mark.parametrize("extra", EXTRAS.values(), ids=EXTRAS.keys())
@pytest.mark.parametrize("where", CONSTRUCTS)
def test_a_section_past_its_heap_block_is_a_located_error(program, where, extra, arena):
    done = run_bare(program, where, extra, arena, env={"OMP2GPU_DEVICES": "cpu"})
    assert_past_block(done, where, extra)


@pytest.mark.gpu
@pytest.mark.parametrize("arena", ARENAS.values(), ids=ARENAS.keys())
@pytest.mark.parametrize("extra", EXTRAS.values(), ids=EXTRAS.keys())
@pytest.mark.parametrize("where", CONSTRUCTS)
def test_a_section_past_its_heap_block_on_the_gpu(program, where, extra, arena):
    done = run_bare(program, where, extra, arena, env={"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert_past_block(done, where, extra)


@pytest.mark.parametrize("arena, extra", [("1", EXTRAS["400KB"]), ("1", EXTRAS["64MB"]), ("0", EXTRAS["64MB"])],
                         ids=["thread-arena-400KB", "thread-arena-64MB", "main-heap-64MB"])
def test_a_pointer_inside_the_array_is_bound_by_the_readable_mappings(program, arena, extra):
    """`row = u + 8`: the 8 bytes before row are u's data, no block's header; the section
    runs into the thread arena's no-access reserve (or past every mapping): refused."""
    done = run_bare(program, "interior", extra, arena, env={"OMP2GPU_DEVICES": "cpu"})
    line, column = location("map(tofrom: row[0:length])")
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert (f"{SOURCE}:{line}:{column}: map entry 1 'row[0:length]' (line {line}) (host address " in done.stderr
            and f", {(1000 + int(extra)) * 8} bytes) runs past the host memory of the program" in done.stderr), \
        done.stderr


@pytest.mark.parametrize("where", [*CONSTRUCTS, "interior"])
def test_with_no_device_the_program_runs_as_gccs_binary(program, tmp_path, where):
    """OMP_TARGET_OFFLOAD=DISABLED: the regions run on the host and map nothing, as under
    gcc -fopenmp: the same output and status (the regions touch only the array)."""
    reference = tmp_path / "reference"
    subprocess.run(["gcc", "-std=gnu99", "-fopenmp", "-foffload=disable", str(PROGRAMS / SOURCE), "-o",
                    str(reference)], check=True)
    expected = run_bare(reference, where, EXTRAS["64MB"], "1")
    done = run_bare(program, where, EXTRAS["64MB"], "1", env={"OMP_TARGET_OFFLOAD": "DISABLED"})
    assert (done.returncode, done.stdout) == (expected.returncode, expected.stdout), done.stderr
    assert done.returncode == 0 and "after the construct that should have failed" in done.stdout
