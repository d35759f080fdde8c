/* expect: 4:22: error: variable-sized object may not be initialized */
int main(int argc, char **argv) {
    int n = argc + 3;
    int counts[n] = {0};
    return counts[0];
}
