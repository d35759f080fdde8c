/* expect: 6:21: error: '#pragma omp barrier' may only be used in compound statements */
int main(int argc, char **argv) {
    #pragma omp parallel
    {
        if (argc > 1)
            #pragma omp barrier
        argc++;
    }
    return 0;
}
