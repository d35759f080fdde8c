/* expect: 4:5: error: invalid use of undefined type 'struct pair' */
struct pair make_pair(void);
int main(void) {
    make_pair();
    return 0;
}
