/* expect: 3:15: error: initializer element is not a compile-time constant */
int seed = 42;
int derived = seed * 2;

int main(void) {
    return derived;
}
