/* fs/volfile.h: the temporary test file `volumes` writes into a mount and
 * reads back.
 *
 * volfile_create() prefers O_TMPFILE: an unnamed file that nothing can see
 * and that vanishes with its last descriptor, even after SIGKILL. Where the
 * file system refuses O_TMPFILE (FUSE file systems such as zfs-fuse), it
 * makes a named file ".iotriage-volumes-<RUN_ID>" in the directory,
 * exclusively, and the caller removes it with volfile_remove() on success,
 * failure and signals (basic/interrupt). Either way the file starts with a
 * tag block: a text line
 *     iotriage-volumes run=<RUN_ID> pid=<PID> start=<STARTTIME> boot=<BOOT>\n
 * (the owner of basic/procowner: STARTTIME is field 22 of /proc/PID/stat, so
 * a reused pid is not taken for the run; BOOT the first group of the boot
 * id; tags of older versions have no boot=) followed by incompressible data. The tag goes in the data, not
 * an xattr: zfs-fuse supports neither O_TMPFILE nor user xattrs.
 *
 * volfile_sweep_stale() removes what a killed run left: only regular files
 * whose name is the prefix plus 16 hex digits, whose tag names the same run
 * id, and whose owner is gone (proc_owner_gone: ended, a zombie, another
 * boot, a reused pid). Nothing else is touched.
 *
 * Errors are -errno; nothing here prints.
 */
#ifndef IOTRIAGE_FS_VOLFILE_H
#define IOTRIAGE_FS_VOLFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/procowner.h"
#include "basic/progress.h"

#define VOLFILE_PREFIX ".iotriage-volumes-"
#define VOLFILE_TAG_BYTES 4096

struct volfile {
	int dirfd;
	int fd;
	bool named;            /* a named file (no O_TMPFILE here): remove it */
	char name[64];         /* its name in the directory */
	uint64_t size;         /* bytes written so far, the tag block included */
};

#define VOLFILE_INIT { .dirfd = -1, .fd = -1 }

/* Creates the file in DIR (O_TMPFILE unless FORCE_NAMED or refused) and
 * writes its tag block. Returns 0, or -errno (-EROFS, -ENOSPC, -EACCES, ...),
 * having removed anything it made. */
int volfile_create(const char *dir, const char *run_id, bool force_named, struct volfile *ret);

/* Grows the file to SIZE bytes of incompressible data (buffered, in 32 MiB
 * steps), fsyncs and drops it from the page cache. Stops with -EINTR when
 * an interrupt is requested. LIVE (or NULL) is told the bytes written as
 * the running part (progress_part) after each step. Returns 0 or -errno;
 * f->size says how far it got. */
int volfile_fill(struct volfile *f, uint64_t size, uint64_t seed, struct progress *live);

/* A path that reopens the file with other flags (O_DIRECT): /proc/self/fd/N. */
void volfile_reopen_path(const struct volfile *f, char *buf, size_t len);

/* Closes the file and, when named, unlinks it. Returns 0 or the unlink's
 * -errno. Safe to call twice and on VOLFILE_INIT. */
int volfile_remove(struct volfile *f);

/* The tag text for a file of run RUN_ID written by OWNER, and its parser
 * (returns 0 or -EINVAL). Exposed for tests. */
int volfile_format_tag(char *buf, size_t len, const char *run_id, const struct proc_owner *owner);
int volfile_parse_tag(const char *text, size_t len, char *ret_run_id, size_t id_len, struct proc_owner *ret);

/* Removes stale tagged files in DIR (see above); PROC_ROOT is "/proc" but
 * for tests. *RET_REMOVED counts them. Returns 0 or -errno for DIR itself. */
int volfile_sweep_stale(const char *dir, const char *proc_root, size_t *ret_removed);

#endif
