/* doctor [POOL]: the isolation method, bottom up, in one command.
 *
 *   1 media    every disk (or the pool's members) read and judged against
 *              its peers and baseline, flagged disks re-read and checked
 *              with smartctl: a slow disk explains the complaint, stop.
 *   2 network  netcheck: competing default routes, LACP, MTU, loss: stop.
 *   3 RAM      the media factored out: a twin of the pool on RAM-backed
 *              devices (or, with no pool, a RAM disk) under the same
 *              workload through the same path.
 *   4 pool     the same workload on the real pool, compared with its twin
 *              and with its members' raw rate: far below both is a loss in
 *              the pool itself (layout, properties); otherwise no layer
 *              stands out (slower than RAM is what real disks are).
 *
 * Each step has a time budget (a cap on every read and write), and the
 * run says before it starts how long it can take at most. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "cmd/commands.h"
#include "cmd/doctor.h"
#include "cmd/netcheck.h"
#include "cmd/poolbench_cmd.h"
#include "cmd/readdisks.h"
#include "disk/enumerate.h"

/* A pool reading at half its RAM twin or better is not held back by its
 * media (the sentence in the "no layer" evidence). */
#define POOL_NEAR_TWIN 0.5
#define LAB_MEMBER_SIZE (192ULL << 20)
#define LAB_SLOW_RATE (12ULL << 20)

enum { OPT_QUICK = OPT_COMMAND_BASE, OPT_LAB, OPT_FAULT, OPT_NO_NETWORK };

static const struct opt_def doctor_opts[] = {
	{ "quick", 'q', NULL, "small reads and short caps: about two minutes on a small pool", OPT_QUICK, { 0 } },
	{ "lab", 0, NULL, "build a throwaway pool on loop devices with a known fault, diagnose it, remove it", OPT_LAB, { 0 } },
	{ "fault", 0, "KIND", "with --lab: slow-member (default: one member slowed by a cgroup blkio rule) or none",
	  OPT_FAULT, { 0 } },
	{ "no-network", 0, NULL, "skip the network step (a local pool, no clients)", OPT_NO_NETWORK, { 0 } },
	OPT_END,
};

struct doctor_settings {
	bool quick, lab, fault, skip_network;
};

static int handle_option(int id, const char *arg, void *state)
{
	struct doctor_settings *s = state;
	switch (id) {
	case OPT_QUICK:
		s->quick = true;
		return 0;
	case OPT_LAB:
		s->lab = true;
		return 0;
	case OPT_FAULT:
		if (strcmp(arg, "slow-member") && strcmp(arg, "none"))
			return opts_usage_error("doctor", "invalid --fault '%s': expected slow-member or none", arg);
		s->fault = strcmp(arg, "slow-member") == 0;
		return 0;
	case OPT_NO_NETWORK:
		s->skip_network = true;
		return 0;
	}
	return 1;
}

/* Sizes and caps for one run. */
struct budget {
	uint64_t read_size;      /* per disk */
	unsigned read_cap_s;     /* per read (the first and each confirming read) */
	uint64_t window_ns;      /* network traffic window */
	uint64_t workload_size;  /* pool and twin */
	unsigned workload_cap_s; /* per write and per read */
};

static const struct budget quick_budget = { 64ULL << 20, 10, 1000000000ULL, 64ULL << 20, 20 };
static const struct budget full_budget = { 1000ULL << 20, 120, 2000000000ULL, 1ULL << 30, 60 };

enum step_state { STEP_NOT_RUN, STEP_RAN, STEP_SKIPPED, STEP_FAILED };
static const char *const step_names[] = { "media", "network", "ram", "pool" };
static const char *const step_titles[] = { "media", "network", "RAM disk (media factored out)", "pool" };

struct step {
	enum step_state state;
	char summary[1024];
	bool explains;
	double seconds;
	unsigned budget_s;
};

