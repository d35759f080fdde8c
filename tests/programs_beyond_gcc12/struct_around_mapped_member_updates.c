/* A field solver keeps a grid's values on the device for the whole run (`target enter data
 * map(to: g.value[0:n])`, which maps the pointer member g.value with them), while library
 * kernels map the whole grid struct with its section (`map(to: g, g.value[0:n])`), around
 * the pointer member already mapped. Between steps the host changes a few points and
 * sends just those with OpenMP 5.1's `target update to(iterator(k = 0:m): g.value[idx[k]])`
 * (gcc 12 lacks iterators in target update).
 *
 * Expected output: value[i] = i at first; each of STEPS steps the host sets the points
 * idx[k] = 7k + s (k < 10) to 1000 + s and updates only those, then the device scales
 * every point by g.scale = 2 into out and sums out. Step s's sum is
 * 2 (sum_i value[i]), where value holds i except at the points changed so far, each
 * holding the last value written there; the host replays the same and prints whether each
 * sum agrees (1), and the scale and n the kernels read from the struct (2 and 4096).
 * After `target exit data`, neither the values nor the struct is present on a device (0). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 5
#define CHANGED 10

typedef struct {
    int n;
    double scale;
    double *value;
} grid;

int main(void) {
    int n = 4096, idx[CHANGED], seen_n = 0;
    double seen_scale = 0;
    grid g = {n, 2.0, malloc(n * sizeof(double))};
    double *out = malloc(n * sizeof(double)), *replay = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) g.value[i] = replay[i] = i;
    #pragma omp target enter data map(to: g.value[0:n])
    for (int s = 0; s < STEPS; s++) {
        for (int k = 0; k < CHANGED; k++) {
            idx[k] = 7 * k + s;
            g.value[idx[k]] = replay[idx[k]] = 1000 + s;
        }
        #pragma omp target update to(iterator(k = 0:CHANGED): g.value[idx[k]])
        double sum = 0, expected = 0;
        #pragma omp target teams distribute parallel for map(to: g, g.value[0:n]) map(from: out[0:n]) \
                map(tofrom: seen_n, seen_scale) reduction(+: sum)
        for (int i = 0; i < g.n; i++) {
            out[i] = g.scale * g.value[i];
            sum += out[i];
            if (i == 0) {
                seen_n = g.n;
                seen_scale = g.scale;
            }
        }
        for (int i = 0; i < n; i++) expected += 2 * replay[i];
        printf("step %d: sum agrees %d\n", s, sum == expected);
    }
    printf("the kernels read n %d and scale %.0f\n", seen_n, seen_scale);
    #pragma omp target exit data map(delete: g.value[0:n])
    int device = omp_get_default_device(), offloaded = device != omp_get_initial_device();
    printf("present after exit data: %d\n", offloaded && (omp_target_is_present(g.value, device)
                                                          || omp_target_is_present(&g.value, device)));
    free(g.value);
    free(out);
    free(replay);
    return 0;
}
