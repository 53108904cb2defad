/* ramdisk/nvmet.c: the transport table's NVMe/TCP row: the RAM disks
 * exported through the kernel's nvmet configfs tree, recorded before
 * anything is made so that a killed run's leftovers are known, and the
 * client's connection through /dev/nvme-fabrics. See ramdisk/nvmet.h. */
#include "ramdisk/nvmet.h"

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
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "ramdisk/cfs.h"

void ramdisk_nvmet_names(const char *id, struct ramdisk_export *e)
{
	e->transport = &ramdisk_transport_nvmet;
	snprintf(e->name, sizeof(e->name), RAMDISK_NVMET_NQN_PREFIX "%s", id);
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

/* The record's keys, as they have always been written. */
#define NVMET_FIELD(key, member, kind) \
	{ key, kind, offsetof(struct ramdisk_export, member), sizeof(((struct ramdisk_export *)0)->member) }
static const struct keyrecord_field nvmet_fields[] = {
	NVMET_FIELD("nqn", name, KEYRECORD_STR),
	NVMET_FIELD("serial", serial, KEYRECORD_STR),
	NVMET_FIELD("port_id", port_id, KEYRECORD_UINT),
	NVMET_FIELD("traddr", traddr, KEYRECORD_STR),
	NVMET_FIELD("trsvcid", port, KEYRECORD_UINT),
	NVMET_FIELD("host_nqn", client, KEYRECORD_STR),
	NVMET_FIELD("allow_any_host", allow_any_host, KEYRECORD_BOOL),
	NVMET_FIELD("host_made", client_made, KEYRECORD_BOOL),
	NVMET_FIELD("pid", pid, KEYRECORD_LONG),
	NVMET_FIELD("complete", complete, KEYRECORD_BOOL),
};

static bool record_ok(const struct ramdisk_export *e)
{
	return ramdisk_nvmet_nqn_ours(e->name) && !strchr(e->name, '/') && ramdisk_nvmet_port_ours(e->port_id);
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
	r = subsystem_remove(root, e->name);
	if (r < 0) {
		snprintf(why, len, "cannot remove nvmet subsystem '%s': %s", e->name, strerror(-r));
		return r;
	}
	if (e->client_made && e->client[0]) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s/hosts/%s", root, e->client);
		cfs_group_remove(root, dir);
	}
	return ramdisk_export_remove_record(state, &ramdisk_transport_nvmet, why, len);
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
	snprintf(host, sizeof(host), "%s/hosts/%s", root, e->client);
	struct stat st;
	int r = 0;
	if (stat(host, &st) < 0) {
		e->client_made = true;
		r = ramdisk_export_save(state, e);
		if (r == 0)
			r = cfs_group_make(root, host);
	}
	snprintf(link, sizeof(link), "%s/allowed_hosts/%s", subsys_dir, e->client);
	if (r == 0 && cfs_emulated(root))
		r = mkdir_parents(link, 0755);
	if (r == 0 && symlink(host, link) < 0)
		r = -errno;
	if (r < 0)
		snprintf(why, len, "cannot allow host '%s' on subsystem '%s': %s", e->client, e->name, strerror(-r));
	return r;
}

