#!/usr/bin/env bash
# bench/openzfs_doctor.sh [RUNS]: doctor on real OpenZFS 2.3 in the VM
# (tests/vm/openzfs.sh), RUNS times each (default 3), counting the verdicts:
#   slow:    raidz2 of six qemu disks, IOTZFS11 read-throttled by qemu to 40%
#            of the others: doctor POOL should name that member every run
#   healthy: raidz2 of six unthrottled disks: doctor should name none
# Prints each run's layer and subject, then the counts. One boot; the VM,
# its disks and images are removed at the end (run_vm.sh). Needs root and
# what tests/cli/test_openzfs_vm.sh needs (the OpenZFS build is cached).
set -u
runs=${1:-3}
bin=${IOTRIAGE:-build/iotriage}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/iotriage-ozbench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/scenario.sh" <<SCN
export IOTRIAGE_STATE_DIR=/tmp/state
systemd-udevd --daemon --resolve-names=never
for m in virtio_pci virtio_scsi sd_mod loop spl zfs; do modprobe \$m; done
i=0
while [ "\$(ls -d /sys/block/sd* 2>/dev/null | wc -l)" -lt 15 ] && [ \$i -lt 60 ]; do sleep 1; i=\$((i + 1)); done
udevadm trigger --action=add --subsystem-match=block
udevadm settle --timeout=60
d() { readlink -f "\$(ls /dev/disk/by-id/*IOTZFS\$(printf %02d "\$1") | grep -v -- -part | head -n 1)" | sed 's|/dev/||'; }
echo "slow member: \$(d 11)"
one() { # one NAME POOL
	for r in \$(seq $runs); do
		iotriage doctor "\$2" --quick --no-network --json >/tmp/d.json 2>/dev/null
		echo "=== RESULT \$1 \$r \$(tr -d '\n' </tmp/d.json | sed 's/.*"verdict": *{ *"layer": *"\([^"]*\)", *"subject": *\([^,]*\),.*/\1 \2/')"
	done
}
zpool create -f -o ashift=12 slow raidz2 \$(d 6) \$(d 7) \$(d 8) \$(d 12) \$(d 13) \$(d 11)
one slow slow
zpool destroy slow
zpool create -f -o ashift=12 healthy raidz2 \$(d 0) \$(d 1) \$(d 2) \$(d 3) \$(d 4) \$(d 5)
one healthy healthy
zpool destroy healthy
SCN
bash "$here/tests/vm/openzfs.sh" "$bin" "$work/scenario.sh" "$work/console.log" 1800 || { echo "the VM failed" >&2; tail -20 "$work/console.log" >&2; exit 1; }
tr -d '\r' <"$work/console.log" >"$work/c"
slow=$(sed -n 's/^slow member: //p' "$work/c")
grep '^=== RESULT' "$work/c" | sed 's/^=== RESULT //'
named=$(grep -c "^=== RESULT slow .* media \"/dev/${slow}1\"" "$work/c")
none=$(grep -c '^=== RESULT healthy .* none null' "$work/c")
echo "slow pool: the throttled member ($slow) named in $named of $runs runs"
echo "healthy pool: no layer named in $none of $runs runs"
