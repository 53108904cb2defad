/* triage/pool/benchpool_zvol.c: benchpool on a zvol (see benchpool_zvol.h). */
#include "triage/pool/benchpool_zvol.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "pool/areas.h"

/* Room for the zvol (its reservation is its size) and ZFS's own headroom. */
static int check_space(const struct pool_target *t, uint64_t size)
{
	struct statfs sf;
	uint64_t need = size + (64U << 20);
	if (!t->mountpoint[0] || statfs(t->mountpoint, &sf) < 0 || (uint64_t)sf.f_bavail * sf.f_bsize >= need)
		return 0;
	char have[32], want[32];
	human_iec((double)sf.f_bavail * sf.f_bsize, have, sizeof(have));
	human_iec((double)need, want, sizeof(want));
	log_msg(LOG_ERR, "BENCHPOOL (%s): not enough free space: %s free, the zvol needs %s; pass a smaller SIZE", t->pool,
		have, want);
	return -ENOSPC;
}

int benchpool_zvol_prepare(const struct pool_target *t, uint64_t size, unsigned runtime_s, enum data_pattern pattern,
			   const char *volblocksize, const char *run_id, struct benchpool_zvol *ret)
{
	*ret = (struct benchpool_zvol){ .volblocksize = 0 };
	const char *vbs = volblocksize ? volblocksize : BENCHPOOL_ZVOL_VOLBLOCKSIZE;
	if (!t->kind->zvols) {
		log_msg(LOG_ERR, "BENCHPOOL (%s): --zvol needs a ZFS pool; this is %s", t->pool, t->kind->what);
		return -EINVAL;
	}
	int r = check_space(t, size);
	if (r == 0 && interrupt_requested())
		r = -EINTR;
	if (r == 0 && (r = pool_area_create_zvol(t, run_id, "zvol", size, vbs, &ret->area, "BENCHPOOL")) < 0)
		ret->area.name[0] = '\0'; /* nothing made */
	if (r < 0)
		return r;
	pool_area_compression(t, &ret->area, ret->compression, sizeof(ret->compression));
	ret->ctx = (struct pb_context){
		.size = size,
		.runtime_s = runtime_s,
		.pattern = pattern,
		.direct_ok = true, /* a block device */
		.compression_on = pool_compression_is_on(ret->compression),
		.block_device = ret->area.path,
	};
	uint64_t v;
	ret->volblocksize = parse_size(vbs, &v) == 0 ? (unsigned)v : 0;
	log_msg(LOG_INFO, "BENCHPOOL (%s): filling the zvol %s (%s) whole, so that reads hit written blocks, not holes",
		t->pool, ret->area.name, ret->area.path);
	char err[400] = "";
	r = pb_fill_device(&ret->ctx, err, sizeof(err));
	if (r == 0)
		ret->filled_bytes = size;
	if (r < 0)
		log_msg(LOG_ERR, "BENCHPOOL (%s): cannot fill the zvol: %s", t->pool, r == -EINTR ? "interrupted" : err);
	return r;
}
