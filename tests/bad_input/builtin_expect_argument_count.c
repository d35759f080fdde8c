/* expect: 4:10: error: '__builtin_expect' takes 2 arguments, not 1 */
#define likely(x) __builtin_expect(x)
int main(int argc, char **argv) {
  return likely(argc > 1) ? 1 : 0;
}
