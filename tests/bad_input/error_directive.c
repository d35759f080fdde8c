/* expect: 3:2: error: #error "NUM_THREADS must be defined" */
#ifndef NUM_THREADS
#error "NUM_THREADS must be defined"
#endif

int main(void) {
    return 0;
}
