/* render/presets.c: a preset's figures on the terminal (see presets.h). */
#include "render/presets.h"

#include <stdio.h>

#include "basic/humanize.h"

void preset_outcome_print(const struct preset_outcome *o)
{
	printf("%-20s %6s %12s %12s %10s %12s %10s %10s %10s\n", "TEST", "LOOPS", "IOPS MEAN", "IOPS BEST", "SPREAD",
	       "BW MEAN", "p50 us", "p99 us", "p99.9 us");
	for (size_t i = 0; i < o->ntests_done; i++) {
		const struct preset_figures *f = &o->figures[i];
		char bw[32];
		human_rate(f->bw_mean, bw, sizeof(bw));
		printf("%-20s %6u %12.0f %12.0f %9.1f%% %12s %10.1f %10.1f %10.1f\n", o->preset->tests[i].name,
		       f->loops_done, f->iops_mean, f->iops_best, f->iops_mean > 0 ? 100 * f->iops_stdev / f->iops_mean : 0,
		       bw, hist_percentile(&f->lat, 50) / 1e3, hist_percentile(&f->lat, 99) / 1e3,
		       hist_percentile(&f->lat, 99.9) / 1e3);
	}
}
