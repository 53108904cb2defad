/* ramdisk/lio.c: the RAM disks exported over iSCSI through LIO's configfs
 * tree, recorded before anything is made so that a killed run's leftovers
 * are known. See ramdisk/lio.h. */
#include "ramdisk/lio.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "ramdisk/cfs.h"

int ramdisk_lio_check_name(const char *name, char *why, size_t len)
{
	size_t n = strlen(name);
	bool ok = n > 4 && n <= 223 &&
		  (strncmp(name, "iqn.", 4) == 0 || strncmp(name, "eui.", 4) == 0 || strncmp(name, "naa.", 4) == 0);
	for (size_t i = 0; ok && i < n; i++)
		ok = (unsigned char)name[i] > ' ' && name[i] != '/' && (unsigned char)name[i] < 0x7f;
	if (!ok) {
		snprintf(why, len, "'%s' is not an iSCSI name: expected iqn.YYYY-MM.domain:name (or eui./naa.), "
			 "223 characters at most, no '/' or space", name);
		return -EINVAL;
	}
	return 0;
}

int ramdisk_lio_port_free(const char *addr, unsigned port, char *why, size_t len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		snprintf(why, len, "invalid address '%s'", addr);
		return -EINVAL;
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, len, "cannot make a TCP socket: %s", strerror(errno));
		return -errno;
	}
	int one = 1, r = 0;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)); /* as LIO's own listener */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		if (r == -EADDRINUSE)
			snprintf(why, len, "cannot listen on %s:%u: the TCP port is in use", addr, port);
		else
			snprintf(why, len, "cannot listen on %s:%u: %s", addr, port, strerror(-r));
	}
	close(fd);
	return r;
}

void ramdisk_lio_names(const char *id, struct ramdisk_export *e)
{
	e->transport = &ramdisk_transport_lio;
	snprintf(e->id, sizeof(e->id), "%s", id);
	snprintf(e->name, sizeof(e->name), RAMDISK_LIO_IQN_PREFIX "%s", id);
}

void ramdisk_lio_backstore(const struct ramdisk_export *e, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, RAMDISK_LIO_BACKSTORE_PREFIX "%s-%zu", e->id, i);
}

void ramdisk_lio_tpg_path(const char *root, const char *iqn, char *buf, size_t len)
{
	snprintf(buf, len, "%s/iscsi/%s/tpgt_1", root, iqn);
}

void ramdisk_lio_portal_path(const char *root, const struct ramdisk_export *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s/iscsi/%s/tpgt_1/np/%s:%u", root, e->name, e->traddr, e->port);
}

bool ramdisk_lio_iqn_ours(const char *name)
{
	return strncmp(name, RAMDISK_LIO_IQN_PREFIX, strlen(RAMDISK_LIO_IQN_PREFIX)) == 0;
}

/* The record's keys, as they have always been written. */
#define LIO_FIELD(key, member, kind) \
	{ key, kind, offsetof(struct ramdisk_export, member), sizeof(((struct ramdisk_export *)0)->member) }
static const struct keyrecord_field lio_fields[] = {
	LIO_FIELD("id", id, KEYRECORD_STR),
	LIO_FIELD("iqn", name, KEYRECORD_STR),
	LIO_FIELD("traddr", traddr, KEYRECORD_STR),
	LIO_FIELD("port", port, KEYRECORD_UINT),
	LIO_FIELD("initiator", client, KEYRECORD_STR),
	LIO_FIELD("allow_any_host", allow_any_host, KEYRECORD_BOOL),
	LIO_FIELD("pid", pid, KEYRECORD_LONG),
	LIO_FIELD("complete", complete, KEYRECORD_BOOL),
};

/* The names the record gives are used as paths: only our own. */
static bool record_ok(const struct ramdisk_export *e)
{
	char want[sizeof(e->name)];
	snprintf(want, sizeof(want), RAMDISK_LIO_IQN_PREFIX "%s", e->id);
	return e->id[0] && !strchr(e->id, '/') && strcmp(want, e->name) == 0 && !strchr(e->client, '/');
}

/* Calls FN(root, DIR/entry) for each entry of DIR not starting with '.'. */
static void each_entry(const char *root, const char *dir, void (*fn)(const char *, const char *))
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[PATH_MAX + 256];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fn(root, path);
	}
	closedir(d);
}

/* A LUN group (tpgt_1/lun/lun_N, or an ACL's mapped acls/X/lun_N): its
 * links first, then the group. */
