/* render/pool.c: benchpool's and rwpool's results on the terminal (see pool.h). */
#include "render/pool.h"

#include <stdio.h>

#include "basic/humanize.h"
#include "output/table.h"
#include "render/ceph.h"
#include "render/read.h"

/* The outcomes as a table: one row per figure, or the reason a test has none. */
static void outcomes_table(const struct pb_outcome *o, size_t n, const char *compression, FILE *out)
{
	static const char *const headers[] = { "TEST", "PASS", "BYTES", "TIME", "RATE", "IOPS", "SERVED BY / DATA" };
	struct table t;
	table_init(&t, 7, headers, "llrrrrl");
	for (size_t i = 0; i < n; i++) {
		if (o[i].state != PB_RAN || o[i].nfigures == 0) {
			char what[600];
			snprintf(what, sizeof(what), "%s: %s", o[i].state == PB_SKIPPED ? "skipped" :
				 o[i].state == PB_INTERRUPTED ? "interrupted" : "failed", o[i].reason);
			const char *row[] = { pb_test_name(o[i].test), "", "", "", "", "", what };
			table_add_row(&t, row);
		}
		for (size_t k = 0; k < o[i].nfigures; k++) {
			const struct pb_figure *f = &o[i].figures[k];
			char bytes[32], secs[32], rate[32], iops[32] = "", served[96];
			human_iec((double)f->bytes, bytes, sizeof(bytes));
			snprintf(secs, sizeof(secs), "%.2f s", f->seconds);
			human_rate(f->bw_bytes_per_s, rate, sizeof(rate));
			if (f->iops > 0)
				snprintf(iops, sizeof(iops), "%.0f", f->iops);
			if (f->is_read)
				snprintf(served, sizeof(served), "%s", f->cache ? f->cache : "");
			else
				snprintf(served, sizeof(served), "%s data, compression %s", f->pattern ? f->pattern : "?",
					 compression);
			const char *row[] = { k == 0 ? pb_test_name(o[i].test) : "", f->label, bytes, secs, rate, iops, served };
			table_add_row(&t, row);
		}
	}
	table_print(&t, out);
	table_release(&t);
}

/* The table and the notes under it. */
void benchpool_print(const struct benchpool_result *b)
{
	printf("\n");
	outcomes_table(b->outcomes, b->noutcomes, b->compression, stdout);
	printf("\n");
	if (b->cache_note.len)
		printf("Note: %s.\n", b->cache_note.buf);
	if (b->ctx.compression_on)
		printf("Note: compression is %s here; every write figure above is for %s data.\n", b->compression,
		       b->set.pattern == PATTERN_ZEROS ? "zero (highly compressible, inflated)" : "incompressible");
	if (b->zeros_note.len)
		printf("Note: %s.\n", b->zeros_note.buf);
	for (size_t i = 0; i < b->noutcomes; i++) {
		enum pb_test t = b->outcomes[i].test;
		const struct random_reading *r = &b->reading.readings[t];
		if (b->reading.judged[t])
			printf("%s (%s): %s%s%s.\n", r->layout_limited ? "Layout" : "Random pass", pb_test_name(t),
			       r->sentence, r->advice[0] ? "; " : "", r->advice);
		if (b->reading.gap[t][0])
			printf("Jobs (%s): %s.\n", pb_test_name(t), b->reading.gap[t]);
	}
	const struct ceph_state *c = &b->ceph;
	if (c->read) {
		printf("Ceph: %s, %d of %d OSDs up, %d in", c->health, c->osds_up, c->osds, c->osds_in);
		if (c->pool.pool[0])
			printf("; pool %s: size %d, min_size %d, pg_num %d, crush rule %s", c->pool.pool, c->pool.size,
			       c->pool.min_size, c->pool.pg_num, c->pool.crush_rule[0] ? c->pool.crush_rule : "?");
		printf(" (the results file has the cluster's status)\n");
	}
}

/* The pool's findings: settings and state, then its members under load. */
void benchpool_findings_print(const struct benchpool_result *b)
{
	const struct pool_findings *lists[] = { &b->evidence.settings, &b->evidence.load };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->count; i++) {
			const struct pool_finding *f = &lists[l]->items[i];
			printf("%s: %s: %s (%s); fix: %s\n", f->severity[0] == 'n' ? "Note" : "FINDING", f->subject,
			       f->text, f->evidence, f->fix);
		}
	if (b->have_osds)
		ceph_step_print(&b->osds, stdout);
}

void rwpool_print(const struct rwpool_result *r)
{
	printf("%s (%s, %s):", r->target.pool, r->target.kind->fstype, r->target.mountpoint);
	if (r->status) {
		printf(" failed: %s\n", r->reason);
		return;
	}
	for (size_t i = 0; i < r->outcome.nfigures; i++) {
		const struct pb_figure *f = &r->outcome.figures[i];
		char bytes[32], rate[32];
		human_iec((double)f->bytes, bytes, sizeof(bytes));
		human_rate(f->bw_bytes_per_s, rate, sizeof(rate));
		printf("  %s %s at %s%s%s%s", f->is_read ? "read" : "wrote", bytes, rate, f->is_read ? " (" : "",
		       f->is_read ? f->cache : "", f->is_read ? ")" : "");
	}
	putchar('\n');
}

/* runall: "Members of POOL:" and the read batch of its members. */
void rwpool_members_print(const char *pool, const struct read_batch *b)
{
	printf("\nMembers of %s:", pool);
	read_batch_present(b, stdout);
}
