/* expect: 3:8: error: redefinition of 'struct pair' */
struct pair { int a, b; };
struct pair { double a, b; };

int main(void) {
    return 0;
}
