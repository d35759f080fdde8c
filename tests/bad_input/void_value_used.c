/* expect: 8:13: error: void value not ignored as it ought to be */
static void reset(int *p) {
    *p = 0;
}

int main(void) {
    int x = 3;
    int y = reset(&x);
    return y;
}
