/* expect: 4:39: error: argument of 'collapse' must be a positive integer constant */
int main(int argc, char **argv) {
    int i, j, s = 0;
    #pragma omp parallel for collapse(argc)
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            s += i * j;
    return s;
}
