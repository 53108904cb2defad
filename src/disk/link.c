/* disk/link.c: a disk's links and their rates from sysfs (see link.h). */
#include "disk/link.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"

double disk_link_parse_speed(const char *text)
{
	char *end;
	double v = strtod(text, &end);
	if (end == text || v <= 0)
		return 0;
	while (*end == ' ')
		end++;
	/* "GT/s", "Gbps", "Gbit": a rate; anything else is not one */
	return *end == 'G' ? v : 0;
}

static double read_speed(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[64];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    read_small_file(path, buf, sizeof(buf)) < 0)
		return 0;
	return disk_link_parse_speed(buf);
}

static unsigned read_width(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[32];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    read_small_file(path, buf, sizeof(buf)) < 0)
		return 0;
	unsigned long w = strtoul(buf, NULL, 10);
	return w > 0 && w < 255 ? (unsigned)w : 0; /* 255: no link */
}

static struct link_hop *new_hop(struct disk_link *l, enum link_kind kind, const char *name)
{
	if (l->count >= DISK_LINK_MAX_HOPS)
		return NULL;
	struct link_hop *h = &l->hops[l->count++];
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	snprintf(h->name, sizeof(h->name), "%s", name);
	return h;
}

/* The drive's SATA generations from its IDENTIFY words (word 76, bits 1-3:
 * 1.5, 3.0, 6.0 Gb/s); 0 when it does not say. */
static double ata_id_max_speed(const char *id_path)
{
	char buf[4096];
	if (read_small_file(id_path, buf, sizeof(buf)) < 0)
		return 0;
	const char *p = buf;
	unsigned long word = 0;
	for (int i = 0; i <= 76; i++) {
		char *end;
		word = strtoul(p, &end, 16);
		if (end == p)
			return 0;
		p = end;
	}
	if (word == 0 || word == 0xffff)
		return 0;
	return (word & 8) ? 6.0 : (word & 4) ? 3.0 : (word & 2) ? 1.5 : 0;
}

/* DIR is an ATA port "ataN": its link N. */
static void read_sata(const char *dir, const char *port, struct disk_link *l)
{
	const char *n = port + 3;
	char link[PATH_MAX], id[PATH_MAX];
	if ((size_t)snprintf(link, sizeof(link), "%s/link%s/ata_link/link%s", dir, n, n) >= sizeof(link) ||
	    (size_t)snprintf(id, sizeof(id), "%s/link%s/dev%s.0/ata_device/dev%s.0/id", dir, n, n, n) >= sizeof(id))
		return;
	struct link_hop *h = new_hop(l, LINK_SATA, port);
	if (!h)
		return;
	h->speed = read_speed(link, "sata_spd");
	h->width = 1;
	h->above = (struct link_end){ read_speed(link, "hw_sata_spd_limit"), 1 };
	h->below = (struct link_end){ ata_id_max_speed(id), 1 };
	double lim = read_speed(link, "sata_spd_limit");
	if (lim > 0 && (h->above.speed <= 0 || lim < h->above.speed))
		h->os_limit = lim;
}

/* The phys of a SAS port or expander directory: their fastest maximum;
 * LINKS: the port's phy-* links (negotiated rates too), else the phy-*
 * directories of an expander. */
static void sas_phys(const char *dir, struct link_hop *h, bool port)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	struct link_end *end = port ? &h->above : &h->below;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "phy-", 4) != 0)
			continue;
		char phy[PATH_MAX];
		if ((size_t)snprintf(phy, sizeof(phy), "%s/%s/sas_phy/%s", dir, e->d_name, e->d_name) >= sizeof(phy))
			continue;
		double max = read_speed(phy, "maximum_linkrate_hw");
		if (max > end->speed)
			end->speed = max;
		if (!port)
			continue;
		end->width++;
		double neg = read_speed(phy, "negotiated_linkrate");
		if (neg <= 0)
			continue;
		h->width++;
		if (h->speed <= 0 || neg < h->speed)
			h->speed = neg;
	}
	closedir(d);
}