static void lun_remove(const char *root, const char *lun)
{
	cfs_unlink_all(lun);
	cfs_group_remove(root, lun);
}

static void acl_remove(const char *root, const char *acl)
{
	each_entry(root, acl, lun_remove);
	cfs_group_remove(root, acl);
}

static void portal_remove(const char *root, const char *np)
{
	cfs_group_remove(root, np);
}

/* The target IQN and everything under its TPG. */
static int target_remove(const char *root, const char *iqn)
{
	char tpg[PATH_MAX], sub[PATH_MAX + 16];
	ramdisk_lio_tpg_path(root, iqn, tpg, sizeof(tpg));
	struct stat st;
	if (stat(tpg, &st) == 0) {
		cfs_attr_write(tpg, "enable", "0");
		snprintf(sub, sizeof(sub), "%s/np", tpg);
		each_entry(root, sub, portal_remove);
		snprintf(sub, sizeof(sub), "%s/acls", tpg);
		each_entry(root, sub, acl_remove);
		snprintf(sub, sizeof(sub), "%s/lun", tpg);
		each_entry(root, sub, lun_remove);
	}
	int r = cfs_group_remove(root, tpg);
	snprintf(tpg, sizeof(tpg), "%s/iscsi/%s", root, iqn);
	int k = cfs_group_remove(root, tpg);
	return r < 0 ? r : k;
}

/* The backstores under the tagged HBA whose names start with PREFIX, then
 * the HBA when it is empty. Counts them in *N. */
static int backstores_remove(const char *root, const char *prefix, size_t *n)
{
	char hba[PATH_MAX];
	snprintf(hba, sizeof(hba), "%s/core/" RAMDISK_LIO_HBA, root);
	DIR *d = opendir(hba);
	int r = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		char path[PATH_MAX + 256];
		snprintf(path, sizeof(path), "%s/%s", hba, de->d_name);
		int k = cfs_group_remove(root, path);
		if (k < 0 && r == 0)
			r = k;
		*n += k == 0;
	}
	if (d)
		closedir(d);
	rmdir(hba); /* fails while another run's backstore is there: fine */
	return r;
}

int ramdisk_lio_unexport(const char *root, const char *state, const struct ramdisk_export *e, char *why,
			 size_t len)
{
	int r = target_remove(root, e->name);
	if (r < 0) {
		snprintf(why, len, "cannot remove the iSCSI target '%s': %s", e->name, strerror(-r));
		return r;
	}
	char prefix[128];
	size_t n = 0;
	snprintf(prefix, sizeof(prefix), RAMDISK_LIO_BACKSTORE_PREFIX "%s-", e->id);
	r = backstores_remove(root, prefix, &n);
	if (r < 0) {
		snprintf(why, len, "cannot remove the LIO backstores '%s*': %s", prefix, strerror(-r));
		return r;
	}
	return ramdisk_export_remove_record(state, &ramdisk_transport_lio, why, len);
}

/* An iblock backstore per RAM disk under the tagged HBA (made when absent;
 * the unexport removes it once it is empty). */
static int make_backstores(const char *root, const struct ramdisk_export *e, char *why, size_t len)
{
	char hba[PATH_MAX];
	snprintf(hba, sizeof(hba), "%s/core/" RAMDISK_LIO_HBA, root);
	int h = cfs_group_make(root, hba);
	if (h < 0 && h != -EEXIST) {
		snprintf(why, len, "cannot make the LIO HBA '%s': %s", hba, strerror(-h));
		return h;
	}
	for (size_t i = 0; i < e->n; i++) {
		char name[128], dir[PATH_MAX], control[128];
		ramdisk_lio_backstore(e, i, name, sizeof(name));
		snprintf(dir, sizeof(dir), "%s/core/" RAMDISK_LIO_HBA "/%s", root, name);
		snprintf(control, sizeof(control), "udev_path=%s", e->devices[i]);
		int r = cfs_group_make(root, dir);
		if (r == 0)
			r = cfs_attr_write(dir, "control", control);
		if (r == 0)
			r = cfs_attr_write(dir, "enable", "1");
		if (r < 0) {
			snprintf(why, len, "cannot make the LIO backstore '%s' for '%s': %s", name, e->devices[i],
				 strerror(-r));
			return r;
		}
	}
	return 0;
}

static int link_in(const char *root, const char *target, const char *dir, const char *name)
{
	char link[PATH_MAX + 256];
	snprintf(link, sizeof(link), "%s/%s", dir, name);
	if (cfs_emulated(root))
		mkdir_p(dir, 0755);
	return symlink(target, link) < 0 ? -errno : 0;
}

