/* render/ramdisk.c: the RAM disks and their export as `ramdisk list` and
 * the documents show them (see ramdisk.h). */
#include "render/ramdisk.h"

#include <inttypes.h>
#include <stdio.h>

#include "output/latency.h"
#include "output/table.h"
#include "triage/ramdisk/ramdisk_export.h"

#define MB (1024.0 * 1024.0)

void ramdisk_print_table(const struct ramdisk_listed *l, size_t n, FILE *out)
{
	static const char *const headers[] = { "DEVICE", "FRIENDLY", "BACKEND", "SIZE(MB)", "SECTOR", "NDELAY(ns)",
					       "STATUS", "BY-ID" };
	struct table t;
	table_init(&t, 8, headers, "lllrrrll");
	for (size_t i = 0; i < n; i++) {
		char size[32], sector[16], ndelay[32];
		snprintf(size, sizeof(size), "%.0f", (double)l[i].dev.size / MB);
		snprintf(sector, sizeof(sector), "%u", l[i].dev.sector_size);
		snprintf(ndelay, sizeof(ndelay), "%" PRIu64, l[i].dev.ndelay_ns);
		char status[200];
		snprintf(status, sizeof(status), "%s%s", l[i].usage.status,
			 l[i].usage.unknown ? " (openers: needs root)" : "");
		const char *cells[] = { l[i].dev.path, l[i].dev.link, l[i].dev.backend, size, sector, ndelay, status,
					l[i].dev.by_id[0] ? l[i].dev.by_id : "-" };
		table_add_row(&t, cells);
	}
	table_print(&t, out);
	table_release(&t);
}

void ramdisk_json_devices(struct json *j, const char *key, const struct ramdisk_listed *l, size_t n)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "index", l[i].dev.index);
		json_string(j, "device", l[i].dev.path);
		json_string(j, "friendly", l[i].dev.link);
		json_string(j, "backend", l[i].dev.backend);
		json_uint(j, "size_bytes", l[i].dev.size);
		json_uint(j, "sector_size_bytes", l[i].dev.sector_size);
		json_uint(j, "ndelay_ns", l[i].dev.ndelay_ns);
		json_string(j, "status", l[i].usage.status);
		json_bool(j, "in_use", ramdisk_usage_busy(&l[i].usage));
		json_begin_array(j, "uses");
		for (size_t k = 0; k < l[i].usage.count; k++)
			json_string(j, NULL, l[i].usage.uses[k]);
		json_end_array(j);
		json_string(j, "by_id", l[i].dev.by_id[0] ? l[i].dev.by_id : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}

