/* The ramdisk operations that the ramdisk command and its latency sweep share
 * (declared in triage/ramdisk/ramdisk_batch.h): the size argument, the backend
 * choice, the scan of live RAM disks, the memory budget, creating and
 * destroying a batch with its friendly links and registry records, and the
 * checks before create and destroy. They log; the commands print. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "triage/ramdisk/ramdisk_batch.h"

#include "ramdisk/export.h"

#define MB (1024.0 * 1024.0)

int ramdisk_parse_size_arg(const char *s, uint64_t *ret, char *why, size_t len)
{
	size_t i = 0;
	while (isdigit((unsigned char)s[i]))
		i++;
	if (i == 0) {
		snprintf(why, len, "invalid SIZE '%s': expected a number with M or G (e.g. 256M, 2G)", s);
		return -EINVAL;
	}
	if (!s[i]) {
		snprintf(why, len, "invalid SIZE '%s': give a unit, M or G (e.g. %sM)", s, s);
		return -EINVAL;
	}
	char unit = (char)toupper((unsigned char)s[i]);
	const char *rest = s + i + 1;
	if ((unit != 'M' && unit != 'G') ||
	    !(*rest == '\0' || strcasecmp(rest, "B") == 0 || strcasecmp(rest, "iB") == 0)) {
		snprintf(why, len, "invalid SIZE '%s': the unit must be M or G (MiB or GiB)", s);
		return -EINVAL;
	}
	uint64_t v;
	int r = parse_size(s, &v);
	if (r < 0 || v == 0 || v > (UINT64_MAX / RAMDISK_MAX_COUNT)) {
		snprintf(why, len, "invalid SIZE '%s': %s", s, v == 0 && r == 0 ? "must be at least 1M" : "too large");
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

const struct ramdisk_backend *ramdisk_choose_backend(const char *name, const struct ramdisk_spec *spec,
						     char *why, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	const struct ramdisk_backend *chosen = NULL;
	for (size_t i = 0; ramdisk_backends[i] && !chosen; i++) {
		const struct ramdisk_backend *b = ramdisk_backends[i];
		if (name && strcmp(name, b->name) != 0)
			continue;
		char reason[300];
		if (!ramdisk_backend_fits(b, spec, reason, sizeof(reason))) {
			strbuf_addf(&sb, "%s%s", sb.len ? "; " : "", reason);
			continue;
		}
		enum ramdisk_avail a = b->probe(&ramdisk_default_paths, reason, sizeof(reason));
		if (a == RAMDISK_AVAILABLE) {
			chosen = b;
			snprintf(why, len, "%s", reason);
		} else {
			strbuf_addf(&sb, "%s%s", sb.len ? "; " : "", reason);
		}
	}
	if (!chosen)
		snprintf(why, len, "%s", sb.len ? sb.buf : "no such backend");
	strbuf_release(&sb);
	return chosen;
}

int ramdisk_scan_live(bool clean_stale, struct ramdisk_entry **ret, size_t *ret_n)
{
	struct ramdisk_entry *all = NULL;
	size_t n = 0, live = 0;
	int reaped = 0;
	int r = ramdisk_registry_scan(&ramdisk_default_paths, &all, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (all[i].state == RAMDISK_LIVE) {
			if (clean_stale && !all[i].has_link && ramdisk_registry_link(&ramdisk_default_paths, &all[i].dev) == 0)
				log_msg(LOG_INFO, "RAMDISK: restored the link %s -> %s", all[i].dev.link, all[i].dev.path);
			all[live++] = all[i];
			continue;
		}
		if (clean_stale) {
			ramdisk_registry_forget(&ramdisk_default_paths, &all[i]);
			log_msg(LOG_WARN, "RAMDISK: removed stale %s/" RAMDISK_LINK_PREFIX "%u: %s",
				ramdisk_default_paths.dev, all[i].dev.index, all[i].stale_why);
		} else {
			log_msg(LOG_WARN, "RAMDISK: stale %s/" RAMDISK_LINK_PREFIX "%u: %s (the next create or destroy removes it)",
				ramdisk_default_paths.dev, all[i].dev.index, all[i].stale_why);
		}
	}
	if (clean_stale) {
		char why[400];
		for (size_t i = 0; ramdisk_transports[i]; i++) {
			const struct export_transport *tr = ramdisk_transports[i];
			int k = tr->reap(tr->root, ramdisk_default_paths.state, why, sizeof(why));
			if (k > 0)
				log_msg(LOG_WARN, "RAMDISK: %s", why);
			else if (k < 0)
				log_msg(LOG_ERR, "RAMDISK: cannot remove the %sexport an earlier run left: %s",
					tr->words->qualifier, why);
			reaped += k > 0;
		}
	}
	if (clean_stale && live == 0) {
		char why[400];
		for (size_t i = 0; ramdisk_backends[i]; i++) {
			if (!ramdisk_backends[i]->reap)
				continue;
			int k = ramdisk_backends[i]->reap(&ramdisk_default_paths, why, sizeof(why));
			if (k > 0) {
				log_msg(LOG_WARN, "RAMDISK: %s", why);
				reaped++;
			} else if (k < 0) {
				log_msg(LOG_ERR, "RAMDISK: cannot remove what an earlier run left: %s", why);
			}
		}
	}
	*ret = all;
	*ret_n = live;
	return reaped;
}

int ramdisk_check_budget(uint64_t total)
{
	struct ramdisk_mem m;
	int r = ramdisk_mem_read(&m);
	if (r < 0) {
		log_msg(LOG_ERR, "RAMDISK: cannot read /proc/meminfo: %s", strerror(-r));
		return r;
	}
	if (m.arc.max_bytes || m.zfs_fuse) {
		char arc[64] = "";
		if (m.arc.max_bytes)
			snprintf(arc, sizeof(arc), " (%s ARC max %.0fMB)", m.arc.source, (double)m.arc.max_bytes / MB);
		log_msg(LOG_INFO, "RAMDISK: a ZFS ARC is present%s%s; a pool built on a RAM disk is cached in the ARC as "
			"well, so expect up to double the memory cost of the requested size", arc,
			m.zfs_fuse ? ", in the zfs-fuse daemon's own memory" : "");
	}
	log_msg(LOG_INFO, "RAMDISK: requested %.0fMB, %.0fMB available, %.0fMB budget (two thirds of MemAvailable)",
		(double)total / MB, (double)m.mem_available / MB, (double)m.budget / MB);
	if (total > m.budget) {
		log_msg(LOG_ERR, "RAMDISK: refusing: %.0fMB is more than the budget of %.0fMB (two thirds of the %.0fMB "
			"available); RAM disk memory is kernel memory that cannot be swapped",
			(double)total / MB, (double)m.budget / MB, (double)m.mem_available / MB);
		return -ENOMEM;
	}
	return 0;
}

static void forget_batch(struct ramdisk_dev *devs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ramdisk_byid_detach(&devs[i]);
		ramdisk_registry_remove(&ramdisk_default_paths, &devs[i]);
	}
}

int ramdisk_batch_create(const struct ramdisk_backend *b, const struct ramdisk_spec *spec,
			 struct ramdisk_dev *devs)
{
	const struct ramdisk_paths *p = &ramdisk_default_paths;
	char why[512] = "";
	for (unsigned i = 0; i < spec->count; i++) {
		memset(&devs[i], 0, sizeof(devs[i]));
		devs[i].index = i;
		snprintf(devs[i].run_id, sizeof(devs[i].run_id), "%s", spec->run_id ? spec->run_id : "");
	}
	if (b->adds_devices)
		log_msg(LOG_INFO, "RAMDISK: adding %u %s device(s) (hot_add, disksize)", spec->count, b->name);
	else
		log_msg(LOG_INFO, "RAMDISK: loading %s...", b->name);
	int r = b->create(p, spec, devs, why, sizeof(why));
	if (r < 0) {
		log_msg(LOG_ERR, "RAMDISK: %s could not create the devices: %s", b->name, why);
		return r;
	}
	for (unsigned i = 0; i < spec->count; i++) {
		snprintf(devs[i].run_id, sizeof(devs[i].run_id), "%s", spec->run_id ? spec->run_id : "");
		devs[i].ndelay_ns = spec->ndelay_ns;
		r = ramdisk_registry_save(p, &devs[i]);
		if (r < 0) {
			log_msg(LOG_ERR, "RAMDISK: cannot write the record of %s in %s: %s", devs[i].kname, p->state,
				strerror(-r));
			goto undo;
		}
	}
	if (interrupt_requested()) {
		r = -EINTR;
		goto undo;
	}
	r = ramdisk_verify_independent(devs, spec->count, why, sizeof(why));
	if (r < 0) {
		log_msg(LOG_ERR, "RAMDISK: the devices failed the independence check: %s", why);
		goto undo;
	}
	log_msg(LOG_INFO, "RAMDISK: verified that each RAM disk has its own independent backing store "
		"(distinct data written to each of %u, read back with O_DIRECT)", spec->count);
	for (unsigned i = 0; i < spec->count; i++) {
		struct ramdisk_dev *d = &devs[i];
		if (b->attach_identity) {
			r = b->attach_identity(p, d, 5000);
			if (r < 0)
				log_msg(LOG_WARN, "RAMDISK: %s has no /dev/disk/by-id identity: %s", d->path, strerror(-r));
			else if (d->by_id_ours)
				log_msg(LOG_INFO, "RAMDISK: udev is not running: made %s from the device's wwid "
					"(VPD page 0x83), named as udev's scsi_id would", d->by_id);
		}
		r = ramdisk_registry_save(p, d);
		if (r == 0)
			r = ramdisk_registry_link(p, d);
		if (r < 0) {
			log_msg(LOG_ERR, "RAMDISK: cannot make the link for %s: %s", d->path, strerror(-r));
			goto undo;
		}
		char size[32];
		human_size_exact(d->size, size, sizeof(size));
		log_msg(LOG_INFO, "RAMDISK: %s -> %s: %s, %s, %u-byte sectors, ndelay %" PRIu64 "ns", d->link, d->path,
			size, b->name, d->sector_size, d->ndelay_ns);
	}
	if (interrupt_requested()) {
		r = -EINTR;
		goto undo;
	}
	return 0;
undo: {
	char why2[512] = "";
	if (b->destroy(p, devs, spec->count, true, why2, sizeof(why2)) < 0)
		log_msg(LOG_ERR, "RAMDISK: cannot remove the half-made batch: %s", why2);
	else
		log_msg(LOG_INFO, "RAMDISK: removed the %u device(s) this run made", spec->count);
	forget_batch(devs, spec->count);
	return r;
}
}

int ramdisk_batch_destroy(struct ramdisk_dev *devs, size_t n, bool force)
{
	const struct ramdisk_paths *p = &ramdisk_default_paths;
	const struct ramdisk_backend *b = ramdisk_backend_find(devs[0].backend);
	if (!b)
		return -EINVAL;
	struct strbuf names = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", devs[i].kname);
	if (b->removes_devices)
		log_msg(LOG_INFO, "RAMDISK: removing %s (%s)...", names.buf, b->name);
	else
		log_msg(LOG_INFO, "RAMDISK: unloading %s (%s)...", b->name, names.buf);
	strbuf_release(&names);
	for (size_t i = 0; i < n; i++)
		ramdisk_byid_detach(&devs[i]);
	char why[512] = "";
	int r = b->destroy(p, devs, n, force, why, sizeof(why));
	for (size_t i = 0; i < n; i++)
		if (devs[i].removed)
			ramdisk_registry_remove(p, &devs[i]);
	if (r > 0) {
		log_msg(LOG_WARN, "RAMDISK: %s", why);
		r = 0;
	}
	if (r < 0) {
		log_msg(LOG_ERR, "RAMDISK: failed to remove the %s devices: %s", b->name, why);
		/* Links of devices that are still there stay, so list shows them. */
		for (size_t i = 0; i < n; i++)
			if (!devs[i].removed && devs[i].by_id_ours)
				ramdisk_byid_attach(p, &devs[i], 0);
	}
	return r;
}