/* LUN i of the TPG linked to backstore i; with one initiator, its ACL
 * maps each LUN. */
static int make_luns(const char *root, const char *tpg, const struct ramdisk_export *e, char *why, size_t len)
{
	char acl[PATH_MAX + 256];
	snprintf(acl, sizeof(acl), "%s/acls/%s", tpg, e->client);
	int r = e->allow_any_host ? 0 : cfs_group_make(root, acl);
	for (size_t i = 0; i < e->n && r == 0; i++) {
		char name[128], store[PATH_MAX], lun[PATH_MAX + 32], mapped[PATH_MAX + 300], lname[32];
		ramdisk_lio_backstore(e, i, name, sizeof(name));
		snprintf(store, sizeof(store), "%s/core/" RAMDISK_LIO_HBA "/%s", root, name);
		snprintf(lname, sizeof(lname), "lun_%zu", i);
		snprintf(lun, sizeof(lun), "%s/lun/%s", tpg, lname);
		r = cfs_group_make(root, lun);
		if (r == 0)
			r = link_in(root, store, lun, name);
		if (r == 0 && !e->allow_any_host) {
			snprintf(mapped, sizeof(mapped), "%s/%s", acl, lname);
			r = cfs_group_make(root, mapped);
			if (r == 0)
				r = link_in(root, lun, mapped, lname);
		}
		if (r < 0)
			snprintf(why, len, "cannot make LUN %zu of '%s' for '%s': %s", i, e->name, e->devices[i],
				 strerror(-r));
	}
	if (r < 0 && !why[0])
		snprintf(why, len, "cannot allow initiator '%s' on '%s': %s", e->client, e->name, strerror(-r));
	return r;
}

/* Who may log in: one initiator's ACL (made with the LUNs), or any
 * initiator (generate_node_acls); no CHAP either way (a test export). */
static int set_access(const char *tpg, const struct ramdisk_export *e, char *why, size_t len)
{
	char attrib[PATH_MAX + 16];
	snprintf(attrib, sizeof(attrib), "%s/attrib", tpg);
	int r = cfs_attr_write(attrib, "authentication", "0");
	if (r == 0 && e->allow_any_host) {
		r = cfs_attr_write(attrib, "generate_node_acls", "1");
		if (r == 0)
			r = cfs_attr_write(attrib, "demo_mode_write_protect", "0");
		if (r == 0)
			r = cfs_attr_write(attrib, "cache_dynamic_acls", "1");
	}
	if (r < 0)
		snprintf(why, len, "cannot set the access attributes of '%s': %s", e->name, strerror(-r));
	return r;
}

/* The target, its TPG with LUNs and access, enabled; the portal last. */
static int make_target(const char *root, const struct ramdisk_export *e, char *why, size_t len)
{
	char tpg[PATH_MAX], np[PATH_MAX];
	ramdisk_lio_tpg_path(root, e->name, tpg, sizeof(tpg));
	snprintf(np, sizeof(np), "%s/iscsi/%s", root, e->name);
	int r = cfs_group_make(root, np); /* the target, then its TPG: configfs makes one level at a time */
	if (r == 0)
		r = cfs_group_make(root, tpg);
	if (r < 0) {
		snprintf(why, len, "cannot make the iSCSI target '%s': %s", e->name, strerror(-r));
		return r;
	}
	if (cfs_emulated(root)) { /* configfs makes the default group itself */
		char attrib[PATH_MAX + 16];
		snprintf(attrib, sizeof(attrib), "%s/attrib", tpg);
		mkdir_p(attrib, 0755);
	}
	if ((r = make_luns(root, tpg, e, why, len)) < 0 || (r = set_access(tpg, e, why, len)) < 0)
		return r;
	r = cfs_attr_write(tpg, "enable", "1");
	if (r < 0) {
		snprintf(why, len, "cannot enable the iSCSI target '%s': %s", e->name, strerror(-r));
		return r;
	}
	ramdisk_lio_portal_path(root, e, np, sizeof(np));
	r = cfs_group_make(root, np);
	/* a port taken since the check: the kernel says EINVAL (6.1) or EADDRINUSE */
	if (r < 0 && ramdisk_lio_port_free(e->traddr, e->port, why, len) == -EADDRINUSE)
		r = -EADDRINUSE;
	else if (r < 0)
		snprintf(why, len, "cannot listen on %s:%u (iSCSI portal of '%s'): %s", e->traddr, e->port, e->name,
			 strerror(-r));
	return r;
}

