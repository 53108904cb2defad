/* ramdisk: pure parts (meminfo, arcstats, modules.dep, wwid -> by-id name,
 * records, SIZE) and the registry on a temporary tree: a live record is
 * found, a link without a record and a record whose device is gone are
 * stale, and forgetting them never touches the device. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "ramdisk/ramdisk.h"
#include "tap.h"
#include "triage/ramdisk/ramdisk_batch.h"

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The backend table is the one list: its rows, their names (the --backend
 * choices) and the hooks the batch code asks instead of comparing names. */
static void test_backend_table(void)
{
	size_t n = 0;
	bool names_match = true;
	for (; ramdisk_backends[n]; n++)
		names_match = names_match && ramdisk_backend_names[n] &&
			      strcmp(ramdisk_backends[n]->name, ramdisk_backend_names[n]) == 0;
	ok(n > 0 && names_match && !ramdisk_backend_names[n], "the --backend choices are the table's names, in order");
	ok(ramdisk_scsi_debug.reap && ramdisk_null_blk.reap && !ramdisk_brd.reap && !ramdisk_zram.reap,
	   "scsi_debug and null_blk can leave something to reap, brd and zram cannot");
	ok(ramdisk_scsi_debug.attach_identity && !ramdisk_zram.attach_identity, "only scsi_debug has a by-id identity");
	ok(ramdisk_zram.adds_devices && ramdisk_zram.removes_devices && ramdisk_null_blk.removes_devices &&
	   !ramdisk_null_blk.adds_devices && !ramdisk_scsi_debug.removes_devices,
	   "zram adds and removes devices, null_blk removes them, scsi_debug loads and unloads");
}