struct verdict {
	const char *layer;       /* "media", "network", "pool", or NULL: no layer stands out */
	bool undetermined;       /* no disk could be read: no verdict, rather than a false "none" */
	char subject[128];       /* the disk or port */
	char evidence[1024];
	char confidence[512];
	char next[512];
};

struct doctor {
	struct doctor_settings set;
	const struct budget *budget;
	char run_id[17];
	const char *db_path;
	bool have_pool;
	struct bench_target target;
	struct pool_layout layout;
	struct read_batch batch;
	struct step steps[4];
	struct verdict verdict;
	double media_median_bw;
	double twin_read_bw, twin_write_bw, pool_read_bw, pool_write_bw, ram_disk_bw;
	unsigned estimate_s;
	struct pool_twin twin;
};

/* ---- step 1: media ---- */

static int all_disks(struct read_batch *b)
{
	struct disk_list list;
	int r = disk_enumerate("/sys", "/dev", &list);
	if (r < 0)
		return r;
	b->reads = xcalloc(list.count ? list.count : 1, sizeof(*b->reads));
	for (size_t i = 0; i < list.count; i++) {
		struct disk_read *d = &b->reads[b->count++];
		d->info = list.disks[i];
		if (d->info.skip_reason) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "%s", d->info.skip_reason);
		}
	}
	disk_list_free(&list);
	return 0;
}

/* The disks step 1 will read (the pool's members, or every disk), listed
 * before anything runs so the estimate counts them. Returns 0 or -errno. */
static int media_prepare(struct doctor *dr)
{
	struct read_batch *b = &dr->batch;
	*b = (struct read_batch){ .regression_pct = DEFAULT_REGRESSION_PCT, .group_by = dr->have_pool ? READ_GROUP_VDEV : READ_GROUP_NONE };
	readtest_opts_default(&b->opts);
	b->opts.size = dr->budget->read_size;
	b->opts.runtime_ns = (uint64_t)dr->budget->read_cap_s * 1000000000ULL;
	b->opts.progress = false;
	int r = dr->have_pool ? pool_read_batch_prepare(dr->target.pool, b, &dr->layout) : all_disks(b);
	if (r < 0) {
		snprintf(dr->steps[0].summary, sizeof(dr->steps[0].summary), "cannot list the %s: %s",
			 dr->have_pool ? "pool's members" : "disks", strerror(-r));
		dr->steps[0].state = STEP_FAILED;
	}
	return r;
}

/* Disks listed by media_prepare but never read (an interrupt came first)
 * are skipped, with the reason, not left looking like reads that succeeded. */
static void media_not_read(struct doctor *dr)
{
	for (size_t i = 0; i < dr->batch.count; i++) {
		struct disk_read *d = &dr->batch.reads[i];
		if (d->status == READTEST_OK && !d->res) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not read: interrupted");
		}
	}
}

