/* expect: 3:12: error: type 'struct halves' is too large */
int main(void) {
    struct halves { char low[0x7fffffffffffffff]; char high[2]; } *p = 0;
    return p != 0;
}
