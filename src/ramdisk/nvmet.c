/* ramdisk/nvmet.c: the RAM disks exported over NVMe/TCP through the
 * kernel's nvmet configfs tree, recorded before anything is made so that
 * a killed run's leftovers are known. See ramdisk.h. */
#include "ramdisk/ramdisk.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/parse.h"
#include "ramdisk/cfs.h"
#include "ramdisk/export_record.h"

int ramdisk_nvmet_parse_addr(const char *arg, char *addr, size_t addr_len, unsigned *port, char *why, size_t len)
{
	const char *colon = strchr(arg, ':');
	size_t alen = colon ? (size_t)(colon - arg) : strlen(arg);
	*port = RAMDISK_NVMET_TRSVCID;
	if (alen == 0 || alen >= addr_len || alen >= INET_ADDRSTRLEN) {
		snprintf(why, len, "invalid address '%s': expected an IPv4 ADDR or ADDR:PORT", arg);
		return -EINVAL;
	}
	memcpy(addr, arg, alen);
	addr[alen] = '\0';
	struct in_addr in;
	if (inet_pton(AF_INET, addr, &in) != 1) {
		snprintf(why, len, "invalid address '%s': expected an IPv4 ADDR or ADDR:PORT", arg);
		return -EINVAL;
	}
	if (colon) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || v < 1 || v > 65535) {
			snprintf(why, len, "invalid port in '%s': expected 1 to 65535", arg);
			return -EINVAL;
		}
		*port = (unsigned)v;
	}
	return 0;
}

int ramdisk_nvmet_check_local(const char *addr, char *why, size_t len)
{
	struct in_addr want;
	if (inet_pton(AF_INET, addr, &want) != 1) {
		snprintf(why, len, "invalid address '%s'", addr);
		return -EINVAL;
	}
	struct ifaddrs *ifs = NULL;
	if (getifaddrs(&ifs) < 0) {
		snprintf(why, len, "cannot list this host's addresses: %s", strerror(errno));
		return -errno;
	}
	bool found = false;
	for (struct ifaddrs *i = ifs; i && !found; i = i->ifa_next)
		found = i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr == want.s_addr;
	freeifaddrs(ifs);
	if (!found) {
		snprintf(why, len, "address '%s' is not one of this host's: the target can listen only on a local "
			 "address (ip -4 addr lists them)", addr);
		return -EADDRNOTAVAIL;
	}
	return 0;
}

void ramdisk_nvmet_names(const char *id, struct ramdisk_export *e)
{
	snprintf(e->nqn, sizeof(e->nqn), RAMDISK_NVMET_NQN_PREFIX "%s", id);
	snprintf(e->serial, sizeof(e->serial), "iotriage%.12s", id);
}

bool ramdisk_nvmet_nqn_ours(const char *name)
{
	return strncmp(name, RAMDISK_NVMET_NQN_PREFIX, strlen(RAMDISK_NVMET_NQN_PREFIX)) == 0;
}

bool ramdisk_nvmet_port_ours(unsigned id)
{
	return id >= RAMDISK_NVMET_PORT_BASE && id < RAMDISK_NVMET_PORT_BASE + RAMDISK_NVMET_PORT_SPAN;
}

static const struct keyrecord_field nvmet_fields[] = {
	KEYRECORD_FIELD(struct ramdisk_export, nqn, KEYRECORD_STR),
	KEYRECORD_FIELD(struct ramdisk_export, serial, KEYRECORD_STR),
	KEYRECORD_FIELD(struct ramdisk_export, port_id, KEYRECORD_UINT),
	KEYRECORD_FIELD(struct ramdisk_export, traddr, KEYRECORD_STR),
	KEYRECORD_FIELD(struct ramdisk_export, trsvcid, KEYRECORD_UINT),
	KEYRECORD_FIELD(struct ramdisk_export, host_nqn, KEYRECORD_STR),
	KEYRECORD_FIELD(struct ramdisk_export, allow_any_host, KEYRECORD_BOOL),
	KEYRECORD_FIELD(struct ramdisk_export, host_made, KEYRECORD_BOOL),
	KEYRECORD_FIELD(struct ramdisk_export, pid, KEYRECORD_LONG),
	KEYRECORD_FIELD(struct ramdisk_export, complete, KEYRECORD_BOOL),
};

