"""sema/requires.py: `#pragma omp requires` gives later atomics their default memory
order, once per file and before any atomic without one; unified_shared_memory and
unified_address become the file's runtime requirements; reverse_offload allows
`target device(ancestor: 1)`; a requirement after a device construct is a located error."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.offload import abi
from omp2gpu.sema.requires import requirements_of


def _atomics(tmp_path, source: str):
    path = tmp_path / "prog.c"
    path.write_text(source)
    ast = driver.parse_file(path, driver.CompileOptions())
    found, stack = [], [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, OmpConstruct) and node.directive.kind == "atomic":
            found.append(node.directive)
        stack.extend(child for _, child in node.children())
    return found


def test_default_memory_order_reaches_atomics(tmp_path):
    atomics = _atomics(tmp_path, "#pragma omp requires atomic_default_mem_order(seq_cst)\n"
                                 "int x;\nvoid f(void) {\n#pragma omp atomic\nx++;\n}\n")
    assert [a.default_memory_order for a in atomics] == ["seq_cst"]


def test_without_requires_atomics_are_relaxed(tmp_path):
    atomics = _atomics(tmp_path, "int x;\nvoid f(void) {\n#pragma omp atomic\nx++;\n}\n")
    assert atomics[0].default_memory_order == "relaxed"


@pytest.mark.parametrize("source, message, line", [
    ("int x;\nvoid f(void) {\n#pragma omp atomic\nx++;\n}\n"
     "#pragma omp requires atomic_default_mem_order(seq_cst)\n",
     "'atomic_default_mem_order' clause used lexically after the first", 6),
    ("#pragma omp requires atomic_default_mem_order(relaxed)\n"
     "#pragma omp requires atomic_default_mem_order(acq_rel)\n",
     "more than one 'atomic_default_mem_order' clause", 2),
    ("void f(int *a) {\n#pragma omp target\na[0] = 1;\n}\n#pragma omp requires unified_shared_memory\n",
     "'#pragma omp requires unified_shared_memory' used lexically after the first device construct", 5),
    ("void f(int *a) {\n#pragma omp target enter data map(to: a[0:1])\n}\n#pragma omp requires dynamic_allocators\n",
     "'#pragma omp requires dynamic_allocators' used lexically after the first device construct "
     "\\('#pragma omp target enter data', line 2\\)", 4),
    ("void f(void) {\n#pragma omp requires dynamic_allocators\n}\n",
     "'#pragma omp requires' is only allowed at file scope", 2),
])
def test_requires_errors(tmp_path, source, message, line):
    with pytest.raises(CompileError, match=message) as error:
        _atomics(tmp_path, source + "int main(void) { return 0; }\n")
    assert error.value.location.line == line


def test_an_atomic_with_its_own_order_may_precede_requires(tmp_path):
    atomics = _atomics(tmp_path, "int x;\nvoid f(void) {\n#pragma omp atomic seq_cst\nx++;\n}\n"
                                 "#pragma omp requires atomic_default_mem_order(acq_rel)\n"
                                 "void g(void) {\n#pragma omp atomic\nx++;\n}\n")
    defaults = {a.memory_order_clause: a.default_memory_order for a in atomics}
    assert defaults == {"seq_cst": "relaxed", None: "acq_rel"}


def _requirements(tmp_path, source: str):
    path = tmp_path / "prog.c"
    path.write_text(source + "int main(void) { return 0; }\n")
    return requirements_of(driver.parse_file(path, driver.CompileOptions()))


def test_unified_memory_requirements_are_the_files(tmp_path):
    found = _requirements(tmp_path, "#pragma omp requires dynamic_allocators\n"
                                    "#pragma omp requires unified_address unified_shared_memory\n")
    assert found.flags == abi.REQUIRES_UNIFIED_ADDRESS | abi.REQUIRES_UNIFIED_SHARED_MEMORY
    assert found.unified_shared_memory and (found.coord.line, found.coord.column) == (2, 22)


def test_requirements_the_runtime_need_not_know_are_none(tmp_path):
    assert _requirements(tmp_path, "#pragma omp requires dynamic_allocators\n") is None
    assert _requirements(tmp_path, "#pragma omp requires atomic_default_mem_order(seq_cst)\n") is None
    assert not _requirements(tmp_path, "#pragma omp requires unified_address\n").unified_shared_memory
