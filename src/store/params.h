/* store/params.h: the results table's "params" column, one line of JSON
 * ({"rw": "read", "bs_bytes": 4096, ...}) built a member at a time, so every
 * command that stores a row writes it the same way.
 *
 *   struct store_params p = STORE_PARAMS_INIT;
 *   store_params_workload(&p, "randread", 4096, 32, 1);
 *   row.params = store_params_text(&p);
 *   ...
 *   store_params_release(&p);
 */
#ifndef IOTRIAGE_STORE_PARAMS_H
#define IOTRIAGE_STORE_PARAMS_H

#include <stdint.h>

#include "basic/strbuf.h"

struct store_params {
	struct strbuf sb;
};

#define STORE_PARAMS_INIT { STRBUF_INIT }

void store_params_str(struct store_params *p, const char *key, const char *value);
void store_params_uint(struct store_params *p, const char *key, uint64_t value);
/* The members every workload's row has: rw, bs_bytes, iodepth, numjobs. */
void store_params_workload(struct store_params *p, const char *rw, unsigned bs, unsigned iodepth,
			   unsigned numjobs);
/* The object's text, closed ("{}" when no member was added); valid until
 * the next member or store_params_release. */
const char *store_params_text(struct store_params *p);
void store_params_release(struct store_params *p);

#endif
