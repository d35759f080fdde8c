/* expect: 4:40: error: invalid reduction operator '/' */
int main(void) {
    int i, s = 0;
    #pragma omp parallel for reduction(/: s)
    for (i = 0; i < 10; i++)
        s += i;
    return s;
}
