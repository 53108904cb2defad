/* ramdisk/ramdisk.h: RAM-backed block devices for step 3 of the method
 * (take the media out of the measurement), behind one backend table.
 *
 * Backends, in the order "auto" tries them:
 *   scsi_debug  a whole emulated SCSI target: INQUIRY and VPD pages, so the
 *               device has a /dev/disk/by-id/scsi-* identity; ndelay; 512 or
 *               4096-byte sectors; one store per host (per_host_store)
 *   null_blk    configfs devices, memory_backed; completion_nsec on a timer
 *   brd         plain RAM disks (/dev/ramN); 512-byte sectors; no latency
 *   zram        built into many kernels; 4096-byte sectors; no latency
 * A backend is offered when its module is in /lib/modules/$(uname -r) or
 * already loaded (and not loaded by someone else with fixed parameters).
 *
 * Every device iotriage makes has a record in RAMDISK_STATE_DIR (its
 * backend, kernel name, device number and diskseq, the kernel's unique
 * number for that disk since boot) and a friendly symlink
 * /dev/iotriage-ramdiskN. A record whose device is gone or is now another
 * disk (different diskseq) is stale: it and its link are removed, and the
 * device it names is never touched. zram0 and any zram device without a
 * record are never touched.
 *
 * Library code: returns -errno, never prints. Explanations for the user
 * go into caller-supplied buffers ("why").
 */
#ifndef IOTRIAGE_RAMDISK_RAMDISK_H
#define IOTRIAGE_RAMDISK_RAMDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pool/arc.h"

#define RAMDISK_MAX_COUNT 32
#define RAMDISK_MAX_NDELAY_NS 999999999ULL /* scsi_debug takes less than one second */
#define RAMDISK_LINK_PREFIX "iotriage-ramdisk"

/* Where things live; tests point these at a temporary tree. */
struct ramdisk_paths {
	const char *dev;       /* "/dev": friendly links, device nodes */
	const char *state;     /* "/run/iotriage/ramdisk": one record per device */
	const char *sysfs;     /* "/sys" */
	const char *modules;   /* "/lib/modules/<release>"; NULL = the running kernel's */
};

extern const struct ramdisk_paths ramdisk_default_paths;

/* What the user asked for: COUNT devices of SIZE bytes each. */
struct ramdisk_spec {
	uint64_t size;
	unsigned count;
	unsigned sector_size;  /* 512 or 4096; 0 = the backend's default */
	uint64_t ndelay_ns;
	const char *run_id;
};

/* One device, as created or as found from its record. */
struct ramdisk_dev {
	unsigned index;        /* N in /dev/iotriage-ramdiskN */
	char backend[16];
	char kname[32];        /* "zram3", "sdb", "nullb0", "ram1" */
	char path[64];         /* "/dev/zram3" */
	char link[96];         /* "/dev/iotriage-ramdisk0" */
	dev_t rdev;
	uint64_t diskseq;
	uint64_t size;
	unsigned sector_size;
	uint64_t ndelay_ns;
	char by_id[288];       /* "/dev/disk/by-id/scsi-..." or "" */
	bool by_id_ours;       /* iotriage made the link (no udev) and removes it */
	char configfs[160];    /* null_blk: its configfs directory */
	bool module_loaded;    /* this batch loaded the backend's module */
	bool removed;          /* set by a backend's destroy once the device is gone */
	char run_id[17];
};

/* A backend's answer to "can you do this here?". */
enum ramdisk_avail {
	RAMDISK_AVAILABLE,     /* can create now */
	RAMDISK_ABSENT,        /* not in this kernel */
	RAMDISK_UNSUITABLE,    /* here, but cannot do what was asked (sector size, ndelay) */
	RAMDISK_BUSY,          /* here, but in use by someone else */
};