struct ramdisk_listed *ramdisk_examine(const struct ramdisk_entry *e, size_t n)
{
	struct ramdisk_listed *l = xcalloc(n ? n : 1, sizeof(*l));
	for (size_t i = 0; i < n; i++) {
		l[i].dev = e[i].dev;
		if (ramdisk_usage_check(&l[i].dev, &l[i].usage) < 0)
			snprintf(l[i].usage.status, sizeof(l[i].usage.status), "unknown");
	}
	return l;
}

int ramdisk_create_prepare(const char *backend, struct ramdisk_spec *spec, const struct ramdisk_backend **ret_b,
			   bool *ret_sector_defaulted, char *reason, size_t len)
{
	struct ramdisk_entry *live = NULL;
	size_t nlive = 0;
	char why[1024];
	ramdisk_scan_live(true, &live, &nlive);
	if (nlive) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < nlive; i++)
			strbuf_addf(&sb, "%s%s (%s)", i ? ", " : "", live[i].dev.link, live[i].dev.path);
		log_msg(LOG_ERR, "RAMDISK: refusing: %zu RAM disk(s) already exist: %s; size, sector size and latency "
			"are set for the whole batch, so run 'iotriage ramdisk destroy' first", nlive, sb.buf);
		strbuf_release(&sb);
		free(live);
		snprintf(reason, len, "RAM disks already exist");
		return -EEXIST;
	}
	free(live);
	const struct ramdisk_backend *b = ramdisk_choose_backend(backend, spec, why, sizeof(why));
	if (!b) {
		log_msg(LOG_ERR, "RAMDISK: %s: %s", backend ? "cannot use that backend" : "no backend here can do this",
			why);
		snprintf(reason, len, "no backend");
		return -ENODEV;
	}
	*ret_b = b;
	log_msg(LOG_INFO, "RAMDISK: backend %s (%s)", b->name, why);
	*ret_sector_defaulted = spec->sector_size == 0;
	spec->sector_size = ramdisk_backend_sector_size(b, spec);
	if (ramdisk_check_budget(spec->size * spec->count) < 0) {
		snprintf(reason, len, "over the memory budget");
		return -ENOMEM;
	}
	return 0;
}

