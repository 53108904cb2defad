/* pool/kind.h: the kinds of pool, as one table of operations.
 *
 * A pool kind is a row of pool_kinds[]: how a name is resolved, where its
 * members and their devices come from, which tagged test area it makes
 * (pool/areas.h: a row of the area kinds), how its status is captured for
 * the results file and how its settings are gathered as evidence. The
 * commands above (benchpool, rwpool, readpooldisks, doctor, matrix) hold a
 * struct pool_target whose KIND points at its row, and ask the row, never
 * which kind it is.
 *
 * Rows: ZFS (a pool by name or GUID), btrfs (a mounted file system by label,
 * UUID or mount point), a plain directory, and Ceph in its two forms under
 * the one --fstype word "ceph": a Ceph pool (its test area an RBD image) and
 * a mounted CephFS (a directory area). A new kind is a row here, its
 * functions, and an area row when it makes a new kind of area. */
#ifndef IOTRIAGE_POOL_KIND_H
#define IOTRIAGE_POOL_KIND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "pool/ceph.h"
#include "pool/finding.h"
#include "pool/scratch.h"
#include "pool/zfs.h"

/* What a pool-level test writes into: a resolved POOL (pool/target.h). */
struct pool_target {
	const struct pool_kind *kind; /* its row of the table below; kind->fstype its --fstype word */
	char pool[256];           /* the pool's name, the file system's label (else UUID), or the directory */
	char parent[PATH_MAX];    /* ZFS: the root dataset; else the directory areas are made in */
	char mountpoint[PATH_MAX];
	char fs_name[32];         /* what the kernel calls the file system (zfs-fuse's "fuse.zfs", "ext4"...) */
	char ceph_pool[128];      /* Ceph: the pool whose settings are captured (RBD's, CephFS's data pool) */
};

/* How a row's resolve is asked: detecting (1, without a word, when ID is
 * not of this kind, so the next row is asked) or because the user said
 * the kind. */
enum pool_resolve_how { POOL_RESOLVE_DETECT, POOL_RESOLVE_ASKED };

/* The layout model a kind's members follow (pool/layout_model.h). */
enum pool_layout_form { POOL_LAYOUT_NONE, POOL_LAYOUT_VDEVS, POOL_LAYOUT_PROFILE };

/* What a kind's settings say, read before a workload (pool_kind.settings). */
struct pool_kind_settings {
	char dataset[512];              /* the dataset judged (ZFS) */
	struct pool_findings *findings; /* the caller's, appended to */
	char error[300];                /* why they could not be read or judged */
	int ashift;                     /* -1 unknown */
	unsigned largest_sector;        /* the members' largest physical sector, bytes */
	char data_profile[16];          /* btrfs's Data profile */
};

struct pool_kind {
	const char *fstype;             /* the --fstype word and the document's "fstype" */
	const char *what;               /* in sentences: "a directory", "a Ceph pool" */
	bool pool;                      /* a pool, not a plain directory (doctor, rwpool's evidence) */
	enum scratch_kind area;         /* the tagged test area it makes (pool/areas.h) */
	bool arc;                       /* file data is cached by the ZFS ARC, not the page cache */
	bool root_dataset;              /* a file in the mount point is in the pool's root dataset */
	bool iostat;                    /* zpool iostat -v watches it under load */
	bool sync_probe;                /* a log vdev's sync writes can be probed (zpool iostat -l) */
	bool zvols;                     /* can make a zvol as a test area (benchpool --zvol) */
	enum pool_layout_form layout;   /* the layout model of its data members */
	const char *members_from;       /* where its members are read ("zpool status"); NULL: it has none */
	const char *no_members;         /* why not, for telemetry ("a directory: no pool members to sample") */
	const char *no_settings;        /* NULL when it has settings to judge, else why not */
	/* doctor's next step when no layer stands out and the pool is still too
	 * slow: where its ceiling is and what to tune, in its own terms. */
	const char *when_no_layer;
	/* ID resolved into *T (T->kind set). 0; 1 when ID is not of this kind
	 * (nothing logged: the next row is asked); or -errno after logging. */
	int (*resolve)(const char *id, enum pool_resolve_how how, struct pool_target *t);
	/* The state as its tools print it, for the results file; on Ceph what
	 * the tools' JSON says in *CEPH (ceph->read false elsewhere). */
	void (*status)(const struct pool_target *t, struct strbuf *out, struct ceph_state *ceph);
	/* Settings and state judged against IO_SIZE (pool/pool_findings);
	 * DATASET the one the user's data is in (NULL: the root). 0 or -errno
	 * with S->error set. NULL where no_settings says why. */
	int (*settings)(const struct pool_target *t, const char *dataset, uint64_t io_size,
			struct pool_kind_settings *s);
};

extern const struct pool_kind pool_kind_zfs, pool_kind_btrfs, pool_kind_dir, pool_kind_cephfs, pool_kind_rbd;

/* Every row, in detection order, NULL-terminated. */
extern const struct pool_kind *const pool_kinds[];

/* Whether FSTYPE is a kind's --fstype word. */
bool pool_kind_fstype_known(const char *fstype);
/* The --fstype words, ", "-separated, with "or" before the last ("zfs, btrfs, ceph or dir"). */
const char *pool_kind_fstype_words(void);

#endif
