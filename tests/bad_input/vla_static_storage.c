/* expect: 4:16: error: variable-length array 'cache' cannot have static storage or linkage */
int main(int argc, char **argv) {
    int n = argc + 1;
    static int cache[n];
    cache[0] = n;
    return cache[0];
}
