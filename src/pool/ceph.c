/* pool/ceph.c: the ceph and rbd tools with a time limit, and their JSON. */
#include "pool/ceph.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "basic/jsonread.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "net/tcp_rtt.h"

#define ARGS_MAX 24

bool ceph_valid_name(const char *name)
{
	size_t n = strlen(name);
	return n > 0 && n < CEPH_NAME_MAX && name[0] != '-' && name[0] != '.' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/* ---- parsers ---- */

static struct jv *parse(const char *json)
{
	struct jv *v = NULL;
	char err[80];
	if (!json || jv_parse(json, strlen(json), &v, err, sizeof(err)) < 0)
		return NULL;
	return v;
}

struct jv *ceph_parse_json(const char *json)
{
	return parse(json);
}

int ceph_parse_names(const char *json, char (*names)[CEPH_NAME_MAX], size_t max)
{
	struct jv *v = parse(json);
	if (!v || v->type != JV_ARRAY) {
		jv_free(v);
		return -EINVAL;
	}
	size_t n = 0;
	for (size_t i = 0; i < v->count && n < max; i++) {
		const char *s = jv_string(jv_at(v, i), NULL);
		if (s)
			snprintf(names[n++], CEPH_NAME_MAX, "%s", s);
	}
	jv_free(v);
	return (int)n;
}

int ceph_parse_pool_settings(const char *json, struct ceph_pool_settings *ret)
{
	struct jv *v = parse(json);
	const char *pool = jv_string(jv_get(v, "pool"), NULL);
	if (!v || v->type != JV_OBJECT || !pool) {
		jv_free(v);
		return -EINVAL;
	}
	*ret = (struct ceph_pool_settings){ .size = jv_int(jv_get(v, "size"), -1),
					    .min_size = jv_int(jv_get(v, "min_size"), -1),
					    .pg_num = jv_int(jv_get(v, "pg_num"), -1) };
	snprintf(ret->pool, sizeof(ret->pool), "%s", pool);
	snprintf(ret->crush_rule, sizeof(ret->crush_rule), "%s", jv_string(jv_get(v, "crush_rule"), ""));
	jv_free(v);
	return 0;
}

int ceph_parse_status(const char *json, struct ceph_state *ret)
{
	struct jv *v = parse(json);
	const char *health = jv_string(jv_path(v, "health.status"), NULL);
	if (!v || !health) {
		jv_free(v);
		return -EINVAL;
	}
	snprintf(ret->health, sizeof(ret->health), "%s", health);
	const struct jv *osdmap = jv_get(v, "osdmap");
	/* Older releases nest the counts one level deeper ("osdmap": {"osdmap": {...}}). */
	if (jv_get(osdmap, "osdmap"))
		osdmap = jv_get(osdmap, "osdmap");
	ret->osds = jv_int(jv_get(osdmap, "num_osds"), -1);
	ret->osds_up = jv_int(jv_get(osdmap, "num_up_osds"), -1);
	ret->osds_in = jv_int(jv_get(osdmap, "num_in_osds"), -1);
	jv_free(v);
	return 0;
}

int ceph_parse_fs_data_pool(const char *json, char *buf, size_t len)
{
	struct jv *v = parse(json);
	const char *pool = jv_string(jv_at(jv_get(jv_at(v, 0), "data_pools"), 0), NULL);
	if (pool)
		snprintf(buf, len, "%s", pool);
	jv_free(v);
	return pool ? 0 : -ENOENT;
}

/* ---- the tools ---- */

static int run_limited(const char *const *argv, unsigned seconds, struct strbuf *out, struct strbuf *err)
{
	/* The tool's own limit first; this deadline catches a hang past it. */
	return spawn_check(argv, (int)(seconds + 5) * 1000, out, err);
}

static int ceph_call_within(const char *const *args, bool json, unsigned seconds, struct strbuf *out,
			    struct strbuf *err)
{
	char limit[16];
	snprintf(limit, sizeof(limit), "%d", CEPH_TIMEOUT_S);
	const char *argv[ARGS_MAX] = { "ceph", "--connect-timeout", limit };
	size_t n = 3;
	for (size_t i = 0; args[i] && n < ARGS_MAX - 3; i++)
		argv[n++] = args[i];
	if (json) {
		argv[n++] = "--format";
		argv[n++] = "json";
	}
	argv[n] = NULL;
	return run_limited(argv, seconds, out, err);
}

static int ceph_call(const char *const *args, bool json, struct strbuf *out, struct strbuf *err)
{
	return ceph_call_within(args, json, CEPH_TIMEOUT_S, out, err);
}

int ceph_json(const char *const *args, struct strbuf *out, struct strbuf *err)
{
	return ceph_call(args, true, out, err);
}

int ceph_json_within(const char *const *args, unsigned seconds, struct strbuf *out, struct strbuf *err)
{
	return ceph_call_within(args, true, seconds > CEPH_TIMEOUT_S ? seconds : CEPH_TIMEOUT_S, out, err);
}

bool ceph_conf_present(void)
{
	const char *conf = getenv("CEPH_CONF");
	return (conf && conf[0]) || access("/etc/ceph/ceph.conf", F_OK) == 0;
}

/* The value of CONF's "mon host" line (any spelling: spaces, _ or -), or NULL. */
static const char *mon_host_value(const char *conf, size_t *ret_len)
{
	for (const char *line = conf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line + strspn(line, " \t");
		size_t n = strcspn(p, "\n");
		if (n < 8 || strncasecmp(p, "mon", 3) != 0 || !strchr(" _-", p[3]) || strncasecmp(p + 4, "host", 4) != 0)
			continue;
		const char *v = p + 8 + strspn(p + 8, " \t");
		if (*v != '=')
			continue;
		v++;
		v += strspn(v, " \t");
		*ret_len = strcspn(v, "\n#;");
		return v;
	}
	return NULL;
}

/* One entry ("v2:IP:PORT", "IP:PORT", "IP") into A. 0 or -ENOENT. */
static int mon_entry(const char *e, size_t n, struct ceph_mon_addr *a)
{
	unsigned port = 6789;
	if (n > 3 && (!strncmp(e, "v2:", 3) || !strncmp(e, "v1:", 3))) {
		port = e[1] == '2' ? 3300 : 6789;
		e += 3;
		n -= 3;
	}
	size_t ip = strspn(e, "0123456789.");
	if (ip == 0 || ip > 15 || ip > n || (ip < n && e[ip] != ':'))
		return -ENOENT;
	if (ip < n) {
		char digits[8];
		size_t d = n - ip - 1;
		if (d == 0 || d >= sizeof(digits) || strspn(e + ip + 1, "0123456789") < d)
			return -ENOENT;
		snprintf(digits, sizeof(digits), "%.*s", (int)d, e + ip + 1);
		port = (unsigned)strtoul(digits, NULL, 10);
		if (port == 0 || port > 65535)
			return -ENOENT;
	}
	snprintf(a->ip, sizeof(a->ip), "%.*s", (int)ip, e);
	a->port = port;
	return 0;
}

int ceph_parse_mon_hosts(const char *conf, struct ceph_mon_addr *addrs, size_t max)
{
	size_t len = 0, count = 0;
	const char *v = mon_host_value(conf, &len);
	if (!v)
		return -ENOENT;
	for (size_t i = 0; i < len;) {
		i += strspn(v + i, " \t,[]");
		if (i >= len)
			break;
		size_t n = strcspn(v + i, " \t,[]");
		n = n > len - i ? len - i : n;
		struct ceph_mon_addr a;
		if (mon_entry(v + i, n, &a) < 0)
			return -ENOENT;
		if (count < max)
			addrs[count++] = a;
		i += n;
	}
	return count ? (int)count : -ENOENT;
}

bool ceph_mons_may_answer(int timeout_ms, char *why, size_t len)
{
	const char *path = getenv("CEPH_CONF");
	FILE *f = fopen(path && path[0] ? path : "/etc/ceph/ceph.conf", "re");
	if (!f)
		return true;
	struct strbuf conf = STRBUF_INIT;
	char chunk[4096];
	for (size_t n; (n = fread(chunk, 1, sizeof(chunk), f)) > 0 && conf.len < (1 << 20);)
		strbuf_add(&conf, chunk, n);
	fclose(f);
	struct ceph_mon_addr mons[8];
	int n = ceph_parse_mon_hosts(conf.buf ? conf.buf : "", mons, 8);
	strbuf_release(&conf);
	if (n <= 0)
		return true;
	struct strbuf tried = STRBUF_INIT;
	bool answers = false;
	for (int i = 0; i < n && i < 8 && !answers; i++) {
		uint64_t ns;
		char err[160];
		answers = tcp_connect_rtt(mons[i].ip, mons[i].port, 1, timeout_ms, &ns, err, sizeof(err)) == 0;
		strbuf_addf(&tried, "%s%s:%u (%s)", tried.len ? ", " : "", mons[i].ip, mons[i].port, err);
	}
	if (!answers)
		snprintf(why, len, "its monitors do not take a connection within %d ms: %s", timeout_ms, tried.buf);
	strbuf_release(&tried);
	return answers;
}

int ceph_rbd(const char *const *args, unsigned seconds, struct strbuf *out, struct strbuf *err)
{
	char limit[16];
	snprintf(limit, sizeof(limit), "%d", CEPH_TIMEOUT_S);
	const char *argv[ARGS_MAX] = { "rbd", "--client-mount-timeout", limit, "--rados-mon-op-timeout", limit,
				       "--rados-osd-op-timeout", limit };
	size_t n = 7;
	for (size_t i = 0; args[i] && n < ARGS_MAX - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_limited(argv, seconds ? seconds : CEPH_TIMEOUT_S, out, err);
}

void ceph_explain(int r, const char *err, char *buf, size_t len)
{
	if (r == -ENOENT)
		snprintf(buf, len, "the Ceph tools (ceph, rbd) are not installed: " CEPH_INSTALL_HINT);
	else if (r == -ETIMEDOUT || (err && (strstr(err, "timed out") || strstr(err, "Connection timed out"))))
		snprintf(buf, len, "the Ceph cluster does not answer within %d s (is it running? CEPH_CONF or "
				   "/etc/ceph/ceph.conf names it)", CEPH_TIMEOUT_S);
	else
		snprintf(buf, len, "%.*s", (int)strcspn(err ? err : "", "\n"), err ? err : "");
}

int ceph_pool_names(char (*names)[CEPH_NAME_MAX], size_t max, struct strbuf *err)
{
	const char *args[] = { "osd", "pool", "ls", NULL };
	struct strbuf out = STRBUF_INIT;
	int r = ceph_json(args, &out, err);
	if (r == 0) {
		r = ceph_parse_names(out.buf, names, max);
		if (r < 0)
			strbuf_adds(err, "cannot read ceph osd pool ls's output");
	}
	strbuf_release(&out);
	return r;
}

int ceph_fs_data_pool(char *buf, size_t len)
{
	const char *args[] = { "fs", "ls", NULL };
	struct strbuf out = STRBUF_INIT;
	int r = ceph_json(args, &out, NULL);
	if (r == 0)
		r = ceph_parse_fs_data_pool(out.buf, buf, len);
	strbuf_release(&out);
	return r;
}

/* One command's text under a "$ ceph ..." line. */
static void capture_text(const char *const *args, struct strbuf *text)
{
	strbuf_adds(text, "$ ceph");
	for (size_t i = 0; args[i]; i++)
		strbuf_addf(text, " %s", args[i]);
	strbuf_addch(text, '\n');
	struct strbuf err = STRBUF_INIT;
	int r = ceph_call(args, false, text, &err);
	if (r < 0) {
		char why[256];
		ceph_explain(r, err.buf, why, sizeof(why));
		strbuf_addf(text, "(%s)\n", why);
	}
	strbuf_release(&err);
}

void ceph_capture(const char *pool, struct strbuf *text, struct ceph_state *ret)
{
	*ret = (struct ceph_state){ .osds = -1, .osds_up = -1, .osds_in = -1,
				    .pool = { .size = -1, .min_size = -1, .pg_num = -1 } };
	const char *status[] = { "status", NULL };
	const char *health[] = { "health", "detail", NULL };
	const char *tree[] = { "osd", "tree", NULL };
	const char *df[] = { "osd", "df", NULL };
	const char *get[] = { "osd", "pool", "get", pool, "all", NULL };
	capture_text(status, text);
	capture_text(health, text);
	capture_text(tree, text);
	capture_text(df, text);
	if (pool && pool[0])
		capture_text(get, text);
	struct strbuf out = STRBUF_INIT;
	if (ceph_json(status, &out, NULL) == 0 && ceph_parse_status(out.buf, ret) == 0)
		ret->read = true;
	strbuf_reset(&out);
	if (ret->read && pool && pool[0] && ceph_json(get, &out, NULL) == 0)
		ceph_parse_pool_settings(out.buf, &ret->pool);
	strbuf_release(&out);
}
