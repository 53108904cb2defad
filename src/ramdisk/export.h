/* ramdisk/export.h: the RAM disks exported to another host, behind one
 * transport table (the shape of the backend table in ramdisk.h).
 *
 * Transports, one row each in RAMDISK_TRANSPORTS:
 *   nvmet  NVMe/TCP through the kernel's nvmet configfs tree (nvmet.c), the
 *          client through /dev/nvme-fabrics (fabrics.c)
 *   lio    iSCSI through LIO's configfs tree (lio.c), the client through
 *          open-iscsi's iscsiadm
 * One export at a time, of any transport. Every export is recorded in the
 * state directory before anything is made (complete=0) and marked complete
 * at the end, so a run killed half-way leaves a record naming what it may
 * have made; each transport's reap removes what such a run left.
 *
 * Everything above the table (triage/ramdisk/ramdisk_export.c's export and unexport,
 * triage/ramdisk/ramdisk_client.c's client step, the wire comparison, the listing,
 * the options of `ramdisk export` and `ramdisk client`) is written over
 * these rows and never compares a transport's name. A new transport is its
 * file (defining const struct export_transport ramdisk_transport_NAME), a
 * row in RAMDISK_TRANSPORTS and its line in meson.build.
 *
 * Library code: -errno with a why-buffer; the client hooks log their steps. */
#ifndef IOTRIAGE_RAMDISK_EXPORT_H
#define IOTRIAGE_RAMDISK_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/keyrecord.h"
#include "ramdisk/ramdisk.h"

#define RAMDISK_TRANSPORT_MAX 8

/* One export, of any transport. */
struct ramdisk_export {
	const struct export_transport *transport; /* set by make and load, not recorded */
	char id[64];               /* the exporting run's id (recorded where the transport names by it) */
	char name[224];            /* what a client asks for: the subsystem NQN, the target IQN */
	char traddr[64];           /* IPv4 address */
	unsigned port;             /* TCP port */
	char client[224];          /* the one client allowed: host NQN, initiator IQN ("" with allow_any_host) */
	bool allow_any_host;
	size_t n;
	char devices[RAMDISK_MAX_COUNT][64]; /* unit unit_base + i is devices[i] */
	long pid;                  /* the exporting process */
	bool complete;
	/* a transport's own state, in its record (nvmet: serial, port directory, host made) */
	char serial[24];
	unsigned port_id;
	bool client_made;
};

/* What a transport is called where users meet it: its options, its log
 * lines, the listing's line and the document's "export" member. */
struct export_transport_words {
	const char *title;          /* "NVMe/TCP" */
	const char *qualifier;      /* before "export" in log lines: "" (NVMe/TCP, the first), "iSCSI " */
	const char *export_help;    /* --NAME ADDR of ramdisk export */
	const char *client_option;  /* "host-nqn": the one client allowed (export), connect as (client) */
	const char *client_arg;     /* "NQN" */
	const char *client_help;    /* its help in ramdisk export */
	const char *client_hint;    /* "--host-nqn NQN (its /etc/nvme/hostnqn)": in "name the client: ..." */
	const char *client_word;    /* "host": "any host", "host NQN" */
	const char *client_as_help; /* the client option's help in ramdisk client; NULL: the client has none */
	const char *target_option;  /* "nqn": ramdisk client's option naming the export */
	const char *target_arg;     /* "NQN" */
	const char *target_help;
	const char *remote_help;    /* --NAME ADDR of ramdisk client */
	const char *unit_word;      /* "namespace", "LUN" */
	unsigned unit_base;         /* the first unit's number: nsid 1, LUN 0 */
	/* the document's keys */
	const char *name_key, *port_key, *client_key, *units_key, *unit_key;
	const char *local_id_key;   /* "nvmet_port" (port_id), or NULL */
	const char *unit_name_key;  /* "backstore" (unit_name), or NULL */
};

struct export_transport {
	const char *name;           /* "nvme-tcp": its option (--nvme-tcp) and the document's "transport" */
	const char *root;           /* its configfs tree; tests pass another */
	const char *record_file;    /* "export-nvmet" in the state directory */
	unsigned default_port;
	const struct export_transport_words *words;
	/* the record: the fields kept (device= lines follow), and the check of a
	 * record read back (its names are used as paths: only our own) */
	const struct keyrecord_field *fields;
	size_t nfields;
	bool (*record_ok)(const struct ramdisk_export *e);

