#!/usr/bin/env bash
# The CPU device on a lent GPU machine (16 cores, a GPU beside it): device numbering with
# a GPU present, the CPU-device and GPU tests, and bench/cpu on more cores than CI has.
# Run from the repository root through the device tool: bash bench/cpu/device_session.sh
# Pure-Python wheels the image lacks (pycparser, pcpp) travel in .whl/.
set -uo pipefail
OUT=${OUT:-cpu-results}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD"
if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site .whl/*.whl \
        && export PYTHONPATH="/tmp/site:$PWD"
fi
{ nproc; gcc --version | head -1; nvidia-smi --query-gpu=name --format=csv,noheader;
  python3 -c "import llvmlite; print('llvmlite', llvmlite.__version__)"; } | tee "$OUT/machine.txt"
{
    echo "== default device (the GPU), then --device cpu, then OMP_DEFAULT_DEVICE=1"
    OMP2GPU_OFFLOAD_LOG=/tmp/gpu.log python3 -m omp2gpu run bench/vadd/vadd.c -- 1000000 3
    OMP2GPU_OFFLOAD_LOG=/tmp/cpu.log python3 -m omp2gpu run --device cpu bench/vadd/vadd.c -- 1000000 3
    OMP_DEFAULT_DEVICE=1 OMP2GPU_OFFLOAD_LOG=/tmp/cpu1.log python3 -m omp2gpu run bench/vadd/vadd.c -- 1000000 3
    head -1 "/tmp/gpu.log" "/tmp/cpu.log" "/tmp/cpu1.log"
    python3 -m omp2gpu run tests/programs/omp_api_queries.c | head -1
} 2>&1 | tee "$OUT/devices.log"
step=${1:-all}
if [ "$step" = all ] || [ "$step" = tests ]; then
    OMP2GPU_TEST_DEVICES=cpu,gpu python3 -m pytest -q -n 12 -p no:cacheprovider tests/test_programs.py \
        tests/test_cpu_programs.py tests/native/test_cpu_device_programs.py tests/codegen/test_cpu_workgroup.py 2>&1 \
        | tee "$OUT/tests.log" | tail -15
fi
if [ "$step" = all ] || [ "$step" = bench ]; then
    python3 bench/cpu/run.py --trials 2 --out "$OUT" 2>&1 | tee "$OUT/bench.log" | tail -60
fi
