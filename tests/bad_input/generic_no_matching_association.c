/* expect: 6:12: error: controlling expression type 'double' not compatible with any generic association type */
#define KIND(x) _Generic((x), int: 1, long: 2)

int main(void) {
    double d = 1.0;
    return KIND(d);
}
