/* Rodinia-style back-propagation: a two-layer perceptron (in -> hidden -> 1)
 * trained on random patterns. As in Rodinia's backprop, the weights live in
 * a struct holding the layer sizes and pointers to the units, weights and
 * previous weight changes; the big input->hidden layer's forward pass and its
 * weight adjustment run on the device (the weights kept there in a `target
 * data` region across the epochs, the inputs and deltas mapped per pattern),
 * the small output layer on the host. Weight matrices are flattened rows of
 * (n2 + 1) entries, row 0 the bias unit, as in the original's 2-D arrays.
 *
 * Command line: [-i input_units] [-h hidden_units] [-e epochs] [-p patterns]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define ETA 0.3
#define MOMENTUM 0.3
#define ABS(x) (((x) > 0.0) ? (x) : -(x))

typedef struct {
    int input_n;            /* number of input units */
    int hidden_n;           /* number of hidden units */
    int output_n;           /* number of output units */
    double *input_units;    /* input_n + 1 (unit 0 is the bias) */
    double *hidden_units;   /* hidden_n + 1 */
    double *output_units;   /* output_n + 1 */
    double *hidden_delta;
    double *output_delta;
    double *target;
    double *input_weights;  /* (input_n + 1) x (hidden_n + 1) */
    double *hidden_weights; /* (hidden_n + 1) x (output_n + 1) */
    double *input_prev_weights;
    double *hidden_prev_weights;
} BPNN;

static unsigned int rng = 7u;

static double drnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return (double) ((rng >> 8) & 0xffff) / 65536.0;
}

static double *alloc_1d(int n)
{
    return calloc(n, sizeof(double));
}

static BPNN *bpnn_create(int n_in, int n_hidden, int n_out)
{
    BPNN *net = malloc(sizeof(BPNN));
    int i;
    net->input_n = n_in;
    net->hidden_n = n_hidden;
    net->output_n = n_out;
    net->input_units = alloc_1d(n_in + 1);
    net->hidden_units = alloc_1d(n_hidden + 1);
    net->output_units = alloc_1d(n_out + 1);
    net->hidden_delta = alloc_1d(n_hidden + 1);
    net->output_delta = alloc_1d(n_out + 1);
    net->target = alloc_1d(n_out + 1);
    net->input_weights = alloc_1d((n_in + 1) * (n_hidden + 1));
    net->hidden_weights = alloc_1d((n_hidden + 1) * (n_out + 1));
    net->input_prev_weights = alloc_1d((n_in + 1) * (n_hidden + 1));
    net->hidden_prev_weights = alloc_1d((n_hidden + 1) * (n_out + 1));
    for (i = 0; i < (n_in + 1) * (n_hidden + 1); i++)
        net->input_weights[i] = 0.1 * (drnd() - 0.5);
    for (i = 0; i < (n_hidden + 1) * (n_out + 1); i++)
        net->hidden_weights[i] = 0.1 * (drnd() - 0.5);
    return net;
}

static void bpnn_free(BPNN *net)
{
    free(net->input_units);
    free(net->hidden_units);
    free(net->output_units);
    free(net->hidden_delta);
    free(net->output_delta);
    free(net->target);
    free(net->input_weights);
    free(net->hidden_weights);
    free(net->input_prev_weights);
    free(net->hidden_prev_weights);
    free(net);
}

#pragma omp declare target
static double squash(double x)
{
    return 1.0 / (1.0 + exp(-x));
}
#pragma omp end declare target

/* l2[j] = squash(sum_k w[k][j] * l1[k]), with l1[0] the bias unit (1.0). */
static void layerforward_device(const double *l1, double *l2, const double *w, int n1, int n2)
{
    int j;
#pragma omp target teams distribute parallel for map(to: l1[0:n1+1]) map(from: l2[1:n2])
    for (j = 1; j <= n2; j++) {
        double sum = 0.0;
        int k;
        for (k = 0; k <= n1; k++)
            sum += w[k * (n2 + 1) + j] * l1[k];
        l2[j] = squash(sum);
    }
}

static void layerforward_host(const double *l1, double *l2, const double *w, int n1, int n2)
{
    int j, k;
    for (j = 1; j <= n2; j++) {
        double sum = 0.0;
        for (k = 0; k <= n1; k++)
            sum += w[k * (n2 + 1) + j] * l1[k];
        l2[j] = squash(sum);
    }
}

static double output_error(double *delta, const double *target, const double *output, int nj)
{
    double errsum = 0.0;
    int j;
    for (j = 1; j <= nj; j++) {
        double o = output[j], t = target[j];
        delta[j] = o * (1.0 - o) * (t - o);
        errsum += ABS(delta[j]);
    }
    return errsum;
}