int ramdisk_lio_export(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len)
{
	e->transport = &ramdisk_transport_lio;
	struct stat st;
	char iscsi[PATH_MAX];
	snprintf(iscsi, sizeof(iscsi), "%s/iscsi", root);
	if (stat(iscsi, &st) < 0) {
		snprintf(why, len, "no LIO iSCSI configfs tree at '%s' (modules target_core_mod and iscsi_target_mod, "
			 "configfs mounted)", iscsi);
		return -ENODEV;
	}
	e->pid = (long)getpid();
	e->complete = false;
	int r = ramdisk_export_save(state, e);
	if (r < 0) {
		snprintf(why, len, "cannot write the export record in '%s': %s", state, strerror(-r));
		return r;
	}
	why[0] = '\0';
	r = make_backstores(root, e, why, len);
	if (r == 0)
		r = make_target(root, e, why, len);
	if (r == 0) {
		e->complete = true;
		r = ramdisk_export_save(state, e);
		if (r < 0)
			snprintf(why, len, "cannot write the export record in '%s': %s", state, strerror(-r));
	}
	if (r < 0) {
		char ignored[256];
		ramdisk_lio_unexport(root, state, e, ignored, sizeof(ignored));
	}
	return r;
}

/* Every tagged target and backstore under ROOT; counts them in *N. */
static int reap_tagged(const char *root, size_t *n, char *why, size_t len)
{
	char dir[PATH_MAX];
	int r = 0;
	snprintf(dir, sizeof(dir), "%s/iscsi", root);
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!ramdisk_lio_iqn_ours(de->d_name) || strchr(de->d_name, '/'))
			continue;
		int k = target_remove(root, de->d_name);
		if (k < 0 && r == 0)
			snprintf(why, len, "cannot remove the iSCSI target '%s': %s", de->d_name, strerror(-(r = k)));
		*n += k == 0;
	}
	if (d)
		closedir(d);
	int k = backstores_remove(root, RAMDISK_LIO_BACKSTORE_PREFIX, n);
	if (k < 0 && r == 0)
		snprintf(why, len, "cannot remove the LIO backstores under " RAMDISK_LIO_HBA ": %s", strerror(-(r = k)));
	return r;
}

int ramdisk_lio_reap(const char *root, const char *state, char *why, size_t len)
{
	struct ramdisk_export e;
	int r = ramdisk_export_load(&ramdisk_transport_lio, state, &e);
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
		r = ramdisk_lio_unexport(root, state, &e, why, len);
		if (r < 0)
			return r;
		n++;
	}
	r = reap_tagged(root, &n, why, len);
	if (r < 0)
		return r;
	if (n)
		snprintf(why, len, "removed the iSCSI export an earlier run left half-made (%zu LIO object(s))", n);
	return n > 0;
}

/* --- the initiator side --- */

/* Is SESSION (a directory under class/iscsi_session) logged in to IQN? */
static bool session_is(const char *session, const char *iqn)
{
	char path[PATH_MAX + 32], v[256];
	snprintf(path, sizeof(path), "%s/targetname", session);
	if (read_small_file(path, v, sizeof(v)) < 0)
		return false;
	v[strcspn(v, "\n")] = '\0';
	return strcmp(v, iqn) == 0;
}

/* The first block device under DIR/H:C:T:L/block (DIR: a session's target). */
static int lun0_block(const char *dir, char *kname, size_t len)
{
	DIR *d = opendir(dir);
	if (!d)
		return -ENOENT;
	int r = -ENOENT;
	struct dirent *de;
	while (r < 0 && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (de->d_name[0] == '.' || !strchr(de->d_name, ':') || n < 2 || strcmp(de->d_name + n - 2, ":0") != 0)
			continue;
		char block[PATH_MAX + 300];
		snprintf(block, sizeof(block), "%s/%s/block", dir, de->d_name);
		DIR *b = opendir(block);
		struct dirent *be;
		while (b && r < 0 && (be = readdir(b)))
			if (be->d_name[0] != '.')
				r = snprintf(kname, len, "%s", be->d_name) < (int)len ? 0 : -ENAMETOOLONG;
		if (b)
			closedir(b);
	}
	closedir(d);
	return r;
}

