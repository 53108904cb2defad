/* The matrix's suite (triage/matrix/matrix.h): the default is the published
 * benchmark's fio part, sequential and random read and write at 8K, 64K and
 * 1M, and dbench at several client counts where dbench is installed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "basic/spawn.h"
#include "triage/matrix/matrix.h"

static const struct {
	const char *kind;
	bool random, write;
} fio_kinds[] = { { "seqread", false, false }, { "seqwrite", false, true },
		  { "randread", true, false }, { "randwrite", true, true } };
static const struct {
	const char *name;
	uint32_t bs;
} fio_sizes[] = { { "8k", 8192 }, { "64k", 65536 }, { "1m", 1U << 20 } };

static int add_test(struct matrix *m, const struct mx_test *t)
{
	for (size_t i = 0; i < m->ntests; i++)
		if (strcmp(m->tests[i].name, t->name) == 0)
			return 0;
	if (m->ntests == MX_MAX_TESTS)
		return -E2BIG;
	m->tests[m->ntests++] = *t;
	return 0;
}

static void add_fio_tests(struct matrix *m)
{
	for (size_t k = 0; k < sizeof(fio_kinds) / sizeof(fio_kinds[0]); k++)
		for (size_t b = 0; b < sizeof(fio_sizes) / sizeof(fio_sizes[0]); b++) {
			struct mx_test t = { .random = fio_kinds[k].random, .write = fio_kinds[k].write, .bs = fio_sizes[b].bs };
			snprintf(t.name, sizeof(t.name), "%s-%s", fio_kinds[k].kind, fio_sizes[b].name);
			add_test(m, &t);
		}
}

static void add_dbench_tests(struct matrix *m)
{
	for (size_t i = 0; i < m->nclients; i++) {
		struct mx_test t = { .dbench = true, .clients = m->clients[i] };
		snprintf(t.name, sizeof(t.name), "dbench-%u", m->clients[i]);
		add_test(m, &t);
	}
}

static bool dbench_installed(void)
{
	const char *argv[] = { "dbench", "--help", NULL };
	struct spawn_result res;
	int r = spawn_run(argv, 10000, &res);
	spawn_result_release(&res);
	return r != -ENOENT;
}

/* One named test (not "fio" or "dbench"): a dbench-N or one of fio's
 * twelve, any case. Returns 0 or -ENOENT. */
static int add_named_test(struct matrix *m, const char *name)
{
	uint64_t clients;
	if (strncmp(name, "dbench-", 7) == 0 && parse_uint(name + 7, 1, 1024, &clients) == 0) {
		struct mx_test t = { .dbench = true, .clients = (unsigned)clients };
		snprintf(t.name, sizeof(t.name), "dbench-%u", t.clients);
		add_test(m, &t);
		return 0;
	}
	for (size_t k = 0; k < sizeof(fio_kinds) / sizeof(fio_kinds[0]); k++)
		for (size_t b = 0; b < sizeof(fio_sizes) / sizeof(fio_sizes[0]); b++) {
			char want[32];
			snprintf(want, sizeof(want), "%s-%s", fio_kinds[k].kind, fio_sizes[b].name);
			if (strcasecmp(want, name) == 0) {
				struct mx_test t = { .random = fio_kinds[k].random, .write = fio_kinds[k].write,
						     .bs = fio_sizes[b].bs };
				snprintf(t.name, sizeof(t.name), "%s", want);
				add_test(m, &t);
				return 0;
			}
		}
	return -ENOENT;
}

int mx_suite_build(struct matrix *m, const char *tests, char *bad, size_t len)
{
	if (!tests || strcmp(tests, "all") == 0) {
		add_fio_tests(m);
		if (dbench_installed())
			add_dbench_tests(m);
		else
			log_msg(LOG_WARN, "MATRIX: dbench is not installed; its tests are left out");
		return 0;
	}
	const char *p = tests;
	while (*p) {
		char name[32];
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof(name))
			return -EINVAL;
		memcpy(name, p, n);
		name[n] = '\0';
		p += n + (p[n] == ',');
		if (strcmp(name, "fio") == 0)
			add_fio_tests(m);
		else if (strcmp(name, "dbench") == 0)
			add_dbench_tests(m);
		else if (add_named_test(m, name) < 0) {
			snprintf(bad, len, "%s", name);
			return -ENOENT;
		}
	}
	return 0;
}

bool mx_fio_installed(void)
{
	const char *fargv[] = { "fio", "--version", NULL };
	struct spawn_result res;
	bool ok = spawn_run(fargv, 10000, &res) == 0 && res.status == 0;
	spawn_result_release(&res);
	return ok;
}
