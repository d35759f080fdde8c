/* expect: 4:11: error: stray '@' in program */
int main(void) {
    int a = 1;
    a = a @ 2;
    return a;
}