struct ramdisk_backend {
	const char *name;
	const char *summary;
	bool supports_ndelay;
	bool sector_512, sector_4096;
	bool can_force;        /* can remove a device that is still open (leaving it dangling) */
	/* Is the backend offered here? Fills WHY either way. */
	enum ramdisk_avail (*probe)(const struct ramdisk_paths *p, char *why, size_t len);
	/* Creates spec->count devices into DEVS (index, kname, path, rdev, size,
	 * sector_size set). On failure removes what it made and returns -errno
	 * with WHY set. */
	int (*create)(const struct ramdisk_paths *p, const struct ramdisk_spec *spec, struct ramdisk_dev *devs,
		      char *why, size_t len);
	/* Removes the batch (all of DEVS, which are this backend's). FORCE
	 * removes devices that are still open where the kernel allows it.
	 * Returns 0; 1 when done with a caveat in WHY; or -errno with WHY set
	 * (devices removed so far are marked removed). */
	int (*destroy)(const struct ramdisk_paths *p, struct ramdisk_dev *devs, size_t n, bool force, char *why,
		       size_t len);
	/* Is KNAME a device of this backend (sysfs)? */
	bool (*owns)(const struct ramdisk_paths *p, const char *kname);
	/* Sets the per-command delay of the backend's devices while they exist
	 * (all of them: scsi_debug's delay is the module's). CHECK_ONLY: only
	 * says whether it can, changing nothing. 0, or -errno with WHY. NULL:
	 * the backend cannot (no delay at all, or fixed once a device exists). */
	int (*set_ndelay)(const struct ramdisk_paths *p, uint64_t ndelay_ns, bool check_only, char *why, size_t len);
	/* Devices are added and removed one by one (zram's hot_add, null_blk's
	 * configfs), not by loading and unloading a module: how the log says it. */
	bool adds_devices, removes_devices;
	/* Gives a made device its /dev/disk/by-id identity (waiting up to
	 * TIMEOUT_MS for udev); NULL: the backend's devices have none. */
	int (*attach_identity)(const struct ramdisk_paths *p, struct ramdisk_dev *d, int timeout_ms);
	/* Removes what an earlier run left without records (see
	 * ramdisk_scsi_debug_reap); NULL: nothing can be left. */
	int (*reap)(const struct ramdisk_paths *p, char *why, size_t len);
};

/* The backends, one row each, in "auto" order: a new backend is its file
 * (defining const struct ramdisk_backend ramdisk_NAME with .name "NAME"),
 * a row here and its line in meson.build. ramdisk_backends[] and the
 * --backend choices (ramdisk_backend_names[]) are made from these rows. */
#define RAMDISK_BACKENDS(X) X(scsi_debug) X(null_blk) X(brd) X(zram)
#define RAMDISK_BACKEND_DECLARE_(n) extern const struct ramdisk_backend ramdisk_##n;
RAMDISK_BACKENDS(RAMDISK_BACKEND_DECLARE_)
/* All backends in "auto" order, NULL-terminated. */
extern const struct ramdisk_backend *const ramdisk_backends[];
/* Their names, in the same order, NULL-terminated: the --backend choices. */
extern const char *const ramdisk_backend_names[];
const struct ramdisk_backend *ramdisk_backend_find(const char *name);

/* Can BACKEND satisfy SPEC (sector size, ndelay)? Returns true, or false
 * with WHY set. Does not probe the kernel. */
bool ramdisk_backend_fits(const struct ramdisk_backend *b, const struct ramdisk_spec *spec, char *why,
			  size_t len);
/* Sets the per-command delay of the devices of BACKEND ("scsi_debug") to
 * NDELAY_NS at runtime (see set_ndelay above; CHECK_ONLY changes nothing).
 * -EOPNOTSUPP with WHY naming the backend and the way (a scsi_debug RAM
 * disk) when it cannot; -EPERM when iotriage did not load the module. */
int ramdisk_set_ndelay(const struct ramdisk_paths *p, const char *backend, uint64_t ndelay_ns, bool check_only,
		       char *why, size_t len);
/* The sector size BACKEND uses for SPEC (the one asked for, or 512, or 4096 for zram). */
unsigned ramdisk_backend_sector_size(const struct ramdisk_backend *b, const struct ramdisk_spec *spec);

/* --- kernel modules (backend.c) --- */

/* Is module NAME ("scsi_debug") loaded or built in (/sys/module/NAME)? */
bool ramdisk_module_loaded(const struct ramdisk_paths *p, const char *name);
/* Is NAME listed in modules.dep (loadable) of the running kernel? Returns 1,
 * 0, or -errno when modules.dep cannot be read. */
int ramdisk_module_present(const struct ramdisk_paths *p, const char *name);
/* Pure: does a modules.dep text list module NAME ("null_blk" matches
 * "kernel/drivers/block/null_blk/null_blk.ko.xz:")? */
bool ramdisk_modules_dep_has(const char *modules_dep_text, const char *name);
/* modprobe NAME ARGS... (spawned, argv, no shell). -errno or -EIO with the
 * program's stderr in WHY. */
int ramdisk_modprobe(const char *name, const char *const *params, char *why, size_t len);
/* rmmod NAME (this module only). Same returns. */
int ramdisk_modprobe_remove(const char *name, char *why, size_t len);

/* --- sysfs helpers shared by the backends (backend.c) --- */

