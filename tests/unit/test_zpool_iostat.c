/* pool/zpool_iostat: `zpool iostat -v` captured from zfs-fuse on this
 * machine's loop devices (a mirror + raidz1 pool being written, a raidz1
 * being scrubbed; two reports each: since import, then one interval), an
 * OpenZFS-style striped pool with a log device (composed), and every
 * truncation and garbling of the captures giving an error or the figures
 * of the complete reports, never other figures. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"
#include "pool/zpool_iostat.h"
#include "tap.h"

#define MIB 1048576.0

static char *data(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	char *buf = calloc(1, 1 << 16);
	if (read_small_file(path, buf, 1 << 16) < 0)
		buf[0] = '\0';
	return buf;
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-6 * fmax(1, fabs(b)); }

static double wbps(const struct zpool_iostat *s, const char *name)
{
	const struct zpool_iostat_dev *d = zpool_iostat_dev(s, name);
	return d ? d->write_bps : -1;
}

static void mirror_raidz(void)
{
	char *text = data("zpool_iostat_v_fuse_mirror_raidz_write_captured.txt");
	struct zpool_iostat s;
	ok(zpool_iostat_parse(text, "iotpoolev-cap2", false, &s) == 0, "mirror+raidz: parsed");
	is_int(s.blocks, 2, "mirror+raidz: two reports");
	is_int(s.count, 5, "mirror+raidz: five devices");
	const struct zpool_iostat_dev *d = zpool_iostat_dev(&s, "loop28");
	ok(d && !strcmp(d->vdev, "mirror"), "loop28 is in zfs-fuse's 'mirror'");
	d = zpool_iostat_dev(&s, "loop33");
	ok(d && !strcmp(d->vdev, "raidz1"), "loop33 is in 'raidz1'");
	ok(d && near(d->write_ops, 260) && near(d->write_bps, 21.3 * MIB) && near(d->read_bps, 0),
	   "loop33: the interval's 260 writes/s, 21.3M/s, no reads (the since-import report skipped)");
	ok(near(wbps(&s, "loop28"), 37.3 * MIB), "loop28: 37.3M/s written");
	ok(near(s.pool_write_bps, 79.5 * MIB), "the pool's row: 79.5M/s written");
	ok(!zpool_iostat_dev(&s, "mirror") && !zpool_iostat_dev(&s, "raidz1"), "vdev rows are not devices");
	zpool_iostat_release(&s);

	/* Only the first report: its figures (since import). */
	const char *second = strstr(text + 1, "\n               capacity");
	char *one = strndup(text, (size_t)(second - text) + 1);
	ok(zpool_iostat_parse(one, "iotpoolev-cap2", false, &s) == 0 && s.blocks == 1, "one report: parsed");
	ok(near(wbps(&s, "loop28"), 26.5 * MIB) && near(zpool_iostat_dev(&s, "loop30")->read_bps, 170 * 1024),
	   "one report: its own figures (26.5M, 170K)");
	zpool_iostat_release(&s);
	ok(zpool_iostat_parse(text, "tank", false, &s) == -EINVAL, "another pool's name: -EINVAL");
	free(one);
	free(text);
}

static void scrub(void)
{
	char *text = data("zpool_iostat_v_fuse_scrub_captured.txt");
	struct zpool_iostat s;
	ok(zpool_iostat_parse(text, "iotpoolev-cap", false, &s) == 0 && s.count == 5, "scrub: parsed, five devices");
	const struct zpool_iostat_dev *d = zpool_iostat_dev(&s, "loop33");
	ok(d && near(d->read_bps, 3.99 * MIB) && near(d->read_ops, 33) && near(d->write_bps, 0),
	   "scrub: loop33 reads 3.99M/s in 33 ops, writes nothing");
	zpool_iostat_release(&s);
	free(text);
}

static const char striped[] = /* composed: OpenZFS's layout, a striped pool with a mirrored log */
	"              capacity     operations     bandwidth\n"
	"pool        alloc   free   read  write   read  write\n"
	"----------  -----  -----  -----  -----  -----  -----\n"
	"tank        1.20G  8.80G     12     40  1.50M  5.00M\n"
	"  sda        600M  4.40G      6     20   768K  2.50M\n"
	"  sdb        600M  4.40G      6     20   768K  2.50M\n"
	"logs            -      -      -      -      -      -\n"
	"  mirror-2   128K  1008M      0      4      0  16.0K\n"
	"    sdc         -      -      0      2      0  8.00K\n"
	"    sdd         -      -      0      2      0  8.00K\n"
	"----------  -----  -----  -----  -----  -----  -----\n";

