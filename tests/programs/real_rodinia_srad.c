/* Rodinia-style SRAD (speckle reducing anisotropic diffusion, version 2): an
 * ultrasound-like image is smoothed over `niter` iterations. Each iteration
 * computes the statistics of a region of interest (sum and sum of squares, a
 * two-variable reduction), the diffusion coefficients from the four directional
 * derivatives, then the divergence update: three target regions per iteration,
 * all inside one `target data` region, with the neighbour index arrays mapped once.
 *
 * Command line: [rows cols niter lambda] (numbers); other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

typedef struct {
    int rows, cols;
    int r1, r2, c1, c2;         /* the region of interest */
    int niter;
    float lambda;
} Config;

static void random_matrix(float *I, int rows, int cols)
{
    unsigned int state = 2024u;
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            float base = (i > rows / 3 && i < 2 * rows / 3 && j > cols / 4 && j < 3 * cols / 4) ? 0.8f : 0.3f;
            state = 1664525u * state + 1013904223u;
            I[i * cols + j] = base + (float) (state >> 8) / 16777216.0f * 0.2f;
        }
}

static int parse(int argc, char **argv, Config *c)
{
    c->rows = 96;
    c->cols = 80;
    c->niter = 12;
    c->lambda = 0.5f;
    if (argc == 5) {
        c->rows = atoi(argv[1]);
        c->cols = atoi(argv[2]);
        c->niter = atoi(argv[3]);
        c->lambda = (float) atof(argv[4]);
        if (c->rows <= 0 || c->cols <= 0 || c->niter <= 0)
            return -1;
    }
    c->r1 = 0;
    c->r2 = c->rows / 4;
    c->c1 = 0;
    c->c2 = c->cols / 4;
    return 0;
}

/* The reference: the same iterations serially on the host, in J. */
static void srad_host(const Config *cfg, float *J)
{
    int rows = cfg->rows, cols = cfg->cols, size = rows * cols, iter, i, j;
    float *c = malloc(size * sizeof(float)), *d = malloc(4 * size * sizeof(float));
    for (iter = 0; iter < cfg->niter; iter++) {
        double sum = 0, sum2 = 0, mean, var;
        float q0sqr;
        for (i = cfg->r1; i <= cfg->r2; i++)
            for (j = cfg->c1; j <= cfg->c2; j++) {
                double t = J[i * cols + j];
                sum += t;
                sum2 += t * t;
            }
        mean = sum / ((cfg->r2 - cfg->r1 + 1) * (cfg->c2 - cfg->c1 + 1));
        var = sum2 / ((cfg->r2 - cfg->r1 + 1) * (cfg->c2 - cfg->c1 + 1)) - mean * mean;
        q0sqr = (float) (var / (mean * mean));
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++) {
                int k = i * cols + j;
                float Jc = J[k], *dk = &d[4 * k], G2, L, num, den, qsqr;
                dk[0] = J[(i > 0 ? i - 1 : 0) * cols + j] - Jc;
                dk[1] = J[(i < rows - 1 ? i + 1 : rows - 1) * cols + j] - Jc;
                dk[2] = J[i * cols + (j > 0 ? j - 1 : 0)] - Jc;
                dk[3] = J[i * cols + (j < cols - 1 ? j + 1 : cols - 1)] - Jc;
                G2 = (dk[0] * dk[0] + dk[1] * dk[1] + dk[2] * dk[2] + dk[3] * dk[3]) / (Jc * Jc);
                L = (dk[0] + dk[1] + dk[2] + dk[3]) / Jc;
                num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
                den = 1 + (.25f * L);
                qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
                c[k] = 1.0f / (1.0f + den);
                c[k] = c[k] < 0 ? 0 : c[k] > 1 ? 1 : c[k];
            }
        for (i = 0; i < rows; i++)
            for (j = 0; j < cols; j++) {
                int k = i * cols + j;
                float cS = c[(i < rows - 1 ? i + 1 : rows - 1) * cols + j];
                float cE = c[i * cols + (j < cols - 1 ? j + 1 : cols - 1)];
                float D = c[k] * d[4 * k] + cS * d[4 * k + 1] + c[k] * d[4 * k + 2] + cE * d[4 * k + 3];
                J[k] = J[k] + 0.25f * cfg->lambda * D;
            }
    }
    free(c);
    free(d);
}

