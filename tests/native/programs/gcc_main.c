/* A host program built by gcc that calls target regions compiled by omp2gpu. */
#include <stdio.h>

int saxpy(int n, double a, const double *x, double *y);
double scaled_sum(int n, const double *v);
int devices(void);

int main(void) {
    double x[100], y[100];
    for (int i = 0; i < 100; i++) {
        x[i] = i;
        y[i] = 1.0;
    }
    int on_device = saxpy(100, 3.0, x, y);
    printf("y[99]=%.1f on_device=%d sum=%.1f devices=%d\n", y[99], on_device, scaled_sum(100, x), devices());
    return 0;
}
