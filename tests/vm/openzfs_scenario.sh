# tests/vm/openzfs_scenario.sh: runs inside the OpenZFS VM
# (tests/vm/openzfs.sh) as its whole job: loads spl and zfs, starts udev,
# then builds one pool of each layout a real admin has, captures what
# OpenZFS prints about it (zpool status text with and without -P, and the
# JSON of zpool status -j), and runs iotriage on it:
#   tank   data mirror + mirrored log + cache + hot spare (by-id names);
#          sync writes through its slow log (zpool iostat -l), doctor names it
#   rz2    raidz2 of six + special mirror + a log mirror as fast as the data
#          disks: readpooldisks, doctor (RAM twin, the sync-write probe, no
#          member or log named)
#   sp     mirror + a special mirror whose writes are slow: doctor's
#          metadata probe names it
#   slow   raidz2 of six, one member read-throttled to 40%: doctor names it
#   dr     dRAID1 (2 data, 6 children, 1 distributed spare), the spare
#          swapped in for a member
#   deg    raidz1 of four: a member offlined, a member replaced while the
#          new disk is write-throttled (a "replacing" vdev); then, the
#          resilver done and the member back online, exported and imported
#          with a disk deleted (a member known only by GUID)
#   ash    raidz1 with ashift=9 on 4096-byte-physical disks; sync=always
#          with no log: doctor's findings
#   rprz, rpmir  benchpool's 4 KiB random pass on IOPS-bound disks: a raidz1
#          of four (limited by the layout) and two mirrors (not)
# Sections as in hwlab_scenario.sh: "=== BEGIN name" ... "=== END name
# rc=N", JSON between "=== JSON name" and "=== ENDJSON name rc=N", "=== TIME
# name S" (guest seconds since boot) before each. tests/cli/test_openzfs_vm.sh
# asserts on the console; tests/data/capture_openzfs.sh keeps the captures.
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
uptime_s() { cut -d. -f1 /proc/uptime; }
run() { # run NAME CMD...
	n=$1; shift
	echo "=== TIME $n $(uptime_s)"
	echo "=== BEGIN $n"
	"$@" 2>&1
	rc=$?
	echo "=== END $n rc=$rc"
}
runj() { # runj NAME CMD...: stdout (JSON) and stderr in separate sections
	n=$1; shift
	echo "=== TIME $n $(uptime_s)"
	echo "=== JSON $n"
	"$@" 2>/tmp/err
	rc=$?
	echo
	echo "=== ENDJSON $n rc=$rc"
	echo "=== BEGIN $n-log"
	cat /tmp/err
	echo "=== END $n-log rc=$rc"
}
capture() { # capture NAME POOL: status text (-P and not), JSON
	run "$1-status-P" zpool status -P "$2"
	run "$1-status" zpool status "$2"
	run "$1-status-j" zpool status -j "$2"
}
d() { # d N: the kernel name of disk IOTZFS0N, from udev's by-id link
	readlink -f "$(ls /dev/disk/by-id/*IOTZFS$(printf %02d "$1") | grep -v -- -part | head -n 1)" | sed 's|/dev/||'
}
byid() { # byid N: its by-id path
	ls /dev/disk/by-id/*IOTZFS$(printf %02d "$1") | grep -v -- -part | head -n 1
}
wipe() { # wipe N...: labels of an earlier pool off these disks
	for n in "$@"; do zpool labelclear -f "/dev/$(d $n)" >/dev/null 2>&1; dd if=/dev/zero of="/dev/$(d $n)" bs=1M count=4 2>/dev/null; done
}

echo "=== TIME udevd $(uptime_s)"

systemd-udevd --daemon --resolve-names=never || echo "=== UDEVD FAILED"
for m in virtio_pci virtio_scsi sd_mod loop; do
	modprobe $m || echo "=== MODPROBE FAILED $m"
done
# OpenZFS's own modules in the order they need each other (2.1 splits zfs in
# eight parts; 2.3 has spl and zfs): those the cache has.
for m in spl znvpair zcommon icp zavl zlua zunicode zzstd zfs; do
	[ -f "/lib/modules/$(uname -r)/extra/$m.ko" ] || continue
	modprobe $m || echo "=== MODPROBE FAILED $m"
done
# virtio-scsi probes its disks after modprobe returns: wait for all nineteen.
i=0
while [ "$(ls -d /sys/block/sd* 2>/dev/null | wc -l)" -lt 19 ] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
udevadm trigger --action=add --subsystem-match=block
udevadm settle --timeout=60
run versions sh -c 'zfs version; cat /sys/module/zfs/version'
list_disks() { for i in $(seq 0 18); do echo "IOTZFS$i $(d $i) $(byid $i)"; done; ls -l /dev/disk/by-id; }
run disks list_disks

# --- tank: mirror + log mirror + cache + spare, by-id names
run tank-create zpool create -f -o ashift=12 tank mirror "$(byid 0)" "$(byid 1)" log mirror "$(byid 9)" "$(byid 10)" \
	cache "$(byid 2)" spare "$(byid 3)"
capture tank tank
runj tank-read $I readpooldisks tank --size 8M --json
# Sync writes: with sync=always every write goes through the log mirror,
# whose disks (IOTZFS09, 10) write at 2 MB/s; zpool iostat -l shows it.
zfs set sync=always tank
dd if=/dev/urandom of=/tmp/sync.src bs=16k count=160 2>/dev/null
(sleep 1; dd if=/tmp/sync.src of=/tank/sync bs=16k 2>/dev/null) &
run tank-iostat-lHp zpool iostat -v -l -H -p tank 1 4
wait
(sleep 1; dd if=/tmp/sync.src of=/tank/sync2 bs=16k 2>/dev/null) &
run tank-iostat-l zpool iostat -v -l tank 1 4
wait
run tank-iostat-w zpool iostat -w tank
run tank-iostat-wHp zpool iostat -w -H -p tank
zfs set sync=standard tank
runj tank-doctor $I doctor tank --quick --no-network --json
run tank-destroy zpool destroy tank

# --- rz2: raidz2 of six + special mirror
wipe 0 1 2 3 9 10
run rz2-create zpool create -f -o ashift=12 rz2 raidz2 $(d 0) $(d 1) $(d 2) $(d 3) $(d 4) $(d 5) special mirror $(d 6) $(d 7) \
	log mirror $(d 12) $(d 13)
capture rz2 rz2
runj rz2-read $I readpooldisks rz2 --size 8M --json
runj rz2-doctor $I doctor rz2 --quick --no-network --json
run rz2-after zpool list -H -o name
run rz2-destroy zpool destroy rz2

# --- sp: a mirror with a special mirror on IOTZFS09 and 10, whose writes are
# throttled to 2 MB/s: doctor's metadata probe names the slow special vdev
wipe 0 1 9 10
run sp-create zpool create -f -o ashift=12 sp mirror $(d 0) $(d 1) special mirror $(d 9) $(d 10)
runj sp-doctor $I doctor sp --quick --no-network --json
run sp-destroy zpool destroy sp

# --- slow: raidz2 of six, IOTZFS11 read at 40% of the others
wipe 0 1 2 3 4 5 6 7 12 13
run slow-create zpool create -f -o ashift=12 slow raidz2 $(d 6) $(d 7) $(d 8) $(d 12) $(d 13) $(d 11)
runj slow-doctor $I doctor slow --quick --no-network --json
run slow-destroy zpool destroy slow

# --- dr: dRAID1 with a distributed spare swapped in
wipe 0 1 2 3 4 5 6 7
run dr-create zpool create -f -o ashift=12 dr draid1:2d:6c:1s $(d 0) $(d 1) $(d 2) $(d 3) $(d 4) $(d 5)
run dr-replace zpool replace dr $(d 1) draid1-0-0
sleep 2
capture dr dr
runj dr-read $I readpooldisks dr --size 8M --json
runj dr-doctor $I doctor dr --quick --no-network --json
run dr-destroy zpool destroy dr

# --- deg: offlined member, a replacing vdev, then a member known by GUID
wipe 0 1 2 3 4 5
run deg-create zpool create -f -o ashift=12 deg raidz1 $(d 0) $(d 1) $(d 2) $(d 3)
dd if=/dev/urandom of=/deg/data bs=1M count=64 2>/dev/null
sync
run deg-offline zpool offline deg $(d 1)
wipe 14
run deg-replace zpool replace -f deg $(d 2) $(d 14)
capture deg-replacing deg
runj deg-read $I readpooldisks deg --size 8M --json
runj deg-doctor $I doctor deg --quick --no-network --json
run deg-wait zpool wait -t resilver deg
run deg-online zpool online deg $(d 1)
run deg-wait2 zpool wait -t resilver deg
run deg-export zpool export deg
gone=$(d 3)
echo 1 >/sys/block/$gone/device/delete
sleep 1
run deg-import zpool import -d /dev deg
capture deg-guid deg
runj deg-guid-read $I readpooldisks deg --size 8M --json
run deg-destroy zpool destroy -f deg

# --- ash: ashift 9 on 4096-byte-physical disks, sync=always without a log
wipe 4 5 6 7
run ash-create zpool create -f -o ashift=9 ash raidz1 $(d 4) $(d 5) $(d 6) $(d 7)
run ash-sync zfs set sync=always ash
capture ash ash
run ash-get sh -c 'zpool get -H -p all ash; zfs get -H -p all ash'
runj ash-doctor $I doctor ash --quick --no-network --json
run ash-destroy zpool destroy ash

# --- rp: benchpool's 4 KiB random pass on IOPS-bound disks (IOTZFS15..18,
# 512-byte sectors, 80 reads/s each): a raidz1 of four made with ashift=9
# (a 4 KiB record spans its three data columns) against two mirrors of the
# same disks
run rprz-create zpool create -f -o ashift=9 rprz raidz1 $(d 15) $(d 16) $(d 17) $(d 18)
runj rprz-bench $I benchpool rprz 32M --tests builtin --runtime 5 --json
run arcstats cat /proc/spl/kstat/zfs/arcstats
run rprz-label zdb -l /dev/$(d 15)1
run rprz-destroy zpool destroy rprz
wipe 15 16 17 18
run rpmir-create zpool create -f -o ashift=9 rpmir mirror $(d 15) $(d 16) mirror $(d 17) $(d 18)
runj rpmir-bench $I benchpool rpmir 32M --tests builtin --runtime 5 --json
# benchpool on a zvol of the same pool, as a VM's disk
runj rpmir-zvol $I benchpool rpmir 32M --zvol --volblocksize 16K --tests all --runtime 5 --json
# matrix with zvols beside the datasets: the raw/qcow2/zvol comparison's zvol rows
runj mx-zvol $I matrix --pool rpmir --zvol --recordsize 8k,64k --compression off --tests seqread-64k,seqwrite-64k \
	--size 16M --runtime 2s --engine builtin --json
run mx-after zfs list -H -t all -o name -r rpmir
run rpmir-destroy zpool destroy rpmir
run leftovers sh -c 'zpool list -H; losetup -a'
