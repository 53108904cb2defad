/* pool/ceph.h: a Ceph cluster as its tools see it (ceph, rbd).
 *
 * Every call has a time limit: `ceph --connect-timeout`, the rados client
 * timeouts on rbd, and basic/spawn's deadline over both, so a cluster that
 * does not answer is a clear error, never a hang. The cluster is the one the
 * tools find themselves: CEPH_CONF, else /etc/ceph/ceph.conf (basic/spawn
 * passes CEPH_CONF on).
 *
 * The parsers read the tools' `--format json` (basic/jsonread) and are pure,
 * tested on output captured from the test cluster (tests/data/ceph_*). */
#ifndef IOTRIAGE_POOL_CEPH_H
#define IOTRIAGE_POOL_CEPH_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"

/* Seconds the cluster has to answer each call. */
#define CEPH_TIMEOUT_S 10
#define CEPH_NAME_MAX 128
#define CEPH_INSTALL_HINT "install ceph-common (Debian: apt-get install ceph-common)"

struct ceph_pool_settings {
	char pool[CEPH_NAME_MAX];
	int size, min_size, pg_num;   /* -1 when not reported */
	char crush_rule[CEPH_NAME_MAX];
};

/* What the results file keeps of the cluster beside the tools' text. */
struct ceph_state {
	bool read;                    /* the cluster answered */
	char health[32];              /* HEALTH_OK, HEALTH_WARN, HEALTH_ERR */
	int osds, osds_up, osds_in;
	struct ceph_pool_settings pool;
};

/* A pool or image name Ceph takes and iotriage passes on: letters, digits,
 * '.', '_', '-', not starting with '-' or '.', at most 127 bytes. */
bool ceph_valid_name(const char *name);

/* ---- parsers (pure) ---- */

struct jv; /* basic/jsonread.h */
/* JSON text parsed (basic/jsonread), or NULL for NULL, malformed or cut
 * text; free with jv_free. The one entry of every Ceph parser. */
struct jv *ceph_parse_json(const char *json);

/* A JSON array of strings (`ceph osd pool ls`, `rbd ls`): up to MAX names
 * into NAMES. Returns the count, or -EINVAL when JSON is not such an array. */
int ceph_parse_names(const char *json, char (*names)[CEPH_NAME_MAX], size_t max);
/* `ceph osd pool get POOL all`. Returns 0 or -EINVAL. */
int ceph_parse_pool_settings(const char *json, struct ceph_pool_settings *ret);
/* `ceph status`: health and OSD counts into RET (pool untouched). Returns 0 or -EINVAL. */
int ceph_parse_status(const char *json, struct ceph_state *ret);
/* `ceph fs ls`: the first data pool of the first file system. Returns 0 or -ENOENT. */
int ceph_parse_fs_data_pool(const char *json, char *buf, size_t len);

/* ---- the tools ---- */

/* `ceph ARGS... --format json` with the time limit; stdout in OUT. Returns 0,
 * -ENOENT (not installed), -ETIMEDOUT (no answer) or -EIO, with a one-line
 * reason in ERR. */
int ceph_json(const char *const *args, struct strbuf *out, struct strbuf *err);
/* The same for a call that takes longer (an OSD's bench): SECONDS for the
 * answer (never under CEPH_TIMEOUT_S); the monitor still has CEPH_TIMEOUT_S
 * to be reached. */
int ceph_json_within(const char *const *args, unsigned seconds, struct strbuf *out, struct strbuf *err);
/* Whether a Ceph configuration is there to find a cluster by: CEPH_CONF,
 * else /etc/ceph/ceph.conf. */
bool ceph_conf_present(void);

/* A monitor's address from a configuration's "mon host" (mon_host). */
struct ceph_mon_addr {
	char ip[16];     /* IPv4, dotted quad */
	unsigned port;   /* as given; else 3300 (msgr2) for a v2: entry, 6789 otherwise */
};
/* The IPv4 monitor addresses of the "mon host" line of CONF (a ceph.conf's
 * text), up to MAX into ADDRS: entries separated by commas or spaces, each
 * "v2:IP:PORT", "v1:IP:PORT", "[v2:IP:PORT,v1:IP:PORT]", "IP:PORT" or "IP".
 * Returns how many, or -ENOENT when the line is missing or names its
 * monitors otherwise (by host name, IPv6, DNS SRV): they cannot be checked
 * here. Pure (tests/unit/test_ceph.c, fuzz_ceph). */
int ceph_parse_mon_hosts(const char *conf, struct ceph_mon_addr *addrs, size_t max);
/* Whether the configured cluster's monitors (CEPH_CONF, else
 * /etc/ceph/ceph.conf) may answer: false only when every monitor address
 * of its "mon host" refuses or does not take a TCP connection within
 * TIMEOUT_MS (WHY then names them); true when one does, or when the
 * addresses cannot be checked (the ceph tools then say, within their own
 * limit). A quick look before asking ceph about a name that may well be
 * no Ceph pool at all. */
bool ceph_mons_may_answer(int timeout_ms, char *why, size_t len);
/* `rbd ARGS...` with the time limit (SECONDS; 0 for CEPH_TIMEOUT_S). */
int ceph_rbd(const char *const *args, unsigned seconds, struct strbuf *out, struct strbuf *err);
/* A sentence for R from ceph_json or ceph_rbd: not installed (what to
 * install), no answer within the limit, or the tool's message in ERR. */
void ceph_explain(int r, const char *err, char *buf, size_t len);

/* The cluster's pools. Returns the count or -errno (reason in ERR). */
int ceph_pool_names(char (*names)[CEPH_NAME_MAX], size_t max, struct strbuf *err);
/* The data pool of the cluster's CephFS. Returns 0 or -errno. */
int ceph_fs_data_pool(char *buf, size_t len);

/* The cluster's state for the results file: `ceph status`, `ceph health
 * detail`, `ceph osd tree`, `ceph osd df` and `ceph osd pool get POOL all`
 * as the tools print them into TEXT, and what their JSON says into RET. */
void ceph_capture(const char *pool, struct strbuf *text, struct ceph_state *ret);

#endif
