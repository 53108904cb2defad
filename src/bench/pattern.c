#include "bench/pattern.h"

#include <string.h>

void prng_seed(struct prng *r, uint64_t seed)
{
	/* splitmix64 spreads one seed over the four words of state. */
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

void pattern_fill(void *buf, size_t len, enum data_pattern pattern, struct prng *r)
{
	if (pattern == PATTERN_ZEROS) {
		memset(buf, 0, len);
		return;
	}
	unsigned char *p = buf;
	while (len >= 8) {
		uint64_t v = prng_next(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = prng_next(r);
		memcpy(p, &v, len);
	}
}

void pattern_scramble(void *buf, size_t len, uint64_t *serial, struct prng *r)
{
	unsigned char *p = buf;
	for (size_t off = 0; off + 16 <= len; off += PATTERN_SECTOR) {
		uint64_t stamp[2] = { (*serial)++, prng_next(r) };
		memcpy(p + off, stamp, sizeof(stamp));
	}
}

void pattern_fill_compressible(void *buf, size_t len, unsigned pct, size_t chunk, uint64_t seed)
{
	struct prng r;
	prng_seed(&r, seed);
	unsigned char *p = buf;
	if (!chunk || chunk > len)
		chunk = len;
	for (size_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;
		size_t random = chunk * (100 - (pct > 100 ? 100 : pct)) / 100;
		random = random < n ? random : n;
		pattern_fill(p + off, random, PATTERN_RANDOM, &r);
		memset(p + off + random, 0, n - random);
	}
}

const char *pattern_name(enum data_pattern pattern)
{
	return pattern == PATTERN_ZEROS ? "zeros" : "random";
}
