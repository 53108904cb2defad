#include "cmd/progress.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "basic/timeutil.h"

static bool line_shown;

static void erase_line(void)
{
	if (!line_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	line_shown = false;
}

/* Draws TEXT in place, cut to the terminal's width: a line that wrapped
 * could not be redrawn with a carriage return. */
static void draw_text(const char *text)
{
	struct winsize ws;
	int width = 0;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col - 1;
	fprintf(stderr, "\r\033[K%.*s", width ? width : (int)strlen(text), text);
	fflush(stderr);
	line_shown = true;
}

/* A job's share done and seconds left: by bytes, or by its time cap when
 * that comes first. False when there is no rate yet. */
static bool job_eta(const struct job_progress *p, double secs, unsigned *pct, double *left)
{
	double by_bytes = p->total_bytes ? (double)p->done_bytes / (double)p->total_bytes : 0;
	double by_time = p->runtime_ns ? (double)p->elapsed_ns / (double)p->runtime_ns : 0;
	double frac = by_bytes > by_time ? by_bytes : by_time;
	*pct = (unsigned)(100 * (frac > 1 ? 1 : frac));
	if (secs < 0.1 || frac <= 0)
		return false;
	*left = frac >= 1 ? 0 : secs * (1 - frac) / frac;
	return true;
}

void cmd_progress_line(const struct job_progress *p)
{
	if (p->finished) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		return;
	}
	char done[32], total[32], rate[32], eta[48] = "ETA unknown";
	double secs = (double)p->elapsed_ns / 1e9, left;
	unsigned pct;
	human_iec((double)p->done_bytes, done, sizeof(done));
	human_iec((double)p->total_bytes, total, sizeof(total));
	human_rate(secs > 0 ? (double)p->done_bytes / secs : 0, rate, sizeof(rate));
	if (job_eta(p, secs, &pct, &left))
		snprintf(eta, sizeof(eta), "ETA %.0f s", left);
	fprintf(stderr, "\r\033[K%s: %s of %s, %s, %.0f s, %u%%, %s", p->label, done, total, rate, secs, pct, eta);
	fflush(stderr);
}

job_progress_fn cmd_progress(bool json)
{
	return !json && isatty(STDERR_FILENO) ? cmd_progress_line : NULL;
}

static void eta_text(const struct progress *p, uint64_t now, char *buf, size_t len)
{
	double secs;
	if (!progress_eta(p, now, &secs)) {
		snprintf(buf, len, "ETA unknown");
		return;
	}
	unsigned long s = (unsigned long)(secs + 0.5);
	if (s >= 3600)
		snprintf(buf, len, "ETA %lu h %02lu min", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, len, "ETA %lu min %02lu s", s / 60, s % 60);
	else
		snprintf(buf, len, "ETA %lu s", s);
}

void cmd_progress_format(const struct progress *p, uint64_t now, char *buf, size_t len)
{
	char eta[48], amount[80] = "";
	eta_text(p, now, eta, sizeof(eta));
	if (p->bytes) {
		char done[32], total[32];
		human_iec((double)p->done, done, sizeof(done));
		human_iec((double)p->total, total, sizeof(total));
		snprintf(amount, sizeof(amount), ", %s of %s", done, total);
	} else if (p->clock) {
		snprintf(amount, sizeof(amount), ", %.0f s of %.0f s", (double)p->done / 1e3, (double)p->total / 1e3);
	}
	snprintf(buf, len, "%s: %s, %u%%%s, %s", p->task ? p->task : "working", p->what[0] ? p->what : "starting",
		 progress_percent(p), amount, eta);
}

static void draw_progress(const struct progress *p, bool finished)
{
	if (finished) {
		erase_line();
		return;
	}
	char line[400];
	cmd_progress_format(p, now_ns(), line, sizeof(line));
	draw_text(line);
}

struct progress *cmd_progress_attach(struct progress *p, bool json, const char *task)
{
	*p = (struct progress){ .task = task };
	if (!json && isatty(STDERR_FILENO)) {
		p->draw = draw_progress;
		log_set_before_stderr(erase_line);
	}
	return p;
}
