/* The fan-out: hosts in slots, each slot one ssh session at a time
 * (handshake, then the command), all watched by one poll loop. */
#include "triage/fleet/fleet.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/children.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/session_watch.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"

#define HANDSHAKE_LIMIT_MS 30000ULL

enum stage { STAGE_IDLE, STAGE_HANDSHAKE, STAGE_PROBE, STAGE_COMMAND };

struct slot {
	struct fleet_host *host;
	enum stage stage;
	struct child child;
	uint64_t started_ns, deadline_ns, kill_at_ns;
	bool asked_to_stop, timed_out, killed;
};

const char *fleet_status_name(enum fleet_status s)
{
	static const char *const names[] = {
		[FLEET_PENDING] = "pending", [FLEET_OK] = "ok", [FLEET_UNREACHABLE] = "unreachable",
		[FLEET_AUTH_REFUSED] = "auth-refused", [FLEET_HOST_KEY] = "host-key",
		[FLEET_MISSING] = "iotriage-missing", [FLEET_INCOMPATIBLE] = "incompatible",
		[FLEET_FAILED] = "failed", [FLEET_TIME_LIMIT] = "time-limit",
		[FLEET_INTERRUPTED] = "interrupted", [FLEET_ERROR] = "error", [FLEET_FIO_MISSING] = "fio-missing",
	};
	return names[s];
}

struct fleet_host *fleet_hosts_new(const struct fleet_plan *plan)
{
	struct fleet_host *hosts = xcalloc(plan->n_hosts ? plan->n_hosts : 1, sizeof(*hosts));
	for (size_t i = 0; i < plan->n_hosts; i++) {
		hosts[i].name = plan->hosts[i];
		hosts[i].exit_status = -1;
	}
	return hosts;
}

void fleet_hosts_free(struct fleet_host *hosts, size_t n)
{
	for (size_t i = 0; hosts && i < n; i++)
		free(hosts[i].document);
	free(hosts);
}

int fleet_begin(struct fleet_plan *plan, char *why, size_t len)
{
	/* Short: a socket path must fit in 108 bytes with its 40-character %C. */
	snprintf(plan->control_dir, sizeof(plan->control_dir), "/tmp/iotriage-fleet-XXXXXX");
	if (!mkdtemp(plan->control_dir)) {
		int r = -errno;
		snprintf(why, len, "cannot make a directory for ssh's control sockets in '/tmp': %s", strerror(-r));
		plan->control_dir[0] = '\0';
		return r;
	}
	plan->ssh.control_dir = plan->control_dir;
	return 0;
}

void fleet_end(struct fleet_plan *plan)
{
	if (!plan->control_dir[0])
		return;
	for (size_t i = 0; i < plan->n_hosts; i++) {
		char **argv = ssh_exit_argv(&plan->ssh, plan->hosts[i]);
		struct spawn_result res;
		if (spawn_run((const char *const *)argv, 10000, &res) == 0)
			spawn_result_release(&res);
		ssh_argv_free(argv);
	}
	DIR *d = opendir(plan->control_dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", plan->control_dir, e->d_name);
		if (e->d_name[0] != '.')
			unlink(path.buf);
		strbuf_release(&path);
	}
	if (d)
		closedir(d);
	rmdir(plan->control_dir);
	plan->control_dir[0] = '\0';
	plan->ssh.control_dir = NULL;
}

