# tests/vm/hwlab_groups_scenario.sh: runs inside the hardware lab VM
# (tests/vm/hwlab.sh) for bench/hwlab_groups.sh. Loads the SCSI drivers only
# (the bench reads the nine virtio-scsi disks, as hwlab_scenario.sh's --mode
# both does), waits for the nine disks and udev, then runs `iotriage readdisks
# --size 32M --mode both --json` on them RUNS times: RUNS from the kernel
# command line's hwlab_runs=N (VM_APPEND), default 3. Each run's JSON goes
# between "=== JSON both-R" and "=== ENDJSON both-R rc=N", its log between
# "=== BEGIN both-R-log" and "=== END both-R-log rc=N", "=== TIME both-R S"
# (guest seconds since boot) before each.
export IOTRIAGE_STATE_DIR=/tmp/state
uptime_s() { cut -d. -f1 /proc/uptime; }
runs=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^hwlab_runs=\([0-9][0-9]*\)$/\1/p' | head -n 1)
runs=${runs:-3}
echo "=== RUNS $runs"
systemd-udevd --daemon --resolve-names=never || echo "=== UDEVD FAILED"
for m in virtio_pci virtio_scsi sd_mod; do
	modprobe $m || echo "=== MODPROBE FAILED $m"
done
scsi() { # the virtio-scsi disks' kernel names
	for b in /sys/block/sd*; do
		case $(readlink $b) in */virtio*) echo "${b##*/}" ;; esac
	done
}
i=0
while [ "$(scsi | wc -l)" -lt 9 ] && [ $i -lt 90 ]; do sleep 1; i=$((i + 1)); done
echo "=== DISKS $(scsi | tr '\n' ' ')after ${i}s"
udevadm trigger --action=add --subsystem-match=block
udevadm settle --timeout=60
echo "udev settled: rc=$?"
match=$(for k in $(scsi); do echo "--match $k"; done)
r=1
while [ $r -le "$runs" ]; do
	echo "=== TIME both-$r $(uptime_s)"
	echo "=== JSON both-$r"
	iotriage readdisks --size 32M --mode both $match --json 2>/tmp/err
	rc=$?
	echo
	echo "=== ENDJSON both-$r rc=$rc"
	echo "=== BEGIN both-$r-log"
	cat /tmp/err
	echo "=== END both-$r-log rc=$rc"
	r=$((r + 1))
done
echo "=== TIME end $(uptime_s)"
