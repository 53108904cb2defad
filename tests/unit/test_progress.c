/* test_progress.c: basic/progress.c (percent, ETA from the rate so far,
 * parts, dropped units, redraw pacing) and cmd/progress.c's line. Times are
 * set by hand where the ETA is checked, so no test waits. */
#include <string.h>

#include "basic/progress.h"
#include "basic/timeutil.h"
#include "cmd/progress.h"
#include "tap.h"

static int draws, finishes;

static void count_draws(const struct progress *p, bool finished)
{
	(void)p;
	if (finished)
		finishes++;
	else
		draws++;
}

static void test_nothing_without_draw(void)
{
	struct progress p = { 0 };
	progress_start(&p, 100, false);
	progress_what(&p, "x");
	progress_set(&p, 50);
	progress_finish(&p);
	ok(!p.started && p.done == 0, "a progress without a draw function records nothing");
	progress_start(NULL, 1, false);
	progress_part(NULL, 1);
	progress_drop(NULL, 1);
	ok(progress_counted(NULL) == 0, "NULL is accepted everywhere");
}

static void test_parts(void)
{
	struct progress p = { .draw = count_draws };
	draws = finishes = 0;
	progress_start(&p, 300, true);
	ok(draws == 1, "start draws at once");
	progress_what(&p, "disk %d of %d", 1, 3);
	ok(draws == 2 && strcmp(p.what, "disk 1 of 3") == 0, "what is drawn at once");
	progress_part(&p, 40);
	ok(p.done == 40 && draws == 2, "a part's bytes count; no redraw within a quarter second");
	progress_part_end(&p, 100);
	progress_part(&p, 10);
	ok(p.done == 110 && progress_counted(&p) == 100, "the next part counts on top of the planned units of the first");
	is_int(progress_percent(&p), 36, "percent of the total");
	progress_drop(&p, 100);
	ok(p.total == 200, "dropped units come off the total");
	progress_drop(&p, 1000);
	ok(p.total == 100, "never below what is counted");
	progress_set(&p, 500);
	ok(p.done == p.total, "done never passes the total");
	progress_finish(&p);
	ok(finishes == 1 && !p.started, "finish erases once");
	progress_set(&p, 1);
	ok(finishes == 1 && draws >= 2, "nothing is drawn after the finish");
}

static void test_eta(void)
{
	struct progress p = { .draw = count_draws };
	progress_start(&p, 1000, false);
	double s = -1;
	ok(!progress_eta(&p, p.start_ns + 5000000000ULL, &s), "no ETA while nothing is done");
	p.done = 250;
	ok(!progress_eta(&p, p.start_ns + 50000000ULL, &s), "no ETA from less than a tenth of a second");
	ok(progress_eta(&p, p.start_ns + 10000000000ULL, &s) && s > 29.9 && s < 30.1,
	   "a quarter done in 10 s: 30 s left at that rate");
}

static void test_line(void)
{
	struct progress p = { .draw = count_draws, .task = "readdisks" };
	progress_start(&p, 4ULL << 30, true);
	progress_what(&p, "reading /dev/sdb (disk 2 of 4)");
	char line[200];
	cmd_progress_format(&p, p.start_ns, line, sizeof(line));
	is_str(line, "readdisks: reading /dev/sdb (disk 2 of 4), 0%, 0 B of 4.0 GiB, ETA unknown",
	       "the line before a rate: ETA unknown");
	p.done = 1ULL << 30;
	cmd_progress_format(&p, p.start_ns + 100000000000ULL, line, sizeof(line));
	is_str(line, "readdisks: reading /dev/sdb (disk 2 of 4), 25%, 1.0 GiB of 4.0 GiB, ETA 5 min 00 s",
	       "a quarter in 100 s: 5 min left");
	struct progress q = { .draw = count_draws, .task = "doctor" };
	progress_start(&q, 4, false);
	progress_what(&q, "step 2 of 4: network");
	q.done = 1;
	cmd_progress_format(&q, q.start_ns + 2 * 3600ULL * 1000000000ULL, line, sizeof(line));
	is_str(line, "doctor: step 2 of 4: network, 25%, ETA 6 h 00 min", "steps: no sizes, hours for a long ETA");
}