static struct export_record nvmet_record(const struct ramdisk_export *e)
{
	struct ramdisk_export *m = (struct ramdisk_export *)e; /* written only by parse */
	return (struct export_record){ .fields = nvmet_fields,
				       .nfields = sizeof(nvmet_fields) / sizeof(nvmet_fields[0]),
				       .obj = m,
				       .ndevices = &m->n,
				       .devices = m->devices };
}

void ramdisk_export_format(const struct ramdisk_export *e, char *buf, size_t len)
{
	struct export_record rec = nvmet_record(e);
	export_record_format(&rec, buf, len);
}

int ramdisk_export_parse(const char *text, struct ramdisk_export *e)
{
	memset(e, 0, sizeof(*e));
	struct export_record rec = nvmet_record(e);
	if (export_record_parse(text, &rec) < 0)
		return -EINVAL;
	return ramdisk_nvmet_nqn_ours(e->nqn) && !strchr(e->nqn, '/') && ramdisk_nvmet_port_ours(e->port_id)
		       ? 0
		       : -EINVAL;
}

int ramdisk_export_load(const char *state, struct ramdisk_export *e)
{
	char text[8192];
	int r = export_record_read(state, RAMDISK_EXPORT_FILE, text, sizeof(text));
	return r < 0 ? r : ramdisk_export_parse(text, e);
}

static int record_save(const char *state, const struct ramdisk_export *e)
{
	struct export_record rec = nvmet_record(e);
	return export_record_write(state, RAMDISK_EXPORT_FILE, &rec);
}

static int port_remove(const char *root, unsigned port_id)
{
	char dir[PATH_MAX], subs[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/ports/%u", root, port_id);
	snprintf(subs, sizeof(subs), "%s/subsystems", dir);
	cfs_unlink_all(subs);
	return cfs_group_remove(root, dir);
}

static int subsystem_remove(const char *root, const char *nqn)
{
	char dir[PATH_MAX], sub[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/subsystems/%s", root, nqn);
	snprintf(sub, sizeof(sub), "%s/allowed_hosts", dir);
	cfs_unlink_all(sub);
	snprintf(sub, sizeof(sub), "%s/namespaces", dir);
	DIR *d = opendir(sub);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char ns[PATH_MAX + 256];
			snprintf(ns, sizeof(ns), "%s/%s", sub, de->d_name);
			cfs_attr_write(ns, "enable", "0");
			cfs_group_remove(root, ns);
		}
		closedir(d);
	}
	return cfs_group_remove(root, dir);
}

int ramdisk_nvmet_unexport(const char *root, const char *state, const struct ramdisk_export *e, char *why,
			   size_t len)
{
	int r = port_remove(root, e->port_id);
	if (r < 0) {
		snprintf(why, len, "cannot remove nvmet port %u: %s", e->port_id, strerror(-r));
		return r;
	}
	r = subsystem_remove(root, e->nqn);
	if (r < 0) {
		snprintf(why, len, "cannot remove nvmet subsystem '%s': %s", e->nqn, strerror(-r));
		return r;
	}
	if (e->host_made && e->host_nqn[0]) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s/hosts/%s", root, e->host_nqn);
		cfs_group_remove(root, dir);
	}
	return export_record_remove(state, RAMDISK_EXPORT_FILE, why, len);
}

/* The first port number in the tagged range with no directory. */
static int pick_port(const char *root, unsigned *ret)
{
	for (unsigned id = RAMDISK_NVMET_PORT_BASE; ramdisk_nvmet_port_ours(id); id++) {
		char dir[PATH_MAX];
		struct stat st;
		snprintf(dir, sizeof(dir), "%s/ports/%u", root, id);
		if (lstat(dir, &st) < 0 && errno == ENOENT) {
			*ret = id;
			return 0;
		}
	}
	return -EBUSY;
}

