/* render/fleet.c: fleet's tables on the terminal (see fleet.h). */
#include "render/fleet.h"

#include <stdio.h>

#include "basic/humanize.h"
#include "output/table.h"

static void row(struct table *t, const char *host, const char *addr, const char *status,
		const struct fio_client_figures *f, const char *reason)
{
	char rbw[32] = "", wbw[32] = "", riops[32] = "", wiops[32] = "";
	if (f) {
		human_rate(f->read_bw, rbw, sizeof(rbw));
		human_rate(f->write_bw, wbw, sizeof(wbw));
		snprintf(riops, sizeof(riops), "%.0f", f->read_iops);
		snprintf(wiops, sizeof(wiops), "%.0f", f->write_iops);
	}
	const char *cells[] = { host, addr, status, rbw, riops, wbw, wiops, reason };
	table_add_row(t, cells);
}

void fleet_load_print(const struct fleet_load *ld)
{
	struct table t;
	table_init(&t, 8, (const char *[]){ "HOST", "ADDRESS", "STATUS", "READ", "READ IOPS", "WRITE", "WRITE IOPS",
					    "REASON" }, "lllrrrrl");
	for (size_t i = 0; i < ld->n; i++) {
		const struct fleet_load_host *h = &ld->h[i];
		const struct fio_client_figures *f = ld->ran && ld->figures.clients[i].reported
							     ? &ld->figures.clients[i] : NULL;
		row(&t, h->name, h->addr, fleet_status_name(h->status), f, h->reason);
	}
	if (ld->ran) {
		char n[48];
		snprintf(n, sizeof(n), "%zu of %zu clients", ld->ok, ld->n);
		row(&t, "aggregate", "", n, &ld->figures.aggregate, "");
	}
	table_print(&t, stdout);
	table_release(&t);
	if (ld->error[0])
		printf("no synchronized load: %s\n", ld->error);
}

void fleet_print(const struct fleet_host *hosts, size_t n, const struct fleet_judgement *jd)
{
	struct table t;
	table_init(&t, 6, (const char *[]){ "HOST", "HOSTNAME", "STATUS", "SECONDS", "READ", "REASON" }, "lllrrl");
	for (size_t i = 0; i < n; i++) {
		const struct fleet_host *h = &hosts[i];
		char secs[32] = "", rate[32] = "";
		if (h->seconds > 0)
			snprintf(secs, sizeof(secs), "%.1f", h->seconds);
		if (h->figure > 0)
			human_rate(h->figure, rate, sizeof(rate));
		const char *cells[] = { h->name, h->identified ? h->id.hostname : "", fleet_status_name(h->status), secs,
					rate, h->reason };
		table_add_row(&t, cells);
	}
	table_print(&t, stdout);
	table_release(&t);
	for (size_t i = 0; i < jd->n_verdicts; i++)
		printf("%s\n", jd->verdicts[i].sentence);
	if (!jd->judged)
		printf("hosts not judged against each other: %s\n", jd->why_not);
	else if (jd->n_verdicts == 0)
		printf("no host stands out from the median of %zu hosts\n", jd->set_size);
}
