/* ramdisk client: the client's half of the wire comparison, on this host,
 * written once over the transport table (ramdisk/export.h); see
 * triage/ramdisk/ramdisk_export.h. */
#include "triage/ramdisk/ramdisk_export.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/log.h"

int ramdisk_client(const struct export_transport *t, const char *addr_arg, const char *name, const char *client,
		   uint64_t runtime_ns, struct wire_side *ret, char *why, size_t len)
{
	const struct export_transport_words *w = t->words;
	char addr[64], kname[64];
	unsigned port;
	int r = ramdisk_export_parse_addr(addr_arg, t->default_port, addr, sizeof(addr), &port, why, len);
	if (r < 0)
		return r;
	if (!t->name_ours(name)) {
		snprintf(why, len, "'%s' is not an %s iotriage exports (%s...)", name, w->target_arg, t->name_prefix);
		return -EINVAL;
	}
	if (t->client_ready && (r = t->client_ready(why, len)) < 0)
		return r;
	t->detach(addr, port, name); /* what a killed run left */
	/* The round trip first, on an idle path: a few TCP connects to the
	 * target's own port (the target accepts and drops them). */
	uint64_t rtt = ramdisk_wire_rtt(addr, port);
	struct link_rate link;
	ramdisk_wire_link(addr, true, &link);
	r = t->attach(addr, port, name, client, kname, sizeof(kname), why, len);
	if (r == 0) {
		char path[96];
		snprintf(path, sizeof(path), "/dev/%s", kname);
		log_msg(LOG_INFO, "RAMDISK: %s %u of '%s' is %s", w->unit_word, w->unit_base, name, path);
		if (ramdisk_wait_node(&ramdisk_default_paths, kname, 5000) < 0) {
			snprintf(why, len, "no device node '%s' appeared", path);
			r = -ENOENT;
		} else {
			r = ramdisk_wire_measure(path, false, runtime_ns, ret, why, len);
			ret->rtt_ns = rtt;
			ret->link = link;
		}
	}
	t->detach(addr, port, name);
	return r;
}
