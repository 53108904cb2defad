/* Named sets of run workloads (see triage/workload/presets.h). */
#include "triage/workload/presets.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "output/latency.h"
#include "store/params.h"
#include "store/store.h"

#define K4 4096U
#define M1 (1U << 20)

const struct preset preset_table[] = {
	{ "nas-iops", "the NAS vendor's IOPS test: 8 jobs at queue depth 64, 30 s ramp, 60 s time-based", 30, 60, 1, 4,
	  { { "4K random read", "randread", K4, 64, 8 },
	    { "4K random write", "randwrite", K4, 64, 8 },
	    { "1M sequential read", "read", M1, 64, 8 },
	    { "1M sequential write", "write", M1, 64, 8 } } },
	{ "cdm", "CrystalDiskMark's default set, each test read then write, 5 s each", 0, 5, 5, 8,
	  { { "SEQ1M Q8T1 read", "read", M1, 8, 1 },
	    { "SEQ1M Q8T1 write", "write", M1, 8, 1 },
	    { "SEQ1M Q1T1 read", "read", M1, 1, 1 },
	    { "SEQ1M Q1T1 write", "write", M1, 1, 1 },
	    { "RND4K Q32T1 read", "randread", K4, 32, 1 },
	    { "RND4K Q32T1 write", "randwrite", K4, 32, 1 },
	    { "RND4K Q1T1 read", "randread", K4, 1, 1 },
	    { "RND4K Q1T1 write", "randwrite", K4, 1, 1 } } },
	{ "cdm-nvme", "CrystalDiskMark's NVMe SSD set, each test read then write, 5 s each", 0, 5, 5, 8,
	  { { "SEQ1M Q8T1 read", "read", M1, 8, 1 },
	    { "SEQ1M Q8T1 write", "write", M1, 8, 1 },
	    { "SEQ128K Q32T1 read", "read", 128U << 10, 32, 1 },
	    { "SEQ128K Q32T1 write", "write", 128U << 10, 32, 1 },
	    { "RND4K Q32T16 read", "randread", K4, 32, 16 },
	    { "RND4K Q32T16 write", "randwrite", K4, 32, 16 },
	    { "RND4K Q1T1 read", "randread", K4, 1, 1 },
	    { "RND4K Q1T1 write", "randwrite", K4, 1, 1 } } },
};
const size_t preset_count = sizeof(preset_table) / sizeof(preset_table[0]);

const struct preset *preset_find(const char *name)
{
	for (size_t i = 0; i < preset_count; i++)
		if (strcmp(preset_table[i].name, name) == 0)
			return &preset_table[i];
	return NULL;
}

/* The engine's options in fio's words. */
static void fio_engine_options(const char *engine, unsigned iodepth, char *buf, size_t len)
{
	if (!engine)
		engine = "io_uring";
	bool queued = strcmp(engine, "libaio") == 0 || strcmp(engine, "io_uring") == 0;
	int k = snprintf(buf, len, "--ioengine=%s", engine);
	if (queued && k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k,
			      " --iodepth_batch_submit=%u --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=%u",
			      iodepth, iodepth);
	if (strcmp(engine, "io_uring") == 0 && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, " --fixedbufs --registerfiles");
}

void preset_fio_command(const struct preset *p, const struct preset_test *t, const char *target, const char *engine,
			char *buf, size_t len)
{
	/* fio's random map is off because iotriage's default draws uniformly too. */
	char options[200];
	fio_engine_options(engine, t->iodepth, options, sizeof(options));
	snprintf(buf, len,
		 "fio --name=iotriage --filename=%s --rw=%s --bs=%u --iodepth=%u --numjobs=%u --direct=1 %s "
		 "--norandommap --randrepeat=0 --group_reporting --ramp_time=%us --runtime=%us --time_based",
		 target, t->rw, t->bs, t->iodepth, t->numjobs, options, p->ramp_s, p->runtime_s);
}