/* hosts/HOST_NQN (made when absent, recorded first) and the link to it. */
static int allow_host(const char *root, const char *state, struct ramdisk_export *e, const char *subsys_dir,
		      char *why, size_t len)
{
	char host[PATH_MAX], link[PATH_MAX + 300];
	snprintf(host, sizeof(host), "%s/hosts/%s", root, e->host_nqn);
	struct stat st;
	int r = 0;
	if (stat(host, &st) < 0) {
		e->host_made = true;
		r = record_save(state, e);
		if (r == 0)
			r = cfs_group_make(root, host);
	}
	snprintf(link, sizeof(link), "%s/allowed_hosts/%s", subsys_dir, e->host_nqn);
	if (r == 0 && cfs_emulated(root))
		r = mkdir_parents(link, 0755);
	if (r == 0 && symlink(host, link) < 0)
		r = -errno;
	if (r < 0)
		snprintf(why, len, "cannot allow host '%s' on subsystem '%s': %s", e->host_nqn, e->nqn, strerror(-r));
	return r;
}

/* The subsystem: its attributes, the allowed host, one namespace per device. */
static int make_subsystem(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/subsystems/%s", root, e->nqn);
	int r = cfs_group_make(root, dir);
	if (r < 0) {
		snprintf(why, len, "cannot make nvmet subsystem '%s': %s", e->nqn, strerror(-r));
		return r;
	}
	r = cfs_attr_write(dir, "attr_serial", e->serial);
	if (r == 0)
		r = cfs_attr_write(dir, "attr_allow_any_host", e->allow_any_host ? "1" : "0");
	if (r < 0) {
		snprintf(why, len, "cannot set the attributes of subsystem '%s': %s", e->nqn, strerror(-r));
		return r;
	}
	if (!e->allow_any_host && (r = allow_host(root, state, e, dir, why, len)) < 0)
		return r;
	for (size_t i = 0; i < e->n; i++) {
		char ns[PATH_MAX + 32];
		snprintf(ns, sizeof(ns), "%s/namespaces/%zu", dir, i + 1);
		r = cfs_group_make(root, ns);
		if (r == 0)
			r = cfs_attr_write(ns, "device_path", e->devices[i]);
		if (r == 0)
			r = cfs_attr_write(ns, "enable", "1");
		if (r < 0) {
			snprintf(why, len, "cannot export '%s' as namespace %zu: %s", e->devices[i], i + 1, strerror(-r));
			return r;
		}
	}
	return 0;
}

/* The port, and the link that makes it listen (where a taken TCP port fails). */
static int make_port(const char *root, const struct ramdisk_export *e, char *why, size_t len)
{
	char dir[PATH_MAX], v[16], target[PATH_MAX], link[PATH_MAX + 300];
	snprintf(dir, sizeof(dir), "%s/ports/%u", root, e->port_id);
	snprintf(v, sizeof(v), "%u", e->trsvcid);
	int r = cfs_group_make(root, dir);
	if (r == 0)
		r = cfs_attr_write(dir, "addr_trtype", "tcp");
	if (r == 0)
		r = cfs_attr_write(dir, "addr_adrfam", "ipv4");
	if (r == 0)
		r = cfs_attr_write(dir, "addr_traddr", e->traddr);
	if (r == 0)
		r = cfs_attr_write(dir, "addr_trsvcid", v);
	if (r < 0) {
		snprintf(why, len, "cannot make nvmet port %u: %s", e->port_id, strerror(-r));
		return r;
	}
	snprintf(target, sizeof(target), "%s/subsystems/%s", root, e->nqn);
	snprintf(link, sizeof(link), "%s/subsystems/%s", dir, e->nqn);
	if (cfs_emulated(root))
		mkdir_parents(link, 0755);
	if (symlink(target, link) < 0) {
		r = -errno;
		if (r == -EADDRINUSE)
			snprintf(why, len, "cannot listen on %s:%u: the TCP port is in use", e->traddr, e->trsvcid);
		else
			snprintf(why, len, "cannot listen on %s:%u (nvmet port %u): %s", e->traddr, e->trsvcid,
				 e->port_id, strerror(-r));
		return r;
	}
	return 0;
}

