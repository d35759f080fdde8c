/* Rodinia-style breadth-first search: a random graph in the Rodinia input
 * layout (a node array of {starting, no_of_edges} and a flat edge list), the
 * search frontier as mask arrays, and two target regions per level: expand the
 * frontier, then promote the updated nodes and note whether anything changed.
 * The loop runs until a level changes nothing, the `stop` flag mapped tofrom
 * each time as in the original.
 *
 * Command line: [-n nodes] [-d degree] [-s source]; other words are ignored. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

struct Node {
    int starting;
    int no_of_edges;
};

typedef struct {
    int no_of_nodes;
    int edge_list_size;
    struct Node *nodes;
    int *edges;
} Graph;

static unsigned long long rng_state = 88172645463325252ULL;

static unsigned int xorshift(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned int) (rng_state >> 32);
}

/* Each node gets 1..2*degree-1 outgoing edges, mostly to nearby nodes (a
 * small-world graph), and a ring edge so that everything is reachable. */
static Graph make_graph(int n, int degree)
{
    Graph g;
    int i, e, k = 0;
    g.no_of_nodes = n;
    g.nodes = malloc(n * sizeof(struct Node));
    g.edges = malloc((size_t) n * 2 * degree * sizeof(int));
    for (i = 0; i < n; i++) {
        int count = 1 + xorshift() % (2 * degree - 1);
        g.nodes[i].starting = k;
        g.edges[k++] = (i + 1) % n;
        for (e = 1; e < count; e++) {
            unsigned int r = xorshift();
            int target = (r & 7) == 0 ? (int) (xorshift() % n) : (i + (int) (r % 64) - 32 + n) % n;
            g.edges[k++] = target;
        }
        g.nodes[i].no_of_edges = count;
    }
    g.edge_list_size = k;
    return g;
}

static void bfs(const Graph *g, int source, int *cost, int *levels_out)
{
    int no_of_nodes = g->no_of_nodes, edge_list_size = g->edge_list_size;
    struct Node *h_graph_nodes = g->nodes;
    int *h_graph_edges = g->edges;
    bool *h_graph_mask = calloc(no_of_nodes, sizeof(bool));
    bool *h_updating_graph_mask = calloc(no_of_nodes, sizeof(bool));
    bool *h_graph_visited = calloc(no_of_nodes, sizeof(bool));
    bool stop;
    int tid, levels = 0;

    for (tid = 0; tid < no_of_nodes; tid++)
        cost[tid] = -1;
    h_graph_mask[source] = true;
    h_graph_visited[source] = true;
    cost[source] = 0;

#pragma omp target data map(to: h_graph_nodes[0:no_of_nodes], h_graph_edges[0:edge_list_size]) \
    map(tofrom: cost[0:no_of_nodes], h_graph_mask[0:no_of_nodes], h_graph_visited[0:no_of_nodes], \
                h_updating_graph_mask[0:no_of_nodes])
    {
        do {
            stop = false;
#pragma omp target teams distribute parallel for
            for (tid = 0; tid < no_of_nodes; tid++) {
                if (h_graph_mask[tid]) {
                    int i;
                    h_graph_mask[tid] = false;
                    for (i = h_graph_nodes[tid].starting;
                         i < h_graph_nodes[tid].no_of_edges + h_graph_nodes[tid].starting; i++) {
                        int id = h_graph_edges[i];
                        if (!h_graph_visited[id]) {
                            /* Every writer stores the same level: a benign race, as in Rodinia. */
                            cost[id] = cost[tid] + 1;
                            h_updating_graph_mask[id] = true;
                        }
                    }
                }
            }

#pragma omp target teams distribute parallel for map(tofrom: stop)
            for (tid = 0; tid < no_of_nodes; tid++) {
                if (h_updating_graph_mask[tid]) {
                    h_graph_mask[tid] = true;
                    h_graph_visited[tid] = true;
                    stop = true;
                    h_updating_graph_mask[tid] = false;
                }
            }
            levels++;
        } while (stop);
    }
    *levels_out = levels;
    free(h_graph_mask);
    free(h_updating_graph_mask);
    free(h_graph_visited);
}

/* The reference: a serial BFS with a FIFO queue on the host. */
static int bfs_host(const Graph *g, int source, int *cost)
{
    int *queue = malloc(g->no_of_nodes * sizeof(int));
    int head = 0, tail = 0, i, levels = 0;
    for (i = 0; i < g->no_of_nodes; i++)
        cost[i] = -1;
    cost[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int node = queue[head++], e;
        const struct Node *nd = &g->nodes[node];
        for (e = nd->starting; e < nd->starting + nd->no_of_edges; e++) {
            int id = g->edges[e];
            if (cost[id] < 0) {
                cost[id] = cost[node] + 1;
                if (cost[id] > levels)
                    levels = cost[id];
                queue[tail++] = id;
            }
        }
    }
    free(queue);
    return levels;
}

static double seconds(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + 1e-6 * tv.tv_usec;
}

int main(int argc, char **argv)
{
    int n = 20000, degree = 4, source = 0, i, levels, reached = 0, max_cost = 0;
    int histogram[16] = {0};
    long long cost_sum = 0;
    int *cost;
    Graph g;
    double t0, t1;

    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "-n") == 0)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "-d") == 0)
            degree = atoi(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0)
            source = atoi(argv[++i]);
    }
    g = make_graph(n, degree);
    printf("BFS: %d nodes, %d edges, source %d\n", g.no_of_nodes, g.edge_list_size, source);
    cost = malloc(n * sizeof(int));

    t0 = seconds();
    bfs(&g, source, cost, &levels);
    t1 = seconds();

    for (i = 0; i < n; i++) {
        if (cost[i] >= 0) {
            reached++;
            cost_sum += cost[i];
            if (cost[i] > max_cost)
                max_cost = cost[i];
            histogram[cost[i] < 15 ? cost[i] : 15]++;
        }
    }
    printf("levels: %d, reached: %d, deepest: %d, sum of costs: %lld\n", levels, reached, max_cost, cost_sum);
    for (i = 0; i < 16; i++)
        if (histogram[i])
            printf("  level %2d%s: %d nodes\n", i, i == 15 ? "+" : "", histogram[i]);
    printf("cost of node %d: %d, of node %d: %d\n", n / 2, cost[n / 2], n - 1, cost[n - 1]);
    {
        int *expected = malloc(n * sizeof(int));
        int deepest = bfs_host(&g, source, expected), mismatches = 0;
        for (i = 0; i < n; i++)
            mismatches += expected[i] != cost[i];
        printf("host BFS: deepest level %d, %d mismatching costs\n", deepest, mismatches);
        free(expected);
    }
    printf("timing: %.6f s\n", t1 - t0);
    free(cost);
    free(g.nodes);
    free(g.edges);
    return 0;
}
