/* The run-time part of `declare mapper` (OpenMP 5.0 2.19.7.3): a map entry with MAP_MAPPER
 * stands for an array of structs whose mapper maps more than their own storage (each
 * element's pointer members' sections). Its begin is a function the compiler made from
 * the mapper; called with the element range, it pushes each element's entries (a
 * section and its ATTACH entry; nested mappers call their own functions), which are
 * appended after the construct's own entries, so that every index the compiler wrote
 * (MEMBER_OF, kernel parameters) still holds. The MAPPER entry itself maps nothing. */
#include <stdlib.h>
#include <string.h>
#include "offload.h"

typedef void (*push_function)(void *list, void *base, void *begin, int64_t size, int64_t type);
/* (the list, how to push, the first element, the element count, the clause's map bits) */
typedef void (*mapper_function)(void *list, push_function push, void *first, int64_t count, int64_t type);

static void push(void *handle, void *base, void *begin, int64_t size, int64_t type) {
    struct entry_list *list = handle;
    if (list->count == list->capacity) {
        list->capacity *= 2;
        list->bases = realloc(list->bases, (size_t)list->capacity * sizeof *list->bases);
        list->begins = realloc(list->begins, (size_t)list->capacity * sizeof *list->begins);
        list->sizes = realloc(list->sizes, (size_t)list->capacity * sizeof *list->sizes);
        list->types = realloc(list->types, (size_t)list->capacity * sizeof *list->types);
    }
    list->bases[list->count] = base;
    list->begins[list->count] = begin;
    list->sizes[list->count] = size;
    list->types[list->count] = type;
    list->count++;
}

int expand_mappers(int count, void **bases, void **begins, const int64_t *sizes, const int64_t *types,
                   struct entry_list *out) {
    int i;
    for (i = 0; i < count && !(types[i] & MAP_MAPPER); i++) {}
    if (i == count) return 0;
    out->count = 0;
    out->capacity = 2 * count + 16;
    out->bases = malloc((size_t)out->capacity * sizeof *out->bases);
    out->begins = malloc((size_t)out->capacity * sizeof *out->begins);
    out->sizes = malloc((size_t)out->capacity * sizeof *out->sizes);
    out->types = malloc((size_t)out->capacity * sizeof *out->types);
    for (i = 0; i < count; i++)             /* a MAPPER entry stays, as an empty one */
        push(out, bases[i], types[i] & MAP_MAPPER ? bases[i] : begins[i], types[i] & MAP_MAPPER ? 0 : sizes[i],
             types[i]);
    for (i = 0; i < count; i++) {
        mapper_function mapper;
        if (!(types[i] & MAP_MAPPER) || sizes[i] <= 0) continue;
        *(void **)&mapper = begins[i];
        mapper(out, push, bases[i], sizes[i], types[i] & ~(int64_t)(MAP_MAPPER | MAP_TARGET_PARAM));
    }
    return 1;
}

void entry_list_free(struct entry_list *list) {
    free(list->bases);
    free(list->begins);
    free(list->sizes);
    free(list->types);
}