/* LUN 0's block device of the session SESSION (its device/target*). */
static int session_block(const char *session, char *kname, size_t len)
{
	char dev[PATH_MAX + 16];
	snprintf(dev, sizeof(dev), "%s/device", session);
	DIR *d = opendir(dev);
	if (!d)
		return -ENOENT;
	int r = -ENOENT;
	struct dirent *de;
	while (r < 0 && (de = readdir(d))) {
		if (strncmp(de->d_name, "target", 6) != 0)
			continue;
		char target[PATH_MAX + 300];
		snprintf(target, sizeof(target), "%s/%s", dev, de->d_name);
		r = lun0_block(target, kname, len);
	}
	closedir(d);
	return r;
}

/* Counts the sessions of IQN; with KNAME, finds the first one's LUN 0. */
static size_t each_session(const char *sysfs, const char *iqn, char *kname, size_t len, int *found)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/class/iscsi_session", sysfs);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char session[PATH_MAX + 256];
		snprintf(session, sizeof(session), "%s/%s", dir, de->d_name);
		if (de->d_name[0] == '.' || !session_is(session, iqn))
			continue;
		n++;
		if (kname && *found < 0)
			*found = session_block(session, kname, len);
	}
	closedir(d);
	return n;
}

size_t ramdisk_iscsi_sessions(const char *sysfs, const char *iqn)
{
	return each_session(sysfs, iqn, NULL, 0, NULL);
}

int ramdisk_iscsi_find(const char *sysfs, const char *iqn, int timeout_ms, char *kname, size_t kname_len)
{
	for (int waited = 0;; waited += 50) {
		int found = -ENOENT;
		each_session(sysfs, iqn, kname, kname_len, &found);
		if (found == 0)
			return 0;
		if (waited >= timeout_ms)
			return -ENOENT;
		usleep(50 * 1000);
	}
}

/* LIO's modules loaded, configfs mounted, the iscsi fabric registered: 0
 * or -ENODEV with WHY (nothing is made when LIO is absent). */
static int lio_ready(char *why, size_t len)
{
	const char *const mods[] = { "target_core_mod", "target_core_iblock", "iscsi_target_mod" };
	char iscsi[] = RAMDISK_LIO_ROOT "/iscsi", kwhy[300];
	struct stat st;
	if (stat(iscsi, &st) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		if (ramdisk_modprobe(mods[i], NULL, kwhy, sizeof(kwhy)) < 0) {
			snprintf(why, len, "LIO, the kernel's iSCSI target, is not available on this host: %s", kwhy);
			return -ENODEV;
		}
	}
	if (stat(RAMDISK_LIO_ROOT, &st) < 0 && mount("configfs", "/sys/kernel/config", "configfs", 0, NULL) < 0 &&
	    errno != EBUSY) {
		snprintf(why, len, "configfs is not mounted on /sys/kernel/config and cannot be: %s", strerror(errno));
		return -ENODEV;
	}
	/* the fabric's directory registers it (and is LIO's, not ours: it stays) */
	if (stat(iscsi, &st) < 0 && mkdir(iscsi, 0755) < 0 && errno != EEXIST) {
		snprintf(why, len, "LIO has no iSCSI fabric ('%s': %s)", iscsi, strerror(errno));
		return -ENODEV;
	}
	return 0;
}

static int check_client(const char *initiator, char *why, size_t len)
{
	return ramdisk_lio_check_name(initiator, why, len) < 0 ? -EINVAL : 0;
}

static void lio_detail(const struct ramdisk_export *e, char *buf, size_t len)
{
	(void)e;
	snprintf(buf, len, "LIO");
}

/* An IQN iotriage exports: a valid iSCSI name with the tag. */
static bool name_ours(const char *iqn)
{
	char why[300];
	return ramdisk_lio_iqn_ours(iqn) && ramdisk_lio_check_name(iqn, why, sizeof(why)) == 0;
}

/* --- the client: open-iscsi (iscsiadm, iscsid running) --- */