/* Fills path, rdev, diskseq and size of KNAME from sysfs and /dev. */
int ramdisk_dev_fill(const struct ramdisk_paths *p, const char *kname, struct ramdisk_dev *d);
/* Waits up to TIMEOUT_MS for /dev/KNAME to exist as a block device. */
int ramdisk_wait_node(const struct ramdisk_paths *p, const char *kname, int timeout_ms);

/* Removes what an earlier run left without records (killed, or a forced
 * destroy of an open device): scsi_debug loaded with iotriage's INQUIRY
 * vendor; null_blk configfs directories named iotriage-nullb*. Call only
 * when no live entry exists. 1 with WHY saying what was removed, 0 when
 * nothing was there, -errno (WHY) when it could not be removed. */
int ramdisk_scsi_debug_reap(const struct ramdisk_paths *p, char *why, size_t len);
int ramdisk_null_blk_reap(const struct ramdisk_paths *p, char *why, size_t len);

/* --- registry.c: records and friendly links --- */

enum ramdisk_entry_state { RAMDISK_LIVE, RAMDISK_STALE };

struct ramdisk_entry {
	struct ramdisk_dev dev;
	enum ramdisk_entry_state state;
	char stale_why[200];   /* why it is stale */
	bool has_record, has_link;
	char record_file[300]; /* the record, or the temporary a killed write left */
};

/* Every index that has a record or a friendly link, sorted by index; live
 * entries are verified against sysfs (device present, same device number
 * and diskseq, owned by the recorded backend). *RET is malloc'd. */
int ramdisk_registry_scan(const struct ramdisk_paths *p, struct ramdisk_entry **ret, size_t *ret_n);
/* Removes a stale entry's record and link (never the device); -EBUSY, with
 * nothing removed, while another process holds the claim (an entry that
 * looks stale may be its record in the making). */
int ramdisk_registry_forget(const struct ramdisk_paths *p, const struct ramdisk_entry *e);
/* The claim on the registry: an exclusive flock on "<state>.lock"
 * (/run/iotriage/ramdisk.lock, holding the holder's pid), taken by every
 * backend's create and by forget, and held until this process exits, so two
 * `ramdisk create`s (or a create and a destroy) never interleave. Waits up
 * to TIMEOUT_MS; then -EBUSY with WHY naming the holder's pid. 0 at once
 * when this process holds it already. */
#define RAMDISK_CLAIM_WAIT_MS 30000
int ramdisk_registry_claim(const struct ramdisk_paths *p, int timeout_ms, char *why, size_t len);
/* What every backend's create does first: the claim (waiting up to
 * RAMDISK_CLAIM_WAIT_MS), then, under it, -EEXIST when live RAM disks exist
 * now (another run created them after this one looked), WHY naming one. */
int ramdisk_registry_claim_for_create(const struct ramdisk_paths *p, char *why, size_t len);
/* Writes D's record (before its link exists, so a killed run leaves a
 * record that the next run can act on). */
int ramdisk_registry_save(const struct ramdisk_paths *p, const struct ramdisk_dev *d);
/* For backends whose device exists the moment the kernel hands out its
 * name (zram's hot_add): the record file is made (empty) first, and the
 * device is added and recorded by a child process (zram.c), so a SIGKILL of
 * iotriage leaves at most an empty temporary (removed as stale), never an
 * unrecorded device. */
struct ramdisk_reservation {
	int fd;
	char tmp[300];
	char path[300];
};
int ramdisk_registry_reserve(const struct ramdisk_paths *p, unsigned index, struct ramdisk_reservation *ret);
int ramdisk_registry_commit(struct ramdisk_reservation *r, const struct ramdisk_dev *d);
/* Removes the temporary when it was not committed; closes. */
void ramdisk_registry_release(struct ramdisk_reservation *r);
/* Makes the friendly link /dev/iotriage-ramdiskN -> /dev/KNAME. */
int ramdisk_registry_link(const struct ramdisk_paths *p, struct ramdisk_dev *d);
/* Removes D's link and record. */
int ramdisk_registry_remove(const struct ramdisk_paths *p, const struct ramdisk_dev *d);
/* Record text, exposed for tests. */
void ramdisk_record_format(const struct ramdisk_dev *d, char *buf, size_t len);
int ramdisk_record_parse(const char *text, struct ramdisk_dev *d);

/* --- byid.c: the /dev/disk/by-id identity --- */

/* Pure: udev's by-id name for a SCSI disk from the kernel's wwid attribute
 * ("naa.5333333000001f40" -> "scsi-35333333000001f40", "t10.Linux ..." ->
 * "scsi-1Linux_..."), as udev's scsi_id names it. -EINVAL when unknown. */
