/* `zpool status -j` into a pool layout (see pool/zpool_json.h). */
#include "pool/zpool_json.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/jsonread.h"
#include "basic/strbuf.h"

static const struct {
	const char *key; /* the pool object's member */
	enum pool_class klass;
	const char *text_header; /* the vdev name a single disk of the class gets, as in the text */
} json_classes[] = {
	/* in the order zpool status prints them */
	{ "dedup", POOL_CLASS_DEDUP, "dedup" },	       { "special", POOL_CLASS_SPECIAL, "special" },
	{ "logs", POOL_CLASS_LOG, "logs" },	       { "l2cache", POOL_CLASS_CACHE, "cache" },
	{ "spares", POOL_CLASS_SPARE, "spares" },
};

/* The text's word for the JSON's state. */
static const char *state_word(const char *state)
{
	return strcmp(state, "CANT_OPEN") == 0 ? "UNAVAIL" : state;
}

struct walk {
	struct pool_layout *l;
	enum pool_class klass;
};

static int grow_members(struct pool_layout *l)
{
	struct pool_member *grown = xreallocarray(l->members, l->count + 1, sizeof(*grown));
	l->members = grown;
	memset(&l->members[l->count], 0, sizeof(*grown));
	return 0;
}

static bool listed(const struct pool_layout *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->members[i].name, name) == 0)
			return true;
	return false;
}

/* One leaf device under VDEV (and GROUP, a replacing or spare nesting). */
static int add_leaf(struct walk *w, const struct jv *leaf, const char *vdev, const char *group)
{
	const char *name = jv_string(jv_get(leaf, "name"), NULL);
	const char *type = jv_string(jv_get(leaf, "vdev_type"), "");
	if (!name)
		return -EINVAL;
	if (w->klass == POOL_CLASS_SPARE && listed(w->l, name))
		return 0; /* a spare in use: listed where it serves */
	int r = grow_members(w->l);
	if (r < 0)
		return r;
	struct pool_member *m = &w->l->members[w->l->count++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->vdev, sizeof(m->vdev), "%s", vdev);
	snprintf(m->group, sizeof(m->group), "%s", group);
	snprintf(m->state, sizeof(m->state), "%s", state_word(jv_string(jv_get(leaf, "state"), "")));
	snprintf(m->was, sizeof(m->was), "%s", jv_string(jv_get(leaf, "was"), ""));
	m->klass = w->klass;
	m->virtual_spare = strcmp(type, "dspare") == 0;
	const char *path = jv_string(jv_get(leaf, "path"), NULL);
	if (m->virtual_spare || !path || path[0] != '/')
		snprintf(m->path, sizeof(m->path), "%s%s", m->virtual_spare ? "" : "/dev/", name); /* a dspare has no node */
	else
		snprintf(m->path, sizeof(m->path), "%s", path);
	return 0;
}

/* A top-level vdev: its record, then its leaves (and their nestings). */
static int add_top(struct walk *w, const struct jv *v, const char *single_name)
{
	const struct jv *kids = jv_get(v, "vdevs");
	const char *name = jv_string(jv_get(v, "name"), NULL);
	if (!name)
		return -EINVAL;
	const char *state = state_word(jv_string(jv_get(v, "state"), ""));
	bool has_record = w->klass != POOL_CLASS_CACHE && w->klass != POOL_CLASS_SPARE; /* as the text parser */
	if (!kids || kids->type != JV_OBJECT || kids->count == 0) {
		int r = has_record ? pool_vdev_record(w->l, name, w->klass, 0, state) : 0;
		return r < 0 ? r : add_leaf(w, v, single_name, "");
	}
	int r = pool_vdev_record(w->l, name, w->klass, (unsigned)kids->count, state);
	for (size_t i = 0; i < kids->count && r == 0; i++) {
		const struct jv *kid = &kids->items[i];
		const struct jv *grand = jv_get(kid, "vdevs");
		if (!grand) {
			r = add_leaf(w, kid, name, "");
			continue;
		}
		const char *group = jv_string(jv_get(kid, "name"), "");
		for (size_t k = 0; k < grand->count && r == 0; k++)
			r = jv_get(&grand->items[k], "vdevs") ? -EINVAL : add_leaf(w, &grand->items[k], name, group);
	}
	return r;
}

static int add_class(struct walk *w, const struct jv *tops, const char *single_name)
{
	int r = 0;
	for (size_t i = 0; tops && tops->type == JV_OBJECT && i < tops->count && r == 0; i++)
		r = add_top(w, &tops->items[i], single_name);
	return r;
}

int zfs_parse_status_json(const char *text, size_t len, const char *pool, struct pool_layout *ret)
{
	*ret = (struct pool_layout){ .count = 0 };
	struct jv *doc = NULL;
	char err[128];
	if (jv_parse(text, len, &doc, err, sizeof(err)) < 0)
		return -EINVAL;
	const struct jv *p = jv_get(jv_get(doc, "pools"), pool);
	const struct jv *root = jv_get(jv_get(p, "vdevs"), pool);
	const struct jv *data = jv_get(root, "vdevs");
	int r = data && data->type == JV_OBJECT && data->count ? 0 : -EINVAL;
	if (r == 0) {
		snprintf(ret->pool, sizeof(ret->pool), "%s", pool);
		struct walk w = { ret, POOL_CLASS_DATA };
		r = add_class(&w, data, pool);
		for (size_t i = 0; i < sizeof(json_classes) / sizeof(json_classes[0]) && r == 0; i++) {
			w.klass = json_classes[i].klass;
			r = add_class(&w, jv_get(p, json_classes[i].key), json_classes[i].text_header);
		}
	}
	jv_free(doc);
	if (r < 0)
		pool_layout_release(ret);
	return r;
}
