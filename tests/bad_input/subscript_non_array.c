/* expect: 4:13: error: subscripted value is not an array or pointer */
int main(void) {
    int n = 4;
    return n[1];
}
