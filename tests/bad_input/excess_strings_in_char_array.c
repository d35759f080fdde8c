/* expect: 3:27: error: excess elements in char array initializer */
int main(void) {
    char name[] = {"abc", "d"};
    return name[0];
}
