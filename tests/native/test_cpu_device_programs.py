"""Programs on the CPU device (work-groups on this machine's cores, runtime/offload/
cpu_device.c and runtime/cpu_device/pool.c), built and run natively: the launch log, the
device's own buffers and its zero-copy mode, the omp_* answers inside its regions, nested
regions, worksharing schedules, first- and lastprivate, a device's display of its settings."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from native_runs import REPO_ROOT, run_native

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


def test_every_launch_is_logged_on_the_cpu_device(tmp_path):
    log = tmp_path / "launches.log"
    done = run_native(tmp_path, VADD, {"OMP2GPU_OFFLOAD_LOG": str(log)})
    assert (done.returncode, done.stdout) == (0, "errors=0\n"), done.stderr
    lines = log.read_text().splitlines()
    assert len(lines) == 50 and all("device='cpu'" in line for line in lines)


def test_zero_copy_mode_copies_nothing(tmp_path):
    copies = tmp_path / "copies.log"
    done = run_native(tmp_path, VADD, {"OMP2GPU_CPU_UNIFIED": "1", "OMP2GPU_COPY_LOG": str(copies)})
    assert (done.returncode, done.stdout) == (0, "errors=0\n"), done.stderr
    assert not copies.exists() or copies.read_text() == ""


def test_mapped_data_is_copied_once_each_way(tmp_path):
    copies = tmp_path / "copies.log"
    done = run_native(tmp_path, VADD, {"OMP2GPU_COPY_LOG": str(copies)})
    assert (done.returncode, done.stdout) == (0, "errors=0\n"), done.stderr
    assert [line.split()[0] for line in copies.read_text().splitlines()] == ["to-device", "to-device", "to-host"]


def test_an_unknown_schedule_is_named_and_the_default_used(tmp_path):
    """A program started by itself (`omp2gpu run` refuses the value: tests/tools/test_cli.py)."""
    (tmp_path / "vadd.c").write_text(textwrap.dedent(VADD))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "vadd.c", "-o", "vadd"], cwd=tmp_path, env=env,
                   check=True, timeout=300)
    done = subprocess.run([str(tmp_path / "vadd")], capture_output=True, text=True, timeout=300,
                          env={**env, "OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY",
                               "OMP2GPU_CPU_SCHEDULE": "fastest,4"})
    assert (done.returncode, done.stdout) == (0, "errors=0\n"), done.stderr
    assert "warning: OMP2GPU_CPU_SCHEDULE=fastest,4: unknown policy 'fastest' (choose from static, dynamic, " \
           "guided, steal); steal used" in done.stderr


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


def test_mapped_data_lives_in_device_buffers(tmp_path):
    done = run_native(tmp_path, DEVICE_COPIES)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["host copy while mapped: 1", "after update from: 2",
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


def test_omp_answers_are_a_devices_and_clauses_are_honoured(tmp_path):
    done = run_native(tmp_path, DEVICE_ANSWERS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["initial device inside: 0", "teams 5 threads 8 bad 0 seen 11111"]


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


def test_nested_regions_see_the_enclosing_levels(tmp_path):
    """In a region nested (serialised) in a work-item, omp_get_ancestor_thread_num and
    omp_get_team_size answer for the enclosing levels, and omp_in_parallel holds
    because an enclosing region is active."""
    done = run_native(tmp_path, NESTED_ANSWERS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"2 {i} 4 1 1 {i * 10 + 1}" for i in range(4)]


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


def test_worksharing_loops_give_iterations_to_the_threads_their_schedule_names(tmp_path):
    """static,k deals chunk c to thread c % n, dynamic,k keeps its chunks whole; without a
    chunk, each thread one block of the loop's iterations (a team's distribute chunk)."""
    done = run_native(tmp_path, SCHEDULE_OWNERS)
    assert done.returncode == 0, done.stderr
    owners = [[int(c) for c in word] for word in done.stdout.split()]
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


def test_combined_parallel_for_first_and_lastprivate_assigns_the_original(tmp_path):
    """A variable both firstprivate and lastprivate on `parallel for`: the last iteration
    assigns the variable outside the region, not the parallel region's private copy."""
    done = run_native(tmp_path, "#include <omp.h>\n" + FIRST_AND_LASTPRIVATE)
    assert (done.returncode, done.stdout) == (0, "100 101\n"), done.stderr


AFFINITY_AND_DISPLAY = """
    #include <omp.h>
    #include <stdio.h>
    int main(void) {
        char text[32] = "unset";
        int length = -1;
        #pragma omp target map(tofrom: text, length)
        {
            length = (int)omp_capture_affinity(text, sizeof text, "%n");
            omp_display_env(0);
        }
        printf("[%s] %d\\n", text, length);
        return 0;
    }
"""


def test_a_device_has_no_affinity_and_displays_its_own_settings(tmp_path):
    done = run_native(tmp_path, AFFINITY_AND_DISPLAY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["OPENMP DISPLAY ENVIRONMENT BEGIN", "  [device 0] OMP_DYNAMIC = 'FALSE'",
                                        "  [device 0] OMP_MAX_ACTIVE_LEVELS = '1'", "OPENMP DISPLAY ENVIRONMENT END",
                                        "[] 0"]


def test_omp_num_teams_and_teams_thread_limit_are_read_on_the_host(tmp_path):
    """The OpenMP runtime reads its environment when it loads."""
    done = run_native(tmp_path, '#include <omp.h>\n#include <stdio.h>\nint main(void) { printf("%d %d\\n", '
                      'omp_get_max_teams(), omp_get_teams_thread_limit()); }\n',
                      {"OMP_NUM_TEAMS": "6", "OMP_TEAMS_THREAD_LIMIT": "7", "OMP_TARGET_OFFLOAD": "DISABLED"})
    assert (done.returncode, done.stdout) == (0, "6 7\n"), done.stderr


DEVICE_NAMES = """
    #include <stdio.h>
    #include <string.h>
    #include <omp.h>
    int main(void) {
        char name[64], small[8];
        int length = omp2gpu_get_device_name(0, name, sizeof name);
        memset(small, 'x', sizeof small);
        int cut = omp2gpu_get_device_name(0, small, 7);
        printf("[%s] %d %d [%s] %c\\n", name, length == (int)strlen(name), cut == length, small, small[7]);
        printf("%d %d %d\\n", omp2gpu_get_device_name(0, NULL, 0) == length,
               omp2gpu_get_device_name(2, name, sizeof name), omp2gpu_get_device_name(-3, name, sizeof name));
        omp2gpu_get_device_name(omp_get_initial_device(), name, sizeof name);
        printf("[%s]\\n", name);
        return 0;
    }
"""


def test_a_devices_name_is_its_label_cut_to_the_buffer_as_snprintf_does(tmp_path):
    """omp2gpu_get_device_name (omp.h): the device's label, its length whatever the buffer
    (6 characters and the NUL in 7 bytes), -1 for no such device, "host" for the host."""
    done = run_native(tmp_path, DEVICE_NAMES)
    assert done.returncode == 0, done.stderr
    first, second, third = done.stdout.splitlines()
    assert first.startswith("[CPU device (") and first.endswith(" 1 1 [CPU de] x")
    assert (second, third) == ("1 -1 -1", "[host]")
