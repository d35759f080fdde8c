/* expect: 4:16: error: variable-length arrays are not supported */
int main(int argc, char **argv) {
    int n = argc + 3;
    double buf[n];
    buf[0] = 1.0;
    return (int)buf[0];
}