static void spread(const double *v, unsigned n, double *mean, double *best, double *stdev)
{
	double sum = 0, var = 0;
	*best = 0;
	for (unsigned i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > *best)
			*best = v[i];
	}
	*mean = n ? sum / n : 0;
	for (unsigned i = 0; i < n; i++)
		var += (v[i] - *mean) * (v[i] - *mean);
	*stdev = n > 1 ? sqrt(var / (n - 1)) : 0;
}

/* One loop of test T: its figures go into F. */
static int run_test_once(const struct preset_test *t, const char *path, const struct run_settings *base,
			 uint64_t ramp_ns, uint64_t runtime_ns, struct preset_figures *f, double *cpu, uint64_t *ios,
			 char *err, size_t errlen)
{
	struct run_settings s = *base;
	s.guard = (struct inuse_report){ .excl_fd = -1 };
	s.rw = t->rw;
	run_apply_rw(&s);
	s.spec.bs = t->bs;
	s.spec.iodepth = t->iodepth;
	s.spec.numjobs = t->numjobs;
	s.spec.ramp_ns = ramp_ns;
	s.spec.runtime_ns = runtime_ns;
	s.spec.time_based = true;
	struct job_result *res = NULL;
	char reason[160];
	int r = run_workload(path, &s, &res, err, errlen, reason, sizeof(reason));
	if (r == 0 && res->stop == JOB_STOP_INTERRUPTED)
		r = -EINTR;
	if (r == 0) {
		f->iops[f->loops_done] = job_iops(res);
		f->bw[f->loops_done] = job_bw_bytes_per_s(res);
		f->loops_done++;
		hist_merge(&f->lat, s.spec.read_pct ? &res->lat_read : &res->lat_write);
		hist_merge(&f->slat, s.spec.read_pct ? &res->slat_read : &res->slat_write);
		f->has_slat = res->has_slat;
		snprintf(f->engine, sizeof(f->engine), "%s", res->engine->name);
		for (unsigned i = 0; i < res->nr_workers; i++)
			*cpu += res->workers[i].user_seconds + res->workers[i].system_seconds;
		*ios += res->ios;
	}
	if (r == -EINTR)
		snprintf(err, errlen, "interrupted");
	free(res);
	return r;
}

int preset_run(const struct preset *p, const char *path, const struct run_settings *base, unsigned loops,
	       uint64_t ramp_ns, uint64_t runtime_ns, struct preset_outcome *out, char *err, size_t errlen)
{
	out->preset = p;
	out->loops = loops;
	out->ramp_ns = ramp_ns ? ramp_ns : (uint64_t)p->ramp_s * 1000000000ULL;
	out->runtime_ns = runtime_ns ? runtime_ns : (uint64_t)p->runtime_s * 1000000000ULL;
	if (out->ramp_ns > out->runtime_ns) {
		snprintf(err, errlen, "the ramp time is longer than the runtime");
		return -EINVAL;
	}
	for (size_t i = 0; i < p->ntests; i++) {
		const struct preset_test *t = &p->tests[i];
		struct preset_figures *f = &out->figures[i];
		hist_init(&f->lat);
		hist_init(&f->slat);
		double cpu = 0;
		uint64_t ios = 0;
		log_msg(LOG_INFO, "PRESET %s (%s): %s, %u loop(s)", p->name, path, t->name, loops);
		for (unsigned l = 0; l < loops; l++) {
			int r = run_test_once(t, path, base, out->ramp_ns, out->runtime_ns, f, &cpu, &ios, err, errlen);
			if (r < 0) {
				out->ntests_done = i + (f->loops_done > 0);
				return r;
			}
		}
		spread(f->iops, f->loops_done, &f->iops_mean, &f->iops_best, &f->iops_stdev);
		spread(f->bw, f->loops_done, &f->bw_mean, &f->bw_best, &f->bw_stdev);
		f->cpu_ns_per_io = ios ? cpu * 1e9 / (double)ios : 0;
		out->ntests_done = i + 1;
	}
	return 0;
}

