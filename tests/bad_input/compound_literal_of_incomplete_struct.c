/* expect: 4:20: error: invalid use of undefined type 'struct pair' */
struct pair;
int main(void) {
    (struct pair){ 1, 2 };
    return 0;
}
