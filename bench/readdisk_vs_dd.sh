#!/usr/bin/env bash
# bench/readdisk_vs_dd.sh [ROUNDS] [BACKING_DIR]: iotriage readdisk against
#   dd if=DEV of=/dev/null bs=1M count=1000 iflag=direct
# on the same loop device, alternating which runs first, and
# the same pair under a 50 MiB/s cgroup blkio read limit. Prints each pair
# and the median ratio iotriage/dd. BACKING_DIR holds the loop device's
# file: /var/tmp (default) puts the VM's virtual disk underneath, which is
# noisy; /dev/shm (tmpfs, O_DIRECT-capable since Linux 6.6) takes that
# noise out. Needs root; removes everything it makes.
set -eu
rounds=${1:-7}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
backing=${2:-/var/tmp}
work=$(mktemp -d "$backing/iotriage-bench.XXXXXX")
dev="" cg=""
cleanup() {
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
export IOTRIAGE_STATE_DIR=$work/state

head -c 1100M /dev/urandom >"$work/disk.img"
sync "$work/disk.img"
dev=$(losetup -f --show --direct-io=on "$work/disk.img")
dd if="$dev" of=/dev/null bs=1M count=1000 iflag=direct 2>/dev/null # warm-up, not counted

dd_rate() { # bytes/s from dd's own byte count and seconds
	dd if="$dev" of=/dev/null bs=1M count="$1" iflag=direct 2>&1 | awk '/copied/ {print $1 / $(NF-3)}'
}
iot_rate() {
	"$iotriage" readdisk "$dev" --size "$1"M --json 2>/dev/null | jq -r '.devices[0].bw_bytes_per_s'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-8s %14s %14s %8s\n' round "dd B/s" "iotriage B/s" ratio
ratios=()
for i in $(seq "$rounds"); do
	# Alternate which goes first, so neither always inherits the other's warm state.
	if [ $((i % 2)) -eq 1 ]; then
		d=$(dd_rate 1000); t=$(iot_rate 1000)
	else
		t=$(iot_rate 1000); d=$(dd_rate 1000)
	fi
	r=$(awk -v a="$t" -v b="$d" 'BEGIN {printf "%.3f", a / b}')
	ratios+=("$r")
	printf '%-8s %14.0f %14.0f %8s\n' "$i" "$d" "$t" "$r"
done
echo "median ratio iotriage/dd (1000 MiB, O_DIRECT, 1 MiB, loop on $backing): $(printf '%s\n' "${ratios[@]}" | median)"

# Throttled: 50 MiB/s for this script's reads of the device.
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
cg=/sys/fs/cgroup/blkio/iotriage-bench-$$
mkdir "$cg"
echo "$mm 52428800" >"$cg/blkio.throttle.read_bps_device"
echo $$ >"$cg/cgroup.procs"
d=$(dd_rate 300)
t=$(iot_rate 300)
echo $$ >/sys/fs/cgroup/blkio/cgroup.procs
printf 'throttled to 52428800 B/s (300 MiB): dd %.0f B/s (%+.1f%%), iotriage %.0f B/s (%+.1f%%)\n' \
	"$d" "$(awk -v a="$d" 'BEGIN {print (a / 52428800 - 1) * 100}')" \
	"$t" "$(awk -v a="$t" 'BEGIN {print (a / 52428800 - 1) * 100}')"
