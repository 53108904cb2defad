/* basic/fsutil.h: small file-system helpers. */
#ifndef IOTRIAGE_BASIC_FSUTIL_H
#define IOTRIAGE_BASIC_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>

/* mkdir -p of the directory that holds PATH. Returns 0 or -errno. */
int mkdir_parents(const char *path, mode_t mode);
/* mkdir -p of DIR itself. */
int mkdir_p(const char *dir, mode_t mode);
/* Writes DATA to PATH through PATH.tmp.XXXXXX + fsync + rename, so a reader
 * never sees half a file. Returns 0 or -errno (the temporary is removed). */
int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode);
/* Reads a whole small file (a sysfs attribute, a procfs table) into BUF, up
 * to LEN - 1 bytes, trailing whitespace trimmed. Returns length or -errno. */
int read_small_file(const char *path, char *buf, size_t len);
/* Writes S to an existing file (sysfs/cgroup knob). Returns 0 or -errno. */
int write_small_file(const char *path, const char *s);
/* Whether PATH can be written as a whole file (write_file_atomic): not a
 * directory, in a directory that exists and can be written. Returns 0, or
 * -errno with WHY ("'PATH': ..."). Creates nothing. */
int check_file_writable(const char *path, char *why, size_t len);

#endif
