/* expect: 4:5: error: syntax error before 'return' */
int main(void) {
    int a = 1
    return a;
}
