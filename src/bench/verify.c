/* Verified blocks (see bench/verify.h). */
#include "bench/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The header: magic 0..3, kind 4, three bytes zero, length 8..11 and offset
 * 12..19 little-endian, the checksum 20..51 (its digest's length used). */
#define SUM_AT 20

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The checksum of BUF with its checksum field taken as zeros. */
static size_t block_sum(const uint8_t *buf, uint32_t len, enum checksum_kind kind, uint8_t *out)
{
	uint8_t head[VERIFY_HEADER_BYTES];
	memcpy(head, buf, sizeof(head));
	memset(head + SUM_AT, 0, CHECKSUM_MAX);
	struct checksum_ctx c;
	checksum_init(&c, kind);
	checksum_update(&c, head, sizeof(head));
	checksum_update(&c, buf + sizeof(head), len - sizeof(head));
	return checksum_final(&c, out);
}

void verify_stamp(void *buf, uint32_t len, uint64_t offset, enum checksum_kind kind)
{
	uint8_t *p = buf, sum[CHECKSUM_MAX];
	memcpy(p, "IOTV", 4);
	p[4] = (uint8_t)kind;
	p[5] = p[6] = p[7] = 0;
	put_le(p + 8, len, 4);
	put_le(p + 12, offset, 8);
	memset(p + SUM_AT, 0, CHECKSUM_MAX);
	size_t n = block_sum(p, len, kind, sum);
	memcpy(p + SUM_AT, sum, n);
}

int verify_check(const void *buf, uint32_t len, uint64_t offset, enum checksum_kind kind, char *why, size_t whylen)
{
	const uint8_t *p = buf;
	uint8_t sum[CHECKSUM_MAX];
	if (memcmp(p, "IOTV", 4) != 0) {
		snprintf(why, whylen, "no iotriage verify header (never written by a verifying iotriage job, or its "
			 "first bytes overwritten)");
		return -EILSEQ;
	}
	if (p[4] != (uint8_t)kind) {
		snprintf(why, whylen, "written with verify=%s, checked with verify=%s", checksum_name(p[4]),
			 checksum_name(kind));
		return -EILSEQ;
	}
	uint64_t at = get_le(p + 12, 8), n = get_le(p + 8, 4);
	if (n != len || at != offset) {
		snprintf(why, whylen, "the header is that of a %" PRIu64 "-byte block at byte %" PRIu64, n, at);
		return -EILSEQ;
	}
	size_t sl = block_sum(p, len, kind, sum);
	if (sl == 0 || memcmp(sum, p + SUM_AT, sl) != 0) {
		snprintf(why, whylen, "%s mismatch", checksum_name(kind));
		return -EILSEQ;
	}
	return 0;
}

int verify_map_init(struct verify_map *m, uint64_t nblocks)
{
	m->nblocks = nblocks;
	m->set = 0;
	m->bits = calloc(nblocks / 64 + 1, sizeof(*m->bits));
	return m->bits ? 0 : -ENOMEM;
}

void verify_map_mark(struct verify_map *m, uint64_t block)
{
	if (block >= m->nblocks)
		return;
	uint64_t bit = 1ULL << (block % 64);
	if (!(m->bits[block / 64] & bit)) {
		m->bits[block / 64] |= bit;
		m->set++;
	}
}

bool verify_map_has(const struct verify_map *m, uint64_t block)
{
	return block < m->nblocks && (m->bits[block / 64] >> (block % 64) & 1);
}

uint64_t verify_map_next_free(const struct verify_map *m, uint64_t from)
{
	for (uint64_t b = from; b < m->nblocks;) {
		uint64_t word = ~m->bits[b / 64] >> (b % 64);
		if (word) {
			uint64_t f = b + (uint64_t)__builtin_ctzll(word);
			return f < m->nblocks ? f : m->nblocks;
		}
		b = (b / 64 + 1) * 64;
	}
	return m->nblocks;
}

void verify_map_clear(struct verify_map *m)
{
	memset(m->bits, 0, (m->nblocks / 64 + 1) * sizeof(*m->bits));
	m->set = 0;
}

uint64_t verify_map_next(const struct verify_map *m, uint64_t from)
{
	for (uint64_t b = from; b < m->nblocks;) {
		uint64_t word = m->bits[b / 64] >> (b % 64);
		if (word)
			return b + (uint64_t)__builtin_ctzll(word);
		b = (b / 64 + 1) * 64;
	}
	return m->nblocks;
}

void verify_map_unmark(struct verify_map *m, uint64_t block)
{
	if (!verify_map_has(m, block))
		return;
	m->bits[block / 64] &= ~(1ULL << (block % 64));
	m->set--;
}

void verify_map_release(struct verify_map *m)
{
	free(m->bits);
	m->bits = NULL;
}

void verify_backlog_init(struct verify_backlog *b, uint64_t every, uint64_t batch)
{
	*b = (struct verify_backlog){ .every = every, .batch = batch ? batch : every };
}

int verify_backlog_push(struct verify_backlog *b, uint64_t block)
{
	if (b->len == b->cap) { /* full: a ring twice the size, oldest first again */
		size_t cap = b->cap ? 2 * b->cap : 64;
		uint64_t *ring = malloc(cap * sizeof(*ring));
		if (!ring)
			return -ENOMEM;
		for (size_t i = 0; i < b->len; i++)
			ring[i] = b->ring[(b->head + i) % b->cap];
		free(b->ring);
		b->ring = ring;
		b->cap = cap;
		b->head = 0;
	}
	b->ring[(b->head + b->len) % b->cap] = block;
	b->len++;
	return 0;
}

bool verify_backlog_next(struct verify_backlog *b, bool last_read, const struct verify_map *written,
			 uint64_t *block)
{
	if (!b->len)
		return false;
	if (!b->due) {
		if (b->len % b->every != 0 || last_read)
			return false;
		b->due = b->batch;
	}
	uint64_t oldest = b->ring[b->head];
	if (!verify_map_has(written, oldest))
		return false; /* still in flight: fio's get_next_verify finds nothing */
	b->head = (b->head + 1) % b->cap;
	b->len--;
	b->due--;
	*block = oldest;
	return true;
}

void verify_backlog_release(struct verify_backlog *b)
{
	free(b->ring);
	b->ring = NULL;
	b->cap = b->len = b->head = 0;
}
