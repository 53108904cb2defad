/* basic/checksum.h: the checksums fio's verify= names, computed in process
 * (no openssl): crc32c (Castagnoli, as iSCSI and ext4 use it, the reflected
 * polynomial 0x82f63b78, initial value and final xor ~0), md5 (RFC 1321) and
 * sha256 (FIPS 180-4). Each writes its digest, big-endian for crc32c, into
 * OUT and returns its length in bytes. */
#ifndef IOTRIAGE_BASIC_CHECKSUM_H
#define IOTRIAGE_BASIC_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

enum checksum_kind { CHECKSUM_NONE, CHECKSUM_CRC32C, CHECKSUM_MD5, CHECKSUM_SHA256 };

#define CHECKSUM_MAX 32

uint32_t checksum_crc32c(uint32_t crc, const void *buf, size_t len);

/* A digest over pieces: init, update as often as needed, final (writes the
 * digest to OUT, CHECKSUM_MAX bytes, and returns its length). */
struct checksum_ctx {
	enum checksum_kind kind;
	uint32_t crc;
	uint32_t h[8];
	uint8_t buf[64];
	size_t buffered;
	uint64_t total;
};
void checksum_init(struct checksum_ctx *c, enum checksum_kind kind);
void checksum_update(struct checksum_ctx *c, const void *data, size_t len);
size_t checksum_final(struct checksum_ctx *c, uint8_t *out);

/* KIND's digest of BUF into OUT (CHECKSUM_MAX bytes); returns its length (0 for none). */
size_t checksum_compute(enum checksum_kind kind, const void *buf, size_t len, uint8_t *out);
/* "crc32c", "md5", "sha256" ("none" for none); checksum_find: the kind of a
 * name (fio's crc32c-intel is crc32c), -1 when unknown. */
const char *checksum_name(enum checksum_kind kind);
int checksum_find(const char *name);

#endif
