/* test_checksum.c: basic/checksum.c against digests computed by Python's
 * hashlib (md5, sha256) for lengths around the padding's edges (55, 56, 63,
 * 64 bytes), and crc32c against its published check value. */
#include <stdio.h>
#include <string.h>

#include "basic/checksum.h"
#include "tap.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int main(void)
{
	static const struct {
		size_t n;
		const char *md5, *sha256;
	} want[] = {
		{ 0, "d41d8cd98f00b204e9800998ecf8427e", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ 3, "c9aee4810523ef8658121b8d492c6b41", "6ab0dba1f4f1dfbb37b4f9eeb092c09fca4900ad32bdcd147d8dde35d6c87c35" },
		{ 55, "52c0e574e1198de5fe3f8f11440dcb1b", "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b" },
		{ 56, "46c9907fc908ee68b1e7b8e71286a518", "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27" },
		{ 63, "a62f6d59e837867693f042f5b8f5a236", "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055" },
		{ 64, "7160b8fb5e9e4023d549c3971fbaeead", "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241" },
		{ 119, "e84905d4214f4d1ca56c2cdcc152b143", "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e" },
		{ 1000, "10046f077f2082ac19676b8079f1cb1a", "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371" },
	};
	uint8_t data[1000], d[CHECKSUM_MAX];
	char text[2 * CHECKSUM_MAX + 1], name[64];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		hex(d, checksum_compute(CHECKSUM_MD5, data, want[i].n, d), text);
		snprintf(name, sizeof(name), "md5 of %zu bytes", want[i].n);
		is_str(text, want[i].md5, name);
		hex(d, checksum_compute(CHECKSUM_SHA256, data, want[i].n, d), text);
		snprintf(name, sizeof(name), "sha256 of %zu bytes", want[i].n);
		is_str(text, want[i].sha256, name);
	}
	ok(checksum_crc32c(0, "123456789", 9) == 0xe3069283U, "crc32c's check value of \"123456789\"");
	uint32_t part = checksum_crc32c(checksum_crc32c(0, data, 333), data + 333, 667);
	ok(part == checksum_crc32c(0, data, 1000), "crc32c continued over two pieces equals crc32c of the whole");
	is_int(checksum_compute(CHECKSUM_CRC32C, data, 10, d), 4, "crc32c's digest is 4 bytes");
	is_int(checksum_find("crc32c-intel"), CHECKSUM_CRC32C, "fio's crc32c-intel is crc32c");
	is_int(checksum_find("sha512"), -1, "a checksum not built in is unknown");
	data[500] ^= 1;
	hex(d, checksum_compute(CHECKSUM_MD5, data, 1000, d), text);
	ok(strcmp(text, want[7].md5) != 0, "one flipped bit changes the md5");
	return tap_done();
}
