/* basic/progress.h: how far a long procedure has got, for a line the
 * command draws (cmd/progress.h). Procedures below cmd/ never print: they
 * are handed a struct progress (or NULL) and tell it what is running and
 * how many units of the total are done; DRAW, set by the command, does the
 * rest. Every function accepts NULL or a progress without DRAW and then does
 * nothing, so a procedure calls them unconditionally.
 *
 * Units are bytes (shown as sizes), steps ("disk 2 of 5") or milliseconds
 * of planned time (progress_start_timed). The ETA is the rate so far
 * applied to what is left, unknown until some unit is done; in a timed
 * plan it is the running part's own estimate plus the plan of the parts
 * after it, so a fast first part does not make the rest look fast.
 * Use from one thread (the one that draws). */
#ifndef IOTRIAGE_BASIC_PROGRESS_H
#define IOTRIAGE_BASIC_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress;
typedef void (*progress_draw_fn)(const struct progress *p, bool finished);

struct progress {
	progress_draw_fn draw;   /* NULL: nothing is shown */
	const char *task;        /* the command: "readdisks" */
	char what[160];          /* what is running now: "reading /dev/sdb (disk 2 of 5)" */
	bool bytes;              /* units are bytes */
	uint64_t total, done;    /* units of work planned and done */
	uint64_t base;           /* units of the parts finished before the running one */
	uint64_t start_ns, drawn_ns;
	bool started;
	bool timed;              /* units are milliseconds of planned time */
	bool clock;              /* ... and the plan is the clock itself (a time-based pass): shown as seconds */
	/* The running part opened by progress_part_begin (span 0: none). */
	uint64_t part_span, part_bytes, part_cap_ns, part_start_ns;
	const struct progress *nested; /* the running part's own progress (progress_nest), until it ends */
};

/* Starts P's clock with TOTAL units (bytes when BYTES) and draws it; the
 * task (the command's name) stays as the command set it. */
void progress_start(struct progress *p, uint64_t total, bool bytes);
/* Starts P with TOTAL_MS milliseconds of planned time: a part with a time
 * cap is planned at its cap, one without at an estimate. */
void progress_start_timed(struct progress *p, uint64_t total_ms);
/* The same for work that is the clock itself (a time-based pass, its
 * progress the milliseconds it has run): drawn as "12 s of 40 s". */
void progress_start_clock(struct progress *p, uint64_t total_ms);
/* What is running now (printf format); drawn at once. */
void progress_what(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Both at once, in one draw: DONE units are done and FMT runs now. */
void progress_what_done(struct progress *p, uint64_t done, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* DONE units of the total are done; drawn at most about four times a second. */
void progress_set(struct progress *p, uint64_t done);
/* The running part (a disk, an engine) has done PART units on top of the
 * parts before it; progress_part_end(P, PLANNED) closes it, counting the
 * units it was planned to take whatever it did. */
void progress_part(struct progress *p, uint64_t part);
void progress_part_end(struct progress *p, uint64_t planned);
/* Opens the running part: SPAN units, over when BYTES bytes are done or
 * CAP_NS has passed, whichever comes first (0: no such bound). Then
 * progress_part(P, BYTES_DONE) moves it by the nearer of the two, and
 * progress_tick by the time alone (a step that cannot count its bytes, a
 * child process waited for); progress_part_end(P, SPAN) closes it. */
void progress_part_begin(struct progress *p, uint64_t span, uint64_t bytes, uint64_t cap_ns);
/* The running part's time starts again now: its cap counts from here (a
 * file laid out before the capped I/O). */
void progress_part_restart(struct progress *p);
void progress_tick(struct progress *p);
/* The units of the parts closed so far (0 for NULL). */
uint64_t progress_counted(const struct progress *p);
/* UNITS of the total will not be done after all (a file shrunk to fit, a
 * step that cannot run). */
void progress_drop(struct progress *p, uint64_t units);
/* Erases the line (drawn with FINISHED) for output of the caller's own;
 * the next update draws it again. */
void progress_clear(struct progress *p);
/* Erases the line: the work is over. */
void progress_finish(struct progress *p);

/* A part of PARENT tracked by a procedure that has a progress of its own
 * (doctor's media step is a read batch): the nested progress's share done
 * moves PARENT through its next SPAN units, and what it runs is shown
 * after PREFIX. In a timed PARENT the nested progress's ETA is the
 * running part's, until progress_part_end. Returns the progress to hand down, or NULL when PARENT
 * shows nothing. N must outlive its use. */
struct progress_nest {
	struct progress sub;
	struct progress *parent;
	uint64_t from, span;
	char prefix[160];
};
struct progress *progress_nest(struct progress_nest *n, struct progress *parent, uint64_t span, const char *prefix);

/* Whole percent done, 0..100. */
unsigned progress_percent(const struct progress *p);
/* Seconds left at the rate so far (a timed plan: the running part's
 * estimate plus the plan after it); false when there is none yet. */
bool progress_eta(const struct progress *p, uint64_t now, double *seconds);

#endif