static void step_media(struct doctor *dr)
{
	struct step *s = &dr->steps[0];
	struct read_batch *b = &dr->batch;
	if (s->state == STEP_FAILED)
		return; /* media_prepare said why */
	read_batch_execute(b);
	read_batch_conclude(b, dr->db_path);
	dr->media_median_bw = b->median_bw;
	s->state = STEP_RAN;
	size_t ok = read_batch_count(b, READTEST_OK);
	struct strbuf ev = STRBUF_INIT, conf = STRBUF_INIT, next = STRBUF_INIT;
	const struct disk_read *first = NULL;
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		bool slow = d->verdict && strcmp(d->verdict, "slow") == 0;
		bool failed = d->status == READTEST_ERROR && d->res != NULL;
		if (!slow && !failed)
			continue;
		first = first ? first : d;
		strbuf_addf(&ev, "%s%s", ev.len ? "; " : "", slow ? d->sentence : d->reason);
		if (slow)
			strbuf_addf(&conf, "%s%s: %u of %u reads out of line%s", conf.len ? "; " : "", d->info.dev_path,
				    d->reads_flagged ? d->reads_flagged : d->baseline_flagged, d->reads_total,
				    d->finding.flag == OUTLIER_NO_PEERS ? " (against its baseline)" : "");
		else
			strbuf_addf(&conf, "%s%s: the read failed with an I/O error", conf.len ? "; " : "", d->info.dev_path);
		if (d->health_checked) {
			char health[600];
			read_health_describe(d, health, sizeof(health));
			strbuf_addf(&conf, " (health: %s)", health);
		}
		strbuf_addf(&next, "%sreplace or re-test %s (iotriage readdisk %s; check its cable, slot and SMART)",
			    next.len ? "; " : "", d->info.dev_path, d->info.dev_path);
	}
	if (!first && ok == 0) {
		/* Nothing measured: say what stopped each read, not "no disk stands out". */
		s->state = STEP_FAILED;
		struct strbuf why = STRBUF_INIT;
		for (size_t i = 0; i < b->count; i++)
			if (b->reads[i].status == READTEST_ERROR)
				strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", b->reads[i].info.dev_path,
					    b->reads[i].reason);
		snprintf(s->summary, sizeof(s->summary), "no disk could be read (%s)",
			 why.len ? why.buf : "every disk was skipped: see the skipped list");
		strbuf_release(&why);
	} else if (first) {
		s->explains = true;
		dr->verdict.layer = "media";
		snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "%s", first->info.dev_path);
		snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s", ev.buf);
		snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence), "%s", conf.buf);
		snprintf(dr->verdict.next, sizeof(dr->verdict.next), "%s, before tuning anything above it", next.buf);
		snprintf(s->summary, sizeof(s->summary), "%zu disk(s) read; %s", ok, ev.buf);
	} else {
		char med[32];
		human_rate(b->median_bw, med, sizeof(med));
		snprintf(s->summary, sizeof(s->summary), "%zu disk(s) read, median %s; no disk stands out from its peers "
			 "or its baseline%s", ok, med, ok < OUTLIER_MIN_SET ? " (too few to compare)" : "");
	}
	strbuf_release(&ev);
	strbuf_release(&conf);
	strbuf_release(&next);
}

/* ---- step 2: network ---- */

static void step_network(struct doctor *dr)
{
	struct step *s = &dr->steps[1];
	if (dr->set.lab || dr->set.skip_network) {
		s->state = STEP_SKIPPED;
		snprintf(s->summary, sizeof(s->summary), "%s", dr->set.lab ? "the lab's pool is local: no network in its path"
									     : "skipped (--no-network)");
		return;
	}
	struct netcheck *nc = xcalloc(1, sizeof(*nc));
	nc->window_ns = dr->budget->window_ns;
	netcheck_gather(nc);
	netcheck_judge(nc);
	s->state = nc->errors ? STEP_FAILED : STEP_RAN;
	const struct nc_finding *problem = NULL;
	size_t problems = 0;
	for (size_t i = 0; i < nc->nfindings; i++)
		if (strcmp(nc->findings[i].severity, "problem") == 0) {
			problem = problem ? problem : &nc->findings[i];
			problems++;
		}
	if (problem) {
		s->explains = true;
		dr->verdict.layer = "network";
		snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "%s", problem->subject);
		snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence), "%s", problem->sentence);
		snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence),
			 "%zu network finding(s) from live probes and the kernel's own tables", problems);
		snprintf(dr->verdict.next, sizeof(dr->verdict.next), "%s", problem->fix);
		snprintf(s->summary, sizeof(s->summary), "%zu port(s), %zu destination(s); %s", nc->links.n, nc->ndests,
			 problem->sentence);
	} else {
		snprintf(s->summary, sizeof(s->summary), "%zu port(s), %zu destination(s) probed; no network finding%s",
			 nc->links.n, nc->ndests, nc->errors ? " (some checks could not be made)" : "");
	}
	netcheck_release(nc);
	free(nc);
}

