/* expect: 5:16: error: member 'values' of a structure or union cannot have a variably modified type */
int main(int argc, char **argv) {
    int n = argc;
    struct row {
        double values[n];
    } r;
    return (int)sizeof r;
}