/* The subsystem: its attributes, the allowed host, one namespace per device. */
static int make_subsystem(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/subsystems/%s", root, e->name);
	int r = cfs_group_make(root, dir);
	if (r < 0) {
		snprintf(why, len, "cannot make nvmet subsystem '%s': %s", e->name, strerror(-r));
		return r;
	}
	r = cfs_attr_write(dir, "attr_serial", e->serial);
	if (r == 0)
		r = cfs_attr_write(dir, "attr_allow_any_host", e->allow_any_host ? "1" : "0");
	if (r < 0) {
		snprintf(why, len, "cannot set the attributes of subsystem '%s': %s", e->name, strerror(-r));
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
	snprintf(v, sizeof(v), "%u", e->port);
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
	snprintf(target, sizeof(target), "%s/subsystems/%s", root, e->name);
	snprintf(link, sizeof(link), "%s/subsystems/%s", dir, e->name);
	if (cfs_emulated(root))
		mkdir_parents(link, 0755);
	if (symlink(target, link) < 0) {
		r = -errno;
		if (r == -EADDRINUSE)
			snprintf(why, len, "cannot listen on %s:%u: the TCP port is in use", e->traddr, e->port);
		else
			snprintf(why, len, "cannot listen on %s:%u (nvmet port %u): %s", e->traddr, e->port,
				 e->port_id, strerror(-r));
		return r;
	}
	return 0;
}

int ramdisk_nvmet_export(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len)
{
	e->transport = &ramdisk_transport_nvmet;
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
	e->client_made = false;
	r = ramdisk_export_save(state, e);
	if (r < 0) {
		snprintf(why, len, "cannot write the export record in '%s': %s", state, strerror(-r));
		return r;
	}
	r = make_subsystem(root, state, e, why, len);
	if (r == 0)
		r = make_port(root, e, why, len);
	if (r == 0) {
		e->complete = true;
		r = ramdisk_export_save(state, e);
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
	int r = ramdisk_export_load(&ramdisk_transport_nvmet, state, &e);
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

/* nvmet and nvmet_tcp loaded, configfs mounted: 0 or -errno with WHY. */
static int nvmet_ready(char *why, size_t len)
{
	struct stat st;
	if (stat(RAMDISK_NVMET_ROOT, &st) == 0)
		return 0;
	const char *const mods[] = { "nvmet", "nvmet_tcp" };
	for (size_t i = 0; i < 2; i++) {
		int r = ramdisk_modprobe(mods[i], NULL, why, len);
		if (r < 0)
			return r;
	}
	if (stat(RAMDISK_NVMET_ROOT, &st) < 0 && mount("configfs", "/sys/kernel/config", "configfs", 0, NULL) < 0 &&
	    errno != EBUSY) {
		snprintf(why, len, "configfs is not mounted on /sys/kernel/config and cannot be: %s", strerror(errno));
		return -ENODEV;
	}
	if (stat(RAMDISK_NVMET_ROOT, &st) < 0) {
		snprintf(why, len, "no nvmet configfs tree at '%s' after loading nvmet", RAMDISK_NVMET_ROOT);
		return -ENODEV;
	}
	return 0;
}

static void nvmet_detail(const struct ramdisk_export *e, char *buf, size_t len)
{
	snprintf(buf, len, "nvmet port %u", e->port_id);
}

/* --- the client: /dev/nvme-fabrics (fabrics.c) --- */

static int client_ready(char *why, size_t len)
{
	return access("/dev/nvme-fabrics", F_OK) < 0 ? ramdisk_modprobe("nvme_tcp", NULL, why, len) : 0;
}

/* Deletes every controller of NQN (the one we made, and any a killed run left). */
static void disconnect_all(const char *addr, unsigned port, const char *nqn)
{
	(void)addr;
	(void)port;
	char names[8][32], why[200];
	size_t n = ramdisk_fabrics_controllers("/sys", nqn, names, 8);
	for (size_t i = 0; i < n && i < 8; i++) {
		if (ramdisk_fabrics_disconnect("/sys", names[i], why, sizeof(why)) < 0)
			log_msg(LOG_ERR, "RAMDISK: %s", why);
		else
			log_msg(LOG_INFO, "RAMDISK: disconnected %s ('%s')", names[i], nqn);
	}
}

/* Connects, then finds namespace 1's block device by the subsystem's NQN. */
static int connect_find(const char *addr, unsigned port, const char *nqn, const char *hostnqn, char *kname,
			size_t kname_len, char *why, size_t len)
{
	char ctrl[32];
	int r = ramdisk_fabrics_connect("/dev/nvme-fabrics", addr, port, nqn, hostnqn, ctrl, sizeof(ctrl), why, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "RAMDISK: connected %s to '%s' at %s:%u", ctrl, nqn, addr, port);
	r = ramdisk_fabrics_find("/sys", nqn, 1, 10000, kname, kname_len);
	if (r < 0)
		snprintf(why, len, "no block device for namespace 1 of '%s' appeared within 10 s", nqn);
	return r;
}

static const struct export_transport_words nvmet_words = {
	.title = "NVMe/TCP",
	.qualifier = "",
	.export_help = "export over NVMe/TCP on this host's IPv4 ADDR (port 4420 by default)",
	.client_option = "host-nqn",
	.client_arg = "NQN",
	.client_help = "the client allowed to connect (its /etc/nvme/hostnqn)",
	.client_hint = "--host-nqn NQN (its /etc/nvme/hostnqn)",
	.client_word = "host",
	.client_as_help = "connect as this host NQN (default: the kernel's)",
	.target_option = "nqn",
	.target_arg = "NQN",
	.target_help = "the subsystem iotriage exported (ramdisk list shows it)",
	.remote_help = "the server's export",
	.unit_word = "namespace",
	.unit_base = 1,
	.name_key = "nqn",
	.port_key = "trsvcid",
	.client_key = "host_nqn",
	.units_key = "namespaces",
	.unit_key = "nsid",
	.local_id_key = "nvmet_port",
};

const struct export_transport ramdisk_transport_nvmet = {
	.name = "nvme-tcp",
	.root = RAMDISK_NVMET_ROOT,
	.record_file = RAMDISK_NVMET_FILE,
	.default_port = RAMDISK_NVMET_TRSVCID,
	.words = &nvmet_words,
	.fields = nvmet_fields,
	.nfields = sizeof(nvmet_fields) / sizeof(nvmet_fields[0]),
	.record_ok = record_ok,
	.ready = nvmet_ready,
	.names = ramdisk_nvmet_names,
	.make = ramdisk_nvmet_export,
	.unmake = ramdisk_nvmet_unexport,
	.reap = ramdisk_nvmet_reap,
	.detail = nvmet_detail,
	.name_ours = ramdisk_nvmet_nqn_ours,
	.name_prefix = RAMDISK_NVMET_NQN_PREFIX,
	.client_ready = client_ready,
	.detach = disconnect_all,
	.attach = connect_find,
};
