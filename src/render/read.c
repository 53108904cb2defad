/* render/read.c: a read batch on the terminal (see read.h). */
#include "render/read.h"

#include <stdio.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/strbuf.h"
#include "media/disk_verdict.h"
#include "output/table.h"
#include "triage/media/read_health.h"
#include "triage/media/read_link.h"
#include "triage/media/read_verdict.h"

void read_batch_print_table(const struct read_batch *b, FILE *out)
{
	static const char *const headers[] = { "DEVICE", "MODEL", "SIZE", "READ", "TIME", "RATE",
					       "OF MEDIAN", "TOGETHER", "VERDICT", "HEALTH", "LINK", "STATUS" };
	struct table t;
	table_init(&t, 12, headers, "llrrrrrrllll");
	for (size_t k = 0; k < b->count; k++) {
		const struct disk_read *d = &b->reads[b->order ? b->order[k] : k];
		if (d->status == READTEST_SKIPPED && d->info.skip_reason)
			continue; /* not a disk: summed up in one log line, listed by --json */
		char size[32] = "", bytes[32] = "", secs[32] = "", rate[32] = "", pct[32] = "", together[32] = "",
		     status[400];
		if (d->parallel_bw > 0)
			snprintf(together, sizeof(together), "%.0f%%", d->parallel_pct_of_serial);
		if (d->info.size_bytes)
			human_size_exact(d->info.size_bytes, size, sizeof(size));
		if (d->status == READTEST_OK) {
			human_iec((double)d->res->bytes, bytes, sizeof(bytes));
			snprintf(secs, sizeof(secs), "%.2f s", d->res->seconds);
			if (d->by_iops)
				snprintf(rate, sizeof(rate), "%.0f IOPS", job_iops(d->res));
			else
				human_rate(job_bw_bytes_per_s(d->res), rate, sizeof(rate));
			snprintf(pct, sizeof(pct), "%.0f%%", d->pct_of_median);
		}
		snprintf(status, sizeof(status), "%s%s%s", readtest_status_name(d->status),
			 d->reason[0] ? ": " : "", d->reason);
		char health[32], link[120];
		read_health_word(d, health, sizeof(health));
		read_link_cell(d, link, sizeof(link));
		const char *word = disk_verdict_word(d->verdict.kind);
		char device[200];
		/* A disk read on another host over ssh: HOST:PATH, as scp names a file there. */
		snprintf(device, sizeof(device), "%s%s%s", d->host, d->host[0] ? ":" : "", d->info.dev_path);
		const char *row[] = { device, d->info.model, size, bytes, secs, rate, pct, together,
				      word ? word : "", health, link, status };
		table_add_row(&t, row);
	}
	table_print(&t, out);
	table_release(&t);
}

void read_groups_print(const struct read_batch *b, const struct read_groups *groups, FILE *out)
{
	size_t width = 0;
	for (size_t g = 0; g < groups->count; g++)
		if (strlen(groups->groups[g].name) > width)
			width = strlen(groups->groups[g].name);
	for (size_t g = 0; g < groups->count; g++) {
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line, "%-*s", (int)width, groups->groups[g].name);
		for (size_t i = 0; i < b->count; i++) {
			const struct disk_read *d = &b->reads[i];
			if (groups->member_of[i] != g)
				continue;
			/* A completed read's verdict is shown only when out of line. */
			bool marked = disk_verdict_out_of_line(d->verdict.kind);
			if (d->status == READTEST_OK)
				strbuf_addf(&line, "  %s %.0f %s%s", d->info.kname,
					    d->by_iops ? job_iops(d->res) : job_bw_bytes_per_s(d->res) / 1e6,
					    d->by_iops ? "IOPS" : "MB/s",
					    marked ? " (" : "");
			else
				strbuf_addf(&line, "  %s %s", d->info.kname, readtest_status_name(d->status));
			if (d->status == READTEST_OK && marked)
				strbuf_addf(&line, "%s)", disk_verdict_word(d->verdict.kind));
		}
		fprintf(out, "%s\n", line.buf);
		strbuf_release(&line);
	}
	for (size_t g = 0; g < groups->count; g++)
		if (groups->groups[g].sentence[0])
			fprintf(out, "  %s\n", groups->groups[g].sentence);
}

void read_health_print(const struct read_batch *b, FILE *out)
{
	bool header = false;
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		bool flagged = disk_verdict_flagged(d->verdict.kind);
		if (!d->health_checked || (!flagged && !read_health_failing(d)))
			continue;
		if (!header)
			fputs("Health of the flagged disks and of those reporting a failure:\n", out);
		header = true;
		char text[600];
		read_health_describe(d, text, sizeof(text));
		fprintf(out, "  %s: %s\n", d->info.dev_path, text);
	}
	if (header)
		fputc('\n', out);
}

/* The link reasons: a degraded link, or a link at a disk's rate. */
static void read_links_print(const struct read_batch *b, FILE *out)
{
	bool header = false;
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_verdict *v = &b->reads[i].verdict;
		for (size_t k = 0; k < v->reason_count; k++) {
			if (v->reasons[k].kind != REASON_LINK)
				continue;
			if (!header)
				fputs("Links:\n", out);
			header = true;
			fprintf(out, "  %s\n", v->reasons[k].evidence);
		}
	}
	if (header)
		fputc('\n', out);
}

void read_batch_present(const struct read_batch *b, FILE *out)
{
	if (!b->count)
		return;
	struct read_groups groups;
	read_groups_build(b, &groups);
	fputc('\n', out);
	read_batch_print_table(b, out);
	fputc('\n', out);
	if (groups.count) {
		fprintf(out, "By %s:\n", read_group_by_name(groups.by));
		read_groups_print(b, &groups, out);
		fputc('\n', out);
	}
	read_health_print(b, out);
	read_links_print(b, out);
	read_groups_release(&groups);
	if (b->conclusion[0])
		fprintf(out, "Verdict\n  %s\n\n", b->conclusion);
}