int main(int argc, char **argv)
{
    Config cfg;
    int rows, cols, size_I, size_R, iter, i, j;
    float *I, *J, *J_host, *c, *dN, *dS, *dW, *dE;
    float max_rel_diff = 0.0f;
    int *iN, *iS, *jW, *jE;
    float q0sqr, lambda;
    double total = 0.0, t0, t_loop;

    if (parse(argc, argv, &cfg) != 0) {
        fprintf(stderr, "Usage: %s <rows> <cols> <niter> <lambda>\n", argv[0]);
        return 1;
    }
    rows = cfg.rows;
    cols = cfg.cols;
    lambda = cfg.lambda;
    size_I = rows * cols;
    size_R = (cfg.r2 - cfg.r1 + 1) * (cfg.c2 - cfg.c1 + 1);
    printf("SRAD: %d x %d image, %d iterations, lambda %.2f\n", rows, cols, cfg.niter, lambda);

    I = malloc(size_I * sizeof(float));
    J = malloc(size_I * sizeof(float));
    c = malloc(size_I * sizeof(float));
    dN = malloc(size_I * sizeof(float));
    dS = malloc(size_I * sizeof(float));
    dW = malloc(size_I * sizeof(float));
    dE = malloc(size_I * sizeof(float));
    iN = malloc(rows * sizeof(int));
    iS = malloc(rows * sizeof(int));
    jW = malloc(cols * sizeof(int));
    jE = malloc(cols * sizeof(int));
    for (i = 0; i < rows; i++) {
        iN[i] = i - 1;
        iS[i] = i + 1;
    }
    for (j = 0; j < cols; j++) {
        jW[j] = j - 1;
        jE[j] = j + 1;
    }
    iN[0] = 0;
    iS[rows - 1] = rows - 1;
    jW[0] = 0;
    jE[cols - 1] = cols - 1;

    random_matrix(I, rows, cols);
    for (i = 0; i < size_I; i++)
        J[i] = (float) exp(I[i]);
    J_host = malloc(size_I * sizeof(float));
    memcpy(J_host, J, size_I * sizeof(float));

    t0 = omp_get_wtime();
#pragma omp target data map(tofrom: J[0:size_I]) map(to: iN[0:rows], iS[0:rows], jW[0:cols], jE[0:cols]) \
                        map(alloc: c[0:size_I], dN[0:size_I], dS[0:size_I], dW[0:size_I], dE[0:size_I])
    for (iter = 0; iter < cfg.niter; iter++) {
        /* ROI statistics in double: sum2/n - mean^2 cancels, so float sums would
         * make the result depend on the reduction order. */
        double sum = 0, sum2 = 0, meanROI, varROI;
        int r1 = cfg.r1, r2 = cfg.r2, c1 = cfg.c1, c2 = cfg.c2;

#pragma omp target teams distribute parallel for collapse(2) reduction(+: sum, sum2) map(tofrom: sum, sum2)
        for (i = r1; i <= r2; i++)
            for (j = c1; j <= c2; j++) {
                double tmp = J[i * cols + j];
                sum += tmp;
                sum2 += tmp * tmp;
            }
        meanROI = sum / size_R;
        varROI = (sum2 / size_R) - meanROI * meanROI;
        q0sqr = (float) (varROI / (meanROI * meanROI));

#pragma omp target teams distribute parallel for firstprivate(q0sqr) private(j)
        for (i = 0; i < rows; i++) {
            for (j = 0; j < cols; j++) {
                int k = i * cols + j;
                float Jc = J[k], G2, L, num, den, qsqr;
                dN[k] = J[iN[i] * cols + j] - Jc;
                dS[k] = J[iS[i] * cols + j] - Jc;
                dW[k] = J[i * cols + jW[j]] - Jc;
                dE[k] = J[i * cols + jE[j]] - Jc;
                G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
                L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
                num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
                den = 1 + (.25f * L);
                qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
                c[k] = 1.0f / (1.0f + den);
                if (c[k] < 0)
                    c[k] = 0;
                else if (c[k] > 1)
                    c[k] = 1;
            }
        }

#pragma omp target teams distribute parallel for firstprivate(lambda) private(j)
        for (i = 0; i < rows; i++) {
            for (j = 0; j < cols; j++) {
                int k = i * cols + j;
                float cN = c[k], cS = c[iS[i] * cols + j], cW = c[k], cE = c[i * cols + jE[j]];
                float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
                J[k] = J[k] + 0.25f * lambda * D;
            }
        }
        if (iter % 4 == 3)
            printf("iteration %2d: ROI mean %.4f variance %.4e\n", iter + 1, meanROI, varROI);
    }
    t_loop = omp_get_wtime() - t0;

    for (i = 0; i < size_I; i++)
        total += log(J[i]);
    printf("mean log-intensity %.5f\n", total / size_I);
    printf("J[0] %.5f  J[centre] %.5f  J[last] %.5f\n", J[0], J[(rows / 2) * cols + cols / 2], J[size_I - 1]);
    printf("timing: %.4f s\n", t_loop);
    srad_host(&cfg, J_host);
    for (i = 0; i < size_I; i++) {
        float rel = fabsf(J[i] - J_host[i]) / J_host[i];
        if (rel > max_rel_diff)
            max_rel_diff = rel;
    }
    printf("device and host agree to 1e-5: %s\n", max_rel_diff < 1e-5f ? "yes" : "no");
    free(J_host);

    free(I);
    free(J);
    free(c);
    free(dN);
    free(dS);
    free(dW);
    free(dE);
    free(iN);
    free(iS);
    free(jW);
    free(jE);
    return 0;
}