static void host_done(struct fleet_host *h, enum fleet_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void host_done(struct fleet_host *h, enum fleet_status st, const char *fmt, ...)
{
	va_list ap;
	h->status = st;
	va_start(ap, fmt);
	vsnprintf(h->reason, sizeof(h->reason), fmt, ap);
	va_end(ap);
	if (st == FLEET_OK)
		log_msg(LOG_INFO, "FLEET (%s): ok, %.1f s", h->name, h->seconds);
	else
		log_msg(LOG_WARN, "FLEET (%s): %s: %s", h->name, fleet_status_name(st), h->reason);
}

/* The words run on the host for STAGE. */
static size_t stage_words(const struct fleet_plan *plan, enum stage stage, const char **words, size_t max)
{
	size_t n = 0;
	if (stage == STAGE_PROBE) {
		words[n++] = "uname";
		words[n++] = "-sm";
	} else {
		words[n++] = plan->remote_iotriage;
		if (stage == STAGE_HANDSHAKE) {
			words[n++] = "--json";
			words[n++] = "--version";
		} else {
			words[n++] = "--fleet-session";
			words[n++] = "--json";
			for (size_t i = 0; plan->command[i] && n + 1 < max; i++)
				words[n++] = plan->command[i];
		}
	}
	words[n] = NULL;
	return n;
}

static int slot_start(const struct fleet_plan *plan, struct slot *s, enum stage stage)
{
	const char *words[256];
	stage_words(plan, stage, words, sizeof(words) / sizeof(words[0]));
	char **argv = ssh_argv(&plan->ssh, s->host->name, words);
	int r = child_start(&s->child, (const char *const *)argv);
	ssh_argv_free(argv);
	if (r < 0) {
		host_done(s->host, FLEET_ERROR, "cannot run ssh: %s",
			  r == -ENOENT ? "not installed (install openssh-client)" : strerror(-r));
		s->stage = STAGE_IDLE;
		return r;
	}
	s->stage = stage;
	s->started_ns = now_ns();
	uint64_t limit_ms = stage == STAGE_COMMAND ? plan->time_limit_ms
						   : HANDSHAKE_LIMIT_MS + 1000ULL * plan->ssh.connect_timeout_s;
	s->deadline_ns = limit_ms ? s->started_ns + limit_ms * 1000000ULL : UINT64_MAX;
	s->kill_at_ns = UINT64_MAX;
	s->asked_to_stop = s->timed_out = s->killed = false;
	if (stage == STAGE_COMMAND) {
		s->host->started_at = time(NULL);
		log_msg(LOG_INFO, "FLEET (%s): running '%s' there", s->host->name, plan->command[0]);
	}
	return 0;
}

/* The last non-empty line of TEXT, into BUF, without a log line's
 * "{time, LEVEL, iotriage} " head. */
static void last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	const char *head_end = *start == '{' ? strstr(start, "} ") : NULL;
	if (head_end && head_end < end)
		start = head_end + 2;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/* An ssh failure before the command could run: the host's status. */
static bool ssh_failed(struct slot *s, const char *what)
{
	char why[512];
	enum ssh_failure f = ssh_classify(s->child.status, s->child.err.buf, why, sizeof(why));
	switch (f) {
	case SSH_FAIL_UNREACHABLE:
		host_done(s->host, FLEET_UNREACHABLE, "%s%s", what, why);
		return true;
	case SSH_FAIL_AUTH:
		host_done(s->host, FLEET_AUTH_REFUSED, "%s%s (BatchMode: no password is asked for; "
			  "check the key and the user ssh uses for this host)", what, why);
		return true;
	case SSH_FAIL_HOST_KEY:
		host_done(s->host, FLEET_HOST_KEY, "%s%s (add the host's key to known_hosts, or "
			  "--accept-new-host-keys)", what, why);
		return true;
	case SSH_FAIL_OTHER:
		host_done(s->host, FLEET_ERROR, "%s%s", what, why);
		return true;
	case SSH_FAIL_NOT_FOUND:
	case SSH_FAIL_NONE:
		break;
	}
	return false;
}

static enum stage handshake_done(const struct fleet_plan *plan, struct slot *s)
{
	struct fleet_host *h = s->host;
	char why[512];
	if (s->killed) {
		host_done(h, s->timed_out ? FLEET_UNREACHABLE : FLEET_INTERRUPTED, "%s",
			  s->timed_out ? "no answer to the handshake in time" : "interrupted before the command started");
		return STAGE_IDLE;
	}
	if (ssh_failed(s, ""))
		return STAGE_IDLE;
	if (s->child.status == 126 || s->child.status == 127) {
		return STAGE_PROBE;
	}
	if (s->child.status != 0) {
		last_line(s->child.err.buf, why, sizeof(why));
		host_done(h, FLEET_INCOMPATIBLE, "'%s --json --version' failed there (exit status %d): %s; "
			  "install iotriage %s there", plan->remote_iotriage, s->child.status, why, plan->local.version);
		return STAGE_IDLE;
	}
	if (handshake_parse(s->child.out.buf, &h->id, why, sizeof(why)) < 0) {
		host_done(h, FLEET_INCOMPATIBLE, "%s; install iotriage %s there", why, plan->local.version);
		return STAGE_IDLE;
	}
	h->identified = true;
	if (!handshake_compatible(&h->id, &plan->local, why, sizeof(why))) {
		host_done(h, FLEET_INCOMPATIBLE, "%s", why);
		return STAGE_IDLE;
	}
	if (interrupt_requested()) {
		host_done(h, FLEET_INTERRUPTED, "interrupted before the command started");
		return STAGE_IDLE;
	}
	return STAGE_COMMAND;
}

static void probe_done(const struct fleet_plan *plan, struct slot *s)
{
	char there[64] = "", here[96];
	snprintf(here, sizeof(here), "Linux %s", plan->local.machine);
	if (s->child.status == 0)
		last_line(s->child.out.buf, there, sizeof(there));
	char exe[4096] = "iotriage";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0)
		exe[n] = '\0';
	if (strcmp(there, here) == 0)
		host_done(s->host, FLEET_MISSING, "no '%s' there: install iotriage %s there; this machine's "
			  "binary would run there (%s): scp %s %s:/usr/local/bin/iotriage", plan->remote_iotriage,
			  plan->local.version, here, exe, s->host->name);
	else
		host_done(s->host, FLEET_MISSING, "no '%s' there: install iotriage %s there%s%s%s",
			  plan->remote_iotriage, plan->local.version, there[0] ? " (built for " : "", there,
			  there[0] ? "; this machine's binary is not)" : "");
}

