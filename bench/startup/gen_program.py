"""Generate a realistic ~2,000-line C program for the start-up benchmark.

    python bench/startup/gen_program.py [-o prog.c] [--lines 2000] [--seed 1]

The program is many small "kernels" (loops over arrays and structs, switch
statements, math library calls, recursion, string formatting, sorting) and a
few OpenMP regions (parallel for with reductions, collapse, target teams
distribute parallel for with maps), and a main that calls them all, prints
each result and a final checksum. It prints a first line and flushes stdout
before any work, so that the time to that line is the compiler's start-up.

Its output is exact and portable: OpenMP reductions and device arithmetic use
integers (or doubles holding small integers), so no thread count or
summation order changes a digit; floating-point results are printed after
the same operations in the same order that gcc performs.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

DEFAULT_LINES = 2000
DEFAULT_SEED = 1


def _particles(k: int, r: random.Random) -> tuple[str, str, str]:
    n, a, b = r.randint(24, 64), r.randint(2, 9), r.randint(2, 9)
    box = r.choice([8.0, 10.0, 12.5, 16.0])
    code = f"""
struct particle_{k} {{
    double x, y;
    double vx, vy;
    int id;
}};

static long particles_{k}(int steps)
{{
    struct particle_{k} p[{n}];
    double energy = 0.0;
    int i, s;

    for (i = 0; i < {n}; i++) {{
        p[i].x = (double)(i % 7) * {a}.0 / 4.0;
        p[i].y = (double)(i % 5) * {b}.0 / 4.0;
        p[i].vx = 0.5 * (double)(i % 3) - 0.5;
        p[i].vy = 0.25 * (double)(i % 4) - 0.375;
        p[i].id = i;
    }}
    for (s = 0; s < steps; s++) {{
        for (i = 0; i < {n}; i++) {{
            p[i].x += p[i].vx * 0.125;
            p[i].y += p[i].vy * 0.125;
            if (p[i].x < 0.0 || p[i].x > {box})
                p[i].vx = -p[i].vx;
            if (p[i].y < 0.0 || p[i].y > {box})
                p[i].vy = -p[i].vy;
        }}
    }}
    for (i = 0; i < {n}; i++)
        energy += sqrt(p[i].vx * p[i].vx + p[i].vy * p[i].vy) + p[i].x * 0.001 + p[i].y * 0.002;
    return (long)(energy * 1000.0);
}}
"""
    return code, f"particles_{k}({r.randint(10, 40)})", "%ld"


def _state_machine(k: int, r: random.Random) -> tuple[str, str, str]:
    seed, mul = r.randint(1, 10**6), r.choice([31, 33, 37, 131, 257])
    code = f"""
enum state_{k} {{ S{k}_START, S{k}_MIX, S{k}_ADD, S{k}_ROTATE, S{k}_COUNT }};

static unsigned long machine_{k}(int n)
{{
    unsigned long acc = {seed}UL;
    enum state_{k} state = S{k}_START;
    int i;

    for (i = 0; i < n; i++) {{
        switch (state) {{
        case S{k}_START:
            acc = acc * {mul}UL + (unsigned long)i;
            state = (enum state_{k})(acc % 4UL);
            break;
        case S{k}_MIX:
            acc ^= acc >> 7;
            state = S{k}_ADD;
            break;
        case S{k}_ADD:
            acc += 0x9e3779b9UL;
            state = (i & 1) ? S{k}_ROTATE : S{k}_START;
            break;
        case S{k}_ROTATE:
            acc = (acc << 3) | (acc >> 61);
            state = S{k}_START;
            break;
        default:
            state = S{k}_START;
            break;
        }}
    }}
    return acc;
}}
"""
    return code, f"machine_{k}({r.randint(500, 3000)})", "%lu"


def _matmul(k: int, r: random.Random) -> tuple[str, str, str]:
    m = r.choice([12, 16, 20, 24])
    code = f"""
