#!/usr/bin/env bash
# bench/pin_vs_fio.sh [ROUNDS] [DIR]: 4 KiB random reads with O_DIRECT on a
# 256 MiB file in DIR (default /var/tmp: a file system on the machine's own
# disk), by fio and by iotriage (run --fio-job --native) back to back,
# ROUNDS times (default 5), at depth 1 with psync and at depth 8 with
# libaio, 4 s each. A third run per round is iotriage confined to one CPU
# with taskset, pinned where the disk's interrupt does not go: the old
# behaviour, which on a disk whose one interrupt some CPUs share (virtio-blk,
# SATA) waits on a cross-CPU wake-up per I/O (bench/irq_path.h).
# Prints per round the IOPS of each and the ratios over fio, then the
# median and range of each ratio. Also prints where the disk's interrupts
# went (/proc/interrupts), so the CPU taskset picks is the other one.
# Needs fio and jq; keeps its file and state in a temporary directory it
# removes on exit and signals. Run it alone.
set -eu
rounds=${1:-5}
dir=${2:-/var/tmp}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d "$dir/iotriage-pinbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
export IOTRIAGE_STATE_DIR=$work/state
head -c 256M /dev/urandom >"$work/img"
sync "$work/img"

# The CPU that took the fewest of the disk's completions: the "wrong" one to pin.
disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE -T "$work")" 2>/dev/null || true)
[ -n "$disk" ] || disk=$(basename "$(findmnt -no SOURCE -T "$work")")
irqline=$(grep -E "virtio[0-9]+-req|nvme|ahci|mpt|megasas" /proc/interrupts | sort -k2 -nr | head -1 || true)
echo "disk: $disk; busiest block interrupt line: ${irqline:-none found}"
cold=0
if [ -n "$irqline" ]; then
	read -r -a f <<<"$irqline"
	# f[1] is CPU 0's count, f[2] CPU 1's...: the CPU with the fewest is cold.
	min=${f[1]}
	for ((c = 1; c <= $(nproc); c++)); do
		[[ ${f[$c]} =~ ^[0-9]+$ ]] || break
		if [ "${f[$c]}" -lt "$min" ]; then min=${f[$c]}; cold=$((c - 1)); fi
	done
fi
echo "taskset pins the third run to CPU $cold"

job() { # job NAME ENGINE DEPTH
	printf '[%s]\ndirect=1\nbs=4k\nrw=randread\nruntime=4s\ntime_based\nsize=256m\nioengine=%s\niodepth=%s\n' \
		"$1" "$2" "$3" >"$work/$1.fio"
}
job qd1 psync 1
job qd8 libaio 8

median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f (%.3f-%.3f)", m, a[1], a[NR]}'; }

for name in qd1 qd8; do
	: >"$work/$name.ratios"
	: >"$work/$name.pinned"
	for ((r = 1; r <= rounds; r++)); do
		fio_iops=$(fio --output-format=json --filename="$work/img" "$work/$name.fio" | jq '.jobs[0].read.iops')
		"$iotriage" run --fio-job "$work/$name.fio" --native --fio-json "$work/o.json" "$work/img" >/dev/null 2>&1
		io_iops=$(jq '.jobs[0].read.iops' "$work/o.json")
		taskset -c "$cold" "$iotriage" run --fio-job "$work/$name.fio" --native --fio-json "$work/p.json" \
			"$work/img" >/dev/null 2>&1
		pin_iops=$(jq '.jobs[0].read.iops' "$work/p.json")
		a=$(echo "$io_iops / $fio_iops" | bc -l)
		b=$(echo "$pin_iops / $fio_iops" | bc -l)
		echo "$a" >>"$work/$name.ratios"
		echo "$b" >>"$work/$name.pinned"
		printf '%s round %d: fio %.0f, iotriage %.0f (%.3f), pinned to CPU %d %.0f (%.3f)\n' \
			"$name" "$r" "$fio_iops" "$io_iops" "$a" "$cold" "$pin_iops" "$b"
	done
	echo "$name: iotriage/fio $(median <"$work/$name.ratios"); pinned to CPU $cold /fio $(median <"$work/$name.pinned")"
done