int main(void)
{
	uint64_t avail = 0, total = 0;
	test_backend_table();
	is_int(ramdisk_parse_meminfo("MemTotal:       24683828 kB\nMemFree:        24290328 kB\n"
				     "MemAvailable:   24319228 kB\n", &avail, &total), 0, "meminfo parses");
	ok(avail == 24319228ULL * 1024 && total == 24683828ULL * 1024, "MemAvailable and MemTotal in bytes");
	is_int(ramdisk_parse_meminfo("MemTotal: 1 kB\n", &avail, &total), -ENOENT, "no MemAvailable is an error");

	const char *dep = "kernel/fs/configfs/configfs.ko:\n"
			  "kernel/drivers/block/null_blk/null_blk.ko.xz: kernel/fs/configfs/configfs.ko\n"
			  "kernel/drivers/scsi/scsi_debug.ko: kernel/drivers/scsi/scsi_mod.ko\n";
	ok(ramdisk_modules_dep_has(dep, "null_blk"), "modules.dep: null_blk (.ko.xz)");
	ok(ramdisk_modules_dep_has(dep, "scsi_debug"), "modules.dep: scsi_debug");
	ok(!ramdisk_modules_dep_has(dep, "scsi_mod"), "a dependency alone is not a listed module");
	ok(!ramdisk_modules_dep_has(dep, "brd"), "modules.dep: no brd");
	ok(!ramdisk_modules_dep_has(dep, "null"), "a prefix is not a match");

	char name[200];
	is_int(ramdisk_byid_name_from_wwid("naa.5333333000001F40", name, sizeof(name)), 0, "naa wwid");
	is_str(name, "scsi-35333333000001f40", "naa -> scsi-3 + lowercase hex");
	is_int(ramdisk_byid_name_from_wwid("t10.Linux   scsi_debug      4000", name, sizeof(name)), 0, "t10 wwid");
	is_str(name, "scsi-1Linux_scsi_debug_4000", "t10 -> scsi-1, blanks to one underscore");
	is_int(ramdisk_byid_name_from_wwid("foo", name, sizeof(name)), -EINVAL, "unknown designator");

	struct ramdisk_dev d, back;
	memset(&d, 0, sizeof(d));
	d.index = 3;
	snprintf(d.backend, sizeof(d.backend), "scsi_debug");
	snprintf(d.kname, sizeof(d.kname), "sdb");
	d.rdev = makedev(8, 16);
	d.diskseq = 17;
	d.size = 256ULL << 20;
	d.sector_size = 4096;
	d.ndelay_ns = 250000;
	snprintf(d.by_id, sizeof(d.by_id), "/dev/disk/by-id/scsi-35333333000001f40");
	d.by_id_ours = true;
	d.module_loaded = true;
	char text[2048];
	ramdisk_record_format(&d, text, sizeof(text));
	is_int(ramdisk_record_parse(text, &back), 0, "a record parses back");
	ok(back.index == 3 && strcmp(back.kname, "sdb") == 0 && back.rdev == d.rdev && back.diskseq == 17 &&
		   back.size == d.size && back.sector_size == 4096 && back.ndelay_ns == 250000 && back.by_id_ours &&
		   back.module_loaded && strcmp(back.by_id, d.by_id) == 0,
	   "every field survives");
	is_int(ramdisk_record_parse("backend=zram\nkname=../../sda\nindex=0\n", &back), -EINVAL,
	       "a kernel name with '/' is refused");

	char why[256];
	uint64_t v;
	is_int(ramdisk_parse_size_arg("256M", &v, why, sizeof(why)), 0, "256M");
	ok(v == 256ULL << 20, "is 256 MiB");
	is_int(ramdisk_parse_size_arg("2GiB", &v, why, sizeof(why)), 0, "2GiB");
	ok(v == 2ULL << 30, "is 2 GiB");
	is_int(ramdisk_parse_size_arg("256", &v, why, sizeof(why)), -EINVAL, "no unit is refused");
	ok(strstr(why, "give a unit") != NULL, "and says so");
	is_int(ramdisk_parse_size_arg("256K", &v, why, sizeof(why)), -EINVAL, "K is refused");
	ok(strstr(why, "must be M or G") != NULL, "and says which units");
	is_int(ramdisk_parse_size_arg("12X", &v, why, sizeof(why)), -EINVAL, "a bad unit is refused");
	is_int(ramdisk_parse_size_arg("0M", &v, why, sizeof(why)), -EINVAL, "0M is refused");
	is_int(ramdisk_parse_size_arg("99999999999999999999G", &v, why, sizeof(why)), -EINVAL, "overflow is refused");

	struct ramdisk_spec spec = { .size = 1 << 20, .count = 1, .ndelay_ns = 1000 };
	ok(!ramdisk_backend_fits(&ramdisk_zram, &spec, why, sizeof(why)) && strstr(why, "cannot inject latency"),
	   "zram refuses --ndelay");
	ok(ramdisk_backend_fits(&ramdisk_scsi_debug, &spec, why, sizeof(why)), "scsi_debug takes --ndelay");
	spec.ndelay_ns = 0;
	spec.sector_size = 512;
	ok(!ramdisk_backend_fits(&ramdisk_zram, &spec, why, sizeof(why)), "zram refuses 512-byte sectors");
	spec.sector_size = 4096;
	ok(!ramdisk_backend_fits(&ramdisk_brd, &spec, why, sizeof(why)), "brd refuses 4096-byte sectors");
	spec.sector_size = 0;
	is_int(ramdisk_backend_sector_size(&ramdisk_zram, &spec), 4096, "zram's default sector is 4096");
	is_int(ramdisk_backend_sector_size(&ramdisk_null_blk, &spec), 512, "null_blk's default is 512");

	/* The registry on a temporary tree: fake sysfs with one zram device. */
	char root[] = "/tmp/iotriage-ramdisk-unit.XXXXXX";
	ok(mkdtemp(root) != NULL, "temporary tree");
	char path[512], devdir[256], state[256], sys[256];
	snprintf(devdir, sizeof(devdir), "%s/dev", root);
	snprintf(state, sizeof(state), "%s/state", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	mkdir(devdir, 0755);
	snprintf(path, sizeof(path), "%s/class", sys);
	mkdir(sys, 0755);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/block", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/class/block/zram5", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/block", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/block/zram5", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/block/zram5/comp_algorithm", sys);
	write_text(path, "[lzo-rle]\n");
	snprintf(path, sizeof(path), "%s/class/block/zram5/dev", sys);
	write_text(path, "252:5\n");
	snprintf(path, sizeof(path), "%s/class/block/zram5/diskseq", sys);
	write_text(path, "40\n");
	snprintf(path, sizeof(path), "%s/class/block/zram5/size", sys);
	write_text(path, "524288\n");
	struct ramdisk_paths p = { .dev = devdir, .state = state, .sysfs = sys };

	memset(&d, 0, sizeof(d));
	d.index = 0;
	snprintf(d.backend, sizeof(d.backend), "zram");
	snprintf(d.kname, sizeof(d.kname), "zram5");
	snprintf(d.path, sizeof(d.path), "%s/zram5", devdir);
	d.rdev = makedev(252, 5);
	d.diskseq = 40;
	is_int(ramdisk_registry_save(&p, &d), 0, "record saved");
	is_int(ramdisk_registry_link(&p, &d), 0, "link made");
	/* index 1: a record whose device is another disk now (diskseq changed) */
	d.index = 1;
	d.diskseq = 39;
	ramdisk_registry_save(&p, &d);
	/* index 2: a link without a record (a run killed before writing it) */
	snprintf(path, sizeof(path), "%s/" RAMDISK_LINK_PREFIX "2", devdir);
	symlink("/dev/sda", path);

	struct ramdisk_entry *e = NULL;
	size_t n = 0;
	is_int(ramdisk_registry_scan(&p, &e, &n), 0, "scan");
	is_int(n, 3, "three indices found");
	ok(n == 3 && e[0].state == RAMDISK_LIVE && e[0].has_link && e[0].dev.size == 524288 * 512ULL,
	   "index 0 is live, linked, sized from sysfs");
	ok(n == 3 && e[1].state == RAMDISK_STALE && strstr(e[1].stale_why, "another disk"),
	   "index 1 is stale: its device is another disk now");
	ok(n == 3 && e[2].state == RAMDISK_STALE && strstr(e[2].stale_why, "without a record"),
	   "index 2 is stale: a link without a record");
	for (size_t i = 1; i < n; i++)
		ramdisk_registry_forget(&p, &e[i]);
	free(e);
	is_int(ramdisk_registry_scan(&p, &e, &n), 0, "scan again");
	ok(n == 1 && e[0].dev.index == 0, "only the live one is left");
	free(e);
	/* A run killed between writing a record and renaming it into place. */
	d.index = 4;
	d.diskseq = 40;
	ramdisk_record_format(&d, text, sizeof(text));
	snprintf(path, sizeof(path), "%s/" RAMDISK_LINK_PREFIX "4.tmp.Ab12Cd", state);
	write_text(path, text);
	is_int(ramdisk_registry_scan(&p, &e, &n), 0, "scan with a temporary record");
	ok(n == 2 && e[1].dev.index == 4 && e[1].state == RAMDISK_LIVE && e[1].has_record && !e[1].has_link,
	   "the temporary counts as the record: its device is found");
	if (n == 2)
		ramdisk_registry_remove(&p, &e[1].dev);
	free(e);
	ok(access(path, F_OK) != 0, "removing the entry removes the temporary");
	snprintf(path, sizeof(path), "%s/block/zram5/comp_algorithm", sys);
	unlink(path);
	is_int(ramdisk_registry_scan(&p, &e, &n), 0, "scan after the device went");
	ok(n == 1 && e[0].state == RAMDISK_STALE && strstr(e[0].stale_why, "no longer exists"),
	   "a record whose device is gone is stale");
	free(e);
	ok(!ramdisk_zram.owns(&p, "zram0"), "zram0 is never iotriage's");

	/* forget took the claim: the lock next to the state directory names us. */
	char holder[32] = "", mine[32];
	snprintf(path, sizeof(path), "%s.lock", state);
	read_small_file(path, holder, sizeof(holder));
	snprintf(mine, sizeof(mine), "%ld", (long)getpid());
	is_str(holder, mine, "removing stale entries claims the registry (its lock holds this pid)");
	unlink(path);

	/* Tidy the tree (files we made, nothing else). */
	snprintf(path, sizeof(path), "%s/" RAMDISK_LINK_PREFIX "0", devdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" RAMDISK_LINK_PREFIX "0", state);
	unlink(path);
	const char *files[] = { "sys/class/block/zram5/dev", "sys/class/block/zram5/diskseq",
				"sys/class/block/zram5/size", NULL };
	for (size_t i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i]);
		unlink(path);
	}
	const char *dirs[] = { "sys/class/block/zram5", "sys/class/block", "sys/class", "sys/block/zram5", "sys/block",
			       "sys", "dev", "state", "", NULL };
	for (size_t i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		rmdir(path);
	}
	ok(access(root, F_OK) != 0, "temporary tree removed");
	return tap_done();
}
