"""What the tests of whole programs on a device share: compiling and running a C
program in this process (the pool, the native launch paths and the JIT'd code live
here, as under `omp2gpu run`), and the programs the native launch path's tests run on
the CPU device and on the GPU."""

from __future__ import annotations

import textwrap


def run_in_process(tmp_path, monkeypatch, capfd, source: str, environ=None, args=(), devices="cpu"):
    """Compile and run `source` with `devices` (OMP2GPU_DEVICES) only, offloading
    MANDATORY; (status, stdout, stderr)."""
    from omp2gpu import driver
    from omp2gpu.offload import runtime
    monkeypatch.setenv("OMP2GPU_DEVICES", devices)
    monkeypatch.setenv("OMP_TARGET_OFFLOAD", "MANDATORY")
    for name, value in (environ or {}).items():
        monkeypatch.setenv(name, value)
    runtime.reset()
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    status = driver.run_program(str(path), list(args))
    out, err = capfd.readouterr()
    return status, out, err


def both_ways(tmp_path, monkeypatch, capfd, source: str, native_launches, environ=None, devices="cpu"):
    """Run `source` through the launcher only (OMP2GPU_FAST_PATH=0), then with the native
    launch path: for each, (stdout, offload log lines, launches made natively), where
    native_launches() counts those."""
    results = []
    for fast in ("0", "1"):
        log = tmp_path / f"launches-{fast}.log"
        before = native_launches()
        status, out, err = run_in_process(tmp_path, monkeypatch, capfd, source, {
            **(environ or {}), "OMP2GPU_FAST_PATH": fast, "OMP2GPU_OFFLOAD_LOG": str(log)}, devices=devices)
        assert status == 0, err
        results.append((out, log.read_text().splitlines(), native_launches() - before))
    return results


# Every kind of map entry the native path serves, and some it leaves to the launcher.
MAP_CASES = """
    #include <stdio.h>
    #include <stdlib.h>
    int main(void) {
        int n = 1000, i, r;
        int x = 1, y = 0, z = 5;
        double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
        double s = 0;
        for (i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
        for (r = 0; r < 3; r++) {
            #pragma omp target map(tofrom: x)                        /* a transient scalar */
            x = x * 2 + 1;
            #pragma omp target map(from: y) map(to: z)               /* copied one way each */
            { y = z + r; z = -1; }
            #pragma omp target map(tofrom: a[0:n]) map(to: b[0:n])   /* transient arrays */
            for (i = 0; i < n; i++) a[i] += b[i];
            #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) thread_limit(64)
            for (i = 0; i < n; i++) a[i] *= 0.5;
        }
        #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
        {
            for (r = 0; r < 3; r++) {
                #pragma omp target teams distribute parallel for           /* present */
                for (i = 0; i < n; i++) a[i] += b[i];
                #pragma omp target map(tofrom: x) map(to: a[0:n])         /* present + transient */
                x += (int)a[n - 1];
                #pragma omp target map(always, tofrom: x)                 /* the launcher's path */
                x -= 1;
                #pragma omp target map(alloc: y) map(tofrom: z)
                { y = 7; z = y + r; }
                #pragma omp target map(tofrom: a[10:5])                   /* a section, present */
                for (i = 10; i < 15; i++) a[i] = -a[i];
            }
            a[0] = -100;               /* the host's copy: overwritten at the end */
        }
        #pragma omp target map(tofrom: a[20:5])                          /* a transient section */
        for (i = 20; i < 25; i++) a[i] = i;
        for (i = 0; i < n; i++) s += a[i];
        printf("x=%d y=%d z=%d s=%.3f a0=%.1f\\n", x, y, z, s, a[0]);
        free(a);
        free(b);
        return 0;
    }
"""

# Host threads launching at once, with a present array and a transient scalar each.
CONCURRENT = """
    #include <stdio.h>
    #include <stdlib.h>
    #include <omp.h>
    int main(void) {
        int n = 256, i, t, threads = 8, rounds = 400;
        long counts[8], total = 0;
        double *v = malloc(n * sizeof(double));
        for (i = 0; i < n; i++) v[i] = 1 + i % 3;
        #pragma omp target data map(to: v[0:n])
        {
            #pragma omp parallel num_threads(8)
            {
                int me = omp_get_thread_num(), k;
                long mine = 0;
                for (k = 0; k < rounds; k++) {
                    #pragma omp target map(tofrom: mine) map(to: v[0:n])
                    mine += (long)v[k % n];
                }
                counts[me] = mine;
            }
        }
        for (t = 0; t < threads; t++) total += counts[t];
        for (i = 0; i < rounds; i++) total -= threads * (long)(1 + i % n % 3);
        printf("lost=%ld\\n", total);
        free(v);
        return 0;
    }
"""

# `target update` in a time-step loop: present arrays and sections both ways, a scalar,
# an item present nowhere (nothing to copy), a struct holding an attached pointer (the
# launcher's path), and updates as target tasks ordered by depend.
UPDATE_CASES = """
    #include <stdio.h>
    #include <stdlib.h>
    struct field { int n; double *values; };
    int main(void) {
        int n = 512, i, step, halo = 4;
        double *u = malloc(n * sizeof(double)), absent[4] = {1, 2, 3, 4}, norm = 0;
        struct field f = { n, malloc(n * sizeof(double)) };
        for (i = 0; i < n; i++) { u[i] = i % 7; f.values[i] = 1; }
        #pragma omp target data map(tofrom: u[0:n], norm) map(to: f, f.values[0:n])
        {
            for (step = 0; step < 6; step++) {
                #pragma omp target teams distribute parallel for
                for (i = 0; i < n; i++) u[i] = 0.5 * u[i] + f.values[i];
                #pragma omp target update from(u[0:halo], u[n - halo:halo])
                for (i = 0; i < halo; i++) { u[i] += step; u[n - 1 - i] -= step; }
                #pragma omp target update to(u[0:halo]) to(u[n - halo:halo]) from(absent[0:2])
                #pragma omp target map(tofrom: norm)
                { norm = 0; for (i = 0; i < n; i++) norm += u[i] * u[i]; }
                #pragma omp target update from(norm)
                if (step % 2) {
                    f.values[1] = step;
                    #pragma omp target update to(f)
                    #pragma omp target update to(f.values[0:2])
                }
            }
            #pragma omp target update from(u[0:n]) nowait depend(out: u[0])
            #pragma omp task depend(in: u[0]) shared(u)
            u[1] += 1000;
            #pragma omp taskwait
            #pragma omp target update to(u[1:1]) depend(inout: u[0])
            #pragma omp taskwait
        }
        double s = 0;
        for (i = 0; i < n; i++) s += u[i] * (i % 5 + 1);
        printf("s=%.6f norm=%.6f u1=%.3f absent=%.0f\\n", s, norm, u[1], absent[0]);
        free(u);
        free(f.values);
        return 0;
    }
"""
