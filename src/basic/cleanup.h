/* cleanup.h: scope-bound cleanup for single-owner locals (systemd's alloc-util idiom).
 *
 *   _cleanup_free_ char *s = strdup("x");   freed when s leaves scope
 *   _cleanup_close_ int fd = open(...);     closed when fd leaves scope (if >= 0)
 *   _cleanup_fclose_ FILE *f = fopen(...);  fclose'd when f leaves scope
 *
 * TAKE_PTR / TAKE_FD hand ownership out of the scope (the local is reset so
 * the cleanup does nothing).
 */
#ifndef IOTRIAGE_BASIC_CLEANUP_H
#define IOTRIAGE_BASIC_CLEANUP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void cleanup_freep(void *p)
{
	free(*(void **)p);
}

static inline void cleanup_closep(const int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline void cleanup_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_free_ __attribute__((cleanup(cleanup_freep)))
#define _cleanup_close_ __attribute__((cleanup(cleanup_closep)))
#define _cleanup_fclose_ __attribute__((cleanup(cleanup_fclosep)))

#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) taken_ = (p);                                    \
		(p) = NULL;                                                    \
		taken_;                                                        \
	})

#define TAKE_FD(fd)                                                            \
	({                                                                     \
		int taken_ = (fd);                                             \
		(fd) = -1;                                                     \
		taken_;                                                        \
	})

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