size_t ramdisk_destroy_log_busy(const struct ramdisk_listed *l, size_t n, bool force)
{
	size_t busy = 0;
	for (size_t i = 0; i < n; i++) {
		if (!ramdisk_usage_busy(&l[i].usage))
			continue;
		busy++;
		for (size_t k = 0; k < l[i].usage.count; k++)
			log_msg(force ? LOG_WARN : LOG_ERR, "RAMDISK: %s (%s) is in use: %s", l[i].dev.link, l[i].dev.path,
				l[i].usage.uses[k]);
	}
	return busy;
}

const char *ramdisk_export_destroy_guard(bool force)
{
	struct ramdisk_export e;
	if (!ramdisk_export_find(ramdisk_default_paths.state, &e))
		return NULL;
	const struct export_transport *t = e.transport;
	char name[400], why[400];
	snprintf(name, sizeof(name), "over %s as '%s' on %s:%u", t->words->title, e.name, e.traddr, e.port);
	if (!force) {
		log_msg(LOG_ERR, "RAMDISK: the RAM disks are exported %s: nothing destroyed; run 'iotriage ramdisk "
			"unexport' first, or destroy --force (which removes the export, cutting off any client)", name);
		return "exported";
	}
	log_msg(LOG_WARN, "RAMDISK: --force: removing the export %s first", name);
	int r = t->unmake(t->root, ramdisk_default_paths.state, &e, why, sizeof(why));
	if (r < 0) {
		log_msg(LOG_ERR, "RAMDISK: %s; nothing destroyed", why);
		return "the export could not be removed";
	}
	return NULL;
}

