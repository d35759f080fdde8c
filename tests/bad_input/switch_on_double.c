/* expect: 4:13: error: statement requires expression of integer type */
int main(void) {
    double d = 1.5;
    switch (d) {
    case 1:
        return 1;
    }
    return 0;
}