static double hidden_error(double *delta_h, int nh, const double *delta_o, int no, const double *who,
                           const double *hidden)
{
    double errsum = 0.0;
    int j, k;
    for (j = 1; j <= nh; j++) {
        double h = hidden[j], sum = 0.0;
        for (k = 1; k <= no; k++)
            sum += delta_o[k] * who[j * (no + 1) + k];
        delta_h[j] = h * (1.0 - h) * sum;
        errsum += ABS(delta_h[j]);
    }
    return errsum;
}

/* w[k][j] += eta * delta[j] * ly[k] + momentum * oldw[k][j], on the device. */
static void adjust_weights_device(const double *delta, int ndelta, const double *ly, int nly, double *w,
                                  double *oldw)
{
    int j, k;
#pragma omp target teams distribute parallel for collapse(2) map(to: delta[0:ndelta+1], ly[0:nly+1])
    for (k = 0; k <= nly; k++)
        for (j = 1; j <= ndelta; j++) {
            double new_dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[k * (ndelta + 1) + j];
            w[k * (ndelta + 1) + j] += new_dw;
            oldw[k * (ndelta + 1) + j] = new_dw;
        }
}

static void adjust_weights_host(const double *delta, int ndelta, const double *ly, int nly, double *w,
                                double *oldw)
{
    int j, k;
    for (k = 0; k <= nly; k++)
        for (j = 1; j <= ndelta; j++) {
            double new_dw = ETA * delta[j] * ly[k] + MOMENTUM * oldw[k * (ndelta + 1) + j];
            w[k * (ndelta + 1) + j] += new_dw;
            oldw[k * (ndelta + 1) + j] = new_dw;
        }
}

static double now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    int in = 1024, hid = 16, epochs = 4, npatterns = 24, e, p, i;
    BPNN *net;
    double *patterns, *targets, *iw, *iwp, t0, t_train;
    int nw;

    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-i"))
            in = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-h"))
            hid = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-e"))
            epochs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p"))
            npatterns = atoi(argv[++i]);
    }
    printf("backprop: %d inputs, %d hidden units, 1 output, %d patterns, %d epochs\n", in, hid, npatterns, epochs);
    net = bpnn_create(in, hid, 1);
    patterns = malloc((size_t) npatterns * (in + 1) * sizeof(double));
    targets = malloc(npatterns * sizeof(double));
    for (p = 0; p < npatterns; p++) {
        double s = 0.0;
        patterns[p * (in + 1)] = 1.0;
        for (i = 1; i <= in; i++) {
            patterns[p * (in + 1) + i] = drnd();
            s += (i % 3 == 0 ? 1.0 : -0.5) * patterns[p * (in + 1) + i];
        }
        targets[p] = s > 0 ? 0.9 : 0.1;     /* a linearly separable labelling */
    }
    iw = net->input_weights;
    iwp = net->input_prev_weights;
    nw = (in + 1) * (hid + 1);

    t0 = now();
#pragma omp target data map(tofrom: iw[0:nw], iwp[0:nw])
    for (e = 0; e < epochs; e++) {
        double out_err_sum = 0.0, hid_err_sum = 0.0, sq = 0.0;
        int correct = 0;
        for (p = 0; p < npatterns; p++) {
            double out_err, hid_err;
            memcpy(net->input_units, &patterns[p * (in + 1)], (in + 1) * sizeof(double));
            net->target[1] = targets[p];
            net->input_units[0] = 1.0;
            layerforward_device(net->input_units, net->hidden_units, iw, in, hid);
            net->hidden_units[0] = 1.0;
            layerforward_host(net->hidden_units, net->output_units, net->hidden_weights, hid, 1);
            out_err = output_error(net->output_delta, net->target, net->output_units, 1);
            hid_err = hidden_error(net->hidden_delta, hid, net->output_delta, 1, net->hidden_weights,
                                   net->hidden_units);
            adjust_weights_host(net->output_delta, 1, net->hidden_units, hid, net->hidden_weights,
                                net->hidden_prev_weights);
            adjust_weights_device(net->hidden_delta, hid, net->input_units, in, iw, iwp);
            out_err_sum += out_err;
            hid_err_sum += hid_err;
            sq += (net->output_units[1] - targets[p]) * (net->output_units[1] - targets[p]);
            correct += (net->output_units[1] > 0.5) == (targets[p] > 0.5);
        }
        printf("epoch %d: output error %.6e, hidden error %.6e, mse %.6e, %d/%d right\n", e + 1, out_err_sum,
               hid_err_sum, sq / npatterns, correct, npatterns);
    }
    t_train = now() - t0;

    {
        /* The trained input weights: a checksum weighted by position. */
        double check = 0.0;
        for (i = 0; i < nw; i++)
            check += iw[i] * (1 + i % 7);
        printf("input weight checksum %.6e, w[1][1] %.6e\n", check, iw[1 * (hid + 1) + 1]);
    }
    printf("timing: training %.4f s\n", t_train);
    free(patterns);
    free(targets);
    bpnn_free(net);
    return 0;
}
