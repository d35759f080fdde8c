/* Read-only data used inside target regions: a static const coefficient table, a const
   global, a function-local static const table, and __func__ (in a message, and through
   assert()). They live in read-only memory, so a device must not copy them back; the
   CPU device crashed on assert() in a region with a parallel construct, writing
   __func__ back. */
#include <assert.h>
#include <stdio.h>

#define N 64

static const double stencil[3] = {0.25, 0.5, 0.25};
const int offsets[3] = {-1, 0, 1};

static double smooth(double *field, double *out)
{
    static const double clamp[2] = {-10.0, 10.0};
    double total = 0.0;
    int i;

#pragma omp target map(to: field[0:N]) map(from: out[0:N]) map(tofrom: total)
    {
#pragma omp parallel for reduction(+:total)
        for (i = 1; i < N - 1; i++) {
            double v = 0.0;
            int k;
            for (k = 0; k < 3; k++)
                v += stencil[k] * field[i + offsets[k]];
            v = v < clamp[0] ? clamp[0] : v > clamp[1] ? clamp[1] : v;
            out[i] = v;
            total += v;
        }
        assert(total > 0.0);
        out[0] = out[N - 1] = (double)sizeof(__func__);
    }
    return total;
}

int main(void)
{
    double field[N], out[N];
    char name[16] = "";
    int i;

    for (i = 0; i < N; i++)
        field[i] = (i % 9) * 1.5 - 2.0;
    printf("total %.4f\n", smooth(field, out));
    printf("out %.4f %.4f %.4f ends %.0f %.0f\n", out[1], out[N / 2], out[N - 2], out[0], out[N - 1]);

    /* __func__ copied on the device into mapped storage */
#pragma omp target map(from: name)
    {
        int c;
        for (c = 0; __func__[c] != '\0' && c < 15; c++)
            name[c] = __func__[c];
        name[c] = '\0';
    }
    printf("region in %s\n", name);
    return 0;
}