static void take_document(struct fleet_host *h, struct strbuf *out)
{
	const char *p = out->buf + strspn(out->buf, " \t\r\n");
	if (*p == '{')
		h->document = strbuf_detach(out);
}

static void command_done(const struct fleet_plan *plan, struct slot *s)
{
	struct fleet_host *h = s->host;
	char line[512];
	h->finished_at = time(NULL);
	h->seconds = (double)(now_ns() - s->started_ns) / 1e9;
	take_document(h, &s->child.out);
	h->exit_status = s->child.signal ? -1 : s->child.status;
	last_line(s->child.err.buf, line, sizeof(line));
	if (s->timed_out) {
		host_done(h, FLEET_TIME_LIMIT, "time limit of %.0f s reached: the run there was %s",
			  (double)plan->time_limit_ms / 1000.0,
			  s->killed ? "cut off (ssh killed); it stops and cleans up by itself"
				    : "interrupted and cleaned up");
		return;
	}
	if (s->killed || (s->asked_to_stop && s->child.status >= 128)) {
		host_done(h, FLEET_INTERRUPTED, "interrupted: the run there was %s",
			  s->killed ? "cut off (ssh killed); it stops and cleans up by itself"
				    : "interrupted and cleaned up");
		return;
	}
	if (!h->document && ssh_failed(s, "connection lost: "))
		return;
	if (s->child.signal) {
		host_done(h, FLEET_ERROR, "the ssh session ended by signal %d (%s); the run there stops and cleans "
			  "up by itself", s->child.signal, strsignal(s->child.signal));
		return;
	}
	if (s->child.status != 0) {
		host_done(h, FLEET_FAILED, "the command failed there with exit status %d%s%s", s->child.status,
			  line[0] ? ": " : "", line);
		return;
	}
	if (!h->document) {
		host_done(h, FLEET_ERROR, "no document came back%s%s", line[0] ? ": " : "", line);
		return;
	}
	host_done(h, FLEET_OK, "%s", "");
}