static void test_nest(void)
{
	struct progress_nest n;
	ok(progress_nest(&n, NULL, 10, "x") == NULL, "nothing to nest in: NULL, so the nested work shows nothing");
	struct progress p = { .draw = count_draws, .task = "doctor" };
	progress_start(&p, 100, false);
	progress_set(&p, 20);
	progress_what(&p, "step 1 of 4: media");
	struct progress *sub = progress_nest(&n, &p, 40, p.what);
	progress_start(sub, 1000, true);
	progress_what(sub, "reading /dev/sdb (disk 1 of 2)");
	is_str(p.what, "step 1 of 4: media: reading /dev/sdb (disk 1 of 2)", "the nested work's step after the parent's");
	sub->drawn_ns = 0; /* past the redraw pacing */
	progress_part(sub, 500);
	ok(p.done == 40, "half the nested work is half of its span, on top of where the parent was");
	progress_part_end(sub, 1000);
	progress_finish(sub);
	ok(p.done == 60 && p.started, "all of it is the whole span; the parent goes on");
}

static void test_bounded_part(void)
{
	struct progress p = { .draw = count_draws };
	progress_start(&p, 3000, false);
	progress_part_begin(&p, 1000, 400, 2000000000ULL);
	p.part_start_ns = now_ns() - 500000000ULL; /* a quarter of the 2 s cap gone */
	progress_part(&p, 200);
	ok(p.done >= 500 && p.done < 510, "half the bytes before a quarter of the time: moved by the bytes");
	progress_part(&p, 40);
	ok(p.done >= 500 && p.done < 510, "never back within a part");
	p.done = p.base;
	progress_part(&p, 40);
	ok(p.done >= 250 && p.done < 260, "a tenth of the bytes after a quarter of the time: moved by the time");
	progress_tick(&p);
	ok(p.done >= 250 && p.done < 260, "a tick moves it by the time, never back");
	p.part_start_ns = now_ns() - 5000000000ULL;
	progress_part(&p, 0);
	ok(p.done == 1000, "past the cap: the whole span, no more");
	progress_part_restart(&p);
	progress_part(&p, 0);
	ok(p.done == 1000, "a restart never moves it back");
	progress_tick(&p);
	ok(p.part_start_ns + 1000000000ULL > now_ns(), "a restart starts the part's time again");
	progress_part_end(&p, 1000);
	progress_part(&p, 70);
	ok(p.done == 1070 && p.part_span == 0, "after the end, plain units again");
	progress_part_begin(&p, 1000, 0, 0);
	progress_tick(&p);
	ok(p.done == 1070, "a tick moves nothing without a cap");
}

static void test_timed(void)
{
	struct progress p = { .draw = count_draws };
	progress_start_timed(&p, 10000); /* 4 s then 6 s, as benchpool's dd then builtin */
	double s = -1;
	progress_part_begin(&p, 4000, 0, 0);
	ok(!progress_eta(&p, now_ns(), &s), "a part without a cap that has shown nothing: ETA unknown");
	progress_part_end(&p, 4000); /* it ended fast */
	progress_part_begin(&p, 6000, 0, 6000000000ULL);
	uint64_t t = p.part_start_ns;
	ok(progress_eta(&p, t, &s) && s > 5.99 && s < 6.01, "a fast first part: the next still has its 6 s cap to come");
	is_int(progress_percent(&p), 40, "and the percent is the plan's share done");
	p.done = 4000 + 1500;
	ok(progress_eta(&p, t + 1000000000ULL, &s) && s > 2.99 && s < 3.01,
	   "a quarter of the part in 1 s: 3 s left at the part's own rate");
	struct progress_nest n;
	struct progress *sub = progress_nest(&n, &p, 6000, "builtin");
	progress_start_timed(sub, 6000);
	progress_part_begin(sub, 2000, 0, 2000000000ULL);
	ok(progress_eta(&p, sub->part_start_ns, &s) && s > 5.99 && s < 6.01, "a nested part: its own ETA is the part's");
	progress_part_end(&p, 6000);
	ok(p.nested == NULL && progress_eta(&p, now_ns(), &s) && s < 0.01, "the part's end forgets the nested one");
	char line[200];
	p.task = "benchpool";
	progress_what(&p, "done");
	cmd_progress_format(&p, now_ns(), line, sizeof(line));
	is_str(line, "benchpool: done, 100%, ETA 0 s", "a timed plan's line: no sizes");
}

static void test_what_done(void)
{
	struct progress p = { .draw = count_draws };
	draws = 0;
	progress_start(&p, 3, false);
	progress_what_done(&p, 2, "2 of 3 hosts done, running %s", "h3");
	ok(draws == 2 && p.done == 2 && strcmp(p.what, "2 of 3 hosts done, running h3") == 0,
	   "what and how far in one draw");
}

int main(void)
{
	test_bounded_part();
	test_timed();
	test_what_done();
	test_nest();
	test_nothing_without_draw();
	test_parts();
	test_eta();
	test_line();
	return tap_done();
}