	/* --- export (this host as the target) --- */
	/* Is the client named acceptable? NULL: any. -EINVAL with WHY. */
	int (*check_client)(const char *client, char *why, size_t len);
	/* Can the target listen on ADDR:PORT (checked before anything is made)? NULL: found when listening. */
	int (*check_port)(const char *addr, unsigned port, char *why, size_t len);
	/* The kernel's side loaded and configfs mounted; -errno (-ENODEV) with WHY, nothing made. */
	int (*ready)(char *why, size_t len);
	/* Pure: the export's names for run ID (name, serial ...). */
	void (*names)(const char *id, struct ramdisk_export *e);
	/* Makes E under ROOT, recorded in STATE first; any failure removes what
	 * was made and the record: -errno with WHY (-EADDRINUSE: the port is taken). */
	int (*make)(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len);
	/* Removes what E names (whatever of it exists) and the record. */
	int (*unmake)(const char *root, const char *state, const struct ramdisk_export *e, char *why, size_t len);
	/* Removes what an earlier run left (see ramdisk_nvmet_reap): 1 with WHY, 0, -errno. */
	int (*reap)(const char *root, const char *state, char *why, size_t len);
	/* Pure: where E's stack listens, for the log and the listing: "nvmet port 61696", "LIO". */
	void (*detail)(const struct ramdisk_export *e, char *buf, size_t len);
	/* Pure: unit I's name under the target (LIO's backstore); with unit_name_key. */
	void (*unit_name)(const struct ramdisk_export *e, size_t i, char *buf, size_t len);

	/* --- the client (this host as the initiator) --- */
	/* Is NAME an export iotriage makes (a valid name with its prefix)? */
	bool (*name_ours)(const char *name);
	const char *name_prefix;    /* for the refusal: "nqn.2014-08.org.iotriage:ramdisk-" */
	/* Before anything: the initiator's side loaded. NULL: nothing to do. */
	int (*client_ready)(char *why, size_t len);
	/* Removes every session/controller of NAME (ours, or a killed run's); quiet when none. */
	void (*detach)(const char *addr, unsigned port, const char *name);
	/* Connects to NAME at ADDR:PORT (as CLIENT, NULL: the host's own) and
	 * finds its first unit's block device (KNAME, "nvme1n1"), waiting up to
	 * 10 s. -errno with WHY; detach removes what it made either way. */
	int (*attach)(const char *addr, unsigned port, const char *name, const char *client, char *kname,
		      size_t kname_len, char *why, size_t len);
};

/* The transports, one row each: a new one is its file, a row here and its
 * line in meson.build. ramdisk_transports[] is made from these rows. */
#define RAMDISK_TRANSPORTS(X) X(nvmet) X(lio)
#define RAMDISK_TRANSPORT_DECLARE_(n) extern const struct export_transport ramdisk_transport_##n;
RAMDISK_TRANSPORTS(RAMDISK_TRANSPORT_DECLARE_)
/* All transports, NULL-terminated, in the order of the options. */
extern const struct export_transport *const ramdisk_transports[];
size_t ramdisk_transport_count(void);

/* Pure: "ADDR" or "ADDR:PORT" (IPv4) into ADDR and *PORT (DEFAULT_PORT
 * without one). -EINVAL with WHY. */
int ramdisk_export_parse_addr(const char *arg, unsigned default_port, char *addr, size_t addr_len, unsigned *port,
			      char *why, size_t len);
/* Is ADDR one of this host's (this network namespace's) addresses?
 * 0, or -EADDRNOTAVAIL with WHY. */
int ramdisk_export_check_local(const char *addr, char *why, size_t len);

/* The record of transport T: its text, and back (the caller's E is zeroed
 * first; -EINVAL when it is not T's or names something not ours). */
void ramdisk_export_format(const struct ramdisk_export *e, char *buf, size_t len);
int ramdisk_export_parse(const struct export_transport *t, const char *text, struct ramdisk_export *e);
/* T's record in STATE: 0, -ENOENT when there is none, or -errno. */
int ramdisk_export_load(const struct export_transport *t, const char *state, struct ramdisk_export *e);
/* E's record written to STATE (what make does first and last). */
int ramdisk_export_save(const char *state, const struct ramdisk_export *e);
/* E's record removed from STATE (0 when it was not there), or -errno with WHY. */
int ramdisk_export_remove_record(const char *state, const struct export_transport *t, char *why, size_t len);
/* The complete export in STATE now, of any transport: 1 with *RET, 0 when none. */
int ramdisk_export_find(const char *state, struct ramdisk_export *ret);

#endif
