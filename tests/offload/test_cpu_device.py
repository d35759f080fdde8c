"""The CPU device: its worker pool and schedules, its memory, its data environment
(copies, zero-copy), the native launch path, and whole programs run on it in this
process (the pool and the JIT'd code live here, as under `omp2gpu run`)."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from program_runs import run_in_process

from omp2gpu import cpu_driver
from omp2gpu.offload.devices import cpu_pool
from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.devices.cpu import CpuDevice
from omp2gpu.offload.devices.cpu_pool import POLICIES, Schedule, parse_schedule, worker_count

REPO = Path(__file__).resolve().parents[2]

# The pool's native code is compiled by the driver and handed to the launcher, as in `run`.
cpu_pool.provide_runtime(cpu_driver.pool_engine)


# ----------------------------------------------------------------- choices
def test_schedules_parse():
    assert parse_schedule(None) == Schedule("steal", 0)
    assert parse_schedule("") == Schedule()
    assert parse_schedule("static") == Schedule("static", 0)
    assert parse_schedule(" Dynamic , 4 ") == Schedule("dynamic", 4)
    assert parse_schedule("guided,2") == Schedule("guided", 2)
    assert parse_schedule("work-stealing,8") == Schedule("steal", 8)
    assert str(Schedule("guided", 2)) == "guided,2" and str(Schedule("static")) == "static"
    for bad in ("auto", "static,x", "dynamic,-1"):
        with pytest.raises(ValueError):
            parse_schedule(bad)


def test_worker_count_from_omp_num_threads_else_the_cores():
    assert worker_count({"OMP_NUM_THREADS": "3"}) == 3
    assert worker_count({"OMP_NUM_THREADS": "5,2"}) == 5          # the outermost level
    cores = len(os.sched_getaffinity(0))
    assert worker_count({"OMP_NUM_THREADS": "zero"}) == cores
    assert worker_count({}) == cores


def test_bad_schedule_in_the_environment_warns_and_uses_the_default(capsys):
    device = CpuDevice({"OMP2GPU_CPU_SCHEDULE": "fastest"})
    assert device.schedule == Schedule()
    assert "OMP2GPU_CPU_SCHEDULE" in capsys.readouterr().err


# ----------------------------------------------------------------- the pool
def _recording_kernel():
    """A work-group function that records which groups ran, on which thread."""
    ran, lock = [], threading.Lock()

    def wg(args, group, num_groups, threads):
        with lock:
            ran.append((group, num_groups, threads, threading.get_ident()))
    return cpu_pool.WG_FUNCTION(wg), ran


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("chunk", [0, 1, 3])
def test_every_group_runs_exactly_once(policy, chunk):
    pool = cpu_pool.pool()
    function, ran = _recording_kernel()
    address = ctypes.cast(function, ctypes.c_void_p).value
    args = (ctypes.c_void_p * 1)()
    for groups in (1, 2, 3, 7, 64, 1000):
        ran.clear()
        pool.run(address, args, groups, 16, Schedule(policy, chunk))
        assert sorted(g for g, *_ in ran) == list(range(groups))
        assert {(n, t) for _, n, t, _ in ran} == {(groups, 16)}
        assert sum(pool.groups_run()) == groups


def test_the_pool_runs_only_native_code_the_driver_handed_over(monkeypatch):
    """The launcher compiles nothing: without the driver's runtime there is no pool."""
    monkeypatch.setattr(cpu_pool, "_pool", None)
    monkeypatch.setattr(cpu_pool, "_runtime_loader", None)
    with pytest.raises(DeviceError, match="runtime was not compiled"):
        cpu_pool.pool()


STARVATION_SCRIPT = """
import ctypes, json, sys, time
from omp2gpu import cpu_driver
from omp2gpu.offload.devices import cpu_pool
cpu_pool.provide_runtime(cpu_driver.pool_engine)
pool = cpu_pool.pool()
wg = cpu_pool.WG_FUNCTION(lambda args, group, groups, threads: time.sleep(0.003))
address = ctypes.cast(wg, ctypes.c_void_p).value
results = {}
for policy in sorted(cpu_pool.POLICIES):
    for groups in (pool.workers, pool.workers + 1, 2 * pool.workers - 1, 33):
        pool.run(address, (ctypes.c_void_p * 1)(), groups, 1, cpu_pool.Schedule(policy, 0))
        results[f"{policy},{groups}"] = pool.groups_run()
print(json.dumps({"workers": pool.workers, "runs": results}))
"""


