/* bench/pattern.h: the data iotriage writes. Incompressible by default
 * (xoshiro256** output, which no compressor shrinks), zeros on request.
 * A fast in-process generator: no /dev/urandom, no openssl. */
#ifndef IOTRIAGE_BENCH_PATTERN_H
#define IOTRIAGE_BENCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>

enum data_pattern { PATTERN_RANDOM, PATTERN_ZEROS };

struct prng {
	uint64_t s[4];
};

void prng_seed(struct prng *r, uint64_t seed);

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna, public domain algorithm). */
static inline uint64_t prng_next(struct prng *r)
{
	uint64_t *s = r->s;
	uint64_t result = prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, bound) without modulo bias worth caring about (Lemire). */
static inline uint64_t prng_below(struct prng *r, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)prng_next(r) * bound) >> 64);
}

void pattern_fill(void *buf, size_t len, enum data_pattern pattern, struct prng *r);

#define PATTERN_SECTOR 512

/* Makes every 512-byte sector of BUF unique before it is written (fio's
 * scramble_buffers, for every sector): the first 16 bytes of each sector get
 * *SERIAL (then incremented; callers put a per-worker tag in its top bits)
 * and a value from R, which callers seed per run, so no two sectors written
 * in a run or across runs are equal, at any deduplication granularity. */
void pattern_scramble(void *buf, size_t len, uint64_t *serial, struct prng *r);
/* fio's buffer_compress_percentage: in every CHUNK bytes of BUF (0: the
 * whole buffer) the first (100 - PCT)% random, from SEED, the rest zeros, so
 * a compressor shrinks the data by about PCT%. The same SEED gives the same
 * bytes (dedupe_percentage's repeated blocks). */
void pattern_fill_compressible(void *buf, size_t len, unsigned pct, size_t chunk, uint64_t seed);
const char *pattern_name(enum data_pattern pattern);

#endif