static long matmul_{k}(int shift)
{{
    static int a[{m}][{m}], b[{m}][{m}], c[{m}][{m}];
    long trace = 0;
    int i, j, l;

    for (i = 0; i < {m}; i++)
        for (j = 0; j < {m}; j++) {{
            a[i][j] = (i * {m} + j + shift) % 17 - 8;
            b[i][j] = (j * 3 + i * 5 + shift) % 13 - 6;
        }}
    for (i = 0; i < {m}; i++)
        for (j = 0; j < {m}; j++) {{
            int sum = 0;
            for (l = 0; l < {m}; l++)
                sum += a[i][l] * b[l][j];
            c[i][j] = sum;
        }}
    for (i = 0; i < {m}; i++)
        trace += c[i][i] * (long)(i + 1) + c[i][{m} - 1 - i];
    return trace;
}}
"""
    return code, f"matmul_{k}({r.randint(0, 9)})", "%ld"


def _sort(k: int, r: random.Random) -> tuple[str, str, str]:
    n = r.randint(100, 300)
    code = f"""
static int compare_ints_{k}(const void *pa, const void *pb)
{{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}}

static long sort_{k}(unsigned seed)
{{
    int v[{n}], w[{n}];
    long checksum = 0;
    int i, j;

    for (i = 0; i < {n}; i++) {{
        seed = seed * 1103515245u + 12345u;
        v[i] = (int)((seed >> 16) % 1000u);
        w[i] = v[i];
    }}
    for (i = 1; i < {n}; i++) {{          /* insertion sort */
        int key = v[i];
        j = i - 1;
        while (j >= 0 && v[j] > key) {{
            v[j + 1] = v[j];
            j--;
        }}
        v[j + 1] = key;
    }}
    qsort(w, {n}, sizeof(int), compare_ints_{k});
    for (i = 0; i < {n}; i++) {{
        if (v[i] != w[i])
            return -1;
        checksum = checksum * 7 + v[i];
        checksum %= 1000000007L;
    }}
    return checksum;
}}
"""
    return code, f"sort_{k}({r.randint(1, 99999)}u)", "%ld"


def _strings(k: int, r: random.Random) -> tuple[str, str, str]:
    words = r.sample(["alpha", "beta", "gamma", "delta", "omega", "kernel", "team", "thread",
                      "device", "host", "map", "reduce"], 4)
    code = f"""
static const char *const words_{k}[] = {{ "{words[0]}", "{words[1]}", "{words[2]}", "{words[3]}" }};

static unsigned long strings_{k}(int count)
{{
    char buffer[256];
    unsigned long hash = 5381UL;
    int i, length = 0;

    buffer[0] = '\\0';
    for (i = 0; i < count; i++) {{
        int wrote = snprintf(buffer + length, sizeof(buffer) - (size_t)length, "%s-%d;",
                             words_{k}[i % 4], i * {r.randint(3, 11)});
        if (wrote < 0 || length + wrote >= (int)sizeof(buffer) - 1)
            break;
        length += wrote;
    }}
    for (i = 0; buffer[i] != '\\0'; i++)
        hash = hash * 33UL + (unsigned char)buffer[i];
    return hash + strlen(buffer);
}}
"""
    return code, f"strings_{k}({r.randint(5, 20)})", "%lu"


def _recursion(k: int, r: random.Random) -> tuple[str, str, str]:
    code = f"""
static long fib_{k}(int n)
{{
    return n < 2 ? n : fib_{k}(n - 1) + fib_{k}(n - 2);
}}

static long gcd_{k}(long a, long b)
{{
    while (b != 0) {{
        long t = a % b;
        a = b;
        b = t;
    }}
    return a;
}}

static long recursion_{k}(int n)
{{
    long total = fib_{k}(n);
    int i;

    for (i = 1; i <= 50; i++)
        total += gcd_{k}((long)i * {r.randint(100, 999)}, (long)(i + {r.randint(1, 50)}) * 36);
    return total;
}}
"""
    return code, f"recursion_{k}({r.randint(12, 18)})", "%ld"


def _math(k: int, r: random.Random) -> tuple[str, str, str]:
    step = r.choice(["0.01", "0.02", "0.05", "0.125"])
    code = f"""
static double math_{k}(int n)
{{
    double sum = 0.0, x;
    int i;

    for (i = 0; i < n; i++) {{
        x = (double)i * {step};
        sum += sin(x) * cos(0.5 * x) + exp(-x * 0.1);
        sum += sqrt(x + 1.0) - log(x + 2.0);
        if (fabs(sum) > 1.0e6)
            sum = fmod(sum, 1000.0);
    }}
    return floor(sum * 1000.0) / 1000.0 + pow(2.0, (double)(n % 5));
}}
"""
    return code, f"math_{k}({r.randint(100, 400)})", "%.3f"


def _stencil(k: int, r: random.Random) -> tuple[str, str, str]:
    n = r.choice([32, 48, 64])
    code = f"""