@pytest.mark.parametrize("threads", [2, 4])
def test_no_worker_starves_when_there_are_as_many_groups_as_workers(threads):
    """PoCL's guided schedule once left its last thread idle through an integer division;
    here static and stealing give every worker a group whenever groups >= workers, however
    late a worker starts (a thief leaves its victim the last group). Dynamic and guided
    hand groups to whoever asks first, so a worker the OS starts late may find none left:
    for them the test asks only that every group runs once."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", STARVATION_SCRIPT], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["workers"] == threads
    for key, counts in result["runs"].items():
        groups = int(key.split(",")[1])
        assert sum(counts) == groups, key
        if key.startswith(("static", "steal")):
            assert min(counts) >= 1, f"{key}: a worker got no group: {counts}"
        if key.startswith("static"):
            assert max(counts) - min(counts) <= 1, f"{key}: unbalanced static split {counts}"


# ----------------------------------------------------------------- memory
def test_memory_is_device_owned_and_copied():
    device = CpuDevice({})
    host = (ctypes.c_int * 4)(1, 2, 3, 4)
    address = device.allocate(16)
    assert address % 64 == 0 and address != ctypes.addressof(host)
    device.copy_to_device(address, ctypes.addressof(host), 16)
    other = device.allocate(16)
    device.copy_device_to_device(other, address, 16)
    back = (ctypes.c_int * 4)()
    device.copy_to_host(ctypes.addressof(back), other, 16)
    assert list(back) == [1, 2, 3, 4]
    assert device.live_allocations == 2
    device.free(address)
    device.free(other)
    assert device.live_allocations == 0
    with pytest.raises(DeviceError):
        device.free(address)
    with pytest.raises(DeviceError):
        device.allocate(0)


def test_no_code_is_a_device_error():
    with pytest.raises(DeviceError):
        CpuDevice({}).load_module(None)


# ----------------------------------------------------------------- programs in this process
def _run(tmp_path, monkeypatch, capfd, source: str, environ=None, args=()):
    """Compile and run `source` with the CPU device as the only device; (status, stdout, stderr)."""
    return run_in_process(tmp_path, monkeypatch, capfd, source, environ, args)


VADD = """
    #include <stdio.h>
    #include <stdlib.h>
    int main(void) {
        int n = 100000, reps = 50, i, r;
        long errors = 0;
        double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
        for (i = 0; i < n; i++) { a[i] = 0; b[i] = i % 10; }
        #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
        for (r = 0; r < reps; r++) {
            #pragma omp target teams distribute parallel for
            for (i = 0; i < n; i++)
                a[i] += b[i] + 1.0;
        }
        for (i = 0; i < n; i++)
            if (a[i] != reps * (i % 10 + 1.0)) errors++;
        printf("errors=%ld\\n", errors);
        return errors != 0;
    }