static void json_test(struct json *j, const struct preset_outcome *o, size_t i, const char *path)
{
	const struct preset_test *t = &o->preset->tests[i];
	const struct preset_figures *f = &o->figures[i];
	char fio[640];
	preset_fio_command(o->preset, t, path, f->engine[0] ? f->engine : NULL, fio, sizeof(fio));
	json_begin_object(j, NULL);
	json_string(j, "name", t->name);
	json_string(j, "rw", t->rw);
	json_uint(j, "bs_bytes", t->bs);
	json_uint(j, "iodepth", t->iodepth);
	json_uint(j, "numjobs", t->numjobs);
	json_string(j, "engine", f->engine);
	json_uint(j, "loops", f->loops_done);
	json_begin_array(j, "iops");
	for (unsigned l = 0; l < f->loops_done; l++)
		json_double(j, NULL, f->iops[l]);
	json_end_array(j);
	json_begin_array(j, "bw_bytes_per_s");
	for (unsigned l = 0; l < f->loops_done; l++)
		json_double(j, NULL, f->bw[l]);
	json_end_array(j);
	json_double(j, "iops_mean", f->iops_mean);
	json_double(j, "iops_best", f->iops_best);
	json_double(j, "iops_stdev", f->iops_stdev);
	json_double(j, "bw_mean_bytes_per_s", f->bw_mean);
	json_double(j, "bw_best_bytes_per_s", f->bw_best);
	json_double(j, "bw_stdev_bytes_per_s", f->bw_stdev);
	json_double(j, "cpu_ns_per_io", f->cpu_ns_per_io);
	json_latency(j, "lat_ns", &f->lat);
	json_latency_or_null(j, "slat_ns", f->has_slat ? &f->slat : NULL);
	json_string(j, "fio_command", fio);
	json_end_object(j);
}

void preset_json(struct json *j, const struct preset_outcome *o, const char *path)
{
	json_begin_object(j, "preset");
	json_string(j, "name", o->preset->name);
	json_string(j, "summary", o->preset->summary);
	json_string(j, "target", path);
	json_uint(j, "loops", o->loops);
	json_double(j, "ramp_seconds", (double)o->ramp_ns / 1e9);
	json_double(j, "runtime_seconds", (double)o->runtime_ns / 1e9);
	json_bool(j, "time_based", true);
	json_begin_array(j, "tests");
	for (size_t i = 0; i < o->ntests_done; i++)
		json_test(j, o, i, path);
	json_end_array(j);
	json_end_object(j);
}

void preset_list_json(struct json *j)
{
	json_begin_array(j, "presets");
	for (size_t i = 0; i < preset_count; i++) {
		const struct preset *p = &preset_table[i];
		json_begin_object(j, NULL);
		json_string(j, "name", p->name);
		json_string(j, "summary", p->summary);
		json_uint(j, "ramp_seconds", p->ramp_s);
		json_uint(j, "runtime_seconds", p->runtime_s);
		json_uint(j, "loops", p->loops);
		json_begin_array(j, "tests");
		for (size_t k = 0; k < p->ntests; k++) {
			char fio[640];
			preset_fio_command(p, &p->tests[k], "TARGET", NULL, fio, sizeof(fio));
			json_string(j, NULL, fio);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

int preset_store(struct store *s, const char *run_id, const struct preset_outcome *o, const char *path)
{
	for (size_t i = 0; i < o->ntests_done; i++) {
		const struct preset_figures *f = &o->figures[i];
		const struct preset_test *t = &o->preset->tests[i];
		char test[64];
		snprintf(test, sizeof(test), "preset %s: %s", o->preset->name, t->name);
		struct store_params params = STORE_PARAMS_INIT;
		store_params_workload(&params, t->rw, t->bs, t->iodepth, t->numjobs);
		store_params_uint(&params, "loops", f->loops_done);
		struct store_result res = { .run_id = run_id, .test = test, .path = path, .status = "ok",
					    .bw_bytes_per_s = f->bw_mean, .iops = f->iops_mean,
					    .params = store_params_text(&params) };
		int r = store_add_result(s, &res);
		store_params_release(&params);
		if (r < 0)
			return r;
	}
	return 0;
}
