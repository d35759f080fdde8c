/* Rodinia-style HotSpot: transient chip temperature from a power map on a
 * grid_rows x grid_cols grid, by an explicit finite-difference scheme. The
 * time-step loop launches one target region per step inside a `target data`
 * region, spelt as `target` followed by a separate `teams distribute parallel
 * for` (as many ports write it), the loop variable named in private(); the
 * temperatures come back with `target update` every few steps for a report.
 *
 * Command line: [rows cols steps] as numbers; anything else keeps the defaults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define MAX_PD (3.0e6)          /* maximum power density of the chip, W/m^2 */
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5          /* capacitance fitting factor */
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
#define AMB_TEMP 80.0

typedef double FLOAT;

static long long get_time_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec * 1000000LL + tv.tv_usec;
}

/* One explicit step: result from temp and power, the chip's edges insulated
 * except through the package (Rz). */
static void single_iteration(FLOAT *result, FLOAT *temp, FLOAT *power, int row, int col,
                             FLOAT Cap_1, FLOAT Rx_1, FLOAT Ry_1, FLOAT Rz_1, FLOAT step)
{
    int r, c;
#pragma omp target map(to: temp[0:row*col], power[0:row*col]) map(from: result[0:row*col])
#pragma omp teams distribute parallel for private(r, c)
    for (r = 0; r < row; r++) {
        for (c = 0; c < col; c++) {
            FLOAT delta;
            FLOAT self = temp[r * col + c];
            FLOAT north = r > 0 ? temp[(r - 1) * col + c] : self;
            FLOAT south = r < row - 1 ? temp[(r + 1) * col + c] : self;
            FLOAT west = c > 0 ? temp[r * col + c - 1] : self;
            FLOAT east = c < col - 1 ? temp[r * col + c + 1] : self;
            delta = Cap_1 * (power[r * col + c] + (south + north - 2.0 * self) * Ry_1 +
                             (east + west - 2.0 * self) * Rx_1 + (AMB_TEMP - self) * Rz_1);
            result[r * col + c] = self + step * delta;
        }
    }
}

/* The grid's hottest cell and mean temperature, on the device. */
static void grid_stats(const FLOAT *temp, int n, FLOAT *max_out, FLOAT *mean_out)
{
    FLOAT hottest = 0.0, total = 0.0;
    int i;
#pragma omp target map(to: temp[0:n]) map(tofrom: hottest, total)
#pragma omp teams distribute parallel for reduction(max: hottest) reduction(+: total)
    for (i = 0; i < n; i++) {
        if (temp[i] > hottest)
            hottest = temp[i];
        total += temp[i];
    }
    *max_out = hottest;
    *mean_out = total / n;
}

static void compute_tran_temp(FLOAT *result, int num_iterations, FLOAT *temp, FLOAT *power, int row, int col)
{
    FLOAT grid_height = CHIP_HEIGHT / row;
    FLOAT grid_width = CHIP_WIDTH / col;
    FLOAT Cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
    FLOAT Rx = grid_width / (2.0 * K_SI * T_CHIP * grid_height);
    FLOAT Ry = grid_height / (2.0 * K_SI * T_CHIP * grid_width);
    FLOAT Rz = T_CHIP / (K_SI * grid_height * grid_width);
    FLOAT max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    FLOAT step = PRECISION / max_slope / 1000.0;
    FLOAT Rx_1 = 1.0 / Rx, Ry_1 = 1.0 / Ry, Rz_1 = 1.0 / Rz, Cap_1 = 1.0 / Cap;
    FLOAT *r = result, *t = temp, *swap;
    int size = row * col, i;
    int report_every = num_iterations / 4 > 0 ? num_iterations / 4 : 1;

    printf("step %.6e s, Cap %.6e, Rx %.6e, Ry %.6e, Rz %.6e\n", step, Cap, Rx, Ry, Rz);
#pragma omp target data map(to: power[0:size]) map(tofrom: temp[0:size]) map(alloc: result[0:size])
    {
        for (i = 0; i < num_iterations; i++) {
            single_iteration(r, t, power, row, col, Cap_1, Rx_1, Ry_1, Rz_1, step);
            swap = t;
            t = r;
            r = swap;
            if ((i + 1) % report_every == 0) {
                FLOAT hottest, mean;
                grid_stats(t, size, &hottest, &mean);
                printf("after %4d steps: hottest %.4f K, mean %.4f K\n", i + 1, hottest, mean);
            }
        }
        /* The latest temperatures are in t, which is temp or result. */
#pragma omp target update from(temp[0:size], result[0:size])
    }
    if (t != temp)
        memcpy(temp, t, size * sizeof(FLOAT));
}