/* ---- steps 3 and 4: the RAM twin and the pool ---- */

static void figures_of(const struct pb_outcome *o, double *write_bw, double *read_bw)
{
	for (size_t i = 0; i < o->nfigures; i++)
		*(o->figures[i].is_read ? read_bw : write_bw) = o->figures[i].bw_bytes_per_s;
}

static void step_ram_disk_only(struct doctor *dr)
{
	struct step *s = &dr->steps[2];
	struct loopdev ram = LOOPDEV_INIT;
	int r = loopdev_create("/dev/shm", dr->budget->read_size, 512, &ram);
	if (r < 0) {
		s->state = STEP_FAILED;
		snprintf(s->summary, sizeof(s->summary), "cannot make a RAM disk: %s", strerror(-r));
		return;
	}
	struct disk_read d = { .status = READTEST_OK };
	read_describe_path(ram.path, &d.info);
	readtest_run(&d, &dr->batch.opts);
	if (d.status == READTEST_OK)
		dr->ram_disk_bw = job_bw_bytes_per_s(d.res);
	disk_read_release(&d);
	loopdev_destroy(&ram);
	s->state = d.status == READTEST_OK ? STEP_RAN : STEP_FAILED;
	char ram_rate[32], med[32];
	human_rate(dr->ram_disk_bw, ram_rate, sizeof(ram_rate));
	human_rate(dr->media_median_bw, med, sizeof(med));
	if (dr->media_median_bw > 0)
		snprintf(s->summary, sizeof(s->summary), "a RAM disk reads at %s through the same path (the disks' median: %s)",
			 ram_rate, med);
	else
		snprintf(s->summary, sizeof(s->summary), "a RAM disk reads at %s through the same path", ram_rate);
}

static void step_twin(struct doctor *dr)
{
	struct pool_twin *twin = &dr->twin;
	struct step *s = &dr->steps[2];
	uint64_t member = dr->budget->workload_size > (128ULL << 20) ? dr->budget->workload_size : (128ULL << 20);
	if (twin_build(&dr->target, &dr->layout, dr->run_id, member, twin) < 0) {
		s->state = STEP_FAILED;
		snprintf(s->summary, sizeof(s->summary), "cannot build a RAM twin of the pool");
		return;
	}
	log_msg(LOG_INFO, "DOCTOR: RAM twin %s built on %zu RAM-backed loop devices", twin->target.pool, twin->nloops);
	struct pb_outcome o;
	pb_outcome_init(&o, PB_BUILTIN);
	int r = doctor_pool_workload(&twin->target, dr->run_id, "twin", dr->budget->workload_size,
				     dr->budget->workload_cap_s, &o);
	figures_of(&o, &dr->twin_write_bw, &dr->twin_read_bw);
	s->state = r == 0 ? STEP_RAN : STEP_FAILED;
	char rd[32], wr[32];
	human_rate(dr->twin_read_bw, rd, sizeof(rd));
	human_rate(dr->twin_write_bw, wr, sizeof(wr));
	if (r == 0)
		snprintf(s->summary, sizeof(s->summary), "the same pool on RAM writes at %s and reads at %s", wr, rd);
	else
		snprintf(s->summary, sizeof(s->summary), "the workload on the RAM twin failed: %s", o.reason);
	pb_outcome_release(&o);
}