"""


def test_launches_after_the_first_skip_python(tmp_path, monkeypatch, capfd):
    from omp2gpu.offload import runtime
    before = cpu_pool.pool().native.launches() if cpu_pool.started() else 0
    status, out, _ = _run(tmp_path, monkeypatch, capfd, VADD)
    assert (status, out) == (0, "errors=0\n")
    state = runtime.runtime().states[0]
    assert state.device.kind == "cpu" and state.usable
    assert cpu_pool.pool().native.launches() - before == 49
    assert state.device.live_allocations == 0            # target data released its buffers


def test_launch_log_names_every_launch_native_or_not(tmp_path, monkeypatch, capfd):
    log = tmp_path / "launches.log"
    status, out, _ = _run(tmp_path, monkeypatch, capfd, VADD, {"OMP2GPU_OFFLOAD_LOG": str(log)})
    assert (status, out) == (0, "errors=0\n")
    lines = log.read_text().splitlines()
    assert len(lines) == 50 and all("device='cpu'" in line for line in lines)


def test_without_the_native_path_the_results_are_the_same(tmp_path, monkeypatch, capfd):
    before = cpu_pool.pool().native.launches() if cpu_pool.started() else 0
    status, out, _ = _run(tmp_path, monkeypatch, capfd, VADD, {"OMP2GPU_CPU_FAST_PATH": "0"})
    assert (status, out) == (0, "errors=0\n")
    assert cpu_pool.pool().native.launches() == before


def test_zero_copy_mode_allocates_nothing(tmp_path, monkeypatch, capfd):
    from omp2gpu.offload import runtime
    status, out, _ = _run(tmp_path, monkeypatch, capfd, VADD, {"OMP2GPU_CPU_UNIFIED": "1"})
    assert (status, out) == (0, "errors=0\n")
    device = runtime.runtime().states[0].device
    assert device.unified and not device._allocations


DEVICE_COPIES = """
    #include <stdio.h>
    int main(void) {
        int x = 1, y = 0;
        #pragma omp target data map(tofrom: x)
        {
            #pragma omp target map(tofrom: x)             /* present: no copy either way */
            x = 2;
            printf("host copy while mapped: %d\\n", x);   /* still 1: the device has its own */
            #pragma omp target update from(x)
            printf("after update from: %d\\n", x);
            x = 5;                                        /* not seen by the device ... */
            #pragma omp target map(from: y) map(tofrom: x)
            y = x;
            printf("device saw: %d\\n", y);
        }
        printf("after the data region: %d\\n", x);       /* ... and overwritten at exit */
        return 0;
    }
"""


def test_mapped_data_lives_in_device_buffers(tmp_path, monkeypatch, capfd):
    status, out, _ = _run(tmp_path, monkeypatch, capfd, DEVICE_COPIES)
    assert status == 0
    assert out.splitlines() == ["host copy while mapped: 1", "after update from: 2",
                                "device saw: 2", "after the data region: 2"]


DEVICE_ANSWERS = """
    #include <stdio.h>
    #include <omp.h>
    int main(void) {
        int initial = -1, teams = 0, threads = 0, seen[5] = {0}, i, bad = 0;
        #pragma omp target map(from: initial)
        initial = omp_is_initial_device();
        #pragma omp target teams distribute parallel for num_teams(5) thread_limit(8) \\
                map(tofrom: teams, threads, seen, bad)
        for (i = 0; i < 1000; i++) {
            int t = omp_get_team_num();
            teams = omp_get_num_teams();
            threads = omp_get_num_threads();
            if (t < 0 || t >= 5 || omp_get_thread_num() >= 8 || !omp_in_parallel()) bad = 1;
            else seen[t] = 1;
        }
        printf("initial device inside: %d\\n", initial);
        printf("teams %d threads %d bad %d seen %d%d%d%d%d\\n", teams, threads, bad,
               seen[0], seen[1], seen[2], seen[3], seen[4]);
        return 0;
    }
"""


def test_omp_answers_are_a_devices_and_clauses_are_honoured(tmp_path, monkeypatch, capfd):
    status, out, _ = _run(tmp_path, monkeypatch, capfd, DEVICE_ANSWERS)
    assert status == 0
    assert out.splitlines() == ["initial device inside: 0", "teams 5 threads 8 bad 0 seen 11111"]


def test_a_device_that_fails_falls_back_to_the_host(tmp_path, monkeypatch, capfd):
    def broken(self, image):
        raise DeviceError("JIT refused (injected by the test)")
    monkeypatch.setattr(CpuDevice, "load_module", broken)
    monkeypatch.setenv("OMP_TARGET_OFFLOAD", "DEFAULT")
    from omp2gpu import driver
    from omp2gpu.offload import runtime
    monkeypatch.setenv("OMP2GPU_DEVICES", "cpu")
    runtime.reset()
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(VADD))
    assert driver.run_program(str(path), []) == 0
    out, err = capfd.readouterr()
    assert out == "errors=0\n"
    assert "JIT refused" in err


NESTED_ANSWERS = """
    #include <stdio.h>
    #include <omp.h>
    int main(void) {
        int r[4][6];
        #pragma omp target teams num_teams(1) thread_limit(8) map(from: r)
        {
            #pragma omp parallel num_threads(4)
            {
                int id = omp_get_thread_num();
                #pragma omp parallel
                {
                    r[id][0] = omp_get_level();
                    r[id][1] = omp_get_ancestor_thread_num(1);
                    r[id][2] = omp_get_team_size(1);
                    r[id][3] = omp_in_parallel();
                    r[id][4] = omp_get_active_level();
                    #pragma omp parallel
                    r[id][5] = omp_get_ancestor_thread_num(1) * 10 + omp_get_team_size(2);
                }
            }
        }
        for (int i = 0; i < 4; i++)
            printf("%d %d %d %d %d %d\\n", r[i][0], r[i][1], r[i][2], r[i][3], r[i][4], r[i][5]);
        return 0;
    }