static void composed(void)
{
	struct zpool_iostat s;
	ok(zpool_iostat_parse(striped, "tank", false, &s) == 0 && s.count == 4, "striped + log: four devices");
	const struct zpool_iostat_dev *a = zpool_iostat_dev(&s, "sda"), *c = zpool_iostat_dev(&s, "sdc");
	ok(a && !strcmp(a->vdev, "tank") && near(a->read_bps, 768 * 1024), "a striped device's vdev is the pool");
	ok(c && !strcmp(c->vdev, "logs") && near(c->write_bps, 8 * 1024), "a log device's vdev is 'logs'");
	zpool_iostat_release(&s);
}

/* Replaces the first FROM in TEXT by TO (same or other length). */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) + strlen(to) + 1;
	char *s = calloc(1, n);
	snprintf(s, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return s;
}

static void bad(void)
{
	char *text = data("zpool_iostat_v_fuse_mirror_raidz_write_captured.txt");
	const char *pool = "iotpoolev-cap2";
	struct zpool_iostat s;
	ok(zpool_iostat_parse("", pool, false, &s) == -EINVAL, "empty: -EINVAL");
	ok(zpool_iostat_parse("no pools available\n", pool, false, &s) == -EINVAL, "'no pools available': -EINVAL");
	static const char *const garbles[][2] = {
		{ "52.5M", "52.5Q" }, { "26.5M", "abc" }, { "  40.9K", "  -40.9K" },
		{ "    loop29      -      -      3    344   116K  26.5M", "    loop29      -      -      3    344   116K  26.5M  1ms" },
		{ "    loop31 ", "     loop31 " }, { "  raidz1  ", "raidz1    " }, { "\n  raidz1", "\n\n  raidz1" },
		{ "    loop30  ", "      loop30" },
	};
	for (size_t i = 0; i < sizeof(garbles) / sizeof(garbles[0]); i++) {
		char *g = replaced(text, garbles[i][0], garbles[i][1]);
		char name[160];
		snprintf(name, sizeof(name), "garbled ('%s' for '%s'): -EINVAL", garbles[i][1], garbles[i][0]);
		for (char *c = name; *c; c++)
			if (*c == '\n')
				*c = '|'; /* one TAP line */
		ok(zpool_iostat_parse(g, pool, false, &s) == -EINVAL, name);
		free(g);
	}
	/* Every cut: an error, or exactly the figures of the complete reports. */
	struct zpool_iostat full, first;
	const char *second = strstr(text + 1, "\n               capacity");
	char *one = strndup(text, (size_t)(second - text) + 1);
	zpool_iostat_parse(text, pool, false, &full);
	zpool_iostat_parse(one, pool, false, &first);
	size_t len = strlen(text), wrong = 0, wrong_stream = 0, errors = 0, stream_ok = 0;
	for (size_t cut = 0; cut < len; cut++) {
		char *t = strndup(text, cut);
		int r = zpool_iostat_parse(t, pool, false, &s);
		if (r == 0) {
			const struct zpool_iostat *w = s.blocks == 1 ? &first : &full;
			if (!(near(wbps(&s, "loop28"), wbps(w, "loop28")) && near(wbps(&s, "loop33"), wbps(w, "loop33"))))
				wrong++;
			zpool_iostat_release(&s);
		} else {
			errors++;
		}
		r = zpool_iostat_parse(t, pool, true, &s);
		if (r == 0) {
			stream_ok++;
			if (s.blocks != 1 || !near(wbps(&s, "loop31"), wbps(&first, "loop31")))
				wrong_stream++;
			zpool_iostat_release(&s);
		}
		free(t);
	}
	is_int(wrong, 0, "every cut: no parse gives figures other than its complete reports'");
	ok(errors > len - 200, "almost every cut is an error (all but the cuts past the first report)");
	is_int(wrong_stream, 0, "a stream cut: the complete reports only");
	ok(stream_ok >= (size_t)(len - (size_t)(second - text)) - 2, "a stream cut inside the second report keeps the first");
	zpool_iostat_release(&full);
	zpool_iostat_release(&first);
	free(one);
	free(text);
}

int main(void)
{
	mirror_raidz();
	scrub();
	composed();
	bad();
	return tap_done();
}
