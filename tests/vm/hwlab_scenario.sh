# tests/vm/hwlab_scenario.sh: runs inside the hardware lab VM
# (tests/vm/hwlab.sh) as its whole job: loads the drivers, lists what they
# made, captures the sysfs tree and every disk's smartctl JSON (a base64
# tar between "=== TAR" and "=== ENDTAR"), then runs readdisks, doctor and
# the baseline check across a rebind (below). Sections as
# in ramdisk_scenario.sh: "=== BEGIN name" ... "=== END name rc=N", JSON
# between "=== JSON name" and "=== ENDJSON name rc=N", and "=== TIME name
# S" (guest seconds since boot) before each. tests/cli/test_hwlab_vm.sh
# asserts on the console; tests/data/capture_hwlab.sh unpacks the tar.
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
settle() { # until /sys/block stops changing for 3 s (at most 90 s)
	last="" same=0 i=0
	while [ $i -lt 90 ] && [ $same -lt 3 ]; do
		now=$(ls /sys/block | tr '\n' ' ')
		if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; last=$now; fi
		sleep 1
		i=$((i + 1))
	done
	echo "settled after ${i}s: $last"
}
disks() { # every block device but the partitions
	for d in /sys/block/*; do echo "${d##*/}"; done
}
describe() {
	for k in $(disks); do
		d=/sys/block/$k
		echo "$k -> $(readlink $d) size=$(cat $d/size) serial=$(cat $d/device/serial 2>/dev/null) wwid=$(cat $d/wwid 2>/dev/null || cat $d/device/wwid 2>/dev/null) model=$(cat $d/device/model 2>/dev/null) dev=$(cat $d/dev) nodev=$([ -e /dev/$k ] || echo yes) parts=$(ls -d $d/$k* 2>/dev/null | sed 's|.*/||' | tr '\n' ' ')"
	done
	ls -l /sys/class/nvme /sys/class/nvme-subsystem 2>&1
}
smart_all() { # smartctl JSON of every disk into /tmp/cap/smartctl/KNAME.json
	mkdir -p /tmp/cap/smartctl
	for k in $(disks); do
		[ -e /dev/$k ] || continue
		smartctl --json -a /dev/$k >/tmp/cap/smartctl/$k.json 2>&1
		echo "$k smartctl rc=$?"
	done
}

# udev as on an admin's machine (Debian's systemd-udevd and its
# 60-persistent-storage.rules, from the host): /dev/disk/by-id is what
# iotriage names disks by when they have no WWN or serial, and what it
# shows. Started before the drivers so their events reach it; a trigger
# afterwards replays any it missed.
udev_settle() {
	udevadm trigger --action=add --subsystem-match=block
	udevadm settle --timeout=60
	echo "udev settled: rc=$?"
}
echo "=== TIME udevd $(uptime_s)"
systemd-udevd --daemon --resolve-names=never || echo "=== UDEVD FAILED"
echo "=== TIME modules $(uptime_s)"
for m in nvme virtio_pci virtio_scsi sd_mod ahci; do
	modprobe $m || echo "=== MODPROBE FAILED $m"
done
run settle settle
run udev udev_settle
run byid sh -c 'cd /dev/disk/by-id && for l in *; do echo "$l -> $(readlink $l)"; done'
run describe describe
run capture sh /capture_sysfs.sh /tmp/cap $(disks)
run smart smart_all
echo "kernel $(uname -r); tests/vm/hwlab.sh lab, captured by tests/vm/hwlab_scenario.sh" >/tmp/cap/CAPTURED
runj readdisks-1 $I readdisks --size 16M --json
runj readdisks-2 $I readdisks --size 16M --json
runj readdisks-3 $I readdisks --size 16M --group-by controller --json
# --mode both on the nine virtio-scsi disks only: twenty disks read at once
# make the one-vCPU guest (under ASan above all) the bottleneck of every
# controller, which is a finding about the guest, not about the lab's paths.
# 32 MiB each: the two disks of a throttle group overlap for seconds, not
# for the fraction of one that the threads' start can skew.
scsi_match=$(for b in /sys/block/sd*; do case $(readlink $b) in */virtio*) echo "--match ${b##*/}" ;; esac; done)
runj both $I readdisks --size 32M --mode both $scsi_match --json
part=$(for p in /sys/block/*/*/partition; do d=${p%/partition}; echo "${d##*/}"; done | head -n 1)
runj partition $I readdisk /dev/$part --size 16M --json
runj doctor $I doctor --quick --no-network --json
# Baselines across a change of kernel names: save the NVMe namespaces'
# baselines, unbind the six plain NVMe controllers and bind them again in
# reverse PCI order (controller and subsystem numbers are handed out anew,
# so nvme0n1 and nvme5n1 trade names), then read them again with one of
# them (IOTNVME01) held to half its rate by the guest's blk-throttle
# (cgroup v2 io.max), as a disk that got slower would.
nvme_names() { # KNAME SERIAL of each plain NVMe namespace
	for b in /sys/block/nvme*n1; do
		k=${b##*/}
		case $k in *c*) continue ;; esac
		echo "$k $(cat $b/device/serial 2>/dev/null || cat $b/device/*/serial 2>/dev/null | head -n 1)"
	done
}
rebind() {
	drv=/sys/bus/pci/drivers/nvme
	addrs=$(for c in /sys/class/nvme/nvme*; do
		case $(cat $c/serial) in IOTNVME0*) basename "$(readlink -f $c/device)" ;; esac
	done | sort)
	for a in $addrs; do echo $a >$drv/unbind; done
	sleep 1
	for a in $(echo $addrs | tr ' ' '\n' | sort -r); do echo $a >$drv/bind; sleep 0.2; done
	settle
	udevadm settle --timeout=60
}
throttle() { # throttle SERIAL BPS: a cgroup whose reads of that disk are held to BPS
	for b in /sys/block/nvme*n1; do
		k=${b##*/}
		grep -qs "^$1" $b/device/serial $b/device/*/serial 2>/dev/null || continue
		case $k in *c*) continue ;; esac
		mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup
		echo +io >/sys/fs/cgroup/cgroup.subtree_control
		mkdir -p /sys/fs/cgroup/slow
		echo "$(cat $b/dev) rbps=$2" >/sys/fs/cgroup/slow/io.max
		echo "throttled $k ($1, $(cat $b/dev)): $(cat /sys/fs/cgroup/slow/io.max)"
	done
}
run names-before nvme_names
runj baseline-save $I readdisks --size 16M --match 'nvme*' --save-baseline --json
run rebind rebind
run names-after nvme_names
run byid-after sh -c 'cd /dev/disk/by-id && for l in nvme-*; do echo "$l -> $(readlink $l)"; done'
run throttle throttle IOTNVME01 12500000
runj baseline-check sh -c 'echo $$ >/sys/fs/cgroup/slow/cgroup.procs && exec iotriage readdisks --size 16M --match "nvme*" --json'
echo "=== TIME tar $(uptime_s)"
echo "=== TAR"
(cd /tmp/cap && tar cf - .) | gzip | base64
echo "=== ENDTAR"
echo "=== TIME end $(uptime_s)"