static void step_pool(struct doctor *dr)
{
	struct step *s = &dr->steps[3];
	struct pb_outcome o;
	pb_outcome_init(&o, PB_BUILTIN);
	pool_areas_remove_stale(&dr->target, "DOCTOR");
	int r = doctor_pool_workload(&dr->target, dr->run_id, "doctor", dr->budget->workload_size,
				     dr->budget->workload_cap_s, &o);
	figures_of(&o, &dr->pool_write_bw, &dr->pool_read_bw);
	pb_outcome_release(&o);
	if (r < 0) {
		s->state = STEP_FAILED;
		snprintf(s->summary, sizeof(s->summary), "the workload on the pool failed");
		return;
	}
	s->state = STEP_RAN;
	char rd[32], wr[32];
	human_rate(dr->pool_read_bw, rd, sizeof(rd));
	human_rate(dr->pool_write_bw, wr, sizeof(wr));
	if (dr->twin_read_bw <= 0) {
		snprintf(s->summary, sizeof(s->summary), "the pool writes at %s and reads at %s (no twin to compare with)",
			 wr, rd);
		return;
	}
	double ratio = dr->pool_read_bw / dr->twin_read_bw;
	snprintf(s->summary, sizeof(s->summary), "the pool writes at %s and reads at %s: %.0f%% of its RAM twin's read rate",
		 wr, rd, 100.0 * ratio);
	double of_member = dr->media_median_bw > 0 ? dr->pool_read_bw / dr->media_median_bw : 1.0;
	if (doctor_pool_layer_stands_out(dr->pool_read_bw, dr->twin_read_bw, dr->media_median_bw)) {
		s->explains = true;
		dr->verdict.layer = "pool";
		snprintf(dr->verdict.subject, sizeof(dr->verdict.subject), "%s", dr->target.pool);
		snprintf(dr->verdict.evidence, sizeof(dr->verdict.evidence),
			 "the pool reads at %.1f MB/s: %.0f%% of the same pool on RAM (%.1f MB/s) and %.0f%% of what one of "
			 "its members reads raw (%.1f MB/s), though no member stands out: the loss is in the pool on these "
			 "disks, not in a disk", dr->pool_read_bw / 1e6, 100.0 * ratio, dr->twin_read_bw / 1e6,
			 100.0 * of_member, dr->media_median_bw / 1e6);
		snprintf(dr->verdict.confidence, sizeof(dr->verdict.confidence),
			 "one short read of the pool against one of its RAM twin, after every member was read and compared");
		snprintf(dr->verdict.next, sizeof(dr->verdict.next),
			 "benchpool %s for the whole picture, then the layout and the dataset properties (recordsize, sync, "
			 "compression, dedup)", dr->target.pool);
	}
}

/* ---- the verdict ---- */

/* Step 1 read no disk: the media were not measured, so no verdict can say
 * that no layer stands out. What the other steps found is still shown. */
static void undetermined(struct doctor *dr)
{
	struct verdict *v = &dr->verdict;
	v->layer = NULL;
	v->undetermined = true;
	struct strbuf ev = STRBUF_INIT;
	strbuf_addf(&ev, "%s", dr->steps[0].summary);
	for (int i = 1; i < 4; i++)
		if (dr->steps[i].state == STEP_RAN)
			strbuf_addf(&ev, "; %s", dr->steps[i].summary);
	snprintf(v->evidence, sizeof(v->evidence), "%s", ev.buf);
	strbuf_release(&ev);
	snprintf(v->confidence, sizeof(v->confidence), "none: the media were not measured, and every later step is "
		 "judged against them");
	snprintf(v->next, sizeof(v->next), "run doctor where the disks can be read raw (as root, on the host rather "
		 "than in a VM that refuses raw reads of its disk), or doctor POOL for a pool's members; doctor --lab "
		 "shows the method on a throwaway pool");
}

