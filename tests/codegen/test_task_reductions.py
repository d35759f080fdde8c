"""codegen/openmp/host/task_reductions.py and reduction_aliases.py: task reductions on the
host's threads, and the devices handing regions that use them to the host."""

from __future__ import annotations

from test_host_tasks import _cli


def _run(tmp_path, source: str, *options: str) -> str:
    result = _cli(tmp_path, source, "run", *options)
    assert result.returncode == 0, result.stderr
    return result.stdout


OPERATORS = r"""
#include <stdio.h>
int main(void) {
    long sum = 5, product = 3, big = -1; double low = 1e9; int all = 1, any = 0, bits = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
#pragma omp taskgroup task_reduction(+: sum) task_reduction(*: product) task_reduction(max: big) \
        task_reduction(min: low) task_reduction(&&: all) task_reduction(||: any) task_reduction(|: bits)
    for (int i = 1; i <= 12; i++) {
#pragma omp task in_reduction(+: sum) in_reduction(*: product) in_reduction(max: big) in_reduction(min: low) \
        in_reduction(&&: all) in_reduction(||: any) in_reduction(|: bits) firstprivate(i)
        { sum += i; product *= (i % 3 == 0) ? 2 : 1; big = i * 7 % 11 > big ? i * 7 % 11 : big;
          low = i * 0.5 < low ? i * 0.5 : low; all = all && i > 0; any = any || i == 12; bits |= 1 << i; }
    }
    printf("%ld %ld %ld %.1f %d %d %d\n", sum, product, big, low, all, any, bits);
    return 0;
}
"""


def test_every_operator_folds_each_task_into_the_original(tmp_path):
    assert _run(tmp_path, OPERATORS) == "83 48 10 0.5 1 1 8190\n"


TASK_MODIFIER = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
    long t = 0, n = 0;
#pragma omp parallel num_threads(4) reduction(task, +: t) reduction(+: n)
    {
        n += 1;
        for (int k = 0; k < 5; k++) {
#pragma omp task in_reduction(+: t)
            {
                t += 1;
#pragma omp task in_reduction(+: t)
                t += 100;
            }
        }
        t += 10000;
    }
    printf("%ld\n", t / n);
    return 0;
}
"""


def test_tasks_in_a_task_modifier_region_fold_into_the_original(tmp_path):
    # every thread: 10000 of its own, five tasks of 1 and five nested tasks of 100
    assert _run(tmp_path, TASK_MODIFIER) == "10505\n"


USER_DEFINED = r"""
#include <stdio.h>
typedef struct { int lo, hi; } range;
#pragma omp declare reduction(span: range: omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, \
        omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) initializer(omp_priv = (range){1000, -1000})
int main(void) {
    range r = {500, -500};
    long total = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
    {
#pragma omp taskgroup task_reduction(span: r)
        for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(span: r) firstprivate(i)
            { int v = (i * 37) % 101; if (v < r.lo) r.lo = v; if (v > r.hi) r.hi = v; }
        }
#pragma omp taskloop reduction(+: total) grainsize(3)
        for (int i = 0; i < 100; i++)
            total += i;
    }
    printf("%d %d %ld\n", r.lo, r.hi, total);
    return 0;
}
"""


def test_declare_reduction_and_taskloop_reduction(tmp_path):
    assert _run(tmp_path, USER_DEFINED) == "0 97 4950\n"


HISTOGRAMS = r"""
#include <stdio.h>
#define NB 8
int main(void) {
    int hist[NB] = {0}, part[2 * NB] = {0}, data[200];
    long weights[NB] = {0};
    for (int i = 0; i < 200; i++) data[i] = (i * 13) % 37;
#pragma omp parallel num_threads(4)
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+: hist, part[NB:NB])
        for (int c = 0; c < 200; c += 20) {
            int lo = NB;
#pragma omp task in_reduction(+: hist) firstprivate(c)
            for (int i = c; i < c + 20; i++) hist[data[i] % NB]++;
#pragma omp task in_reduction(+: part[lo:NB]) firstprivate(c)
            for (int i = c; i < c + 20; i++) part[NB + data[i] % NB] += 2;
            lo = 0;         /* the task took the section's bounds where it was created */
        }
#pragma omp taskloop reduction(+: weights[0:NB]) grainsize(16)
        for (int i = 0; i < 200; i++) weights[data[i] % NB] += i;
    }
    for (int b = 0; b < NB; b++) printf("%d %d %d %ld\n", hist[b], part[b], part[NB + b], weights[b]);
    return 0;
}
"""


def test_arrays_and_array_sections(tmp_path):
    counts = [28, 26, 28, 26, 27, 22, 22, 21]
    weights = [2843, 2587, 2729, 2665, 2611, 2189, 2222, 2054]
    assert _run(tmp_path, HISTOGRAMS) == "".join(f"{n} 0 {2 * n} {w}\n" for n, w in zip(counts, weights))


TARGET_PARTICIPANT = r"""
#include <stdio.h>
int main(void) {
    int sum = 0, data[64];
    for (int i = 0; i < 64; i++) data[i] = i;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskgroup task_reduction(+: sum)
    {
#pragma omp target in_reduction(+: sum) map(to: data) nowait
        for (int i = 0; i < 64; i++) sum += data[i];
#pragma omp target teams distribute parallel for in_reduction(+: sum) map(to: data) reduction(+: sum)
        for (int i = 0; i < 64; i++) sum += 2 * data[i];
    }
    printf("%d\n", sum);
    return 0;
}
"""


def test_target_in_reduction_on_every_device(tmp_path):
    for device in ("host", "cpu"):
        assert _run(tmp_path, TARGET_PARTICIPANT, "--device", device) == "6048\n"


DEVICE_TASK = r"""
#include <stdio.h>
int main(void) {
    long sum = 0;
#pragma omp target map(tofrom: sum)
#pragma omp taskgroup task_reduction(+: sum)
    for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+: sum)
        sum += i;
    }
    printf("%ld\n", sum);
    return 0;
}
"""


def test_a_kernel_with_a_task_reduction_runs_on_the_host(tmp_path):
    result = _cli(tmp_path, DEVICE_TASK, "run", "--device", "cpu")
    assert result.returncode == 0 and result.stdout == "45\n", result.stderr


DEFERRED_TARGETS = r"""
#include <stdio.h>
int main(void) {
    int sum = 0, n = 0;
#pragma omp parallel num_threads(4) reduction(task, +: sum) reduction(+: n)
    {
        n++;
#pragma omp target in_reduction(+: sum) nowait
        sum += 1;
#pragma omp task in_reduction(+: sum)
        {
#pragma omp target in_reduction(+: sum) nowait
            sum += 10;
        }
        sum += 100;
    }
    printf("%d\n", sum / n);
    return 0;
}
"""


def test_deferred_target_tasks_fold_past_the_copies_they_were_created_in(tmp_path):
    # the target tasks' functions find the implicit task's and the task's copies through
    # their captures (reduction_aliases.fold_target) and fold into the original
    for device in ("host", "cpu"):
        assert _run(tmp_path, DEFERRED_TARGETS, "--device", device) == "111\n"