/* The reference: the same explicit steps serially on the host. */
static void compute_tran_temp_host(FLOAT *temp, const FLOAT *power, int row, int col, int num_iterations)
{
    FLOAT grid_height = CHIP_HEIGHT / row, grid_width = CHIP_WIDTH / col;
    FLOAT Cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
    FLOAT Rx = grid_width / (2.0 * K_SI * T_CHIP * grid_height);
    FLOAT Ry = grid_height / (2.0 * K_SI * T_CHIP * grid_width);
    FLOAT Rz = T_CHIP / (K_SI * grid_height * grid_width);
    FLOAT step = PRECISION / (MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI)) / 1000.0;
    FLOAT *next = malloc(row * col * sizeof(FLOAT));
    int i, r, c;
    for (i = 0; i < num_iterations; i++) {
        for (r = 0; r < row; r++)
            for (c = 0; c < col; c++) {
                FLOAT self = temp[r * col + c];
                FLOAT north = r > 0 ? temp[(r - 1) * col + c] : self;
                FLOAT south = r < row - 1 ? temp[(r + 1) * col + c] : self;
                FLOAT west = c > 0 ? temp[r * col + c - 1] : self;
                FLOAT east = c < col - 1 ? temp[r * col + c + 1] : self;
                FLOAT delta = (1.0 / Cap) * (power[r * col + c] + (south + north - 2.0 * self) * (1.0 / Ry) +
                                             (east + west - 2.0 * self) * (1.0 / Rx) + (AMB_TEMP - self) * (1.0 / Rz));
                next[r * col + c] = self + step * delta;
            }
        memcpy(temp, next, row * col * sizeof(FLOAT));
    }
    free(next);
}

static void make_inputs(FLOAT *temp, FLOAT *power, int rows, int cols)
{
    int i, j;
    unsigned int state = 12345u;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            /* Two hot blocks (cores) and a cache region that is cooler. */
            int core = (i > rows / 8 && i < rows / 3 && j > cols / 8 && j < cols / 3) ||
                       (i > rows / 2 && i < 3 * rows / 4 && j > cols / 2 && j < 7 * cols / 8);
            state = state * 1103515245u + 12345u;
            power[i * cols + j] = (core ? 0.9 : 0.1) * (0.5 + (state >> 16) % 1000 / 2000.0) * 1e-3;
            temp[i * cols + j] = 323.0 + (i + j) % 7 * 0.25;
        }
}

static int is_number(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int grid_rows = 64, grid_cols = 48, sim_time = 40;
    FLOAT *temp, *power, *result, *reference;
    FLOAT checksum = 0.0, max_diff = 0.0;
    long long t0, t1;
    int i;

    if (argc == 4 && is_number(argv[1]) && is_number(argv[2]) && is_number(argv[3])) {
        grid_rows = atoi(argv[1]);
        grid_cols = atoi(argv[2]);
        sim_time = atoi(argv[3]);
    }
    if (grid_rows <= 0 || grid_cols <= 0 || sim_time <= 0) {
        fprintf(stderr, "usage: %s <grid_rows> <grid_cols> <sim_time>\n", argv[0]);
        return 1;
    }
    printf("HotSpot: %d x %d grid, %d steps\n", grid_rows, grid_cols, sim_time);

    temp = malloc(grid_rows * grid_cols * sizeof(FLOAT));
    power = malloc(grid_rows * grid_cols * sizeof(FLOAT));
    result = calloc(grid_rows * grid_cols, sizeof(FLOAT));
    make_inputs(temp, power, grid_rows, grid_cols);
    reference = malloc(grid_rows * grid_cols * sizeof(FLOAT));
    memcpy(reference, temp, grid_rows * grid_cols * sizeof(FLOAT));

    t0 = get_time_us();
    compute_tran_temp(result, sim_time, temp, power, grid_rows, grid_cols);
    t1 = get_time_us();

    for (i = 0; i < grid_rows * grid_cols; i++)
        checksum += temp[i] * (1 + i % 13);
    printf("temp[0][0] = %.6f, temp[mid] = %.6f, temp[last] = %.6f\n", temp[0],
           temp[(grid_rows / 2) * grid_cols + grid_cols / 2], temp[grid_rows * grid_cols - 1]);
    printf("weighted checksum %.8e\n", checksum);
    printf("timing: %lld us\n", t1 - t0);
    compute_tran_temp_host(reference, power, grid_rows, grid_cols, sim_time);
    for (i = 0; i < grid_rows * grid_cols; i++)
        if (fabs(reference[i] - temp[i]) > max_diff)
            max_diff = fabs(reference[i] - temp[i]);
    printf("device and host agree to 1e-9 K: %s\n", max_diff < 1e-9 ? "yes" : "no");
    free(reference);
    free(temp);
    free(power);
    free(result);
    return 0;
}
