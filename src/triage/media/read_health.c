/* The health of a read batch: a sweep of every disk on a physical transport
 * before the read pass, and the cross-check of each disk the read test
 * flagged (slow, or failing part way through its read), so the finding and
 * the drive's own opinion of itself are shown side by side. */
#include "triage/media/read_health.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"

static bool needs_health_check(const struct disk_read *d)
{
	/* A disk on another host is not this host's smartctl's to ask. */
	if (d->host[0])
		return false;
	/* A disk faster than its peers is worth a look but not a health question;
	 * a slow tail is (retries, remapped sectors). */
	if (disk_verdict_suspect(d->verdict.kind))
		return true;
	/* An error after the read started (an I/O error) is a media question;
	 * one that stopped it from starting (permission, no such device) is not. */
	return disk_verdict_read_failed(d->verdict.kind);
}

static bool is_virtual(const struct disk_info *info)
{
	static const char *const virtual_transports[] = { "loop", "zram", "virtio", "nbd", "md", "dm" };
	for (size_t i = 0; i < sizeof(virtual_transports) / sizeof(virtual_transports[0]); i++)
		if (strcmp(info->transport, virtual_transports[i]) == 0)
			return true;
	return false;
}

void read_health_describe(const struct disk_read *d, char *buf, size_t len)
{
	const struct smart_health *h = &d->health;
	if (d->smartctl_missing) {
		snprintf(buf, len, "not checked: smartctl is not installed (Debian: apt-get install smartmontools)");
		return;
	}
	if (h->state == SMART_UNAVAILABLE) {
		snprintf(buf, len, "%s%s", h->reason,
			 is_virtual(&d->info) ? " (a virtual disk has no SMART data: check the disk behind it)" : "");
		return;
	}
	char temp[32] = "";
	if (h->has_temperature)
		snprintf(temp, sizeof(temp), ", %d C", h->temperature_c);
	snprintf(buf, len, "SMART %s%s%s%s", h->state == SMART_FAILED ? "FAILED: the drive predicts its own failure" : "passed",
		 temp, h->predictive_failure ? "; predictive failure: " : "", h->predictive_failure ? h->signs : "");
}

/* Records smartctl's answer R for D (smart_query's return) and logs it. */
static void record(struct disk_read *d, int r)
{
	if (r == -ENOENT) {
		d->smartctl_missing = true;
	} else if (r < 0 && d->health.reason[0] == '\0') {
		d->health.state = SMART_UNAVAILABLE;
		snprintf(d->health.reason, sizeof(d->health.reason), "cannot run smartctl: %s",
			 r == -ETIMEDOUT ? "no answer within the time allowed" : strerror(-r));
	}
	d->health_checked = true;
	char text[600];
	read_health_describe(d, text, sizeof(text));
	log_msg(read_health_failing(d) ? LOG_WARN : LOG_INFO, "READ-DISK (%s): health: %s", d->info.dev_path, text);
}

/* The sweep's workers: each takes the next disk until none is left, and
 * leaves its answer in the disk's slot (shared with the parent). */
struct sweep_slot {
	int done;                  /* set last, atomically */
	int result;
	struct smart_health health;
};
struct sweep {
	struct disk_read *const *disks;
	struct sweep_slot *slots;
	size_t count;
	size_t next; /* atomic */
};

static void *sweep_main(void *arg)
{
	struct sweep *sw = arg;
	for (;;) {
		size_t k = __atomic_fetch_add(&sw->next, 1, __ATOMIC_RELAXED);
		if (k >= sw->count)
			return NULL;
		struct sweep_slot *slot = &sw->slots[k];
		slot->result = smart_query_within(sw->disks[k]->info.dev_path, READ_HEALTH_SWEEP_TIMEOUT_MS,
						  &slot->health);
		__atomic_store_n(&slot->done, 1, __ATOMIC_RELEASE);
	}
}

/* The sweeping process: READ_HEALTH_SWEEP_WORKERS threads at a time. */
static void sweep_workers(struct sweep *sw)
{
	size_t workers = sw->count < READ_HEALTH_SWEEP_WORKERS ? sw->count : READ_HEALTH_SWEEP_WORKERS;
	pthread_t threads[READ_HEALTH_SWEEP_WORKERS];
	size_t started = 0;
	while (started < workers && pthread_create(&threads[started], NULL, sweep_main, sw) == 0)
		started++;
	if (started == 0)
		sweep_main(sw); /* no thread: one at a time, here */
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
}

/* Waits for the sweeping process until it ends, its deadline passes or an
 * interrupt comes; then it is killed. smartctl on a disk that does not
 * answer cannot be stopped (the kernel holds it until the disk answers),
 * so the sweep never waits for it: the process is given up, not joined. */
static void sweep_wait(pid_t pid, size_t count)
{
	size_t rounds = (count + READ_HEALTH_SWEEP_WORKERS - 1) / READ_HEALTH_SWEEP_WORKERS;
	uint64_t deadline = now_ns() + (uint64_t)rounds * READ_HEALTH_SWEEP_TIMEOUT_MS * 1000000ULL + 1000000000ULL;
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (now_ns() > deadline || interrupt_requested()) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0); /* its threads wait in waitpid(), which a kill ends */
			return;
		}
		nanosleep(&tick, NULL);
	}
}

/* Runs smartctl on the COUNT DISKS in a child process (see sweep_wait),
 * then records the answers in order from this process. A disk that gave
 * no answer in time is said to, with the reason. */