"""


def test_nested_regions_see_the_enclosing_levels(tmp_path, monkeypatch, capfd):
    """In a region nested (serialised) in a work-item, omp_get_ancestor_thread_num and
    omp_get_team_size answer for the enclosing levels, and omp_in_parallel holds
    because an enclosing region is active."""
    status, out, _ = _run(tmp_path, monkeypatch, capfd, NESTED_ANSWERS)
    assert status == 0
    assert out.splitlines() == [f"2 {i} 4 1 1 {i * 10 + 1}" for i in range(4)]


SCHEDULE_OWNERS = """
    #include <stdio.h>
    #include <omp.h>
    int main(void) {
        int s3[20], d2[20], blk[20], dpf[20];
        #pragma omp target teams num_teams(1) thread_limit(4) map(from: s3, d2, blk)
        #pragma omp parallel num_threads(4)
        {
            #pragma omp for schedule(static, 3)
            for (int i = 0; i < 20; i++) s3[i] = omp_get_thread_num();
            #pragma omp for schedule(dynamic, 2)
            for (int i = 0; i < 20; i++) d2[i] = omp_get_thread_num();
            #pragma omp for schedule(static)
            for (int i = 0; i < 20; i++) blk[i] = omp_get_thread_num();
        }
        #pragma omp target teams num_teams(2) thread_limit(4) map(from: dpf)
        #pragma omp distribute parallel for dist_schedule(static) schedule(static)
        for (int i = 0; i < 20; i++) dpf[i] = omp_get_thread_num();
        for (int i = 0; i < 20; i++) printf("%d%d%d%d ", s3[i], d2[i], blk[i], dpf[i]);
        printf("\\n");
        return 0;
    }
"""


def test_worksharing_loops_give_iterations_to_the_threads_their_schedule_names(tmp_path, monkeypatch, capfd):
    """static,k deals chunk c to thread c % n, dynamic,k keeps its chunks whole; without a
    chunk, each thread one block of the loop's iterations (a team's distribute chunk)."""
    status, out, _ = _run(tmp_path, monkeypatch, capfd, SCHEDULE_OWNERS)
    assert status == 0
    owners = [[int(c) for c in word] for word in out.split()]
    assert [o[0] for o in owners] == [i // 3 % 4 for i in range(20)]
    assert [o[1] for o in owners] == [i // 2 % 4 for i in range(20)]
    assert [o[2] for o in owners] == [i * 4 // 20 for i in range(20)]
    for team in (owners[:10], owners[10:]):              # each team's chunk over all 4 threads
        block = [o[3] for o in team]
        assert block == sorted(block) and block[0] == 0 and block[-1] == 3


FIRST_AND_LASTPRIVATE = """
    #include <stdio.h>
    int main(void) {
        int r1 = 0, w = 10;
        #pragma omp target teams num_teams(2) thread_limit(4) map(tofrom: r1)
        {
            int y = 10;
            #pragma omp parallel for firstprivate(y) lastprivate(y)
            for (int i = 0; i < 100; i++)
                y = i + 1;
            if (omp_get_team_num() == 0) r1 = y;
        }
        #pragma omp target map(tofrom: w)
        #pragma omp parallel for firstprivate(w) lastprivate(w)
        for (int i = 0; i < 100; i++)
            w = i + 2;
        printf("%d %d\\n", r1, w);
        return 0;
    }
"""


def test_combined_parallel_for_first_and_lastprivate_assigns_the_original(tmp_path, monkeypatch, capfd):
    """A variable both firstprivate and lastprivate on `parallel for`: the last iteration
    assigns the variable outside the region, not the parallel region's private copy."""
    status, out, _ = _run(tmp_path, monkeypatch, capfd, "#include <omp.h>\n" + textwrap.dedent(FIRST_AND_LASTPRIVATE))
    assert (status, out) == (0, "100 101\n")