/* iscsiadm ARGS...; 0, or -errno with WHY naming the step. */
static int iscsiadm(const char *const *args, const char *step, char *why, size_t len)
{
	const char *argv[16] = { "iscsiadm" };
	size_t n = 1;
	for (; args[n - 1] && n < 15; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	struct strbuf err = STRBUF_INIT;
	int r = spawn_check(argv, 60000, NULL, &err);
	if (r < 0)
		snprintf(why, len, "%s: %s%s", step, err.buf ? err.buf : "",
			 r == -ENOENT ? " (install open-iscsi on the client)" : "");
	strbuf_release(&err);
	return r;
}

/* Logs out of IQN at ADDR:PORT and deletes its node record: what login
 * made, or what a killed run left. Quiet when there is nothing. */
static void logout_all(const char *addr, unsigned port, const char *iqn)
{
	char why[400], portal[96];
	snprintf(portal, sizeof(portal), "%s:%u", addr, port);
	if (ramdisk_iscsi_sessions("/sys", iqn) > 0) {
		const char *out[] = { "-m", "node", "-T", iqn, "-p", portal, "--logout", NULL };
		if (iscsiadm(out, "iscsiadm --logout failed", why, sizeof(why)) < 0)
			log_msg(LOG_ERR, "RAMDISK: %s", why);
		else
			log_msg(LOG_INFO, "RAMDISK: logged out of '%s' at %s", iqn, portal);
	}
	const char *del[] = { "-m", "node", "-o", "delete", "-T", iqn, "-p", portal, NULL };
	if (iscsiadm(del, "iscsiadm -o delete failed", why, sizeof(why)) == 0)
		log_msg(LOG_INFO, "RAMDISK: deleted the node record of '%s' at %s", iqn, portal);
}

/* Discovery (the target must be offered at the portal, nothing stored),
 * a node record for IQN alone, the login, then LUN 0's block device found
 * by the session's target name. The initiator is the host's own. */
static int login_find(const char *addr, unsigned port, const char *iqn, const char *initiator, char *kname,
		      size_t kname_len, char *why, size_t len)
{
	(void)initiator;
	char portal[96];
	snprintf(portal, sizeof(portal), "%s:%u", addr, port);
	const char *disc[] = { "-m", "discovery", "-t", "sendtargets", "-p", portal, "-o", "nonpersistent", NULL };
	const char *add[] = { "-m", "node", "-o", "new", "-T", iqn, "-p", portal, NULL };
	const char *in[] = { "-m", "node", "-T", iqn, "-p", portal, "--login", NULL };
	int r = iscsiadm(disc, "iSCSI discovery failed", why, len);
	if (r == 0)
		r = iscsiadm(add, "cannot make the node record", why, len);
	if (r == 0)
		r = iscsiadm(in, "iSCSI login failed", why, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "RAMDISK: logged in to '%s' at %s", iqn, portal);
	r = ramdisk_iscsi_find("/sys", iqn, 10000, kname, kname_len);
	if (r < 0)
		snprintf(why, len, "no block device for LUN 0 of '%s' appeared within 10 s", iqn);
	return r;
}

static const struct export_transport_words lio_words = {
	.title = "iSCSI",
	.qualifier = "iSCSI ",
	.export_help = "or over iSCSI (LIO) on ADDR (port 3260 by default)",
	.client_option = "initiator",
	.client_arg = "IQN",
	.client_help = "iSCSI: the initiator allowed (its /etc/iscsi/initiatorname.iscsi)",
	.client_hint = "--initiator IQN (its /etc/iscsi/initiatorname.iscsi)",
	.client_word = "initiator",
	.client_as_help = NULL,
	.target_option = "target",
	.target_arg = "IQN",
	.target_help = "the iSCSI target iotriage exported",
	.remote_help = "or the server's iSCSI portal (open-iscsi's iscsid running here)",
	.unit_word = "LUN",
	.unit_base = 0,
	.name_key = "iqn",
	.port_key = "port",
	.client_key = "initiator",
	.units_key = "luns",
	.unit_key = "lun",
	.unit_name_key = "backstore",
};

const struct export_transport ramdisk_transport_lio = {
	.name = "iscsi",
	.root = RAMDISK_LIO_ROOT,
	.record_file = RAMDISK_LIO_FILE,
	.default_port = RAMDISK_LIO_PORT,
	.words = &lio_words,
	.fields = lio_fields,
	.nfields = sizeof(lio_fields) / sizeof(lio_fields[0]),
	.record_ok = record_ok,
	.check_client = check_client,
	.check_port = ramdisk_lio_port_free,
	.ready = lio_ready,
	.names = ramdisk_lio_names,
	.make = ramdisk_lio_export,
	.unmake = ramdisk_lio_unexport,
	.reap = ramdisk_lio_reap,
	.detail = lio_detail,
	.unit_name = ramdisk_lio_backstore,
	.name_ours = name_ours,
	.name_prefix = RAMDISK_LIO_IQN_PREFIX,
	.detach = logout_all,
	.attach = login_find,
};
