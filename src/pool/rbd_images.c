/* pool/rbd_images.c: tagged RBD images: create, remove, the stale ones. */
#include "pool/rbd_images.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pool/ceph.h"

int rbd_image_create(const char *pool, const char *run_id, const char *suffix, uint64_t bytes, struct scratch *ret,
		     struct strbuf *err)
{
	struct scratch s = { .kind = SCRATCH_RBD };
	snprintf(s.name, sizeof(s.name), "%s/" SCRATCH_PREFIX "%s-%s", pool, run_id, suffix);
	scratch_owner_tag(run_id, s.owner, sizeof(s.owner));
	char size[32];
	snprintf(size, sizeof(size), "%" PRIu64 "M", (bytes + (1U << 20) - 1) >> 20);
	const char *create[] = { "create", "--size", size, s.name, NULL };
	int r = ceph_rbd(create, 0, NULL, err);
	if (r < 0)
		return r;
	/* Tagged right after: an image killed between the two is untagged, so
	 * it is left alone (its name says which run made it). */
	const char *tag[] = { "image-meta", "set", s.name, RBD_OWNER_KEY, s.owner, NULL };
	r = ceph_rbd(tag, 0, NULL, err);
	if (r < 0) {
		rbd_image_remove(&s, NULL);
		return r;
	}
	*ret = s;
	return 0;
}

int rbd_image_remove(const struct scratch *s, struct strbuf *err)
{
	const char *argv[] = { "rm", "--no-progress", s->name, NULL };
	int r = -EBUSY;
	/* A client killed with the image open keeps its watch until the OSDs
	 * time it out (osd_client_watch_timeout, 30 s by default). */
	for (int attempt = 0; attempt < 12 && r < 0; attempt++) {
		struct strbuf e = STRBUF_INIT;
		r = ceph_rbd(argv, 0, NULL, &e);
		bool watched = r < 0 && strstr(e.buf, "watchers");
		if (r < 0 && (!watched || attempt == 11)) {
			if (err)
				strbuf_adds(err, e.buf);
			strbuf_release(&e);
			return r;
		}
		strbuf_release(&e);
		if (r < 0)
			sleep(4);
	}
	return r;
}

static bool has_prefix(const char *name)
{
	return strncmp(name, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)) == 0;
}

int rbd_images_find_stale(const char *pool, struct scratch *ret, size_t max)
{
	const char *ls[] = { "ls", "--format", "json", pool, NULL };
	struct strbuf out = STRBUF_INIT;
	char names[256][CEPH_NAME_MAX];
	int r = ceph_rbd(ls, 0, &out, NULL);
	int count = r == 0 ? ceph_parse_names(out.buf, names, 256) : r;
	strbuf_release(&out);
	size_t n = 0;
	for (int i = 0; i < count && n < max; i++) {
		if (!has_prefix(names[i]))
			continue;
		char image[512];
		snprintf(image, sizeof(image), "%s/%s", pool, names[i]);
		const char *get[] = { "image-meta", "get", image, RBD_OWNER_KEY, NULL };
		struct strbuf tag = STRBUF_INIT;
		if (ceph_rbd(get, 0, &tag, NULL) == 0) {
			tag.buf[strcspn(tag.buf, "\n")] = '\0';
			if (tag.buf[0] && scratch_owner_gone(tag.buf)) {
				ret[n] = (struct scratch){ .kind = SCRATCH_RBD };
				snprintf(ret[n].name, sizeof(ret[n].name), "%s", image);
				snprintf(ret[n].owner, sizeof(ret[n].owner), "%s", tag.buf);
				n++;
			}
		} /* no tag: not ours, whatever its name */
		strbuf_release(&tag);
	}
	return count < 0 ? count : (int)n;
}
