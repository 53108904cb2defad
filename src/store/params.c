#include "store/params.h"

#include "output/json.h"

/* The text is kept closed after every member: "{...}" with the "}" replaced
 * by ", " when the next member comes. */
static void add_key(struct store_params *p, const char *key)
{
	if (p->sb.len == 0) {
		strbuf_addch(&p->sb, '{');
	} else {
		p->sb.len--;
		if (p->sb.len > 1)
			strbuf_adds(&p->sb, ", ");
	}
	json_quote(&p->sb, key);
	strbuf_adds(&p->sb, ": ");
}

void store_params_str(struct store_params *p, const char *key, const char *value)
{
	add_key(p, key);
	json_quote(&p->sb, value ? value : "");
	strbuf_addch(&p->sb, '}');
}

void store_params_uint(struct store_params *p, const char *key, uint64_t value)
{
	add_key(p, key);
	strbuf_addf(&p->sb, "%llu}", (unsigned long long)value);
}

void store_params_workload(struct store_params *p, const char *rw, unsigned bs, unsigned iodepth,
			   unsigned numjobs)
{
	store_params_str(p, "rw", rw);
	store_params_uint(p, "bs_bytes", bs);
	store_params_uint(p, "iodepth", iodepth);
	store_params_uint(p, "numjobs", numjobs);
}

const char *store_params_text(struct store_params *p)
{
	if (p->sb.len == 0)
		strbuf_adds(&p->sb, "{}");
	return p->sb.buf;
}

void store_params_release(struct store_params *p)
{
	strbuf_release(&p->sb);
}
