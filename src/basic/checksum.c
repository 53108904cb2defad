/* fio's verify checksums (see basic/checksum.h). */
#include "basic/checksum.h"

#include <stdbool.h>
#include <string.h>

static uint32_t crc_table[8][256];
static int crc_ready;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78U : c >> 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
	__atomic_store_n(&crc_ready, 1, __ATOMIC_RELEASE);
}

/* Eight bytes a step (slicing-by-8): a verify pass checksums every byte read. */
uint32_t checksum_crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (!__atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE))
		crc_init(); /* racing threads compute the same table */
	const uint8_t *p = buf;
	crc = ~crc;
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^ crc_table[5][(lo >> 16) & 0xff] ^
		      crc_table[4][lo >> 24] ^ crc_table[3][p[4]] ^ crc_table[2][p[5]] ^ crc_table[1][p[6]] ^
		      crc_table[0][p[7]];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

static uint32_t rol32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static uint32_t ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};
static const uint8_t md5_r[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };

static void md5_block(uint32_t *h, const uint8_t *b)
{
	uint32_t m[16];
	for (int i = 0; i < 16; i++)
		m[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
		       (uint32_t)b[4 * i + 3] << 24;
	uint32_t a = h[0], bb = h[1], c = h[2], d = h[3];
	for (unsigned i = 0; i < 64; i++) {
		uint32_t f;
		unsigned g, round = i / 16;
		if (round == 0) {
			f = (bb & c) | (~bb & d);
			g = i;
		} else if (round == 1) {
			f = (d & bb) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (round == 2) {
			f = bb ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (bb | ~d);
			g = (7 * i) % 16;
		}
		uint32_t t = d;
		d = c;
		c = bb;
		bb = bb + rol32(a + f + md5_k[i] + m[g], md5_r[round * 4 + i % 4]);
		a = t;
	}
	h[0] += a;
	h[1] += bb;
	h[2] += c;
	h[3] += d;
}


static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static void sha256_block(uint32_t *h, const uint8_t *b)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 |
		       (uint32_t)b[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = h[0], b1 = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b1) ^ (a & c) ^ (b1 & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b1;
		b1 = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b1;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void checksum_init(struct checksum_ctx *c, enum checksum_kind kind)
{
	static const uint32_t md5_h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	static const uint32_t sha_h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	if (kind == CHECKSUM_MD5)
		memcpy(c->h, md5_h, sizeof(md5_h));
	else if (kind == CHECKSUM_SHA256)
		memcpy(c->h, sha_h, sizeof(sha_h));
}

void checksum_update(struct checksum_ctx *c, const void *data, size_t len)
{
	const uint8_t *p = data;
	c->total += len;
	if (c->kind == CHECKSUM_CRC32C) {
		c->crc = checksum_crc32c(c->crc, p, len);
		return;
	}
	void (*block)(uint32_t *, const uint8_t *) = c->kind == CHECKSUM_MD5 ? md5_block : sha256_block;
	while (len) {
		if (!c->buffered && len >= 64) {
			block(c->h, p);
			p += 64;
			len -= 64;
			continue;
		}
		size_t n = 64 - c->buffered < len ? 64 - c->buffered : len;
		memcpy(c->buf + c->buffered, p, n);
		c->buffered += n;
		p += n;
		len -= n;
		if (c->buffered == 64) {
			block(c->h, c->buf);
			c->buffered = 0;
		}
	}
}

/* The padding both digests share: 0x80, zeros, the bit length
 * (little-endian for md5, big-endian for sha256). */
size_t checksum_final(struct checksum_ctx *c, uint8_t *out)
{
	if (c->kind == CHECKSUM_CRC32C) {
		for (int i = 0; i < 4; i++)
			out[i] = (uint8_t)(c->crc >> (24 - 8 * i));
		return 4;
	}
	if (c->kind == CHECKSUM_NONE)
		return 0;
	bool md5 = c->kind == CHECKSUM_MD5;
	uint64_t bits = c->total * 8;
	uint8_t pad[72] = { 0x80 }, len[8];
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (md5 ? 8 * i : 56 - 8 * i));
	size_t padlen = (c->buffered < 56 ? 56 : 120) - c->buffered;
	checksum_update(c, pad, padlen);
	checksum_update(c, len, 8);
	int words = md5 ? 4 : 8;
	for (int i = 0; i < 4 * words; i++)
		out[i] = (uint8_t)(c->h[i / 4] >> (md5 ? 8 * (i % 4) : 24 - 8 * (i % 4)));
	return (size_t)(4 * words);
}

size_t checksum_compute(enum checksum_kind kind, const void *buf, size_t len, uint8_t *out)
{
	struct checksum_ctx c;
	checksum_init(&c, kind);
	checksum_update(&c, buf, len);
	return checksum_final(&c, out);
}

const char *checksum_name(enum checksum_kind kind)
{
	switch (kind) {
	case CHECKSUM_CRC32C:
		return "crc32c";
	case CHECKSUM_MD5:
		return "md5";
	case CHECKSUM_SHA256:
		return "sha256";
	case CHECKSUM_NONE:
		break;
	}
	return "none";
}

int checksum_find(const char *name)
{
	if (strcmp(name, "crc32c") == 0 || strcmp(name, "crc32c-intel") == 0)
		return CHECKSUM_CRC32C;
	if (strcmp(name, "md5") == 0)
		return CHECKSUM_MD5;
	if (strcmp(name, "sha256") == 0)
		return CHECKSUM_SHA256;
	return -1;
}
