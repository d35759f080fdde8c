/* expect: 6:5: error: multiple default labels in one switch */
int main(int argc, char **argv) {
    switch (argc) {
    default:
        return 1;
    default:
        return 2;
    }
}
