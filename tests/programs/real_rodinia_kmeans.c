/* Rodinia-style k-means clustering: npoints points with nfeatures features
 * each (generated around hidden centres), clustered by Lloyd's algorithm. The
 * assignment step (nearest centre of each point, and how many points changed
 * cluster: an integer reduction) runs on the device; the new centres are
 * accumulated on the host as in Rodinia's OpenMP kmeans. The feature matrix is
 * transposed once on the device (feature-major, coalesced on a GPU), both
 * layouts resident in a `target data` region around the iterations.
 *
 * Command line (getopt): [-n npoints] [-f nfeatures] [-k nclusters] [-t threshold] [-i max_iters]. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>

typedef struct {
    int npoints;
    int nfeatures;
    int nclusters;
    float threshold;
    int max_iters;
} Options;

#pragma omp declare target
static float euclid_dist_2(const float *feature_t, int point, int npoints, const float *centre, int nfeatures)
{
    float ans = 0.0f;
    int f;
    for (f = 0; f < nfeatures; f++) {
        float d = feature_t[f * npoints + point] - centre[f];
        ans += d * d;
    }
    return ans;
}

static int find_nearest_point(const float *feature_t, int point, int npoints, int nfeatures,
                              const float *clusters, int nclusters)
{
    int index = 0, c;
    float min_dist = FLT_MAX;
    for (c = 0; c < nclusters; c++) {
        float dist = euclid_dist_2(feature_t, point, npoints, &clusters[c * nfeatures], nfeatures);
        if (dist < min_dist) {
            min_dist = dist;
            index = c;
        }
    }
    return index;
}
#pragma omp end declare target

static float *generate_points(const Options *o)
{
    float *features = malloc(sizeof(float) * o->npoints * o->nfeatures);
    unsigned int seed = 17u;
    int i, f;
    for (i = 0; i < o->npoints; i++) {
        int hidden = (i * i + i / 2) % o->nclusters;
        for (f = 0; f < o->nfeatures; f++) {
            seed = seed * 1103515245u + 12345u;
            /* Centres on a coarse lattice, points spread +-3 around them. */
            features[i * o->nfeatures + f] = (float) ((hidden * 7 + f * 3) % 11) * 4.0f +
                                             ((seed >> 16) & 0x7fff) / 32768.0f * 6.0f - 3.0f;
        }
    }
    return features;
}

static int kmeans_clustering(float *feature, const Options *o, float *clusters, int *membership)
{
    int npoints = o->npoints, nfeatures = o->nfeatures, nclusters = o->nclusters;
    int n = npoints * nfeatures, nc = nclusters * nfeatures;
    float *feature_t = malloc(sizeof(float) * n);
    float *new_centers = calloc(nc, sizeof(float));
    int *new_centers_len = calloc(nclusters, sizeof(int));
    int i, j, loop = 0, delta;

    /* Initial centres: the first nclusters points, as in Rodinia. */
    for (i = 0; i < nclusters; i++)
        for (j = 0; j < nfeatures; j++)
            clusters[i * nfeatures + j] = feature[i * nfeatures + j];
    for (i = 0; i < npoints; i++)
        membership[i] = -1;

#pragma omp target data map(to: feature[0:n]) map(alloc: feature_t[0:n]) map(tofrom: membership[0:npoints])
    {
#pragma omp target teams distribute parallel for collapse(2)
        for (i = 0; i < npoints; i++)
            for (j = 0; j < nfeatures; j++)
                feature_t[j * npoints + i] = feature[i * nfeatures + j];

        do {
            delta = 0;
#pragma omp target teams distribute parallel for map(to: clusters[0:nc]) reduction(+: delta)
            for (i = 0; i < npoints; i++) {
                int index = find_nearest_point(feature_t, i, npoints, nfeatures, clusters, nclusters);
                if (membership[i] != index)
                    delta += 1;
                membership[i] = index;
            }
#pragma omp target update from(membership[0:npoints])

            /* New centres: the mean of each cluster's points (host, fixed order). */
            for (i = 0; i < npoints; i++) {
                int c = membership[i];
                new_centers_len[c]++;
                for (j = 0; j < nfeatures; j++)
                    new_centers[c * nfeatures + j] += feature[i * nfeatures + j];
            }
            for (i = 0; i < nclusters; i++) {
                for (j = 0; j < nfeatures; j++) {
                    if (new_centers_len[i] > 0)
                        clusters[i * nfeatures + j] = new_centers[i * nfeatures + j] / new_centers_len[i];
                    new_centers[i * nfeatures + j] = 0.0f;
                }
                new_centers_len[i] = 0;
            }
            loop++;
            printf("iteration %2d: %d points changed cluster\n", loop, delta);
        } while (delta > o->threshold * npoints && loop < o->max_iters);
    }
    free(feature_t);
    free(new_centers);
    free(new_centers_len);
    return loop;
}

