/* render/ramdisk_wire.h: the wire comparison (ramdisk client and wire,
 * triage/ramdisk/ramdisk_export.h): one side's workloads as the JSON object KEY;
 * local, remote, added and judgement as members of the open object; the
 * table and sentence on stdout. */
#ifndef IOTRIAGE_RENDER_RAMDISK_WIRE_H
#define IOTRIAGE_RENDER_RAMDISK_WIRE_H

#include "output/json.h"

struct wire_side;
void ramdisk_wire_side_json(struct json *j, const char *key, const struct wire_side *s);
struct wire_judgement;
/* The pair as judged by triage (ramdisk_wire_judge): render shows the
 * judgement, it never makes one. */
void ramdisk_wire_json(struct json *j, const struct wire_side *local, const struct wire_side *remote,
		       const struct wire_judgement *judged);
void ramdisk_wire_print(const struct wire_side *local, const struct wire_side *remote,
			const struct wire_judgement *judged);
/* --ndelay: "backend_delay_base" (backend, device, ndelay_ns, restored)
 * and "backend_delay[]" (one member a delay measured); on the terminal a
 * line per workload and delay, the sentence, and the restore. */
struct wire_delay_run;
void ramdisk_wire_delay_json(struct json *j, const struct wire_delay_run *run);
void ramdisk_wire_delay_print(const struct wire_delay_run *run);

#endif
