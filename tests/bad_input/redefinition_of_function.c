/* expect: 6:5: error: redefinition of 'square' */
int square(int x) {
    return x * x;
}

int square(int x) {
    return x * x;
}

int main(void) {
    return square(2);
}