const char *ramdisk_destroy_refusal(const struct ramdisk_listed *l, size_t n, size_t busy, bool force)
{
	const struct ramdisk_backend *b = n ? ramdisk_backend_find(l[0].dev.backend) : NULL;
	const char *exported = ramdisk_export_destroy_guard(force);
	if (exported)
		return exported;
	if (busy && !force) {
		log_msg(LOG_ERR, "RAMDISK: nothing destroyed (destroy takes all or none): stop using %s and run destroy "
			"again, or use --force, which leaves those users referencing a device that no longer exists",
			busy == 1 ? "that device" : "those devices");
		return "in use";
	}
	if (busy && b && !b->can_force) {
		log_msg(LOG_ERR, "RAMDISK: nothing destroyed: the kernel does not let %s remove a device that is open, so "
			"--force cannot help; stop using it first", b->name);
		return "in use; the backend cannot remove open devices";
	}
	return NULL;
}

/* After a failed destroy: what still holds each device, right now (rather
 * than sending the user to lsof), and how many were removed. */
static void log_still_held(const struct ramdisk_listed *l, size_t n, size_t gone)
{
	for (size_t i = 0; i < n; i++) {
		struct ramdisk_usage u;
		if (ramdisk_usage_check(&l[i].dev, &u) == 0 && u.count)
			for (size_t k = 0; k < u.count; k++)
				log_msg(LOG_ERR, "RAMDISK: %s: %s", l[i].dev.path, u.uses[k]);
	}
	log_msg(LOG_ERR, "RAMDISK: %zu of %zu device(s) removed; run 'iotriage ramdisk list' to see what is left",
		gone, n);
}

int ramdisk_destroy_listed(const struct ramdisk_listed *l, size_t n, bool force, uint64_t before,
			   uint64_t *ret_after, const char **ret_reason)
{
	struct ramdisk_dev *devs = xcalloc(n, sizeof(*devs));
	for (size_t i = 0; i < n; i++)
		devs[i] = l[i].dev;
	int r = ramdisk_batch_destroy(devs, n, force);
	size_t gone = 0;
	for (size_t i = 0; i < n; i++)
		gone += devs[i].removed;
	free(devs);
	if (r < 0) {
		log_still_held(l, n, gone);
		*ret_reason = "the kernel refused";
		return r;
	}
	for (size_t i = 0; i < n; i++)
		if (ramdisk_usage_busy(&l[i].usage))
			for (size_t k = 0; k < l[i].usage.count; k++)
				log_msg(LOG_WARN, "RAMDISK: --force left dangling: %s, which referred to %s (now gone)",
					l[i].usage.uses[k], l[i].dev.path);
	usleep(200 * 1000); /* freed pages reach MemAvailable within a moment */
	*ret_after = ramdisk_mem_available();
	log_msg(LOG_INFO, "RAMDISK: RAM disks destroyed and memory released: MemAvailable %.0fMB before, %.0fMB after "
		"(%+.0fMB)", (double)before / MB, (double)*ret_after / MB, ((double)*ret_after - (double)before) / MB);
	return 0;
}
