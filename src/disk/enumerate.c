/* disk/enumerate.c: find the whole disks in sysfs and describe each one.
 *
 * Everything here reads plain files, directories and symlinks, so the same
 * code runs against the real /sys and /dev and against a fake tree built by
 * a test. Optional attributes that are missing, unreadable or malformed leave
 * their field empty or zero: one odd device must not hide all the others.
 */
#include "disk/enumerate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"
#include "basic/strbuf.h"

/* Largest sysfs attribute we read: sysfs hands out at most one page. */
#define ATTR_MAX 4096

static void cleanup_closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

#define _cleanup_closedir_ __attribute__((cleanup(cleanup_closedirp)))

static bool startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* snprintf into a fixed buffer, turning truncation into -ENAMETOOLONG. */
static int join_path(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Copy a string into a fixed-size field, truncating if it does not fit. */
static void copy_field(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Strip whitespace at both ends, in place; returns the new start. */
static char *strip(char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Read the attribute NAME (may contain '/') relative to the directory DFD
 * into BUF. Only the single newline sysfs appends is removed unless
 * STRIP_SPACES is set, in which case whitespace is stripped at both ends
 * (SCSI vendor/model are space-padded). Content longer than LEN - 1 is
 * truncated. Returns 0 or -errno. */
static int read_attr(int dfd, const char *name, bool strip_spaces, char *buf, size_t len)
{
	_cleanup_close_ int fd = -1;
	char raw[ATTR_MAX + 1];
	size_t have = 0;
	char *s;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;

	while (have < ATTR_MAX) {
		ssize_t k = read(fd, raw + have, ATTR_MAX - have);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			break;
		have += (size_t)k;
	}
	raw[have] = '\0';
	/* Binary attributes (vpd pages) may hold NULs; we only keep the text
	 * before the first one, which is what strlen() sees below. */

	s = raw;
	if (strip_spaces)
		s = strip(s);
	else {
		size_t n = strlen(s);

		if (n > 0 && s[n - 1] == '\n')
			s[n - 1] = '\0';
	}
	copy_field(buf, len, s);
	return 0;
}

/* A binary attribute (a VPD page) into RAW; returns the bytes read, or
 * 0 when it is missing or unreadable. */
static size_t read_binary_attr(int dfd, const char *name, unsigned char *raw, size_t len)
{
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t have = 0;

	if (fd < 0)
		return 0;
	while (have < len) {
		ssize_t k = read(fd, raw + have, len - have);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		have += (size_t)k;
	}
	return have;
}

/* Printable ASCII of RAW[0..N) into BUF, blanks and NULs at both ends cut. */
static void vpd_text(const unsigned char *raw, size_t n, char *buf, size_t len)
{
	char text[256];
	size_t k = 0;

	for (size_t i = 0; i < n && k < sizeof(text) - 1; i++)
		text[k++] = raw[i] >= 0x20 && raw[i] < 0x7f ? (char)raw[i] : ' ';
	text[k] = '\0';
	copy_field(buf, len, strip(text));
}

/* The unit serial number VPD page (0x80), which SCSI and SATA (libata)
 * disks have instead of a serial attribute: a 4-byte header (page code at
 * byte 1, length at bytes 2-3, big-endian), then the serial in ASCII. */
static void read_vpd_serial(int dfd, char *buf, size_t len)
{
	unsigned char raw[260];
	size_t n = read_binary_attr(dfd, "device/vpd_pg80", raw, sizeof(raw));

	if (n < 4 || raw[1] != 0x80)
		return;
	size_t body = (size_t)raw[2] << 8 | raw[3];
	vpd_text(raw + 4, body < n - 4 ? body : n - 4, buf, len);
}

/* A SATA disk's model as the drive gives it: libata's INQUIRY answer cuts
 * it to 16 characters ("IOTRIAGE LAB SAT"), but the ATA information VPD
 * page (0x89) carries the IDENTIFY DEVICE data from byte 60, where words
 * 27-46 hold the 40-character model, each word's two bytes swapped. */
static void read_ata_model(int dfd, char *buf, size_t len)
{
	unsigned char raw[572], model[40];
	size_t n = read_binary_attr(dfd, "device/vpd_pg89", raw, sizeof(raw));

	if (n < 60 + 94 || raw[1] != 0x89)
		return;
	for (size_t i = 0; i < sizeof(model); i += 2) {
		model[i] = raw[60 + 54 + i + 1];
		model[i + 1] = raw[60 + 54 + i];
	}
	vpd_text(model, sizeof(model), buf, len);
}

/* An optional text attribute: any failure leaves BUF empty. */
static void read_attr_optional(int dfd, const char *name, char *buf, size_t len)
{
	if (read_attr(dfd, name, true, buf, len) < 0)
		buf[0] = '\0';
}

/* Decimal unsigned number, whole string, no sign. Returns 0 or -EINVAL/-ERANGE. */
static int parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL; /* rejects "", "-1" (strtoull would negate it) and " 1" */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	*ret = (uint64_t)v;
	return 0;
}

static int parse_unsigned(const char *s, unsigned *ret)
{
	uint64_t v;
	int r = parse_u64(s, &v);

	if (r < 0)
		return r;
	if (v > UINT_MAX)
		return -ERANGE;
	*ret = (unsigned)v;
	return 0;
}

/* A numeric attribute, or 0 when it is missing or malformed. */
static uint64_t read_u64_attr(int dfd, const char *name)
{
	char buf[64];
	uint64_t v;

	if (read_attr(dfd, name, true, buf, sizeof(buf)) < 0)
		return 0;
	if (parse_u64(buf, &v) < 0)
		return 0;
	return v;
}

static unsigned read_unsigned_attr(int dfd, const char *name)
{
	uint64_t v = read_u64_attr(dfd, name);

	return v > UINT_MAX ? 0 : (unsigned)v;
}

/* "MAJ:MIN" -> numbers. Returns 0 or -EINVAL/-ERANGE. */
static int parse_devnum(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	char buf[64];
	char *colon;
	unsigned maj, min;
	int r;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	copy_field(buf, sizeof(buf), s);
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	r = parse_unsigned(buf, &maj);
	if (r < 0)
		return r;
	r = parse_unsigned(colon + 1, &min);
	if (r < 0)
		return r;
	*ret_major = maj;
	*ret_minor = min;
	return 0;
}

/* Last path component of a link target such as "../../sda"; trailing
 * slashes are ignored. Writes into BUF (truncating). */
static void target_basename(const char *target, char *buf, size_t len)
{
	size_t end = strlen(target), start;

	while (end > 0 && target[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && target[start - 1] != '/')
		start--;
	if (end - start >= len)
		end = start + len - 1;
	memcpy(buf, target + start, end - start);
	buf[end - start] = '\0';
}

/* readlink() into BUF with NUL termination. Returns 0 or -errno
 * (-EINVAL: not a symlink, -ENAMETOOLONG: target did not fit). */
static int read_link(int dfd, const char *path, char *buf, size_t len)
{
	ssize_t n = readlinkat(dfd, path, buf, len);

	if (n < 0)
		return -errno;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* Is NAME one of udev's NVMe links from the namespace's wwid attribute
 * ("nvme-eui.", "nvme-uuid.", "nvme-nguid.", or qemu's and other drives'
 * "nvme-nvme.VID-SERIAL-MODEL-NSID" in hex)? The others are MODEL_SERIAL. */
static bool is_nvme_wwid_link(const char *name)
{
	static const char *const forms[] = { "nvme-eui.", "nvme-uuid.", "nvme-nguid.", "nvme-nvme." };
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++)
		if (startswith(name, forms[i]))
			return true;
	return false;
}

/* Does NAME end in "_NSID"? */
static bool ends_with_nsid(const char *name, const char *nsid)
{
	size_t n = strlen(name), k = strlen(nsid);
	return k > 0 && n > k + 1 && name[n - k - 1] == '_' && strcmp(name + n - k, nsid) == 0;
}

/* Ranking of /dev/disk/by-id names: lower is better. NVMe namespaces
 * prefer the name admins read in `ls /dev/disk/by-id`,
 * nvme-MODEL_SERIAL_NSID (udev 252 on), then nvme-MODEL_SERIAL (udev keeps
 * it as obsolete: with two namespaces it names whichever came last), then
 * the wwid forms (qemu's "nvme.1b36-..." is hex, and its EUI-64, when
 * generated, follows the order the namespaces were attached in). NSID is
 * the namespace's id ("" for other disks). */
static int by_id_rank(const char *name, const char *nsid)
{
	static const char *const preferred[] = { "wwn-", "scsi-", "ata-" };

	if (startswith(name, "nvme-")) {
		if (is_nvme_wwid_link(name))
			return startswith(name, "nvme-eui.") ? 3 : 4;
		return ends_with_nsid(name, nsid) ? 1 : 2;
	}
	if (startswith(name, "wwn-"))
		return 0;
	for (size_t i = 1; i < ARRAY_SIZE(preferred); i++)
		if (startswith(name, preferred[i]))
			return 4 + (int)i;
	return 4 + (int)ARRAY_SIZE(preferred);
}

/* Find the preferred DEV_ROOT/disk/by-id link that points at KNAME and
 * store its full path in BUF, or "" when there is none (also when the
 * directory does not exist, e.g. without udev). Ties within one rank go to
 * the alphabetically first name so the choice does not depend on readdir
 * order. NSID: an NVMe namespace's id, or "". */
static void find_by_id(const char *dev_root, const char *kname, const char *nsid, char *buf, size_t len)
{
	_cleanup_closedir_ DIR *dir = NULL;
	char dir_path[PATH_MAX];
	char best[NAME_MAX + 1] = "";
	int best_rank = INT_MAX;
	struct dirent *de;

	buf[0] = '\0';
	if (join_path(dir_path, sizeof(dir_path), dev_root, "disk/by-id") < 0)
		return;
	dir = opendir(dir_path);
	if (!dir)
		return;

	while ((de = readdir(dir))) {
		char target[PATH_MAX], base[NAME_MAX + 1];
		int rank;

		if (de->d_name[0] == '.')
			continue;
		if (strstr(de->d_name, "-part"))
			continue;
		if (read_link(dirfd(dir), de->d_name, target, sizeof(target)) < 0)
			continue;
		/* udev links are relative to by-id ("../../sda"); the last
		 * component names the device node either way. */
		target_basename(target, base, sizeof(base));
		if (strcmp(base, kname) != 0)
			continue;

		rank = by_id_rank(de->d_name, nsid);
		if (rank < best_rank || (rank == best_rank && strcmp(de->d_name, best) < 0)) {
			best_rank = rank;
			copy_field(best, sizeof(best), de->d_name);
		}
	}

	if (best[0] == '\0')
		return;
	if (snprintf(buf, len, "%s/disk/by-id/%s", dev_root, best) >= (int)len)
		buf[0] = '\0'; /* a truncated path would name some other file */
}

/* The device path used to guess the transport: the target of
 * SYSFS_ROOT/block/KNAME (e.g. "../devices/pci0000:00/.../ata1/host0/...").
 * When the entry is not a symlink (a copied tree), use its resolved path
 * with the resolved SYSFS_ROOT cut off, so that the name of the directory
 * holding the tree cannot match "/usb", "/ata" and so on. */
static void transport_path(const char *sysfs_root, const char *kname, char *buf, size_t len)
{
	_cleanup_free_ char *root_real = NULL, *entry_real = NULL;
	char entry[PATH_MAX];
	size_t root_len;
	int r;

	buf[0] = '\0';
	if (snprintf(entry, sizeof(entry), "%s/block/%s", sysfs_root, kname) >= (int)sizeof(entry))
		return;

	r = read_link(AT_FDCWD, entry, buf, len);
	if (r == 0)
		return;
	buf[0] = '\0';
	if (r != -EINVAL)
		return;

	root_real = realpath(sysfs_root, NULL);
	entry_real = realpath(entry, NULL);
	if (!root_real || !entry_real)
		return;
	root_len = strlen(root_real);
	if (root_len == 1)
		root_len = 0; /* SYSFS_ROOT is "/" */
	if (strncmp(entry_real, root_real, root_len) != 0 || entry_real[root_len] != '/')
		return;
	copy_field(buf, len, entry_real + root_len);
}

static const char *transport_from(const char *kname, const char *path)
{
	static const struct {
		const char *prefix, *transport;
	} by_name[] = {
		{ "loop", "loop" }, { "zram", "zram" }, { "nbd", "nbd" },
		{ "md", "md" },     { "dm-", "dm" },    { "nvme", "nvme" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(by_name); i++)
		if (startswith(kname, by_name[i].prefix))
			return by_name[i].transport;

	if (strstr(path, "/nvme"))
		return "nvme";
	if (strstr(path, "/usb"))
		return "usb";
	if (strstr(path, "/ata"))
		return "sata";
	/* A SCSI host before virtio: a virtio-scsi disk's path runs through
	 * .../virtio0/host0/target0:0:0/..., and it speaks SCSI (sd, SCSI
	 * identity, smartctl -d scsi), unlike a virtio-blk vda. */
	if (strstr(path, "/host")) {
		/* SAS HBAs put port-N/end_device-N between host and target;
		 * some drivers also carry "sas" in the path. */
		if (strstr(path, "sas") || strstr(path, "/end_device-"))
			return "sas";
		return "scsi";
	}
	if (strstr(path, "/virtio"))
		return "virtio";
	return "";
}

static bool is_loop(const struct disk_info *d)
{
	return startswith(d->kname, "loop");
}

/* "nvme6c7n1": one path (controller 7) of subsystem 6's namespace 1. */
static bool is_nvme_path(const char *kname)
{
	unsigned subsys, ctrl, ns;
	int end = 0;

	return sscanf(kname, "nvme%uc%un%u%n", &subsys, &ctrl, &ns, &end) == 3 && kname[end] == '\0';
}

/* Why this device cannot be read as a disk, or NULL. DFD is its sysfs dir. */
static const char *skip_reason_for(int dfd, const struct disk_info *d)
{
	char buf[64];
	uint64_t disksize;

	if (faccessat(dfd, "partition", F_OK, 0) == 0)
		return "partition";
	/* A hidden disk has no device number and no node in /dev: the kernel
	 * makes one per path of an NVMe multipath namespace (nvme6c7n1) and
	 * reads the namespace through its head (nvme6n1). */
	if (is_nvme_path(d->kname) && faccessat(dfd, "dev", F_OK, 0) < 0)
		return "nvme multipath path (the namespace is read once, through its nvmeXnY device)";
	/* A detached loop device has size 0 and no loop/ directory. */
	if (is_loop(d) && d->size_bytes == 0 && d->backing_file[0] == '\0')
		return "loop device not attached";
	/* zram devices exist unconfigured until disksize is written. */
	if (startswith(d->kname, "zram") && read_attr(dfd, "disksize", true, buf, sizeof(buf)) == 0 &&
	    parse_u64(buf, &disksize) == 0 && disksize == 0)
		return "zram device not initialised";
	if (d->size_bytes == 0)
		return d->removable ? "no medium" : "size 0";
	return NULL;
}

static bool is_valid_kname(const char *kname)
{
	return kname[0] != '\0' && strcmp(kname, ".") != 0 && strcmp(kname, "..") != 0 &&
	       !strchr(kname, '/');
}

static bool is_pci_address(const char *s, size_t len)
{
	/* "0000:00:1f.2" */
	return len == 12 && s[4] == ':' && s[7] == ':' && s[10] == '.' && isxdigit((unsigned char)s[0]);
}

/* The last PCI function and SCSI host on the device's sysfs path: disks
 * that share them share a controller, and a cable or expander behind it.
 * libata makes one SCSI host per port (".../0000:00:0e.0/ata3/host4/..."),
 * so behind an ataN the controller is the PCI function alone: the SATA
 * disks of one AHCI controller group together. */
static void controller_of(const char *link, char *buf, size_t len)
{
	char pci[16] = "", host[16] = "";
	bool ata = false;
	for (const char *p = link; p && *p;) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (is_pci_address(p, n))
			snprintf(pci, sizeof(pci), "%.*s", (int)n, p);
		else if (n > 4 && n < sizeof(host) && strncmp(p, "host", 4) == 0 && isdigit((unsigned char)p[4]))
			snprintf(host, sizeof(host), "%.*s", (int)n, p);
		else if (n > 3 && strncmp(p, "ata", 3) == 0 && isdigit((unsigned char)p[3]))
			ata = true;
		p = end ? end + 1 : NULL;
	}
	if (ata && pci[0])
		host[0] = '\0';
	if (pci[0])
		snprintf(buf, len, "pci %s%s%s", pci, host[0] ? " " : "", host);
	else
		snprintf(buf, len, "%s", host);
}

/* A loop device shares the path of the file system its backing file is on.
 * An unlinked backing file ("/var/tmp/#12 (deleted)") is found through its
 * directory. */
static void backing_device_of(const char *backing, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s", backing);
	struct stat st;
	if (stat(path, &st) < 0) {
		char *slash = strrchr(path, '/');
		if (slash)
			*(slash == path ? slash + 1 : slash) = '\0';
		if (stat(path, &st) < 0)
			return;
	}
	snprintf(buf, len, "backing device %u:%u", major(st.st_dev), minor(st.st_dev));
}

/* A disk in an enclosure (SES) has device/enclosure_device:SLOT, a link to
 * .../enclosure/ENCLOSURE_ID/SLOT: the enclosure is the link's parent
 * directory, the slot its last component. */
static void enclosure_of(int disk_dfd, struct disk_info *d)
{
	_cleanup_close_ int dev_dfd = openat(disk_dfd, "device", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dev_dfd < 0)
		return;
	DIR *dir = fdopendir(dev_dfd);
	if (!dir)
		return;
	dev_dfd = -1; /* the DIR owns it now */
	static const char prefix[] = "enclosure_device:";
	struct dirent *de;
	while ((de = readdir(dir))) {
		char target[PATH_MAX];
		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1) != 0 ||
		    read_link(dirfd(dir), de->d_name, target, sizeof(target)) < 0)
			continue;
		target_basename(target, d->enclosure_slot, sizeof(d->enclosure_slot));
		char *slash = strrchr(target, '/');
		if (slash) {
			*slash = '\0';
			target_basename(target, d->enclosure, sizeof(d->enclosure));
		}
		break;
	}
	closedir(dir);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* A multipath NVMe namespace hangs under its subsystem
 * (".../nvme-subsystem/nvme-subsys6/nvme6n1"), not under a controller: its
 * controllers are the subsystem's nvmeN links, each to a PCI function. The
 * path group names the subsystem and every controller, in name order:
 * "nvme-subsys6 (pci 0000:00:0a.0, pci 0000:00:0b.0)". */
static void nvme_subsystem_of(int disk_dfd, const char *link, char *buf, size_t len)
{
	char ctrls[8][48], subsys[64];
	size_t n = 0;
	const char *at = strstr(link, "/nvme-subsystem/");
	char *slash;

	copy_field(subsys, sizeof(subsys), at + strlen("/nvme-subsystem/"));
	slash = strchr(subsys, '/');
	if (slash)
		*slash = '\0';
	_cleanup_close_ int dev_dfd = openat(disk_dfd, "device", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dev_dfd >= 0 ? fdopendir(dev_dfd) : NULL;
	if (dir) {
		struct dirent *de;
		dev_dfd = -1; /* the DIR owns it now */
		while ((de = readdir(dir)) && n < ARRAY_SIZE(ctrls)) {
			char target[PATH_MAX];
			unsigned num;
			int end = 0;
			if (sscanf(de->d_name, "nvme%u%n", &num, &end) != 1 || de->d_name[end] != '\0' ||
			    read_link(dirfd(dir), de->d_name, target, sizeof(target)) < 0)
				continue;
			controller_of(target, ctrls[n], sizeof(ctrls[n]));
			if (ctrls[n][0])
				n++;
		}
		closedir(dir);
	}
	qsort(ctrls, n, sizeof(ctrls[0]), compare_names);
	int w = snprintf(buf, len, "%s", subsys);
	for (size_t i = 0; i < n && w > 0 && (size_t)w < len; i++)
		w += snprintf(buf + w, len - (size_t)w, "%s%s", i ? ", " : " (", ctrls[i]);
	if (n && w > 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, ")");
}

static void shared_path_of(int dfd, struct disk_info *d, const char *link)
{
	if (strncmp(d->kname, "zram", 4) == 0 || strncmp(d->kname, "ram", 3) == 0)
		snprintf(d->path_group, sizeof(d->path_group), "memory");
	else if (d->backing_file[0])
		backing_device_of(d->backing_file, d->path_group, sizeof(d->path_group));
	else if (strstr(link, "/nvme-subsystem/"))
		nvme_subsystem_of(dfd, link, d->path_group, sizeof(d->path_group));
	else
		controller_of(link, d->path_group, sizeof(d->path_group));
}

/* An NVMe namespace's id into BUF: its nsid attribute, or (a tree without
 * it) the N of nvmeCnN, which the kernel numbers as the namespace ids go
 * on a single-namespace controller; "" for any other disk. */
static void nvme_nsid(int dfd, const char *kname, char *buf, size_t len)
{
	unsigned ctrl, ns;
	int end = 0;

	buf[0] = '\0';
	if (sscanf(kname, "nvme%un%u%n", &ctrl, &ns, &end) != 2 || kname[end] != '\0')
		return;
	read_attr_optional(dfd, "nsid", buf, len);
	if (buf[0] == '\0')
		snprintf(buf, len, "%u", ns);
}

int disk_describe(const char *sysfs_root, const char *dev_root, const char *kname,
		  struct disk_info *ret)
{
	_cleanup_close_ int dfd = -1;
	struct disk_info d = { 0 };
	char path[PATH_MAX], buf[64], link[PATH_MAX];
	uint64_t sectors;
	int r;

	if (!sysfs_root || !dev_root || !kname || !ret || !is_valid_kname(kname))
		return -EINVAL;
	if (strlen(kname) >= sizeof(d.kname))
		return -ENAMETOOLONG;

	if (snprintf(path, sizeof(path), "%s/block/%s", sysfs_root, kname) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;

	copy_field(d.kname, sizeof(d.kname), kname);
	r = join_path(d.dev_path, sizeof(d.dev_path), dev_root, kname);
	if (r < 0)
		return r;

	read_attr_optional(dfd, "device/vendor", d.vendor, sizeof(d.vendor));
	read_attr_optional(dfd, "device/model", d.model, sizeof(d.model));
	if (strcmp(d.vendor, "ATA") == 0)
		read_ata_model(dfd, d.model, sizeof(d.model));
	/* SCSI and SATA disks keep their serial only in device/vpd_pg80. */
	if (read_attr(dfd, "device/serial", true, d.serial, sizeof(d.serial)) < 0 || d.serial[0] == '\0')
		read_attr_optional(dfd, "serial", d.serial, sizeof(d.serial));
	if (d.serial[0] == '\0')
		read_vpd_serial(dfd, d.serial, sizeof(d.serial));
	if (read_attr(dfd, "device/wwid", true, d.wwn, sizeof(d.wwn)) < 0 || d.wwn[0] == '\0')
		read_attr_optional(dfd, "wwid", d.wwn, sizeof(d.wwn));
	/* A file name may legitimately end in spaces: drop only the newline. */
	if (read_attr(dfd, "loop/backing_file", false, d.backing_file, sizeof(d.backing_file)) < 0)
		d.backing_file[0] = '\0';

	sectors = read_u64_attr(dfd, "size");
	if (__builtin_mul_overflow(sectors, (uint64_t)512, &d.size_bytes))
		d.size_bytes = UINT64_MAX;
	if (read_attr(dfd, "dev", true, buf, sizeof(buf)) < 0 || parse_devnum(buf, &d.major, &d.minor) < 0)
		d.major = d.minor = 0;
	d.logical_block_size = read_unsigned_attr(dfd, "queue/logical_block_size");
	d.physical_block_size = read_unsigned_attr(dfd, "queue/physical_block_size");
	d.rotational = read_u64_attr(dfd, "queue/rotational") == 1;
	d.removable = read_u64_attr(dfd, "removable") == 1;

	nvme_nsid(dfd, kname, buf, sizeof(buf));
	find_by_id(dev_root, kname, buf, d.by_id, sizeof(d.by_id));
	transport_path(sysfs_root, kname, link, sizeof(link));
	copy_field(d.transport, sizeof(d.transport), transport_from(kname, link));

	shared_path_of(dfd, &d, link);
	enclosure_of(dfd, &d);
	d.skip_reason = skip_reason_for(dfd, &d);

	*ret = d;
	return 0;
}

static bool is_all_alpha(const char *s)
{
	for (; *s; s++)
		if (!isalpha((unsigned char)*s))
			return false;
	return true;
}

/* Compare the digit runs at *A and *B numerically and step past them. */
static int compare_digit_runs(const char **a, const char **b)
{
	const char *pa = *a, *pb = *b, *sa, *sb;
	size_t la, lb;

	while (*pa == '0')
		pa++;
	while (*pb == '0')
		pb++;
	sa = pa;
	sb = pb;
	while (isdigit((unsigned char)*pa))
		pa++;
	while (isdigit((unsigned char)*pb))
		pb++;
	*a = pa;
	*b = pb;

	la = (size_t)(pa - sa);
	lb = (size_t)(pb - sb);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strncmp(sa, sb, la);
}

/* Natural order for kernel names: digit runs compare as numbers
 * (loop2 < loop10), and the letter suffix of sd/vd/xvd names counts in
 * bijective base 26 (sdz < sdaa), so when two names share a stem and both
 * continue with letters only, the shorter rest sorts first. Names with no
 * common stem compare alphabetically (loop < md < sda < sr0). */
static int kname_compare(const char *a, const char *b)
{
	const char *a0 = a, *b0 = b;
	int r;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			r = compare_digit_runs(&a, &b);
			if (r != 0)
				return r;
			continue;
		}
		if (*a != *b)
			break;
		a++;
		b++;
	}

	if (*a == '\0' && *b == '\0')
		return strcmp(a0, b0); /* equal up to leading zeros: still a total order */
	if (a != a0 && is_all_alpha(a) && is_all_alpha(b)) {
		size_t la = strlen(a), lb = strlen(b);

		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
}

static int disk_info_compare(const void *x, const void *y)
{
	const struct disk_info *a = x, *b = y;

	return kname_compare(a->kname, b->kname);
}

/* Make room for one more entry. */
static int disk_list_grow(struct disk_list *list, size_t *capacity)
{
	struct disk_info *p;
	size_t n;

	if (list->count < *capacity)
		return 0;
	n = *capacity ? *capacity * 2 : 16;
	if (n > SIZE_MAX / sizeof(*p))
		return -ENOMEM;
	p = xreallocarray(list->disks, n, sizeof(*p));
	list->disks = p;
	*capacity = n;
	return 0;
}

/* On failure *RET is left empty, so disk_list_free(ret) is always safe. */
int disk_enumerate(const char *sysfs_root, const char *dev_root, struct disk_list *ret)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct disk_list list = { 0 };
	size_t capacity = 0;
	char path[PATH_MAX];
	int r;

	if (!ret)
		return -EINVAL;
	*ret = (struct disk_list){ 0 };
	if (!sysfs_root || !dev_root)
		return -EINVAL;

	r = join_path(path, sizeof(path), sysfs_root, "block");
	if (r < 0)
		return r;
	dir = opendir(path);
	if (!dir)
		return -errno;

	for (;;) {
		struct dirent *de;

		errno = 0;
		de = readdir(dir);
		if (!de) {
			if (errno != 0) {
				r = -errno;
				goto fail;
			}
			break;
		}
		if (de->d_name[0] == '.')
			continue;

		r = disk_list_grow(&list, &capacity);
		if (r < 0)
			goto fail;
		r = disk_describe(sysfs_root, dev_root, de->d_name, &list.disks[list.count]);
		if (r == -ENOENT)
			continue; /* removed while we were looking */
		if (r < 0)
			goto fail;
		list.count++;
	}

	if (list.count > 1)
		qsort(list.disks, list.count, sizeof(list.disks[0]), disk_info_compare);
	*ret = list;
	return 0;

fail:
	disk_list_free(&list);
	return r;
}

int disk_kname_from_devnum(const char *sysfs_root, unsigned major, unsigned minor,
			   char *ret_kname, size_t len, bool *ret_is_partition)
{
	char path[PATH_MAX], target[PATH_MAX], name[NAME_MAX + 1];
	_cleanup_close_ int dfd = -1;
	bool is_partition;
	int r;

	if (!sysfs_root || !ret_kname || len == 0)
		return -EINVAL;

	if (snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs_root, major, minor) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;

	/* The link names the device ("../../devices/.../block/sda/sda1");
	 * opening it also tells us that it resolves. */
	r = read_link(AT_FDCWD, path, target, sizeof(target));
	if (r < 0)
		return r;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;

	target_basename(target, name, sizeof(name));
	if (name[0] == '\0')
		return -EINVAL;
	if (strlen(name) >= len)
		return -ENAMETOOLONG;
	is_partition = faccessat(dfd, "partition", F_OK, 0) == 0;

	copy_field(ret_kname, len, name);
	if (ret_is_partition)
		*ret_is_partition = is_partition;
	return 0;
}

int disk_whole_kname_from_devnum(const char *sysfs_root, unsigned major, unsigned minor, char *ret_kname,
				 size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	bool partition = false;
	int r = disk_kname_from_devnum(sysfs_root, major, minor, ret_kname, len, &partition);
	if (r < 0 || !partition)
		return r;
	/* ".../block/sda/sda1": the whole disk is the partition's parent. */
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs_root, major, minor);
	r = read_link(AT_FDCWD, path, target, sizeof(target));
	if (r < 0)
		return r;
	char *slash = strrchr(target, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	char parent[NAME_MAX + 1];
	target_basename(target, parent, sizeof(parent));
	if (parent[0] == '\0' || strlen(parent) >= len)
		return -EINVAL;
	copy_field(ret_kname, len, parent);
	return 0;
}

/* The partition's own attributes under SYSFS_ROOT/dev/block/MAJ:MIN. */
static void describe_partition(const char *sysfs_root, const char *dev_root, const char *name,
			       unsigned major, unsigned minor, struct disk_info *d)
{
	char path[PATH_MAX], parent_by_id[sizeof(d->by_id)];
	_cleanup_close_ int dfd = -1;

	copy_field(d->parent, sizeof(d->parent), d->kname);
	copy_field(d->kname, sizeof(d->kname), name);
	if (join_path(d->dev_path, sizeof(d->dev_path), dev_root, name) < 0)
		d->dev_path[0] = '\0';
	d->major = major;
	d->minor = minor;
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs_root, major, minor);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d->partition = dfd >= 0 ? read_unsigned_attr(dfd, "partition") : 0;
	uint64_t sectors = dfd >= 0 ? read_u64_attr(dfd, "size") : 0;
	if (__builtin_mul_overflow(sectors, (uint64_t)512, &d->size_bytes))
		d->size_bytes = UINT64_MAX;
	copy_field(parent_by_id, sizeof(parent_by_id), d->by_id);
	if (!parent_by_id[0] || snprintf(d->by_id, sizeof(d->by_id), "%s-part%u", parent_by_id, d->partition) >=
					(int)sizeof(d->by_id))
		d->by_id[0] = '\0';
	d->skip_reason = NULL;
}

int disk_describe_devnum(const char *sysfs_root, const char *dev_root, unsigned major, unsigned minor,
			 struct disk_info *ret)
{
	char name[64], whole[64];
	bool is_partition = false;
	int r;

	if (!sysfs_root || !dev_root || !ret)
		return -EINVAL;
	r = disk_kname_from_devnum(sysfs_root, major, minor, name, sizeof(name), &is_partition);
	if (r < 0)
		return r;
	if (!is_partition)
		return disk_describe(sysfs_root, dev_root, name, ret);
	r = disk_whole_kname_from_devnum(sysfs_root, major, minor, whole, sizeof(whole));
	if (r < 0)
		return r;
	r = disk_describe(sysfs_root, dev_root, whole, ret);
	if (r < 0)
		return r;
	describe_partition(sysfs_root, dev_root, name, major, minor, ret);
	return 0;
}

void disk_identity_key(const struct disk_info *d, char *buf, size_t len)
{
	if (!buf || len == 0)
		return;
	if (!d) {
		buf[0] = '\0';
		return;
	}

	if (d->wwn[0])
		snprintf(buf, len, "wwn:%s", d->wwn);
	else if (d->serial[0])
		snprintf(buf, len, "serial:%s:%s", d->model, d->serial);
	else if (d->by_id[0])
		snprintf(buf, len, "by-id:%s", d->by_id);
	else if (is_loop(d) && d->backing_file[0])
		snprintf(buf, len, "loop:%s", d->backing_file);
	else
		snprintf(buf, len, "name:%s", d->kname);
	size_t n = strlen(buf);
	if (d->partition > 0 && d->parent[0] && strncmp(buf, "name:", 5) != 0 && n < len)
		snprintf(buf + n, len - n, "/part%u", d->partition);
}

void disk_list_free(struct disk_list *list)
{
	if (!list)
		return;
	free(list->disks);
	list->disks = NULL;
	list->count = 0;
}

size_t disk_and_partitions(const char *sysfs_root, dev_t whole, dev_t *devs, size_t max)
{
	size_t n = 0;
	devs[n++] = whole;
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysfs_root, major(whole), minor(whole));
	DIR *d = opendir(dir);
	if (!d)
		return n;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		char part[1024], devnum[32];
		unsigned maj, min;
		if (de->d_name[0] == '.')
			continue; /* "./partition" is a partition's own */
		snprintf(part, sizeof(part), "%s/%s/partition", dir, de->d_name);
		if (access(part, F_OK) < 0)
			continue;
		snprintf(part, sizeof(part), "%s/%s/dev", dir, de->d_name);
		if (read_small_file(part, devnum, sizeof(devnum)) > 0 && sscanf(devnum, "%u:%u", &maj, &min) == 2)
			devs[n++] = makedev(maj, min);
	}
	closedir(d);
	return n;
}