static void no_layer(struct doctor *dr)
{
	struct verdict *v = &dr->verdict;
	v->layer = NULL;
	struct strbuf ev = STRBUF_INIT;
	strbuf_addf(&ev, "%s", dr->steps[0].summary);
	if (dr->steps[1].state == STEP_RAN)
		strbuf_addf(&ev, "; %s", dr->steps[1].summary);
	if (dr->pool_read_bw > 0 && dr->twin_read_bw > 0) {
		double ratio = dr->pool_read_bw / dr->twin_read_bw;
		strbuf_addf(&ev, "; the pool reads at %.0f%% of its RAM twin (%.1f against %.1f MB/s): %s",
			    100.0 * ratio, dr->pool_read_bw / 1e6, dr->twin_read_bw / 1e6,
			    ratio >= POOL_NEAR_TWIN ? "the media are not what limits it"
							: "the disks set the pace, as real disks do against RAM");
	}
	else if (dr->ram_disk_bw > 0)
		strbuf_addf(&ev, "; %s", dr->steps[2].summary);
	snprintf(v->evidence, sizeof(v->evidence), "%s", ev.buf);
	strbuf_release(&ev);
	snprintf(v->confidence, sizeof(v->confidence), "%zu disk(s) read and compared with their peers%s",
		 read_batch_count(&dr->batch, READTEST_OK),
		 dr->twin_read_bw > 0 ? ", and the pool measured against the same pool on RAM" : "");
	snprintf(v->next, sizeof(v->next), "%s",
		 dr->have_pool ? "if the pool is still too slow for its workload, the ceiling is the file-system path "
				 "itself: benchpool, then the tuning (record size, compression, sync, caches)"
			       : "name the pool (doctor POOL) to measure the file-system path as well");
}

static void print_report(const struct doctor *dr)
{
	printf("\n");
	for (int i = 0; i < 4; i++) {
		const struct step *s = &dr->steps[i];
		if (s->state == STEP_NOT_RUN)
			continue;
		printf("Step %d, %s: %s%s\n", i + 1, step_titles[i], s->state == STEP_FAILED ? "could not be completed: " : "",
		       s->summary);
	}
	const struct verdict *v = &dr->verdict;
	printf("\n");
	if (v->layer)
		printf("VERDICT: the %s layer: %s\n", v->layer, v->subject);
	else if (v->undetermined)
		printf("VERDICT: not determined: the media could not be measured\n");
	else
		printf("VERDICT: no layer stands out\n");
	printf("Evidence: %s\n", v->evidence);
	printf("How sure: %s\n", v->confidence);
	printf("Next: %s\n", v->next);
}

