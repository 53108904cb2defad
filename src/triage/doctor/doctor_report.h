/* triage/doctor/doctor_report.h: what doctor_run() (triage/doctor/doctor.h) finds: the
 * steps with their state and summary, the figures, the verdict, and the
 * read batch of step 1; rendered by the command, stored as the document's
 * "lab", "doctor" and read-batch members. */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_REPORT_H
#define IOTRIAGE_TRIAGE_DOCTOR_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "basic/progress.h"
#include "output/json.h"
#include "pool/layout_model.h"
#include "pool/target.h"
#include "pool/zfs.h"
#include "triage/pool/ceph_step.h"
#include "triage/doctor/doctor_media.h"
#include "triage/doctor/lab.h"
#include "triage/pool/pool_evidence.h"
#include "triage/pool/pool_twin.h"
#include "triage/ramdisk/ramdisk_export.h"
#include "triage/media/read_batch.h"

struct doctor_settings {
	bool quick;
	bool lab;
	bool fault;          /* with lab: one member slowed (default) */
	bool skip_network;
	const char *pool_id; /* POOL, or NULL for every disk */
	struct progress *progress; /* told each step (step N of 4), in seconds of its budget; NULL for none */
	/* Step 3 across the wire (triage/doctor/doctor_wire.h): how to run a command
	 * on the client ("ssh HOST" or "ip netns exec NS"), this host's
	 * address it reaches, the client's host NQN (NULL: any host), the
	 * iotriage program on the client (NULL: this binary's path). */
	const char *client_via;
	const char *client_label; /* the client as the user named it */
	const char *export_addr;
	const char *host_nqn;
	const char *client_iotriage;
	/* A pool member on another host (a Ceph OSD elsewhere): read there over ssh. */
	struct read_remote remote;
};

/* Sizes and caps for one run. */
struct doctor_budget {
	uint64_t read_size;      /* per disk */
	unsigned read_cap_s;     /* per read (the first and each confirming read) */
	uint64_t window_ns;      /* network traffic window */
	uint64_t workload_size;  /* pool and twin */
	unsigned workload_cap_s; /* per write and per read */
};

enum doctor_step_state { STEP_NOT_RUN, STEP_RAN, STEP_SKIPPED, STEP_FAILED };
enum { DOCTOR_STEPS = 4 };
/* "media", "network", "ram", "pool": the document's names. */
extern const char *const doctor_step_names[DOCTOR_STEPS];
/* "media", "network", "RAM disk (media factored out)", "pool". */
extern const char *const doctor_step_titles[DOCTOR_STEPS];

struct doctor_step {
	enum doctor_step_state state;
	char summary[1024];
	bool explains;
	double seconds;
	unsigned budget_s;
};

struct doctor_verdict {
	const char *layer;       /* "media", "network", "target stack", "pool", or NULL: no layer stands out */
	bool undetermined;       /* no disk could be read: no verdict, rather than a false "none" */
	char subject[128];       /* the disk or port */
	char evidence[1024];
	char confidence[512];
	char next[512];
};

struct doctor {
	struct doctor_settings set;
	const struct doctor_budget *budget;
	char run_id[17];
	const char *db_path;
	bool setup_failed;       /* the lab or the pool could not be had: nothing ran */
	bool have_pool;
	struct pool_target target;
	struct pool_layout layout;
	struct read_batch batch;
	struct media_findings media_named; /* step 1's named disks and groups, with their kinds of evidence */
	struct doctor_step steps[DOCTOR_STEPS];
	struct doctor_verdict verdict;
	double media_median_bw;
	double twin_read_bw, twin_write_bw, pool_read_bw, pool_write_bw, ram_disk_bw;
	unsigned estimate_s;
	struct pool_twin twin;
	struct lab lab;
	char lab_slowed[64];     /* the lab's slowed member, "" when none */
	struct pool_evidence evidence;  /* the pool's settings, its members under the workload */
	struct layout_expectation expect; /* from step 1's member rates (triage/doctor/doctor_pool.h) */
	bool have_expect, expect_btrfs;
	enum layout_kind expect_kind;   /* the kind the thresholds are taken from */
	char expect_why[160];           /* why there is no expectation */
	char layout_sentence[512];      /* the figures as percentages of the expectation */
	char sync_probe[400];           /* the sync-write probe of a pool with a log: figures or why not */
	char special_probe[400];        /* the metadata probe of a pool with a special vdev: figures or why not */
	bool wire_ran;                  /* the comparison across the wire measured both sides */
	struct wire_side wire_local, wire_remote;
	struct wire_judgement wire;
	struct ceph_step ceph;          /* a Ceph pool's OSDs and state (triage/doctor/doctor_ceph.h) */
	bool have_ceph;
};

/* The document's "lab" (with --lab) and "doctor" members, then the read
 * batch's ("parameters", "devices", "summary") when disks were listed. */
void doctor_json(const struct doctor *dr, struct json *j);

#endif
