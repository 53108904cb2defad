/* render/volumes.c: volumes' table on the terminal (see volumes.h). */
#include "render/volumes.h"

#include <stdio.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/strbuf.h"
#include "output/table.h"

void volumes_print(const struct volume_list *l)
{
	struct table t;
	table_init(&t, 8, (const char *[]){ "VolID", "Name", "Pool", "Mapping", "Mount", "Throughput", "From", "Note" },
		   "llllllll");
	for (size_t i = 0; i < l->count; i++) {
		const struct volume *v = &l->vols[i];
		char bw[32] = "-";
		struct strbuf note = STRBUF_INIT;
		if (v->status == VOLUME_OK) {
			char total[32];
			human_rate(job_bw_bytes_per_s(v->res), bw, sizeof(bw));
			human_iec((double)v->res->bytes, total, sizeof(total));
			strbuf_addf(&note, "%s in %.2f s, %s", total, v->res->seconds, v->access);
			if (v->compression[0])
				strbuf_addf(&note, ", compression=%s", v->compression);
			if (v->note[0])
				strbuf_addf(&note, "; %s", v->note);
		} else {
			strbuf_addf(&note, "%s: %s", volume_status_name(v->status), v->reason);
		}
		table_add_row(&t, (const char *[]){ v->vol_id_short, v->name, v->pool, v->mapping, v->m->mountpoint, bw,
						    v->read_from ? v->read_from : "-", note.buf });
		strbuf_release(&note);
	}
	table_print(&t, stdout);
	table_release(&t);
	for (size_t i = 0; i < l->count; i++)
		if (l->vols[i].read_from && strcmp(l->vols[i].read_from, "media") != 0)
			printf("%s: %s: %s\n", l->vols[i].m->mountpoint, l->vols[i].read_from, l->vols[i].read_from_reason);
	if (l->nskipped)
		printf("skipped:\n");
	for (size_t i = 0; i < l->nskipped; i++)
		printf("  %s (%s): %s\n", l->skipped[i].m->mountpoint, l->skipped[i].m->fstype, l->skipped[i].reason);
}
