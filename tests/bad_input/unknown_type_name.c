/* expect: 3:5: error: unknown type name 'matrix' */
int main(void) {
    matrix m;
    return 0;
}