/* DIR is a SAS port; CHILD the component under it on the disk's path. */
static void read_sas(const char *dir, const char *port, const char *child, struct disk_link *l)
{
	struct link_hop *h = new_hop(l, LINK_SAS, port);
	if (!h)
		return;
	sas_phys(dir, h, true);
	if (child && strncmp(child, "expander-", 9) == 0) {
		char exp[PATH_MAX];
		if ((size_t)snprintf(exp, sizeof(exp), "%s/%s", dir, child) < sizeof(exp))
			sas_phys(exp, h, false);
	}
}

/* "0000:00:1c.0" */
static bool is_pci_address(const char *s)
{
	unsigned a, b, c, f;
	char tail;
	return sscanf(s, "%x:%x:%x.%x%c", &a, &b, &c, &f, &tail) == 4 && strchr(s, ':') != strrchr(s, ':');
}

static bool is_ata_port(const char *s)
{
	if (strncmp(s, "ata", 3) != 0 || !s[3])
		return false;
	for (const char *p = s + 3; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* The PCIe hops from the PCI functions on the path, nearest first: each
 * device (even positions: the function, a switch's upstream port) with
 * the port above it (odd positions). */
static void read_pcie(char (*pci)[PATH_MAX], size_t n, struct disk_link *l)
{
	for (size_t i = 0; i + 1 < n; i += 2) {
		const char *dev = pci[i], *port = pci[i + 1];
		double speed = read_speed(dev, "current_link_speed");
		double max = read_speed(dev, "max_link_speed");
		if (speed <= 0 && max <= 0)
			continue;
		const char *name = strrchr(dev, '/');
		struct link_hop *h = new_hop(l, LINK_PCIE, name ? name + 1 : dev);
		if (!h)
			return;
		h->speed = speed;
		h->width = read_width(dev, "current_link_width");
		h->below = (struct link_end){ max, read_width(dev, "max_link_width") };
		h->above = (struct link_end){ read_speed(port, "max_link_speed"), read_width(port, "max_link_width") };
	}
}

#define MAX_PCI 8

int disk_link_read(const char *sysfs_root, const char *kname, struct disk_link *ret)
{
	memset(ret, 0, sizeof(*ret));
	char path[PATH_MAX], real[PATH_MAX], root[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/block/%s", sysfs_root, kname) >= sizeof(path))
		return -ENAMETOOLONG;
	if (!realpath(path, real) || !realpath(sysfs_root, root))
		return -errno;
	size_t floor = strlen(root) + strlen("/devices");
	char pci[MAX_PCI][PATH_MAX];
	size_t npci = 0;
	char child[128] = "";
	while (strlen(real) > floor) {
		char *slash = strrchr(real, '/');
		if (!slash)
			break;
		const char *base = slash + 1;
		if (is_ata_port(base))
			read_sata(real, base, ret);
		else if (strncmp(base, "port-", 5) == 0)
			read_sas(real, base, child[0] ? child : NULL, ret);
		else if (is_pci_address(base) && npci < MAX_PCI)
			snprintf(pci[npci++], PATH_MAX, "%s", real);
		snprintf(child, sizeof(child), "%s", base);
		*slash = '\0';
	}
	read_pcie(pci, npci, ret);
	return 0;
}

double disk_link_carries(enum link_kind kind, double speed, unsigned width)
{
	if (speed <= 0)
		return 0;
	double lanes = width ? width : 1;
	double coding = 0.8; /* 8b/10b */
	if (kind == LINK_PCIE && speed >= 8)
		coding = 128.0 / 130.0;
	else if (kind == LINK_SAS && speed > 12)
		coding = 128.0 / 150.0;
	return speed * 1e9 * coding / 8 * lanes;
}

double disk_link_hop_carries(const struct link_hop *h)
{
	return disk_link_carries(h->kind, h->speed, h->width);
}

static double min_known(double a, double b)
{
	return a <= 0 ? b : b <= 0 ? a : a < b ? a : b;
}

bool disk_link_degraded(const struct link_hop *h)
{
	if (h->speed <= 0)
		return false;
	if (h->below.speed > 0 && h->above.speed > 0 && h->speed + 1e-6 < min_known(h->below.speed, h->above.speed))
		return true;
	return h->width && h->below.width && h->above.width &&
	       h->width < (h->below.width < h->above.width ? h->below.width : h->above.width);
}

const struct link_hop *disk_link_narrowest(const struct disk_link *l)
{
	const struct link_hop *best = NULL;
	for (size_t i = 0; i < l->count; i++) {
		double c = disk_link_hop_carries(&l->hops[i]);
		if (c > 0 && (!best || c < disk_link_hop_carries(best)))
			best = &l->hops[i];
	}
	return best;
}

const struct link_hop *disk_link_first_degraded(const struct disk_link *l)
{
	for (size_t i = 0; i < l->count; i++)
		if (disk_link_degraded(&l->hops[i]))
			return &l->hops[i];
	return NULL;
}

const char *disk_link_kind_name(enum link_kind k)
{
	return k == LINK_PCIE ? "PCIe" : k == LINK_SAS ? "SAS" : "SATA";
}

void disk_link_rate_words(enum link_kind kind, double speed, unsigned width, char *buf, size_t len)
{
	if (speed <= 0)
		snprintf(buf, len, "?");
	else if (kind == LINK_PCIE)
		snprintf(buf, len, "%.1f GT/s x%u", speed, width);
	else if (kind == LINK_SAS && width > 1)
		snprintf(buf, len, "%.1f Gb/s x%u", speed, width);
	else
		snprintf(buf, len, "%.1f Gb/s", speed);
}

/* What both ends support: the lower of their maxima. */
static void both_ends(const struct link_hop *h, char *buf, size_t len)
{
	unsigned w = h->below.width && h->above.width ? (h->below.width < h->above.width ? h->below.width
											   : h->above.width)
						      : h->width;
	disk_link_rate_words(h->kind, min_known(h->below.speed, h->above.speed), w, buf, len);
}

void disk_link_cell(const struct disk_link *l, char *buf, size_t len)
{
	if (l->count == 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	const struct link_hop *h = &l->hops[0], *bad = disk_link_first_degraded(l);
	char now[40], max[40], up[40];
	disk_link_rate_words(h->kind, h->speed, h->width, now, sizeof(now));
	if (!bad) {
		snprintf(buf, len, "%s", now);
		return;
	}
	both_ends(bad, max, sizeof(max));
	disk_link_rate_words(bad->kind, bad->speed, bad->width, up, sizeof(up));
	if (bad == h)
		snprintf(buf, len, "%s (max %s)", now, max);
	else
		snprintf(buf, len, "%s; %s %s (max %s)", now, bad->name, up, max);
}

static const char *below_name(const struct link_hop *h)
{
	return h->kind == LINK_PCIE ? "the device" : h->kind == LINK_SATA ? "the drive" : "the far end";
}

static const char *above_name(const struct link_hop *h)
{
	return h->kind == LINK_PCIE ? "the slot" : h->kind == LINK_SATA ? "the port" : "the near end";
}

static const char *both_names(const struct link_hop *h)
{
	return h->kind == LINK_PCIE ? "the device and slot" : h->kind == LINK_SATA ? "the drive and port" : "both ends";
}

void disk_link_hop_words(const struct link_hop *h, char *buf, size_t len)
{
	char now[40], a[40], b[40], lim[80] = "";
	disk_link_rate_words(h->kind, h->speed, h->width, now, sizeof(now));
	if (h->os_limit > 0)
		snprintf(lim, sizeof(lim), "; the kernel limits it to %.1f Gb/s after link errors", h->os_limit);
	if (disk_link_degraded(h)) {
		both_ends(h, a, sizeof(a));
		snprintf(buf, len, "%s link %s trained at %s, %s support %s%s", disk_link_kind_name(h->kind), h->name,
			 now, both_names(h), a, lim);
		return;
	}
	disk_link_rate_words(h->kind, h->below.speed, h->below.width, b, sizeof(b));
	disk_link_rate_words(h->kind, h->above.speed, h->above.width, a, sizeof(a));
	snprintf(buf, len, "%s link %s at %s (%s supports %s, %s %s)%s", disk_link_kind_name(h->kind), h->name, now,
		 below_name(h), b, above_name(h), a, lim);
}
