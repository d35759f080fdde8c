/* GNU `x ?: y` (the conditional with its middle operand omitted; x is evaluated
 * once), as real code writes defaults and fallbacks: in host code, in constant
 * expressions, and in reductions and target regions. */
#include <stdio.h>

static int lookups;

static int cached_value(int key)
{
    lookups++;                      /* side effect: must happen once per use */
    return key % 3 == 0 ? 0 : key * 10;
}

static const char *label_or_default(const char *label)
{
    return label ?: "(unnamed)";
}

enum { DEFAULT_WIDTH = 0 ?: 8 };
static double weights[2 ?: 1] = { 0.5 ?: 1.0, 0 ?: 2.0 };

int main(void)
{
    int first = cached_value(3) ?: -1;
    int second = cached_value(4) ?: -1;
    printf("first %d second %d lookups %d\n", first, second, lookups);
    printf("%s %s width %d weights %g %g\n", label_or_default(NULL), label_or_default("grid"),
           DEFAULT_WIDTH, weights[0], weights[1]);
    printf("sizeof(1 ?: 2.0) = %zu, (0 ?: 3u) - 4 > 0: %d\n", sizeof(1 ?: 2.0), (0 ?: 3u) - 4 > 0);

    int counts[16], fallback = 0;
    for (int i = 0; i < 16; i++)
        counts[i] = (i % 4 == 0) ? 0 : i;
#pragma omp parallel for reduction(+: fallback)
    for (int i = 0; i < 16; i++)
        fallback += counts[i] ?: 100;
    printf("host sum %d\n", fallback);

    long out[16];
#pragma omp target teams distribute parallel for map(to: counts) map(from: out)
    for (int i = 0; i < 16; i++) {
        int *p = counts[i] ? &counts[i] : NULL;
        out[i] = (p ?: &counts[1])[0] * 2 ?: -7;
    }
    long total = 0;
    for (int i = 0; i < 16; i++)
        total += out[i];
    printf("device total %ld out[0] %ld out[5] %ld\n", total, out[0], out[5]);

    int steps = 0;
#pragma omp target map(tofrom: steps)
    {
        int n = 5;
        while ((n = n - 1 ?: 0) != 0)
            steps++;
    }
    printf("steps %d\n", steps);
    return 0;
}