int ramdisk_byid_name_from_wwid(const char *wwid, char *buf, size_t len);
/* Is udev running here (its control socket exists)? */
bool ramdisk_udev_running(void);
/* Finds the /dev/disk/by-id/scsi-* link of D (waiting up to TIMEOUT_MS for
 * udev); when udev is not running, makes it from the wwid and sets
 * d->by_id_ours. 0, or -ENOENT when the device has no SCSI identity. */
int ramdisk_byid_attach(const struct ramdisk_paths *p, struct ramdisk_dev *d, int timeout_ms);
/* Removes the by-id link when iotriage made it. */
void ramdisk_byid_detach(const struct ramdisk_dev *d);

/* --- membudget.c --- */

struct ramdisk_mem {
	uint64_t mem_available;  /* bytes, MemAvailable */
	uint64_t mem_total;
	uint64_t budget;         /* two thirds of mem_available */
	struct arc_size arc;     /* the ZFS ARC's maximum (kernel OpenZFS or zfs-fuse) */
	bool zfs_fuse;           /* a zfs-fuse daemon runs (its ARC is in its own memory) */
};

/* Pure: MemAvailable/MemTotal from /proc/meminfo text. */
int ramdisk_parse_meminfo(const char *text, uint64_t *ret_available, uint64_t *ret_total);
/* Reads /proc/meminfo and the ARC size, and looks for zfs-fuse. */
int ramdisk_mem_read(struct ramdisk_mem *ret);
/* MemAvailable now, bytes, or 0. */
uint64_t ramdisk_mem_available(void);

/* --- usage.c: is the device free? --- */

#define RAMDISK_MAX_USES 8

struct ramdisk_usage {
	bool mounted, swap, held, in_pool, open, claimed;
	bool unknown;            /* some checks need root and were not done */
	char status[160];        /* "free", "mounted on '/mnt/x'", "open by sleep (pid 42)" */
	size_t count;
	char uses[RAMDISK_MAX_USES][320]; /* each finding, a sentence */
};

/* Examines D: mounts, swap, holders (by device number), a ZFS/md/LVM label
 * (libblkid), processes holding it open (/proc/PID/fd, by device number),
 * and the kernel's O_EXCL claim. As non-root the last three are skipped
 * and usage->unknown is set. */
int ramdisk_usage_check(const struct ramdisk_dev *d, struct ramdisk_usage *ret);
static inline bool ramdisk_usage_busy(const struct ramdisk_usage *u)
{
	return u->mounted || u->swap || u->held || u->open || u->claimed;
}

/* --- verify.c --- */

/* Writes a block of distinct data at the start, middle and end of each of
 * DEVS (O_DIRECT), reads them all back, and zeroes them again. Returns 0
 * when every device returned its own data, -EXDEV when one returned
 * another's (a shared store; WHY names them), or -errno. */
int ramdisk_verify_independent(const struct ramdisk_dev *devs, size_t n, char *why, size_t len);

/* --- fabrics.c: the initiator side (this host as the client) --- */

/* Connects to NQN at TRADDR:TRSVCID through FABRICS ("/dev/nvme-fabrics"),
 * as HOSTNQN (NULL: the kernel's default host NQN), and returns the
 * controller's name ("nvme1"). -errno with WHY. */
int ramdisk_fabrics_connect(const char *fabrics, const char *traddr, unsigned trsvcid, const char *nqn,
			    const char *hostnqn, char *ctrl, size_t ctrl_len, char *why, size_t len);
/* Pure: the controller's name from what /dev/nvme-fabrics answers
 * ("instance=1,cntlid=1\n" -> "nvme1"). -EINVAL when it is not that. */
int ramdisk_fabrics_parse_answer(const char *answer, char *ctrl, size_t ctrl_len);
/* Finds the block device of namespace NSID of subsystem NQN in SYSFS
 * ("/sys") by identity (/sys/block/X/device/subsysnqn and nsid), waiting up
 * to TIMEOUT_MS. Fills KNAME ("nvme1n1"). 0 or -ENOENT. */
int ramdisk_fabrics_find(const char *sysfs, const char *nqn, unsigned nsid, int timeout_ms, char *kname,
			 size_t kname_len);
/* Deletes controller CTRL (writes 1 to its delete_controller). */
int ramdisk_fabrics_disconnect(const char *sysfs, const char *ctrl, char *why, size_t len);
/* Controllers connected to NQN now (names into NAMES, up to MAX). */
size_t ramdisk_fabrics_controllers(const char *sysfs, const char *nqn, char names[][32], size_t max);

#endif
