/* expect: 4:14: error: redefinition of enumerator 'RED' */
/* xfail: an enumerator declared twice in one scope is accepted (sema/declarators.py _enum) */
enum color { RED, GREEN };
enum light { RED, AMBER };

int main(void) {
    return RED;
}
