/* expect: 5:23: error: macro "MAX" passed 3 arguments, but takes just 2 */
#define MAX(a, b) ((a) > (b) ? (a) : (b))

int main(void) {
    return MAX(1, 2, 3);
}
