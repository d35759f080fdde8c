/* Global and file-scope static initializers: arrays, structs, pointers to globals, strings, designators. */
#include <stdio.h>

struct point { int x, y; };
struct shape { const char *name; int nverts; struct point verts[4]; double scale; };

int g_zero;
int g_int = 42;
double g_dbl = -2.5;
float g_flt = 0.1f;
long long g_ll = -1234567890123456789LL;
unsigned g_hex = 0xCAFEBABEu;
char g_char = 'g';
int g_arr[8] = { 1, 2, 3 };
int g_arr2[] = { 10, 20, 30, 40, 50 };
int g_matrix[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
char g_str[] = "global string";
char g_buf[16] = "abc";
const char *g_ptr_str = "pointer to literal";
const char *g_names[] = { "zero", "one", "two", 0 };
int *g_ptr = &g_int;
int *g_ptr_elem = &g_arr2[3];
int *g_ptr_off = g_arr2 + 1;
double *g_pdbl = &g_dbl;
struct point g_pt = { 3, -4 };
struct point g_pts[3] = { { 1, 1 }, [2] = { .y = 9, .x = 8 } };
struct shape g_square = { "square", 4, { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }, 2.0 };
struct shape g_shapes[2] = { { .name = "tri", .nverts = 3, .scale = 0.5 }, { "line", 2, { { 0, 0 }, { 5, 5 } }, 1.0 } };
int g_designated[10] = { [2] = 20, [7] = 70, [5] = 50 };
struct point *g_ppt = &g_pts[2];
int (*g_row)[3] = g_matrix;
static int s_counter = 100;
static const int s_table[5] = { 1, 1, 2, 6, 24 };
const int g_const = 7 * 6;
int g_expr = sizeof(struct shape) > 0 ? 3 * 4 + 1 : 0;
char g_chars[] = { 'h', 'i', '\0' };
unsigned char g_bytes[4] = { 0xff, 0x80, 0x7f };

static int bump(void) { return ++s_counter; }

int main(void)
{
    int i;

    printf("scalars: %d %d %.2f %.7f %lld %x %c\n", g_zero, g_int, g_dbl, g_flt, g_ll, g_hex, g_char);
    printf("g_arr:");
    for (i = 0; i < 8; i++) printf(" %d", g_arr[i]);
    printf("\ng_arr2 len %d last %d\n", (int)(sizeof g_arr2 / sizeof g_arr2[0]), g_arr2[4]);
    printf("matrix %d %d\n", g_matrix[1][2], g_row[1][0]);
    printf("strings: [%s] [%s] [%s] sizeof g_str %d g_buf[5] %d\n", g_str, g_buf, g_ptr_str, (int)sizeof g_str, g_buf[5]);
    for (i = 0; g_names[i]; i++) printf("name %d %s\n", i, g_names[i]);
    printf("pointers: %d %d %d %.2f\n", *g_ptr, *g_ptr_elem, *g_ptr_off, *g_pdbl);
    *g_ptr = 43;
    g_ptr_elem[1] = 55;
    printf("through pointers: g_int %d g_arr2[4] %d\n", g_int, g_arr2[4]);
    printf("pt %d %d, pts: %d,%d %d,%d %d,%d, ppt %d\n", g_pt.x, g_pt.y, g_pts[0].x, g_pts[0].y, g_pts[1].x, g_pts[1].y,
           g_pts[2].x, g_pts[2].y, g_ppt->y);
    printf("square %s %d v2 (%d,%d) scale %.1f\n", g_square.name, g_square.nverts, g_square.verts[2].x, g_square.verts[2].y, g_square.scale);
    printf("shapes %s %d %.1f %d | %s %d v1 (%d,%d)\n", g_shapes[0].name, g_shapes[0].nverts, g_shapes[0].scale,
           g_shapes[0].verts[3].x, g_shapes[1].name, g_shapes[1].nverts, g_shapes[1].verts[1].x, g_shapes[1].verts[1].y);
    printf("designated:");
    for (i = 0; i < 10; i++) printf(" %d", g_designated[i]);
    printf("\n");
    i = bump();
    printf("static counter %d %d, table %d, const %d, expr %d\n", i, bump(), s_table[4], g_const, g_expr);
    printf("chars %s, bytes %d %d %d %d\n", g_chars, g_bytes[0], g_bytes[1], g_bytes[2], g_bytes[3]);
    g_str[0] = 'G';
    g_buf[3] = 'd';
    printf("modified: %s %s\n", g_str, g_buf);
    return 0;
}
