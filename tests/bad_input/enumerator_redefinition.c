/* expect: 3:14: error: redefinition of enumerator 'RED' */
enum color { RED, GREEN };
enum light { RED, AMBER };

int main(void) {
    return RED;
}