void ramdisk_export_json(struct json *j, const struct ramdisk_export *e)
{
	const struct export_transport *t = e->transport;
	const struct export_transport_words *w = t->words;
	json_begin_object(j, "export");
	json_string(j, "transport", t->name);
	json_string(j, w->name_key, e->name);
	json_string(j, "traddr", e->traddr);
	json_uint(j, w->port_key, e->port);
	if (w->local_id_key)
		json_uint(j, w->local_id_key, e->port_id);
	json_string(j, w->client_key, e->allow_any_host ? NULL : e->client);
	json_bool(j, "allow_any_host", e->allow_any_host);
	json_begin_array(j, w->units_key);
	for (size_t i = 0; i < e->n; i++) {
		json_begin_object(j, NULL);
		json_uint(j, w->unit_key, i + w->unit_base);
		json_string(j, "device", e->devices[i]);
		if (w->unit_name_key) {
			char name[128];
			t->unit_name(e, i, name, sizeof(name));
			json_string(j, w->unit_name_key, name);
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void ramdisk_export_print(FILE *out, const struct ramdisk_export *e)
{
	const struct export_transport_words *w = e->transport->words;
	char detail[96];
	e->transport->detail(e, detail, sizeof(detail));
	fprintf(out, "\nExported over %s as %s on %s:%u (%s), %zu %s(s), %s%s%s%s\n", w->title, e->name, e->traddr,
		e->port, detail, e->n, w->unit_word, e->allow_any_host ? "any " : "", w->client_word,
		e->allow_any_host ? "" : " ", e->allow_any_host ? "" : e->client);
}

void ramdisk_plan_print(const struct ramdisk_spec *spec, const struct ramdisk_backend *b, bool sector_defaulted)
{
	FILE *o = stderr;
	fprintf(o, "\n  About to create %u RAM disk(s) of %.0fMB each (%.0fMB total) with %s.\n", spec->count,
		(double)spec->size / MB, (double)spec->size * spec->count / MB, b->name);
	fprintf(o, "  Sector size: %u%s   Synthetic latency: %" PRIu64 "ns\n\n", spec->sector_size,
		sector_defaulted && spec->sector_size == 4096 ? " (the only size zram offers)" : "", spec->ndelay_ns);
	fputs("  These devices are VOLATILE.  All data on them is lost on 'iotriage ramdisk destroy'\n"
	      "  and on reboot.  They are for performance measurement only -- do not place\n"
	      "  customer data on them and do not build production pools on them.\n\n",
	      o);
}

void ramdisk_create_json(struct json *j, const struct ramdisk_spec *spec, const struct ramdisk_backend *b, bool created,
			const char *reason, const struct ramdisk_listed *l)
{
	json_begin_object(j, "ramdisk");
	json_string(j, "action", "create");
	json_string(j, "backend", b ? b->name : NULL);
	json_uint(j, "count", spec->count);
	json_uint(j, "size_bytes", spec->size);
	json_uint(j, "sector_size_bytes", spec->sector_size);
	json_uint(j, "ndelay_ns", spec->ndelay_ns);
	json_bool(j, "created", created);
	json_string(j, "reason", reason[0] ? reason : NULL);
	ramdisk_json_devices(j, "devices", l, created ? spec->count : 0);
	json_end_object(j);
}

void ramdisk_sweep_print(const struct sweep *s)
{
	const struct sweep_point *base = NULL;
	for (size_t i = 0; i < s->n && !base; i++)
		if (s->points[i].measured && s->points[i].ndelay_ns == 0)
			base = &s->points[i];
	static const char *const headers[] = { "NDELAY(ns)", "MEAN(us)", "P50(us)", "P99(us)", "IOPS",
					       "ADDED(us)", "ADDED/NDELAY" };
	struct table t;
	table_init(&t, 7, headers, "rrrrrrr");
	for (size_t i = 0; i < s->n; i++) {
		const struct sweep_point *pt = &s->points[i];
		char c[7][48];
		snprintf(c[0], sizeof(c[0]), "%" PRIu64, pt->ndelay_ns);
		if (!pt->measured) {
			const char *cells[] = { c[0], "-", "-", "-", "-", "-", pt->why[0] ? pt->why : "not measured" };
			table_add_row(&t, cells);
			continue;
		}
		snprintf(c[1], sizeof(c[1]), "%.1f", pt->mean_ns / 1e3);
		snprintf(c[2], sizeof(c[2]), "%.1f", (double)pt->p50_ns / 1e3);
		snprintf(c[3], sizeof(c[3]), "%.1f", (double)pt->p99_ns / 1e3);
		snprintf(c[4], sizeof(c[4]), "%.0f", pt->iops);
		snprintf(c[5], sizeof(c[5]), "%s", "-");
		snprintf(c[6], sizeof(c[6]), "%s", "-");
		if (base && pt != base) {
			double added = pt->mean_ns - base->mean_ns;
			snprintf(c[5], sizeof(c[5]), "%.1f", added / 1e3);
			if (pt->ndelay_ns)
				snprintf(c[6], sizeof(c[6]), "%.0f%%", 100.0 * added / (double)pt->ndelay_ns);
		}
		const char *cells[] = { c[0], c[1], c[2], c[3], c[4], c[5], c[6] };
		table_add_row(&t, cells);
	}
	fputc('\n', stdout);
	table_print(&t, stdout);
	table_release(&t);
}

void ramdisk_sweep_json(struct json *j, const struct sweep *s)
{
	json_begin_object(j, "ramdisk");
	json_string(j, "action", "sweep");
	json_string(j, "backend", s->b ? s->b->name : NULL);
	json_string(j, "reason", s->reason);
	json_uint(j, "size_bytes", s->size);
	json_uint(j, "bs_bytes", 4096);
	json_uint(j, "iodepth", 1);
	json_string(j, "engine", "psync");
	json_string(j, "cache", "bypassed");
	json_double(j, "runtime_cap_seconds", (double)s->runtime_ns / 1e9);
	json_begin_array(j, "points");
	for (size_t i = 0; i < s->n; i++) {
		const struct sweep_point *pt = &s->points[i];
		json_begin_object(j, NULL);
		json_uint(j, "ndelay_ns", pt->ndelay_ns);
		json_bool(j, "measured", pt->measured);
		if (pt->measured) {
			json_double(j, "mean_lat_ns", pt->mean_ns);
			json_uint(j, "p50_lat_ns", pt->p50_ns);
			json_uint(j, "p99_lat_ns", pt->p99_ns);
			json_latency_summary(j, "lat_ns", &pt->lat);
			json_double(j, "iops", pt->iops);
			json_uint(j, "ios", pt->ios);
			json_double(j, "seconds", pt->seconds);
		} else {
			json_string(j, "reason", pt->why[0] ? pt->why : "interrupted");
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}
