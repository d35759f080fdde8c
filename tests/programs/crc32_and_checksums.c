/* Bit-level algorithms: table-driven CRC-32, Adler-32, bit reversal, base64 encoding. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc_init(void)
{
    uint32_t c;
    int n, k;
    for (n = 0; n < 256; n++) {
        c = (uint32_t)n;
        for (k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc32_buf(const unsigned char *buf, size_t len)
{
    uint32_t c = 0xffffffffu;
    size_t i;
    for (i = 0; i < len; i++)
        c = crc_table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t adler32(const unsigned char *buf, size_t len)
{
    uint32_t a = 1, b = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        a = (a + buf[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static void base64(const unsigned char *in, size_t len, char *out)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i, o = 0;
    for (i = 0; i + 2 < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = tbl[v >> 18 & 63];
        out[o++] = tbl[v >> 12 & 63];
        out[o++] = tbl[v >> 6 & 63];
        out[o++] = tbl[v & 63];
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = tbl[v >> 18 & 63];
        out[o++] = tbl[v >> 12 & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (len - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = tbl[v >> 18 & 63];
        out[o++] = tbl[v >> 12 & 63];
        out[o++] = tbl[v >> 6 & 63];
        out[o++] = '=';
    }
    out[o] = '\0';
}

int main(void)
{
    const char *msgs[] = { "", "a", "abc", "The quick brown fox jumps over the lazy dog", "123456789" };
    unsigned char bin[256];
    char enc[512];
    int i;

    crc_init();
    for (i = 0; i < 5; i++) {
        const unsigned char *m = (const unsigned char *)msgs[i];
        size_t len = strlen(msgs[i]);
        base64(m, len, enc);
        printf("[%s] crc32 %08x adler32 %08x base64 %s\n", msgs[i], crc32_buf(m, len), adler32(m, len), enc);
    }
    for (i = 0; i < 256; i++)
        bin[i] = (unsigned char)(255 - i);
    printf("binary crc32 %08x adler32 %08x\n", crc32_buf(bin, 256), adler32(bin, 256));
    base64(bin, 10, enc);
    printf("binary base64 %s\n", enc);
    printf("crc_table[1] %08x crc_table[255] %08x\n", crc_table[1], crc_table[255]);
    return 0;
}