int ramdisk_nvmet_export(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len)
{
	struct stat st;
	if (stat(root, &st) < 0) {
		snprintf(why, len, "no nvmet configfs tree at '%s' (modules nvmet and nvmet_tcp, configfs mounted)", root);
		return -ENODEV;
	}
	int r = pick_port(root, &e->port_id);
	if (r < 0) {
		snprintf(why, len, "every nvmet port number iotriage uses (%u to %u) is taken", RAMDISK_NVMET_PORT_BASE,
			 RAMDISK_NVMET_PORT_BASE + RAMDISK_NVMET_PORT_SPAN - 1);
		return r;
	}
	e->pid = (long)getpid();
	e->complete = false;
	e->host_made = false;
	r = record_save(state, e);
	if (r < 0) {
		snprintf(why, len, "cannot write the export record in '%s': %s", state, strerror(-r));
		return r;
	}
	r = make_subsystem(root, state, e, why, len);
	if (r == 0)
		r = make_port(root, e, why, len);
	if (r == 0) {
		e->complete = true;
		r = record_save(state, e);
		if (r < 0)
			snprintf(why, len, "cannot write the export record in '%s': %s", state, strerror(-r));
	}
	if (r < 0) {
		char ignored[256];
		ramdisk_nvmet_unexport(root, state, e, ignored, sizeof(ignored));
	}
	return r;
}

/* Removes every tagged subsystem and port under ROOT; counts them in *N. */
static int reap_tagged(const char *root, size_t *n, char *why, size_t len)
{
	char dir[PATH_MAX];
	int r = 0;
	snprintf(dir, sizeof(dir), "%s/ports", root);
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char *end;
		unsigned long id = strtoul(de->d_name, &end, 10);
		if (de->d_name[0] == '.' || *end || !ramdisk_nvmet_port_ours((unsigned)id))
			continue;
		int k = port_remove(root, (unsigned)id);
		if (k < 0 && r == 0)
			snprintf(why, len, "cannot remove nvmet port %lu: %s", id, strerror(-(r = k)));
		*n += k == 0;
	}
	if (d)
		closedir(d);
	snprintf(dir, sizeof(dir), "%s/subsystems", root);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (!ramdisk_nvmet_nqn_ours(de->d_name))
			continue;
		int k = subsystem_remove(root, de->d_name);
		if (k < 0 && r == 0)
			snprintf(why, len, "cannot remove nvmet subsystem '%s': %s", de->d_name, strerror(-(r = k)));
		*n += k == 0;
	}
	if (d)
		closedir(d);
	return r;
}

int ramdisk_nvmet_reap(const char *root, const char *state, char *why, size_t len)
{
	struct ramdisk_export e;
	int r = ramdisk_export_load(state, &e);
	bool have = r == 0;
	if (have && e.complete)
		return 0; /* a live export: nothing is a leftover */
	if (have && e.pid > 0 && e.pid != (long)getpid() && (kill((pid_t)e.pid, 0) == 0 || errno == EPERM))
		return 0; /* still being made */
	struct stat st;
	if (stat(root, &st) < 0 && !have)
		return 0;
	size_t n = 0;
	if (have) {
		r = ramdisk_nvmet_unexport(root, state, &e, why, len);
		if (r < 0)
			return r;
		n++;
	}
	r = reap_tagged(root, &n, why, len);
	if (r < 0)
		return r;
	if (n)
		snprintf(why, len, "removed the NVMe/TCP export an earlier run left half-made (%zu nvmet object(s))", n);
	return n > 0;
}
