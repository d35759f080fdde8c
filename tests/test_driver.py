"""driver.py: a target region the GPU build cannot run is known before the host code is
final, so the host never launches a kernel that was not built (issue 13: such a launch
failed, and under the default policy marked the whole device unusable)."""

from __future__ import annotations

import textwrap

from omp2gpu import driver
from omp2gpu.pipeline import CompileOptions

PROGRAM = textwrap.dedent("""\
    #include <stdio.h>
    int main(void)
    {
        long double wide = 1.0L;
        double a[64];
        int i;
    #pragma omp target map(tofrom: wide)
        wide = wide / 3;
    #pragma omp target teams distribute parallel for map(from: a)
        for (i = 0; i < 64; i++)
            a[i] = i;
        printf("%.6Lf %.1f\\n", wide, a[63]);
        return 0;
    }
    """)


def test_a_region_the_gpu_build_refuses_is_not_launched(tmp_path):
    source = tmp_path / "demoted.c"
    source.write_text(PROGRAM)
    translation = driver.translate(source, CompileOptions(), cpu=True)
    refused, built = "__omp_offloading_main_l7", "__omp_offloading_main_l9"
    host_ir = str(translation.host)
    assert refused not in host_ir and built in host_ir
    assert [region.kernel_name for region in translation.device.kernels] == [built]
    assert not translation.device.refused            # the final build refused nothing the host launches
    assert "long double" in "\n".join(translation.device.remarks)
    assert [kernel.kernel_name for kernel in translation.cpu.kernels] == [built]
