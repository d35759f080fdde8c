/* expect: 3:13: error: scalar initializer cannot be empty */
int main(void) {
    int x = {};
    return x;
}
