/* expect: 4:23: error: variable 'magic' has initializer but incomplete type 'union elf_word' */
/* gcc: variable 'magic' has initializer but incomplete type (C99 6.7p7); a fuzz finding
   (static_union_through_narrower_member.c, seed 20261186784223) that was an internal error */
static union elf_word magic = { { 0x7f, 'E', 'L', 'F' } };
int main(void) { return 0; }
