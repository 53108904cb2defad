#include "basic/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "basic/timeutil.h"

#define REDRAW_NS 250000000ULL

static bool shown(const struct progress *p)
{
	return p && p->draw && p->started;
}

static void draw_now(struct progress *p)
{
	p->drawn_ns = now_ns();
	p->draw(p, false);
}

static void start(struct progress *p, uint64_t total, bool bytes, bool timed, bool clock)
{
	if (!p || !p->draw)
		return;
	p->what[0] = '\0';
	p->total = total;
	p->bytes = bytes;
	p->timed = timed;
	p->clock = clock;
	p->done = p->base = 0;
	p->part_span = p->part_bytes = p->part_cap_ns = 0;
	p->nested = NULL;
	p->start_ns = p->part_start_ns = now_ns();
	p->started = true;
	draw_now(p);
}

void progress_start(struct progress *p, uint64_t total, bool bytes)
{
	start(p, total, bytes, false, false);
}

void progress_start_timed(struct progress *p, uint64_t total_ms)
{
	start(p, total_ms, false, true, false);
}

void progress_start_clock(struct progress *p, uint64_t total_ms)
{
	start(p, total_ms, false, true, true);
}

void progress_what(struct progress *p, const char *fmt, ...)
{
	if (!shown(p))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
	draw_now(p);
}

void progress_what_done(struct progress *p, uint64_t done, const char *fmt, ...)
{
	if (!shown(p))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->what, sizeof(p->what), fmt, ap);
	va_end(ap);
	p->done = done > p->total ? p->total : done;
	draw_now(p);
}

void progress_set(struct progress *p, uint64_t done)
{
	if (!shown(p))
		return;
	p->done = done > p->total ? p->total : done;
	if (now_ns() - p->drawn_ns >= REDRAW_NS)
		draw_now(p);
}

/* The running part's share done: its bytes or its time, the nearer to its end. */
static double part_fraction(const struct progress *p, uint64_t bytes)
{
	double by_bytes = p->part_bytes ? (double)bytes / (double)p->part_bytes : 0;
	double by_time = p->part_cap_ns ? (double)(now_ns() - p->part_start_ns) / (double)p->part_cap_ns : 0;
	double f = by_bytes > by_time ? by_bytes : by_time;
	return f > 1 ? 1 : f;
}

static bool part_bounded(const struct progress *p)
{
	return p->part_span && (p->part_bytes || p->part_cap_ns);
}

void progress_part(struct progress *p, uint64_t part)
{
	if (!shown(p))
		return;
	if (part_bounded(p)) { /* never back: a restarted clock, a pass's bytes after its time */
		part = (uint64_t)((double)p->part_span * part_fraction(p, part));
		if (p->base + part < p->done)
			part = p->done - p->base;
	}
	progress_set(p, p->base + part);
}

void progress_tick(struct progress *p)
{
	if (shown(p) && part_bounded(p) && p->part_cap_ns) {
		uint64_t by_time = p->base + (uint64_t)((double)p->part_span * part_fraction(p, 0));
		progress_set(p, by_time > p->done ? by_time : p->done);
	}
}

void progress_part_begin(struct progress *p, uint64_t span, uint64_t bytes, uint64_t cap_ns)
{
	if (!shown(p))
		return;
	p->part_span = span;
	p->part_bytes = bytes;
	p->part_cap_ns = cap_ns;
	p->part_start_ns = now_ns();
}

void progress_part_restart(struct progress *p)
{
	if (shown(p))
		p->part_start_ns = now_ns();
}

void progress_part_end(struct progress *p, uint64_t planned)
{
	if (!shown(p))
		return;
	p->base += planned;
	p->part_span = p->part_bytes = p->part_cap_ns = 0;
	p->nested = NULL;
	p->part_start_ns = now_ns();
	progress_set(p, p->base);
}

uint64_t progress_counted(const struct progress *p)
{
	return shown(p) ? p->base : 0;
}

void progress_drop(struct progress *p, uint64_t units)
{
	if (!shown(p))
		return;
	p->total -= units < p->total - p->base ? units : p->total - p->base;
	progress_set(p, p->done);
}

void progress_clear(struct progress *p)
{
	if (shown(p))
		p->draw(p, true);
}

void progress_finish(struct progress *p)
{
	if (!shown(p))
		return;
	p->draw(p, true);
	p->started = false;
	p->nested = NULL;
}

/* The nested progress drawn: its share done and what it runs, moved into
 * the parent (struct progress_nest begins with its sub). */
static void draw_nested(const struct progress *sub, bool finished)
{
	const struct progress_nest *n = (const struct progress_nest *)sub;
	struct progress *p = n->parent;
	(void)finished; /* the nested work's end is where it got to; the parent's line goes on */
	if (!shown(p))
		return;
	uint64_t part = sub->total ? (uint64_t)((double)n->span * (double)sub->done / (double)sub->total) : 0;
	char what[sizeof(p->what)];
	snprintf(what, sizeof(what), "%s%s%s", n->prefix, sub->what[0] ? ": " : "", sub->what);
	bool changed = strcmp(what, p->what) != 0;
	memcpy(p->what, what, sizeof(what));
	if (changed)
		p->drawn_ns = 0; /* a new step of the nested work is drawn at once */
	progress_set(p, n->from + (part < n->span ? part : n->span));
}

struct progress *progress_nest(struct progress_nest *n, struct progress *parent, uint64_t span, const char *prefix)
{
	if (!shown(parent))
		return NULL;
	*n = (struct progress_nest){ .sub = { .draw = draw_nested }, .parent = parent, .from = parent->done, .span = span };
	snprintf(n->prefix, sizeof(n->prefix), "%s", prefix);
	parent->nested = &n->sub;
	return &n->sub;
}

unsigned progress_percent(const struct progress *p)
{
	if (!p->total)
		return 0;
	return (unsigned)(p->done * 100 / p->total);
}

/* A timed plan: the running part's time left by its nested progress, or
 * at its own rate (or, before it has one, what is left of its cap), then the plan of the parts after
 * it. Unknown while a part without a cap has shown nothing. */
static bool timed_eta(const struct progress *p, uint64_t now, double *seconds)
{
	uint64_t span = p->part_span, in_part = p->done - p->base;
	double elapsed = (double)(now - p->part_start_ns) / 1e9, part_left = 0;
	if (p->nested && p->nested->started && progress_eta(p->nested, now, &part_left))
		; /* the nested work knows its own parts best */
	else if (span && in_part > 0 && elapsed >= 0.1)
		part_left = elapsed * (double)(span > in_part ? span - in_part : 0) / (double)in_part;
	else if (span && p->part_cap_ns)
		part_left = (double)span / 1e3 > elapsed ? (double)span / 1e3 - elapsed : 0;
	else if (span)
		return false;
	/* No part open: what is left is the plan past what is done. */
	uint64_t past = span ? p->base + span : p->done;
	uint64_t after = p->total > past ? p->total - past : 0;
	*seconds = part_left + (double)after / 1e3;
	return true;
}

bool progress_eta(const struct progress *p, uint64_t now, double *seconds)
{
	if (p->timed)
		return timed_eta(p, now, seconds);
	double elapsed = (double)(now - p->start_ns) / 1e9;
	/* Less than a tenth of a second of work gives no rate to speak of. */
	if (p->done == 0 || elapsed < 0.1)
		return false;
	*seconds = elapsed * (double)(p->total - p->done) / (double)p->done;
	return true;
}
