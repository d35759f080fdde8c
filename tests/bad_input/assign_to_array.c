/* expect: 5:7: error: array type is not assignable */
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int b[4];
    b = a;
    return b[0];
}
