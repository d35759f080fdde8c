/* expect: 4:16: error: size of array has non-integer type 'double' */
int main(int argc, char **argv) {
    double scale = argc * 1.5;
    int buffer[scale];
    buffer[0] = 0;
    return buffer[0];
}
