/* expect: 3:20: error: initializer-string for char array is too long */
int main(void) {
    char name[4] = "too long";
    return name[0];
}
