"""OpenMP 5.0/5.1 routines in target regions and on the host (issue 26): the device
number a region runs on, the teams ICVs a device reports unset, the host's binding to
the OpenMP runtime's, target's thread_limit (5.1); run on two CPU devices."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from program_runs import run_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
ROUTINES = """
    #include <omp.h>
    #include <stdio.h>
    int main(void) {
        int number = -9, teams = -9, limit = -9, levels = -9, threads = -9;
        printf("host %d of %d initial %d\\n", omp_get_device_num(), omp_get_num_devices(),
               omp_get_initial_device());
        for (int d = 0; d < omp_get_num_devices(); d++) {
            #pragma omp target device(d) map(from: number, teams, limit, levels, threads) thread_limit(2)
            {
                number = omp_get_device_num();
                teams = omp_get_max_teams();
                limit = omp_get_teams_thread_limit();
                levels = omp_get_supported_active_levels();
                threads = omp_get_thread_limit() <= 2;
            }
            printf("device %d: %d %d %d %d %d\\n", d, number, teams, limit, levels, threads);
        }
        omp_set_num_teams(3);
        omp_set_teams_thread_limit(5);
        printf("%d %d %d %d\\n", omp_get_max_teams(), omp_get_teams_thread_limit(),
               omp_pause_resource(omp_pause_soft, 1), omp_pause_resource(omp_pause_soft, 7) != 0);
        return 0;
    }
"""


def test_device_numbers_and_teams_routines(tmp_path, monkeypatch, capfd):
    status, out, err = run_in_process(tmp_path, monkeypatch, capfd, ROUTINES, devices="cpu,cpu")
    assert status == 0, err
    assert out.splitlines() == ["host 2 of 2 initial 2", "device 0: 0 0 0 1 1", "device 1: 1 0 0 1 1",
                                "3 5 0 1"]


def test_omp_num_teams_and_teams_thread_limit_are_read_on_the_host(tmp_path):
    """The OpenMP runtime reads its environment when it loads: a program of its own."""
    path = tmp_path / "prog.c"
    path.write_text('#include <omp.h>\n#include <stdio.h>\n'
                    'int main(void) { printf("%d %d\\n", omp_get_max_teams(), omp_get_teams_thread_limit()); }\n')
    env = dict(os.environ, OMP_NUM_TEAMS="6", OMP_TEAMS_THREAD_LIMIT="7",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "host", str(path)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert (done.returncode, done.stdout) == (0, "6 7\n"), done.stderr


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


def test_a_device_has_no_affinity_and_displays_its_own_settings(tmp_path, monkeypatch, capfd):
    status, out, err = run_in_process(tmp_path, monkeypatch, capfd, AFFINITY_AND_DISPLAY)
    assert status == 0, err
    assert out.splitlines() == ["OPENMP DISPLAY ENVIRONMENT BEGIN", "  [device 0] OMP_DYNAMIC = 'FALSE'",
                                "  [device 0] OMP_MAX_ACTIVE_LEVELS = '1'", "OPENMP DISPLAY ENVIRONMENT END",
                                "[] 0"]