static void usage(const char *argv0)
{
    fprintf(stderr, "Usage: %s [-n npoints] [-f nfeatures] [-k nclusters] [-t threshold] [-i max_iters]\n",
            argv0);
}

int main(int argc, char **argv)
{
    Options o = {4096, 8, 5, 0.001f, 30};
    int opt, i, j, iterations;
    float *features, *clusters;
    int *membership, *sizes;
    double t0, t1, sse = 0.0;

    while ((opt = getopt(argc, argv, "n:f:k:t:i:h")) != -1) {
        switch (opt) {
        case 'n': o.npoints = atoi(optarg); break;
        case 'f': o.nfeatures = atoi(optarg); break;
        case 'k': o.nclusters = atoi(optarg); break;
        case 't': o.threshold = (float) atof(optarg); break;
        case 'i': o.max_iters = atoi(optarg); break;
        case 'h':
        default:
            usage(argv[0]);
            return 1;
        }
    }
    printf("k-means: %d points, %d features, %d clusters (%d unused arguments)\n", o.npoints, o.nfeatures,
           o.nclusters, argc - optind);

    features = generate_points(&o);
    clusters = malloc(sizeof(float) * o.nclusters * o.nfeatures);
    membership = malloc(sizeof(int) * o.npoints);
    sizes = calloc(o.nclusters, sizeof(int));

    t0 = omp_get_wtime();
    iterations = kmeans_clustering(features, &o, clusters, membership);
    t1 = omp_get_wtime();

    for (i = 0; i < o.npoints; i++) {
        float *c = &clusters[membership[i] * o.nfeatures];
        sizes[membership[i]]++;
        for (j = 0; j < o.nfeatures; j++) {
            double d = features[i * o.nfeatures + j] - c[j];
            sse += d * d;
        }
    }
    printf("converged after %d iterations\n", iterations);
    for (i = 0; i < o.nclusters; i++) {
        printf("cluster %d: %5d points, centre", i, sizes[i]);
        for (j = 0; j < o.nfeatures && j < 4; j++)
            printf(" %8.4f", clusters[i * o.nfeatures + j]);
        printf("\n");
    }
    printf("sum of squared distances: %.5e\n", sse);
    {
        /* The device's assignments against the nearest final centre as the host
         * computes it (the centres moved once after the last assignment, so a
         * few points may count here when the loop stopped at the threshold). */
        int wrong = 0, c;
        for (i = 0; i < o.npoints; i++) {
            int best = 0;
            float best_d = FLT_MAX;
            for (c = 0; c < o.nclusters; c++) {
                float d = 0.0f;
                for (j = 0; j < o.nfeatures; j++) {
                    float diff = features[i * o.nfeatures + j] - clusters[c * o.nfeatures + j];
                    d += diff * diff;
                }
                if (d < best_d) {
                    best_d = d;
                    best = c;
                }
            }
            wrong += best != membership[i];
        }
        printf("points not at their nearest centre: %d\n", wrong);
    }
    printf("timing: %.4f s\n", t1 - t0);
    free(features);
    free(clusters);
    free(membership);
    free(sizes);
    return 0;
}
