/* expect: 2:67: error: 'k' is not a constant */
int main(int argc, char **argv) { int k = 1; switch (argc) { case k: return 1; } return 0; }
