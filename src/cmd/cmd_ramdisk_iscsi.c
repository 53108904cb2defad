/* The iSCSI export as `ramdisk list`, export and the document show it
 * (cmd_ramdisk_export.c has the commands). */
#include <stdio.h>

#include "cmd/ramdisk_cmd.h"
#include "triage/ramdisk_export.h"

void iscsi_json(struct json *j, const struct ramdisk_lio_export *e)
{
	json_begin_object(j, "export");
	json_string(j, "transport", "iscsi");
	json_string(j, "iqn", e->iqn);
	json_string(j, "traddr", e->traddr);
	json_uint(j, "port", e->port);
	json_string(j, "initiator", e->allow_any_host ? NULL : e->initiator);
	json_bool(j, "allow_any_host", e->allow_any_host);
	json_begin_array(j, "luns");
	for (size_t i = 0; i < e->n; i++) {
		char name[128];
		ramdisk_lio_backstore(e, i, name, sizeof(name));
		json_begin_object(j, NULL);
		json_uint(j, "lun", i);
		json_string(j, "device", e->devices[i]);
		json_string(j, "backstore", name);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void iscsi_print(FILE *out, const struct ramdisk_lio_export *e)
{
	fprintf(out, "\nExported over iSCSI as %s on %s:%u (LIO), %zu LUN(s), %s%s\n", e->iqn, e->traddr, e->port, e->n,
		e->allow_any_host ? "any initiator" : "initiator ", e->allow_any_host ? "" : e->initiator);
}
