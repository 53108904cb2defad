/* ramdisk/export.c: the transport table, the address checks and the
 * export's record, written once for every transport (see export.h). */
#include "ramdisk/export.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ramdisk/export_record.h"

#define RAMDISK_TRANSPORT_ROW_(n) &ramdisk_transport_##n,
const struct export_transport *const ramdisk_transports[] = { RAMDISK_TRANSPORTS(RAMDISK_TRANSPORT_ROW_) NULL };

size_t ramdisk_transport_count(void)
{
	return sizeof(ramdisk_transports) / sizeof(ramdisk_transports[0]) - 1;
}

int ramdisk_export_parse_addr(const char *arg, unsigned default_port, char *addr, size_t addr_len, unsigned *port,
			      char *why, size_t len)
{
	const char *colon = strchr(arg, ':');
	size_t alen = colon ? (size_t)(colon - arg) : strlen(arg);
	*port = default_port;
	if (alen == 0 || alen >= addr_len || alen >= INET_ADDRSTRLEN) {
		snprintf(why, len, "invalid address '%s': expected an IPv4 ADDR or ADDR:PORT", arg);
		return -EINVAL;
	}
	memcpy(addr, arg, alen);
	addr[alen] = '\0';
	struct in_addr in;
	if (inet_pton(AF_INET, addr, &in) != 1) {
		snprintf(why, len, "invalid address '%s': expected an IPv4 ADDR or ADDR:PORT", arg);
		return -EINVAL;
	}
	if (colon) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || v < 1 || v > 65535) {
			snprintf(why, len, "invalid port in '%s': expected 1 to 65535", arg);
			return -EINVAL;
		}
		*port = (unsigned)v;
	}
	return 0;
}

int ramdisk_export_check_local(const char *addr, char *why, size_t len)
{
	struct in_addr want;
	if (inet_pton(AF_INET, addr, &want) != 1) {
		snprintf(why, len, "invalid address '%s'", addr);
		return -EINVAL;
	}
	struct ifaddrs *ifs = NULL;
	if (getifaddrs(&ifs) < 0) {
		snprintf(why, len, "cannot list this host's addresses: %s", strerror(errno));
		return -errno;
	}
	bool found = false;
	for (struct ifaddrs *i = ifs; i && !found; i = i->ifa_next)
		found = i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr.s_addr == want.s_addr;
	freeifaddrs(ifs);
	if (!found) {
		snprintf(why, len, "address '%s' is not one of this host's: the target can listen only on a local "
			 "address (ip -4 addr lists them)", addr);
		return -EADDRNOTAVAIL;
	}
	return 0;
}

static struct export_record record_of(const struct export_transport *t, const struct ramdisk_export *e)
{
	struct ramdisk_export *m = (struct ramdisk_export *)e; /* written only by parse */
	return (struct export_record){ .fields = t->fields, .nfields = t->nfields, .obj = m, .ndevices = &m->n,
				       .devices = m->devices };
}

void ramdisk_export_format(const struct ramdisk_export *e, char *buf, size_t len)
{
	struct export_record rec = record_of(e->transport, e);
	export_record_format(&rec, buf, len);
}

int ramdisk_export_parse(const struct export_transport *t, const char *text, struct ramdisk_export *e)
{
	memset(e, 0, sizeof(*e));
	e->transport = t;
	struct export_record rec = record_of(t, e);
	if (export_record_parse(text, &rec) < 0)
		return -EINVAL;
	return t->record_ok(e) ? 0 : -EINVAL;
}

int ramdisk_export_load(const struct export_transport *t, const char *state, struct ramdisk_export *e)
{
	char text[8192];
	int r = export_record_read(state, t->record_file, text, sizeof(text));
	return r < 0 ? r : ramdisk_export_parse(t, text, e);
}

int ramdisk_export_save(const char *state, const struct ramdisk_export *e)
{
	struct export_record rec = record_of(e->transport, e);
	return export_record_write(state, e->transport->record_file, &rec);
}

int ramdisk_export_remove_record(const char *state, const struct export_transport *t, char *why, size_t len)
{
	return export_record_remove(state, t->record_file, why, len);
}

int ramdisk_export_find(const char *state, struct ramdisk_export *ret)
{
	for (size_t i = 0; ramdisk_transports[i]; i++)
		if (ramdisk_export_load(ramdisk_transports[i], state, ret) == 0 && ret->complete)
			return 1;
	return 0;
}