#define N_{k} {n}

static double grid_{k}[N_{k}][N_{k}], next_{k}[N_{k}][N_{k}];

static double stencil_{k}(int iterations)
{{
    double total = 0.0;
    int i, j, it;

    for (i = 0; i < N_{k}; i++)
        for (j = 0; j < N_{k}; j++)
            grid_{k}[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
    for (it = 0; it < iterations; it++) {{
        for (i = 1; i < N_{k} - 1; i++)
            for (j = 1; j < N_{k} - 1; j++)
                next_{k}[i][j] = 0.25 * (grid_{k}[i - 1][j] + grid_{k}[i + 1][j]
                                      + grid_{k}[i][j - 1] + grid_{k}[i][j + 1]);
        for (i = 1; i < N_{k} - 1; i++)
            for (j = 1; j < N_{k} - 1; j++)
                grid_{k}[i][j] = next_{k}[i][j];
    }}
    for (i = 0; i < N_{k}; i++)
        for (j = 0; j < N_{k}; j++)
            total += grid_{k}[i][j];
    return total;
}}
"""
    return code, f"stencil_{k}({r.randint(5, 20)})", "%.6f"


def _bits(k: int, r: random.Random) -> tuple[str, str, str]:
    code = f"""
static unsigned popcount_{k}(unsigned long v)
{{
    unsigned count = 0;
    while (v) {{
        v &= v - 1;
        count++;
    }}
    return count;
}}

static unsigned long reverse_{k}(unsigned long v)
{{
    unsigned long out = 0;
    int i;
    for (i = 0; i < 64; i++) {{
        out = (out << 1) | (v & 1UL);
        v >>= 1;
    }}
    return out;
}}

static unsigned long bits_{k}(int n)
{{
    unsigned long acc = 0, v = {r.randint(1, 2**40)}UL;
    int i;
    for (i = 0; i < n; i++) {{
        v = v * 6364136223846793005UL + 1442695040888963407UL;
        acc += popcount_{k}(v) + (reverse_{k}(v) >> 40);
    }}
    return acc;
}}
"""
    return code, f"bits_{k}({r.randint(50, 200)})", "%lu"


def _records(k: int, r: random.Random) -> tuple[str, str, str]:
    n = r.randint(16, 40)
    code = f"""
typedef struct {{
    char name[16];
    int scores[4];
    double weight;
}} record_{k}_t;

static record_{k}_t make_record_{k}(int i)
{{
    record_{k}_t rec;
    int j;
    snprintf(rec.name, sizeof rec.name, "rec%d", i);
    for (j = 0; j < 4; j++)
        rec.scores[j] = (i * (j + 3) + {r.randint(0, 9)}) % 101;
    rec.weight = 1.0 + (double)(i % 8) / 8.0;
    return rec;
}}

static double records_{k}(void)
{{
    record_{k}_t table[{n}];
    double best = -1.0;
    int i, j, best_index = -1;

    for (i = 0; i < {n}; i++)
        table[i] = make_record_{k}(i);
    for (i = 0; i < {n}; i++) {{
        double score = 0.0;
        for (j = 0; j < 4; j++)
            score += table[i].scores[j] * table[i].weight;
        if (score > best) {{
            best = score;
            best_index = i;
        }}
    }}
    return best + (double)strlen(table[best_index].name);
}}
"""
    return code, f"records_{k}()", "%.4f"


def _omp_reduction(k: int, r: random.Random) -> tuple[str, str, str]:
    mul, mod = r.randint(3, 97), r.randint(101, 997)
    code = f"""
static long omp_sum_{k}(int n)
{{
    long total = 0;
    int *v = (int *)malloc((size_t)n * sizeof(int));
    int i;

    for (i = 0; i < n; i++)
        v[i] = (i * {mul}) % {mod};
    #pragma omp parallel for reduction(+: total) schedule(static)
    for (i = 0; i < n; i++)
        total += (long)v[i] * (i % 13);
    free(v);
    return total;
}}
"""
    return code, f"omp_sum_{k}({r.randint(1000, 20000)})", "%ld"


def _omp_target(k: int, r: random.Random) -> tuple[str, str, str]:
    a = r.randint(2, 9)
    code = f"""
static long omp_axpy_{k}(int n)
{{
    double *x = (double *)malloc((size_t)n * sizeof(double));
    double *y = (double *)malloc((size_t)n * sizeof(double));
    long checksum = 0;
    int i;

    for (i = 0; i < n; i++) {{
        x[i] = (double)(i % 100);
        y[i] = (double)(i % 37);
    }}
    #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
    for (i = 0; i < n; i++)
        y[i] = {a}.0 * x[i] + y[i];
    for (i = 0; i < n; i++)
        checksum += (long)y[i];
    free(x);
    free(y);
    return checksum;
}}
"""
    return code, f"omp_axpy_{k}({r.randint(1000, 50000)})", "%ld"


def _omp_collapse(k: int, r: random.Random) -> tuple[str, str, str]:
    n = r.choice([16, 24, 32])
    code = f"""
static long omp_grid_{k}(void)
{{
    static int cells[{n}][{n}];
    long count = 0;
    int i, j;

    #pragma omp parallel for collapse(2)
    for (i = 0; i < {n}; i++)
        for (j = 0; j < {n}; j++)
            cells[i][j] = (i * j) % 7 == 0 ? i + j : i - j;
    #pragma omp target map(tofrom: count) map(to: cells)
    {{
        int p, q;
        for (p = 0; p < {n}; p++)
            for (q = 0; q < {n}; q++)
                count += cells[p][q];
    }}
    return count;
}}
"""
    return code, f"omp_grid_{k}()", "%ld"


_TEMPLATES = (_particles, _state_machine, _matmul, _sort, _strings, _recursion, _math,
              _stencil, _bits, _records)
_OPENMP_TEMPLATES = (_omp_reduction, _omp_target, _omp_collapse)

_HEADER = """\
/* Generated by bench/startup/gen_program.py (seed {seed}): a start-up benchmark
   for omp2gpu. Do not edit; regenerate. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long mix(unsigned long checksum, unsigned long value)
{{
    checksum ^= value + 0x9e3779b97f4a7c15UL + (checksum << 6) + (checksum >> 2);
    return checksum;
}}
"""


def generate(lines: int = DEFAULT_LINES, seed: int = DEFAULT_SEED) -> str:
    """The program's text: functions are added until it has about `lines` lines."""
    r = random.Random(seed)
    parts = [_HEADER.format(seed=seed)]
    calls: list[tuple[str, str, str]] = []   # (name, call, printf format)
    count = 0
    body_lines = parts[0].count("\n")
    # Every fourth kernel is an OpenMP one, so ~2,000 lines hold a dozen regions.
    while body_lines + 12 + len(calls) < lines:
        templates = _OPENMP_TEMPLATES if count % 4 == 3 else _TEMPLATES
        template = templates[(count // 4 if count % 4 == 3 else count) % len(templates)]
        code, call, fmt = template(count, r)
        parts.append(code)
        calls.append((call.split("(")[0], call, fmt))
        body_lines += code.count("\n")
        count += 1

    main = ["", "int main(void)", "{", "    unsigned long checksum = 0;", "",
            f'    printf("startup benchmark: {len(calls)} kernels\\n");',
            "    fflush(stdout);"]
    for name, call, fmt in calls:
        if fmt.endswith("f"):
            main.append(f"    {{ double r = {call}; printf(\"{name} = {fmt}\\n\", r); "
                        f"checksum = mix(checksum, (unsigned long)(long)(r * 1000.0)); }}")
        else:
            ctype = "unsigned long" if fmt == "%lu" else "long"
            main.append(f"    {{ {ctype} r = {call}; printf(\"{name} = {fmt}\\n\", r); "
                        f"checksum = mix(checksum, (unsigned long)r); }}")
    main += ['    printf("checksum = %lu\\n", checksum);', "    return 0;", "}", ""]
    parts.append("\n".join(main))
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="write here (default: stdout)")
    parser.add_argument("--lines", type=int, default=DEFAULT_LINES, help="about this many lines")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    text = generate(args.lines, args.seed)
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
