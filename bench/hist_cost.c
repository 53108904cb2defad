/* bench/hist_cost: what the per-I/O bookkeeping costs. Times, per call,
 * the clock read (now_ns, two per I/O, and one per submitted batch with
 * io_uring and libaio for the submission latency), hist_record (one per I/O,
 * two with io_uring and libaio: lat and slat), and a whole null-engine job
 * (queue, reap, account; the null engine records no slat) at depth 32, which
 * bounds the engine's own overhead per I/O with no device underneath.
 * Run: build/bench_hist_cost */
#include <stdio.h>
#include <stdlib.h>

#include "basic/timeutil.h"
#include "bench/histogram.h"
#include "bench/job.h"
#include "bench/pattern.h"

#define N 50000000ULL

int main(void)
{
	struct prng rng;
	prng_seed(&rng, 42);
	uint64_t *values = malloc(4096 * sizeof(*values));
	for (int i = 0; i < 4096; i++)
		values[i] = 20000 + prng_below(&rng, 200000); /* 20-220 us, like device latencies */

	uint64_t t0 = now_ns(), sink = 0;
	for (uint64_t i = 0; i < N; i++)
		sink += now_ns();
	double clock_ns = (double)(now_ns() - t0) / N;

	struct histogram *h = malloc(sizeof(*h));
	hist_init(h);
	t0 = now_ns();
	for (uint64_t i = 0; i < N; i++)
		hist_record(h, values[i & 4095]);
	double hist_ns = (double)(now_ns() - t0) / N;

	struct target t = TARGET_INIT;
	t.size = 1ULL << 40;
	t.offset_align = 512;
	t.mem_align = 4096;
	struct job_spec spec = { .random = true, .read_pct = 100, .bs = 4096, .iodepth = 32, .numjobs = 1,
				 .runtime_ns = 2000000000ULL, .seed = 1 };
	struct job_result *r = NULL;
	if (job_run(&spec, &t, &engine_null, &r) < 0)
		return 1;
	double job_ns = r->seconds * 1e9 / (double)r->ios;

	printf("now_ns():               %6.1f ns per call (2 per I/O, +1 per batch with slat)\n", clock_ns);
	printf("hist_record():          %6.1f ns per call (1 per I/O, 2 with slat; %zu-byte histogram)\n", hist_ns,
	       sizeof(struct histogram));
	printf("null engine job, qd 32: %6.1f ns per I/O (%.1f M IOPS), all bookkeeping included\n", job_ns,
	       (double)r->ios / r->seconds / 1e6);
	printf("p50 of the sample values: %llu ns (checksum %llu)\n",
	       (unsigned long long)hist_percentile(h, 50), (unsigned long long)(sink & 1));
	free(r);
	free(h);
	free(values);
	return 0;
}
