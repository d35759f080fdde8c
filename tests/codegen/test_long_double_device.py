"""A target region using long double is no GPU kernel (NVPTX has no 80-bit type):
it runs on the host, said in a remark; the CPU device computes it natively."""

import subprocess
import sys

_PROGRAM = """
struct stats { double mean; long double sum; };
int main(void) {
    long double acc[8];
    struct stats s = { 0, 0 };
    double plain[8];
#pragma omp target map(from: acc)
    for (int i = 0; i < 8; i++) acc[i] = 1.0L / (i + 1);
#pragma omp target map(tofrom: s)
    s.mean = 2;
#pragma omp target map(from: plain)
    for (int i = 0; i < 8; i++) plain[i] = i;
    return (int)(acc[1] * 4 + s.mean + plain[3]);
}
"""


def test_long_double_regions_run_on_the_host_and_the_others_are_kernels(tmp_path):
    source = tmp_path / "ld.c"
    source.write_text(_PROGRAM)
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "compile", str(source), "--explain"],
                            capture_output=True, text=True)
    remarks = [line for line in (result.stdout + result.stderr).splitlines() if "remark" in line]
    assert len(remarks) == 3
    assert "runs on the host: long double" in remarks[0]
    assert "runs on the host: long double" in remarks[1]      # a member of a struct holding one
    assert "kernel" in remarks[2] and "runs on the host" not in remarks[2]