static void sweep_run(struct disk_read *const *disks, size_t count)
{
	if (count == 0)
		return;
	size_t bytes = count * sizeof(struct sweep_slot);
	struct sweep sw = { .disks = disks, .count = count };
	sw.slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sw.slots == MAP_FAILED)
		return;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		sweep_workers(&sw);
		_exit(0);
	}
	if (pid > 0)
		sweep_wait(pid, count);
	else
		sweep_workers(&sw); /* no process: here, with the same per-disk limit */
	for (size_t k = 0; k < count; k++) {
		struct sweep_slot *slot = &sw.slots[k];
		if (__atomic_load_n(&slot->done, __ATOMIC_ACQUIRE)) {
			disks[k]->health = slot->health;
			record(disks[k], slot->result);
		} else if (!interrupt_requested()) {
			disks[k]->health = (struct smart_health){ .state = SMART_UNAVAILABLE };
			record(disks[k], -ETIMEDOUT);
		}
	}
	munmap(sw.slots, bytes);
}

bool read_health_sweepable(const struct disk_info *info)
{
	static const char *const physical[] = { "nvme", "sata", "scsi", "sas", "usb" };
	for (size_t i = 0; i < sizeof(physical) / sizeof(physical[0]); i++)
		if (strcmp(info->transport, physical[i]) == 0)
			return true;
	return false;
}

bool read_health_failing(const struct disk_read *d)
{
	return d->health_checked && !d->smartctl_missing &&
	       (d->health.state == SMART_FAILED || d->health.predictive_failure);
}

size_t read_health_sweep(struct disk_read *reads, size_t count)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct disk_read **disks = xcalloc(count ? count : 1, sizeof(*disks));
	size_t swept = 0, failing = 0, missing = 0;
	for (size_t i = 0; i < count; i++) {
		struct disk_read *d = &reads[i];
		if (d->status != READTEST_SKIPPED && !d->health_checked && read_health_sweepable(&d->info))
			disks[swept++] = d;
	}
	sweep_run(disks, swept);
	for (size_t k = 0; k < swept; k++) {
		failing += read_health_failing(disks[k]);
		missing += disks[k]->smartctl_missing;
	}
	free(disks);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (swept)
		log_msg(failing ? LOG_WARN : LOG_INFO,
			"READ-DISKS: health sweep: %zu disk(s) asked for their SMART state in %.1f s; %zu report a "
			"health failure%s", swept, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			failing, missing ? " (smartctl is not installed)" : "");
	return swept;
}

size_t read_health_check_flagged(struct disk_read *reads, size_t count)
{
	size_t checked = 0;
	for (size_t i = 0; i < count; i++) {
		struct disk_read *d = &reads[i];
		if (!needs_health_check(d) || d->health_checked)
			continue;
		if (d->no_response) {
			/* smartctl's commands would wait on the same stuck device. */
			d->health.state = SMART_UNAVAILABLE;
			snprintf(d->health.reason, sizeof(d->health.reason),
				 "not asked: the disk does not answer, and smartctl would wait on it too");
			record(d, 0);
		} else {
			record(d, smart_query_within(d->info.dev_path, READ_HEALTH_FLAGGED_TIMEOUT_MS, &d->health));
		}
		checked++;
	}
	for (size_t i = 0; i < count; i++)
		read_health_note(&reads[i]);
	return checked;
}

void read_health_note(struct disk_read *d)
{
	const struct disk_verdict *v = &d->verdict;
	if (!read_health_failing(d) || v->kind == VERDICT_NOT_JUDGED || disk_verdict_has_reason(v, REASON_HEALTH))
		return;
	char text[600];
	read_health_describe(d, text, sizeof(text));
	disk_verdict_add_reason(&d->verdict, REASON_HEALTH, true, text);
	log_msg(LOG_WARN, "READ-DISK (%s): a health finding, whatever its read rate: %s", d->info.dev_path, text);
}

void read_health_word(const struct disk_read *d, char *buf, size_t len)
{
	const struct smart_health *h = &d->health;
	if (!d->health_checked)
		snprintf(buf, len, "%s", "");
	else if (d->smartctl_missing)
		snprintf(buf, len, "no smartctl");
	else if (h->state == SMART_UNAVAILABLE)
		snprintf(buf, len, "no SMART");
	else if (h->state == SMART_FAILED)
		snprintf(buf, len, "FAILED");
	else if (h->predictive_failure)
		snprintf(buf, len, "warning");
	else if (h->has_temperature)
		snprintf(buf, len, "passed %d C", h->temperature_c);
	else
		snprintf(buf, len, "passed");
}

void read_health_json(struct json *j, const struct disk_read *d)
{
	if (!d->health_checked)
		return;
	const struct smart_health *h = &d->health;
	json_begin_object(j, "health");
	json_bool(j, "smartctl_installed", !d->smartctl_missing);
	json_string(j, "smart", d->smartctl_missing ? NULL : smart_state_name(h->state));
	json_string(j, "reason", h->state == SMART_UNAVAILABLE && !d->smartctl_missing ? h->reason : NULL);
	json_string(j, "device_type", h->device_type[0] ? h->device_type : NULL);
	if (h->has_temperature)
		json_int(j, "temperature_c", h->temperature_c);
	else
		json_string(j, "temperature_c", NULL);
	if (h->has_critical_warning)
		json_uint(j, "critical_warning", h->critical_warning);
	else
		json_string(j, "critical_warning", NULL);
	if (h->has_media_errors)
		json_uint(j, "media_errors", h->media_errors);
	else
		json_string(j, "media_errors", NULL);
	json_bool(j, "predictive_failure", h->predictive_failure);
	json_bool(j, "finding", read_health_failing(d));
	json_string(j, "signs", h->signs[0] ? h->signs : NULL);
	char text[600];
	read_health_describe(d, text, sizeof(text));
	json_string(j, "sentence", text);
	json_end_object(j);
}