/* Deadlines and interrupts for a running slot. */
static void slot_watch(const struct fleet_plan *plan, struct slot *s, uint64_t now)
{
	bool stop = interrupt_requested() || now >= s->deadline_ns;
	if (stop && s->stage != STAGE_COMMAND && !s->killed) {
		s->timed_out = !interrupt_requested();
		s->killed = true;
		child_signal(&s->child, SIGKILL);
	} else if (stop && !s->asked_to_stop) {
		s->asked_to_stop = true;
		s->timed_out = !interrupt_requested();
		log_msg(LOG_WARN, "FLEET (%s): %s; asking the run there to stop", s->host->name,
			s->timed_out ? "time limit reached" : "interrupted");
		child_send(&s->child, SESSION_INTERRUPT_LINE);
		s->kill_at_ns = now + plan->grace_ms * 1000000ULL;
	} else if (now >= s->kill_at_ns && !s->killed) {
		s->killed = true;
		log_msg(LOG_WARN, "FLEET (%s): no answer %.0f s after the interrupt; cutting the session",
			s->host->name, (double)plan->grace_ms / 1000.0);
		child_signal(&s->child, SIGKILL);
	}
}

static void slot_finish(const struct fleet_plan *plan, struct slot *s)
{
	enum stage next = STAGE_IDLE;
	if (s->stage == STAGE_HANDSHAKE)
		next = handshake_done(plan, s);
	else if (s->stage == STAGE_PROBE)
		probe_done(plan, s);
	else
		command_done(plan, s);
	child_release(&s->child);
	s->stage = STAGE_IDLE;
	if (next == STAGE_IDLE || slot_start(plan, s, next) < 0)
		s->host = NULL;
}

/* Fills idle slots with the next pending hosts. */
static void fill_slots(const struct fleet_plan *plan, struct slot *slots, struct fleet_host *hosts, size_t n,
		       size_t *next)
{
	for (unsigned i = 0; i < plan->parallel && *next < n; i++) {
		if (slots[i].host)
			continue;
		slots[i].host = &hosts[(*next)++];
		if (slot_start(plan, &slots[i], STAGE_HANDSHAKE) < 0)
			slots[i].host = NULL;
	}
}

/* The line: hosts done of N, the ones running now. */
static void show_progress(const struct fleet_plan *plan, const struct slot *slots, const struct fleet_host *hosts,
			  size_t n)
{
	struct progress *p = plan->progress;
	if (!p || !p->draw)
		return;
	size_t done = 0;
	for (size_t i = 0; i < n; i++)
		done += hosts[i].status != FLEET_PENDING;
	char what[sizeof(p->what)];
	int len = snprintf(what, sizeof(what), "%zu of %zu host%s done", done, n, n == 1 ? "" : "s");
	const char *sep = ", running ";
	for (size_t h = 0; h < n && len < (int)sizeof(what); h++) /* in the order given, not the slots' */
		for (unsigned i = 0; i < plan->parallel; i++)
			if (slots[i].host == &hosts[h]) {
				len += snprintf(what + len, sizeof(what) - (size_t)len, "%s%s", sep, hosts[h].name);
				sep = " ";
			}
	if (strcmp(what, p->what) != 0)
		progress_what_done(p, done, "%s", what);
	else
		progress_set(p, done);
}

size_t fleet_run(const struct fleet_plan *plan, struct fleet_host *hosts, size_t n)
{
	struct slot *slots = xcalloc(plan->parallel, sizeof(*slots));
	struct child **watched = xcalloc(plan->parallel, sizeof(*watched));
	size_t next = 0;
	progress_start(plan->progress, n, false);
	for (;;) {
		if (!interrupt_requested())
			fill_slots(plan, slots, hosts, n, &next);
		size_t busy = 0;
		for (unsigned i = 0; i < plan->parallel; i++) {
			watched[i] = slots[i].host ? &slots[i].child : NULL;
			busy += slots[i].host != NULL;
		}
		if (busy == 0 && (next >= n || interrupt_requested()))
			break;
		show_progress(plan, slots, hosts, n);
		children_poll(watched, plan->parallel, 200);
		uint64_t now = now_ns();
		for (unsigned i = 0; i < plan->parallel; i++) {
			if (!slots[i].host)
				continue;
			if (slots[i].child.running)
				slot_watch(plan, &slots[i], now);
			else
				slot_finish(plan, &slots[i]);
		}
	}
	progress_finish(plan->progress);
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		if (hosts[i].status == FLEET_PENDING)
			host_done(&hosts[i], FLEET_INTERRUPTED, "not started: interrupted");
		ok += hosts[i].status == FLEET_OK;
	}
	free(watched);
	free(slots);
	return ok;
}
