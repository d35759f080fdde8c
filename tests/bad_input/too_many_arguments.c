/* expect: 7:12: error: too many arguments to function call */
static int add(int a, int b) {
    return a + b;
}

int main(void) {
    return add(1, 2, 3);
}
