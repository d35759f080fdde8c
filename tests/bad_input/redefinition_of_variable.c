/* expect: 4:12: error: redefinition of 'count' */
int main(void) {
    int count = 0;
    double count = 1.0;
    return (int)count;
}
