/* render/ceph.c: the Ceph step on the terminal (see ceph.h). */
#include "render/ceph.h"

#include "basic/humanize.h"
#include "output/table.h"

static void osd_row(struct table *t, const struct ceph_osd_result *o)
{
	char rate[32] = "", share[16] = "", benches[16] = "", commit[24] = "";
	if (o->rate > 0)
		human_rate(o->rate, rate, sizeof(rate));
	if (o->rate > 0 && o->peers.peer_median > 0)
		snprintf(share, sizeof(share), "%.0f%%", 100.0 * o->peers.ratio);
	if (o->verdict == CEPH_OSD_SLOW || o->verdict == CEPH_OSD_UNCONFIRMED)
		snprintf(benches, sizeof(benches), "%u of %u", o->out_of_line, o->nbench);
	if (o->commit_ms >= 0)
		snprintf(commit, sizeof(commit), "%.0f ms", o->commit_ms);
	const char *row[] = { o->osd.name, o->osd.host, o->osd.device[0] ? o->osd.device : "?", o->osd.device_class,
			      rate, share, benches, commit, ceph_osd_verdict_word(o->verdict) };
	table_add_row(t, row);
}

void ceph_step_print(const struct ceph_step *s, FILE *out)
{
	static const char *const headers[] = { "OSD", "HOST", "DEVICE", "CLASS", "BENCH", "OF MEDIAN",
					       "OUT OF LINE", "COMMIT LAT", "VERDICT" };
	fprintf(out, "\nOSDs of Ceph pool %s (ceph tell osd.N bench, %llu MiB in %llu MiB writes):\n", s->pool,
		(unsigned long long)(CEPH_STEP_BENCH_BYTES >> 20), (unsigned long long)(CEPH_STEP_BENCH_BLOCK >> 20));
	if (!s->nosds) {
		fprintf(out, "  not measured: %s\n", s->error[0] ? s->error : "interrupted");
	} else {
		struct table t;
		table_init(&t, 9, headers, "lllllrrrl");
		for (size_t i = 0; i < s->nosds; i++)
			osd_row(&t, &s->osds[i]);
		table_print(&t, out);
		table_release(&t);
	}
	size_t judged = 0;
	for (size_t i = 0; i < s->nosds; i++)
		judged += s->osds[i].verdict != CEPH_OSD_NOT_JUDGED && s->osds[i].verdict != CEPH_OSD_DOWN;
	if (s->slow < 0 && s->ran)
		fprintf(out, judged ? "No OSD stands out from its peers.\n"
				    : "Too few OSDs measured to compare them (%u needed).\n", OUTLIER_MIN_SET);
	for (size_t i = 0; i < s->findings.count; i++) {
		const struct pool_finding *f = &s->findings.items[i];
		fprintf(out, "%s: %s: %s (%s); fix: %s\n", f->severity[0] == 'n' ? "Note" : "FINDING", f->subject,
			f->text, f->evidence, f->fix);
	}
}
