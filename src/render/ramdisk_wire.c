/* render/ramdisk_wire.c: the wire comparison's rendering (ramdisk client
 * and wire): each side's three workloads as JSON, the judged pair as JSON
 * and as the table and sentence on the terminal. */
#include "render/ramdisk_wire.h"

#include <stdio.h>

#include "triage/ramdisk/ramdisk_export.h"

/* The port under the path on one side; null when it was not found. */
static void link_json(struct json *j, const struct link_rate *k)
{
	if (!k->found) {
		json_null(j, "link");
		return;
	}
	json_begin_object(j, "link");
	json_string(j, "interface", k->interface);
	json_string(j, "kind", *k->kind ? k->kind : NULL);
	if (k->speed_mbps > 0)
		json_int(j, "speed_mbps", k->speed_mbps);
	else
		json_null(j, "speed_mbps");
	json_string(j, "qdisc", *k->qdisc ? k->qdisc : NULL);
	if (k->shaped_bps)
		json_double(j, "shaped_mbps", (double)k->shaped_bps / 1e6);
	else
		json_null(j, "shaped_mbps");
	json_end_object(j);
}

void ramdisk_wire_side_json(struct json *j, const char *key, const struct wire_side *s)
{
	json_begin_object(j, key);
	for (int w = 0; w < WIRE_WORKLOADS; w++) {
		const struct wire_lat *l = &s->w[w];
		json_begin_object(j, wire_workload_names[w]);
		json_string(j, "device", l->device);
		json_double(j, "mean_ns", l->mean_ns);
		json_uint(j, "p50_ns", l->p50_ns);
		json_uint(j, "p99_ns", l->p99_ns);
		json_double(j, "iops", l->iops);
		json_double(j, "bw_bytes_per_s", l->bw_bytes_per_s);
		json_uint(j, "ios", l->ios);
		json_end_object(j);
	}
	json_uint(j, "rtt_ns", s->rtt_ns);
	link_json(j, &s->link);
	json_end_object(j);
}

static void wire_row(const char *side, const struct wire_lat *l)
{
	printf("  %-6s %-20s %8.1f us %8.1f us %8.1f us %9.0f %9.1f MB/s\n", side, l->device, l->mean_ns / 1e3,
	       (double)l->p50_ns / 1e3, (double)l->p99_ns / 1e3, l->iops, l->bw_bytes_per_s / 1e6);
}

void ramdisk_wire_json(struct json *j, const struct wire_side *local, const struct wire_side *remote,
		       const struct wire_judgement *judged)
{
	const struct wire_judgement jd = *judged;
	ramdisk_wire_side_json(j, "local", local);
	ramdisk_wire_side_json(j, "remote", remote);
	json_begin_object(j, "added");
	json_double(j, "mean_ns", jd.added_mean_ns);
	json_double(j, "p50_ns", jd.added_p50_ns);
	json_double(j, "p99_ns", jd.added_p99_ns);
	json_double(j, "iops_fraction", jd.iops_fraction);
	json_double(j, "bw_fraction", jd.bw_fraction);
	json_end_object(j);
	json_begin_object(j, "judgement");
	json_bool(j, "large", jd.large);
	json_string(j, "layer", jd.layer);
	json_string(j, "sentence", jd.sentence);
	ramdisk_wire_ceiling_json(j, &jd);
	json_end_object(j);
}

void ramdisk_wire_print(const struct wire_side *local, const struct wire_side *remote,
			const struct wire_judgement *judged)
{
	const struct wire_judgement jd = *judged;
	printf("%-29s %11s %11s %11s %9s %14s\n", "", "mean", "p50", "p99", "IOPS", "bandwidth");
	for (int i = 0; i < WIRE_WORKLOADS; i++) {
		printf("%s\n", wire_workload_titles[i]);
		wire_row("local", &local->w[i]);
		wire_row("remote", &remote->w[i]);
	}
	printf("\nadded by the network and the target stack: %.1f us mean, %.1f us p50, %.1f us p99 per I/O at QD1;\n"
	       "the client reached %.1f%% of local IOPS at QD32 and %.1f%% of local bandwidth at 1 MiB\n",
	       jd.added_mean_ns / 1e3, jd.added_p50_ns / 1e3, jd.added_p99_ns / 1e3, 100 * jd.iops_fraction,
	       100 * jd.bw_fraction);
	if (jd.ceiling_mbps > 0)
		printf("the path's ceiling: %.0f Mb/s (%s); 1 MiB reads carried %.0f Mb/s\n", jd.ceiling_mbps,
		       jd.ceiling_from, remote->w[WIRE_SEQ].bw_bytes_per_s * 8 / 1e6);
	else
		printf("the path's ceiling: %s\n", jd.ceiling_from);
	printf("%s%s\n", jd.layer ? "LAYER: " : "", jd.sentence);
}

void ramdisk_wire_delay_json(struct json *j, const struct wire_delay_run *run)
{
	if (!*run->backend) {
		json_null(j, "backend_delay_base");
	} else {
		json_begin_object(j, "backend_delay_base");
		json_string(j, "backend", run->backend);
		json_string(j, "device", run->device);
		json_uint(j, "ndelay_ns", run->recorded_ns);
		json_bool(j, "restored", !run->changed || run->restored);
		json_end_object(j);
	}
	json_begin_array(j, "backend_delay");
	for (size_t i = 0; i < run->n; i++) {
		const struct wire_delay_point *pt = &run->p[i];
		json_begin_object(j, NULL);
		json_uint(j, "ndelay_ns", pt->ndelay_ns);
		ramdisk_wire_side_json(j, "local", &pt->local);
		ramdisk_wire_side_json(j, "remote", &pt->remote);
		json_begin_object(j, "effect");
		for (int w = 0; w < WIRE_WORKLOADS; w++) {
			json_begin_object(j, wire_workload_names[w]);
			json_double(j, "local", pt->effect[w].local);
			json_double(j, "remote", pt->effect[w].remote);
			json_string(j, "word", pt->effect[w].word);
			json_end_object(j);
		}
		json_end_object(j);
		json_string(j, "sentence", pt->sentence);
		json_end_object(j);
	}
	json_end_array(j);
}

/* One workload's effect: QD1 in us added, the others in percent. */
static void effect_row(int w, const struct wire_delay_effect *e)
{
	if (w == WIRE_QD1)
		printf("  %-27s %+11.1f us %+11.1f us  %s\n", wire_workload_titles[w], e->local / 1e3, e->remote / 1e3,
		       e->word);
	else
		printf("  %-27s %+13.1f%% %+13.1f%%  %s\n", wire_workload_titles[w], -100 * e->local, -100 * e->remote,
		       e->word);
}

void ramdisk_wire_delay_print(const struct wire_delay_run *run)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct wire_delay_point *pt = &run->p[i];
		printf("\nwith the back end's per-command delay at %.1f us (%s; the disk's own: %.1f us)\n",
		       (double)pt->ndelay_ns / 1e3, run->backend, (double)run->recorded_ns / 1e3);
		printf("  %-27s %14s %14s  %s\n", "what the delay costs", "locally", "from the client", "through the path");
		for (int w = 0; w < WIRE_WORKLOADS; w++)
			effect_row(w, &pt->effect[w]);
		printf("BACK END: %s\n", pt->sentence);
	}
	if (run->changed)
		printf("\nthe per-command delay of %s %s to %.1f us\n", run->device,
		       run->restored ? "restored" : "NOT restored", (double)run->recorded_ns / 1e3);
}