static void doctor_json(struct json *j, const struct doctor *dr)
{
	static const char *const states[] = { "not run", "ran", "skipped", "failed" };
	json_begin_object(j, "doctor");
	json_string(j, "pool", dr->have_pool ? dr->target.pool : NULL);
	json_bool(j, "quick", dr->set.quick);
	json_bool(j, "lab", dr->set.lab);
	json_uint(j, "estimate_seconds", dr->estimate_s);
	json_begin_array(j, "steps");
	for (int i = 0; i < 4; i++) {
		const struct step *s = &dr->steps[i];
		json_begin_object(j, NULL);
		json_string(j, "step", step_names[i]);
		json_string(j, "state", states[s->state]);
		json_string(j, "summary", s->summary[0] ? s->summary : NULL);
		json_bool(j, "explains", s->explains);
		json_double(j, "seconds", s->seconds);
		json_uint(j, "budget_seconds", s->budget_s);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_object(j, "figures");
	json_double(j, "media_median_bw_bytes_per_s", dr->media_median_bw);
	json_double(j, "ram_disk_bw_bytes_per_s", dr->ram_disk_bw);
	json_double(j, "twin_write_bw_bytes_per_s", dr->twin_write_bw);
	json_double(j, "twin_read_bw_bytes_per_s", dr->twin_read_bw);
	json_double(j, "pool_write_bw_bytes_per_s", dr->pool_write_bw);
	json_double(j, "pool_read_bw_bytes_per_s", dr->pool_read_bw);
	json_end_object(j);
	json_begin_object(j, "verdict");
	json_string(j, "layer", dr->verdict.layer	      ? dr->verdict.layer
				: dr->verdict.undetermined ? "undetermined"
							   : "none");
	json_string(j, "subject", dr->verdict.subject[0] ? dr->verdict.subject : NULL);
	json_string(j, "evidence", dr->verdict.evidence);
	json_string(j, "confidence", dr->verdict.confidence);
	json_string(j, "next", dr->verdict.next);
	json_end_object(j);
	json_end_object(j);
}

/* The most the run can take: every cap reached, one disk re-read twice. */
static void estimate(struct doctor *dr, size_t ndisks)
{
	const struct budget *b = dr->budget;
	dr->steps[0].budget_s = (unsigned)(ndisks + 2) * b->read_cap_s;
	dr->steps[1].budget_s = dr->set.lab || dr->set.skip_network ? 0 : (unsigned)(b->window_ns / 1000000000ULL) + 30;
	dr->steps[2].budget_s = dr->have_pool ? 2 * b->workload_cap_s + 30 : b->read_cap_s + 5;
	dr->steps[3].budget_s = dr->have_pool ? 2 * b->workload_cap_s + 30 : 0;
	dr->estimate_s = 0;
	for (int i = 0; i < 4; i++)
		dr->estimate_s += dr->steps[i].budget_s;
}

static void run_step(struct doctor *dr, int i, void (*fn)(struct doctor *))
{
	if (interrupt_requested())
		return;
	log_msg(LOG_INFO, "DOCTOR: step %d (%s): starting, budget %u s", i + 1, step_titles[i], dr->steps[i].budget_s);
	uint64_t t0 = now_ns();
	fn(dr);
	dr->steps[i].seconds = (double)(now_ns() - t0) / 1e9;
	log_msg(dr->steps[i].explains ? LOG_WARN : LOG_INFO, "DOCTOR: step %d (%s): %s", i + 1, step_titles[i],
		dr->steps[i].summary);
}

static void step_ram(struct doctor *dr)
{
	if (dr->have_pool)
		step_twin(dr);
	else
		step_ram_disk_only(dr);
}

int cmd_doctor(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"doctor", "doctor [options] [POOL]",
		"Walks the isolation method bottom up and ends with a verdict: (1) media: every disk,\n"
		"or the pool's members, read and judged against its peers and baseline, with SMART;\n"
		"(2) network: routes, bonds, MTU, loss; (3) the media factored out: a twin of the pool\n"
		"on RAM-backed devices under the same workload; (4) the pool itself, compared with its\n"
		"twin. It stops at the first step that explains the complaint, and says which layer,\n"
		"the evidence, how sure, and what to do next. --lab builds a throwaway pool with a\n"
		"known fault and diagnoses that instead.",
		doctor_opts,
	};
	struct doctor *dr = xcalloc(1, sizeof(*dr));
	dr->set.fault = true;
	int first = opts_parse_command(&doc, argc, argv, g, handle_option, &dr->set);
	if (first < 0) {
		free(dr);
		return opts_command_status(first);
	}
	if (argc - first > 1 || (dr->set.lab && argc - first == 1)) {
		bool lab = dr->set.lab;
		free(dr);
		return opts_usage_error("doctor", lab ? "--lab builds its own pool: no POOL with it"
						     : "expected at most one pool");
	}
	dr->budget = dr->set.quick || dr->set.lab ? &quick_budget : &full_budget;
	struct run_ctx rc;
	if (run_ctx_begin(&rc, "doctor", argc, argv, g)) {
		free(dr);
		return 1;
	}
	snprintf(dr->run_id, sizeof(dr->run_id), "%s", rc.id);
	dr->db_path = rc.db_path;
	int stale = lab_remove_stale();
	if (stale > 0)
		log_msg(LOG_INFO, "DOCTOR: removed %d leftover(s) of killed runs", stale);

	struct doctor_lab lab = { .slowed = -1 };
	int status = 0;
	const char *pool_id = argc - first == 1 ? argv[first] : NULL;
	if (dr->set.lab) {
		if (lab_build(rc.id, dr->set.fault, LAB_MEMBER_SIZE, LAB_SLOW_RATE, &lab) < 0)
			status = 1;
		pool_id = lab.pool; /* a ZFS pool's name, or a btrfs label */
	}
	if (status == 0 && pool_id) {
		if (bench_target_resolve(pool_id, NULL, &dr->target) < 0)
			status = 1;
		else if (dr->target.kind == SCRATCH_DIR) {
			log_msg(LOG_ERR, "DOCTOR: '%s' is a directory, not a pool: run doctor without it, or benchpool on it",
				pool_id);
			status = 1;
		} else
			dr->have_pool = true;
	}
	if (status == 0) {
		media_prepare(dr);
		estimate(dr, dr->batch.count - read_batch_count(&dr->batch, READTEST_SKIPPED));
		log_msg(LOG_INFO, "DOCTOR: %s run on %s: at most about %u min %02u s (media %u s, network %u s, RAM %u s, pool %u s)",
			dr->budget == &quick_budget ? "a quick" : "a full", dr->have_pool ? dr->target.pool : "every disk",
			dr->estimate_s / 60, dr->estimate_s % 60, dr->steps[0].budget_s, dr->steps[1].budget_s,
			dr->steps[2].budget_s, dr->steps[3].budget_s);
		run_step(dr, 0, step_media);
		if (dr->steps[0].state == STEP_NOT_RUN)
			media_not_read(dr); /* interrupted before step 1: its disks were listed, never read */
		if (!dr->steps[0].explains)
			run_step(dr, 1, step_network);
		if (!dr->steps[0].explains && !dr->steps[1].explains)
			run_step(dr, 2, step_ram);
		if (dr->have_pool && !dr->steps[0].explains && !dr->steps[1].explains && !interrupt_requested())
			run_step(dr, 3, step_pool);
		if (!dr->verdict.layer && dr->steps[0].state == STEP_FAILED) {
			undetermined(dr);
			status = 1;
			log_msg(LOG_ERR, "DOCTOR: no verdict: the media could not be measured: %s", dr->steps[0].summary);
		} else if (!dr->verdict.layer) {
			no_layer(dr);
		}
		if (!interrupt_requested() && !dr->verdict.undetermined)
			log_msg(dr->verdict.layer ? LOG_WARN : LOG_INFO, "DOCTOR: verdict: %s%s%s: %s",
				dr->verdict.layer ? "the " : "no layer stands out",
				dr->verdict.layer ? dr->verdict.layer : "", dr->verdict.layer ? " layer" : "",
				dr->verdict.evidence);
	}
	twin_destroy(&dr->twin);
	char slowed[64] = "";
	if (lab.slowed >= 0)
		snprintf(slowed, sizeof(slowed), "%s", lab.loops[lab.slowed].path);
	if (dr->set.lab)
		lab_destroy(&lab);
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	if (!rc.json && (status == 0 || dr->verdict.undetermined) && !run_ctx_interrupted_status())
		print_report(dr);
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	if (dr->set.lab) {
		json_begin_object(&j, "lab");
		json_string(&j, "pool", lab.pool);
		json_string(&j, "kind", lab.zfs ? "zfs" : "btrfs");
		json_string(&j, "slowed_device", slowed[0] ? slowed : NULL);
		json_uint(&j, "slow_rate_bytes_per_s", lab.slowed >= 0 ? lab.slow_rate : 0);
		json_end_object(&j);
	}
	doctor_json(&j, dr);
	if (dr->batch.count)
		read_batch_document(&dr->batch, &j);
	status = run_ctx_finish(&rc, &j, status, dr->batch.count ? read_batch_store : NULL, &dr->batch);
	json_release(&j);
	read_batch_release(&dr->batch);
	pool_layout_release(&dr->layout);
	free(dr);
	return status;
}
