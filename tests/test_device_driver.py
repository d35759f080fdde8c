"""device_driver: a target region's PTX comes from the disk cache where the same device
code was compiled for the same architecture before, and only then."""

from __future__ import annotations

import pytest

from omp2gpu import device_driver, driver
from omp2gpu.disk_cache import CODE_CACHE_SWITCH
from omp2gpu.linker import DeviceCode
from omp2gpu.targets import nvptx

SCALE = """
void scale(int n, double *a) {
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] *= FACTOR;
}
"""


@pytest.fixture
def device_code(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(CODE_CACHE_SWITCH, raising=False)
    (tmp_path / "prog.c").write_text(SCALE)

    def code(factor: str):
        options = driver.CompileOptions(defines=(f"FACTOR={factor}",))
        return device_driver.device_code(driver.translate(tmp_path / "prog.c", options).device)
    return code


def _counting_compiles(monkeypatch) -> list:
    compiled = []
    real = device_driver.compile_ptx
    monkeypatch.setattr(device_driver, "compile_ptx", lambda code, arch: compiled.append(arch) or real(code, arch))
    return compiled


def test_ptx_is_compiled_once_per_device_code_and_arch(device_code, monkeypatch):
    compiled = _counting_compiles(monkeypatch)
    twice = device_code("2.0")
    first = device_driver.device_ptx(twice, driver.CompileOptions(offload_arch="sm_90"))
    assert device_driver.device_ptx(twice, driver.CompileOptions(offload_arch="sm_90")) == first
    assert compiled == ["sm_90"]
    other_arch = device_driver.device_ptx(twice, driver.CompileOptions(offload_arch="sm_80"))
    other_code = device_driver.device_ptx(device_code("3.0"), driver.CompileOptions(offload_arch="sm_90"))
    assert compiled == ["sm_90", "sm_80", "sm_90"]
    assert len({first, other_arch, other_code}) == 3


def test_no_ptx_is_kept_when_the_cache_is_off(device_code, monkeypatch):
    monkeypatch.setenv(CODE_CACHE_SWITCH, "0")
    compiled = _counting_compiles(monkeypatch)
    code = device_code("2.0")
    for _ in range(2):
        device_driver.device_ptx(code, driver.CompileOptions(offload_arch="sm_90"))
    assert compiled == ["sm_90", "sm_90"]


def test_a_changed_libdevice_misses_where_the_code_calls_it(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(CODE_CACHE_SWITCH, raising=False)
    libdevice = tmp_path / "libdevice.10.bc"
    libdevice.write_bytes(b"version 1")
    monkeypatch.setattr(device_driver.nvptx, "find_libdevice", lambda: libdevice)
    compiled = []
    monkeypatch.setattr(device_driver, "compile_ptx",
                        lambda code, arch: compiled.append(code) or f"ptx {len(compiled)}")
    calls = DeviceCode("declare double @__nv_sqrt(double)\n", {})
    plain = DeviceCode("declare double @other(double)\n", {})
    options = driver.CompileOptions(offload_arch="sm_90")
    assert [device_driver.device_ptx(code, options) for code in (calls, plain, calls, plain)] == \
        ["ptx 1", "ptx 2", "ptx 1", "ptx 2"]
    libdevice.write_bytes(b"version 2")
    assert [device_driver.device_ptx(code, options) for code in (calls, plain)] == ["ptx 3", "ptx 2"]


def test_the_device_runtime_defines_what_target_regions_may_call():
    """abort, assert's __assert_fail, the OpenMP setters, the places queries and simple
    locks have device definitions: a kernel naming one the GPU lacked made the program's PTX unloadable."""
    defined = {function.name for module in device_driver.device_runtime_modules()
               for function in module.functions if not function.is_declaration}
    assert {"abort", "__assert_fail", "omp_set_num_threads", "omp_set_dynamic", "omp_set_nested",
            "omp_get_default_device", "omp_init_lock", "omp_set_lock", "omp_unset_lock",
            "omp_test_lock", "omp_destroy_lock", "omp_get_num_places", "omp_get_place_num"} <= defined


PRIVATE_LOCK = """
#include <omp.h>
#pragma omp declare target
int rounds = 3;
int count_locked() {          /* unprototyped: not expanded, its parallel region serialised */
  omp_lock_t lock;            /* so the lock is the calling GPU thread's local memory */
  int count = 0;
  omp_init_lock(&lock);
  #pragma omp parallel
  {
    omp_set_lock(&lock);
    count += rounds;
    omp_unset_lock(&lock);
    while (!omp_test_lock(&lock))
      ;
    count++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  return count;
}
#pragma omp end declare target
int run(void) {
  int count = 0;
  #pragma omp target map(from: count)
  count = count_locked();
  return count;
}
"""


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found")
def test_a_lock_in_a_threads_local_memory_assembles(tmp_path):
    """PTX has no atomics on local memory (ptxas: 'State space incorrect for instruction
    atom'): the runtime's locks take plain accesses there."""
    (tmp_path / "prog.c").write_text(PRIVATE_LOCK)
    ptx = device_driver.device_ptx(driver.translate(tmp_path / "prog.c", driver.CompileOptions()).device,
                                   driver.CompileOptions())
    nvptx.assemble(ptx, "sm_90")


def test_the_device_runtime_is_compiled_once_and_read_back(tmp_path, monkeypatch):
    """Its IR comes from the disk cache (as the host and CPU device runtimes' do), the same
    text as compiling it again."""
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    compiled = []
    real = device_driver._runtime_module
    monkeypatch.setattr(device_driver, "_runtime_module", lambda source: compiled.append(source) or real(source))
    first = device_driver.device_runtime_ir()
    sources = len(compiled)
    assert sources == len(list(device_driver.device_runtime_dir().glob("*.c"))) > 0
    assert device_driver.device_runtime_ir() == first and len(compiled) == sources
    assert first == [str(module) for module in device_driver.device_runtime_modules()]
