"""The GPU control loop's OpenMP 5.1 constructs (gpu_control_loop.py): masked compares the
thread id with the filter, scope ends at a barrier (a new state) unless nowait, and a
region holding an `error` directive at(execution) runs on the host (no stderr on the GPU).
Each kernel's PTX assembles."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from omp2gpu import device_driver, driver

REGION = """
#include <omp.h>
int main(void) {
  int s = 0, who = -1;
  #pragma omp target parallel num_threads(32) map(tofrom: s, who)
  {
    #pragma omp masked filter(3)
    who = omp_get_thread_num();
    #pragma omp scope reduction(+: s) NOWAIT
    s += 1;
  }
  return s + who;
}
"""


def _translate(tmp_path, source: str):
    path = tmp_path / "prog.c"
    path.write_text(source)
    return driver.translate(path, driver.CompileOptions(scheme="control-loop"))


@pytest.mark.parametrize("nowait", ["", "nowait"])
def test_masked_and_scope_in_the_team_s_parallel_region(tmp_path, nowait):
    translation = _translate(tmp_path, REGION.replace("NOWAIT", nowait))
    (kernel,) = translation.device.kernels
    assert kernel.scheme.name == "control-loop"
    text = str(translation.device.module.get_global(kernel.kernel_name))
    assert re.search(r"icmp eq i32 %[^,]+, 3", text)          # the thread id against filter(3)
    assert "atomicrmw add" in text                             # the scope's reduction, folded atomically
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions(scheme="control-loop"))
    if shutil.which("ptxas"):
        path = tmp_path / "k.ptx"
        path.write_text(ptx)
        subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", "/dev/null"], check=True)


def test_scope_without_nowait_ends_at_a_barrier(tmp_path):
    """The barrier is one more state of the control loop."""
    def parallel_states(nowait: str) -> int:
        translation = _translate(tmp_path, REGION.replace("NOWAIT", nowait))
        (kernel,) = translation.device.kernels
        text = str(translation.device.module.get_global(kernel.kernel_name))
        return len(set(re.findall(r'label %"state(\d+)\.parallel"', text)))
    assert parallel_states("nowait") == 1
    assert parallel_states("") == 2


def test_an_error_directive_sends_its_region_to_the_host(tmp_path):
    source = """
int main(void) {
  int x = 0;
  #pragma omp target map(tofrom: x)
  {
    #pragma omp error at(execution) severity(warning) message("on the device")
    x = 1;
  }
  return x;
}
"""
    translation = _translate(tmp_path, source)
    assert translation.device.kernels == []
    assert any(remark.endswith("runs on the host: '#pragma omp error' at(execution) is not supported inside a "
                               "GPU target region") for remark in translation.device.remarks)
