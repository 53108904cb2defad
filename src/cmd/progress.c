#include "cmd/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "basic/humanize.h"

void cmd_progress_line(const struct job_progress *p)
{
	if (p->finished) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		return;
	}
	char done[32], total[32], rate[32];
	double secs = (double)p->elapsed_ns / 1e9;
	human_iec((double)p->done_bytes, done, sizeof(done));
	human_iec((double)p->total_bytes, total, sizeof(total));
	human_rate(secs > 0 ? (double)p->done_bytes / secs : 0, rate, sizeof(rate));
	fprintf(stderr, "\r\033[K%s: %s of %s, %s, %.0f s", p->label, done, total, rate, secs);
	fflush(stderr);
}

job_progress_fn cmd_progress(bool json)
{
	return !json && isatty(STDERR_FILENO) ? cmd_progress_line : NULL;
}
