#!/usr/bin/env bash
# One session on a lent GPU: the `gpu` tests and the GPU benchmarks, results under $OUT.
# Run from the repository root, e.g. through the device tool:  bash bench/gpu_session.sh [STEP [ARGS]]
# (ARGS go to the step's script: bash bench/gpu_session.sh host --gcc-native)
# Pure-Python wheels the GPU image lacks (pycparser, pcpp) may travel in .whl/; MPICH's in .whl/mpi/.
set -uo pipefail
OUT=${OUT:-gpu-results}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD"
if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site .whl/*.whl \
        && export PYTHONPATH="/tmp/site:$PWD"
fi
# MPICH's wheel (the `mpi` extra) may travel in .whl/mpi/: the MPI tests (tests, scale) use it
if compgen -G ".whl/mpi/mpich*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --prefix /tmp/mpi .whl/mpi/mpich*.whl \
        && export OMP2GPU_MPICC=/tmp/mpi/bin/mpicc
fi
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv | tee "$OUT/device.txt"
python3 -c "import llvmlite, pycparser; print('llvmlite', llvmlite.__version__, 'pycparser', pycparser.__version__)"
step=${1:-all}
if [ "$step" = all ] || [ "$step" = tests ]; then
    python3 -m pytest -q -m gpu -n 8 -p no:cacheprovider --ignore=tests/gpu/test_sanitizer.py 2>&1 \
        | tee "$OUT/gpu_tests.log" | tail -40
fi
if [ "$step" = all ] || [ "$step" = sanitizer ]; then
    python3 -m pytest -q -n 14 -p no:cacheprovider tests/gpu/test_sanitizer.py 2>&1 \
        | tee "$OUT/sanitizer.log" | tail -40
fi
if [ "$step" = all ] || [ "$step" = tables ]; then
    python3 bench/paper_tables/run.py --out "$OUT" 2>&1 | tee "$OUT/paper_tables.log" | tail -60
fi
if [ "$step" = all ] || [ "$step" = async ]; then    # target tasks on streams (docs/async.md, "Status")
    python3 bench/lulesh/sweep.py --out "$OUT" 2>&1 | tee "$OUT/sweep.log" | tail -20
    OMP2GPU_NOWAIT_STREAMS=1 OMP2GPU_TEST_DEVICES=gpu,gpu-control-loop python3 -m pytest -q -n 8 -p no:cacheprovider \
        tests/test_programs.py -k "target or task" 2>&1 | tee "$OUT/async_tests.log" | tail -20
    OMP2GPU_NOWAIT_STREAMS=1 python3 -m pytest -q -n 8 -p no:cacheprovider tests/native/test_target_tasks.py \
        tests/examples/test_lulesh.py 2>&1 | tee -a "$OUT/async_tests.log" | tail -20
    OMP2GPU_NOWAIT_STREAMS=1 python3 -m pytest -q -n 8 -p no:cacheprovider tests/gpu/test_sanitizer.py -k nowait 2>&1 \
        | tee -a "$OUT/async_tests.log" | tail -20
    # automatic concurrency (docs/async.md): the corpus's target programs, its own test, the sanitizer
    OMP2GPU_AUTO_ASYNC=1 OMP2GPU_TEST_DEVICES=gpu python3 -m pytest -q -n 8 -p no:cacheprovider \
        tests/test_programs.py -k "target" 2>&1 | tee -a "$OUT/async_tests.log" | tail -5
    python3 -m pytest -q -s -p no:cacheprovider tests/native/test_target_tasks.py -k "auto" 2>&1 \
        | tee -a "$OUT/async_tests.log" | tail -8
    OMP2GPU_AUTO_ASYNC=1 python3 -m pytest -q -n 8 -p no:cacheprovider tests/gpu/test_sanitizer.py -k "target_" 2>&1 \
        | tee -a "$OUT/async_tests.log" | tail -5
fi
if [ "$step" = all ] || [ "$step" = suite ]; then    # sollve_vv's C tests (a checkout in .sollve_vv), both schemes
    for version in ${SUITE_VERSIONS:-4.5 5.0 5.1}; do
        for scheme in ${SUITE_SCHEMES:-auto control-loop}; do
            python3 bench/validation_suite/run.py .sollve_vv --openmp "$version" --device gpu --scheme "$scheme" \
                --jobs "${SUITE_JOBS:-12}" --out "$OUT" > "$OUT/suite-$version-$scheme.log" 2>&1
            head -3 "$OUT/suite-$version-$scheme.log" | tail -1
        done
    done
fi
if [ "$step" = all ] || [ "$step" = lulesh ]; then
    python3 bench/lulesh/run.py --out "$OUT" 2>&1 | tee "$OUT/lulesh.log" | tail -40
fi
if [ "$step" = all ] || [ "$step" = bench ]; then
    python3 bench/vadd/run.py --out "$OUT" 2>&1 | tee "$OUT/vadd.log" | tail -40
    python3 bench/python/run.py --out "$OUT/python" 2>&1 | tee "$OUT/python_api.log" | tail -20
    python3 bench/python/run.py --breakdown --out "$OUT/python" 2>&1 | tee -a "$OUT/python_api.log" | tail -20
fi
if [ "$step" = python ]; then     # the Python API on the GPU: its tests, then bench/python (not in `all`)
    python3 -m pytest -q -m gpu -p no:cacheprovider tests/api tests/native/test_native_api.py 2>&1 \
        | tee "$OUT/python_tests.log" | tail -20
    python3 bench/python/run.py --out "$OUT/python" 2>&1 | tee "$OUT/python_api.log" | tail -20
    python3 bench/python/run.py --breakdown --out "$OUT/python" 2>&1 | tee -a "$OUT/python_api.log" | tail -20
fi
if [ "$step" = startup ]; then     # bench/startup on this machine's cores (not in `all`: no GPU needed)
    python3 bench/startup/run.py "${@:2}" 2>&1 | tee "$OUT/startup.log" | tail -40
    cp bench/startup/results.md bench/startup/results.json "$OUT/"
fi
if [ "$step" = all ] || [ "$step" = host ]; then     # host OpenMP against gcc -O3 on the CPU cores
    python3 bench/host/run.py --out "$OUT" "${@:2}" 2>&1 | tee "$OUT/host.log" | tail -40
fi
if [ "$step" = scale ]; then     # several GPUs: MPI weak scaling and device(n) strong scaling
    python3 -m pytest -q -p no:cacheprovider tests/native/test_several_devices.py tests/targets/test_mpi.py \
        tests/test_mpi_staging.py 2>&1 \
        | tee "$OUT/scale_tests.log" | tail -5
    python3 bench/scale/run.py --out "$OUT" "${@:2}" 2>&1 | tee "$OUT/scale.log" | tail -40
fi
