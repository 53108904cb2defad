#!/usr/bin/env bash
# bench/submit_batch.sh OLD_IOTRIAGE [ROUNDS] [SECONDS]: when the built-in
# engine submits each I/O as soon as it is prepared (fio's default,
# iodepth_batch_submit=1) and when it submits a whole batch at once.
# Since 2026-12-05 the engine submits each I/O on a device that completes
# asynchronously (blk-mq: loop, virtio-blk, NVMe) and batches on one that
# completes inside the submitting call (bio-based: zram). OLD_IOTRIAGE is
# a build from before (it batched everywhere), to compare against.
#
# 4 KiB random reads for SECONDS (default 2) with libaio and io_uring at
# depth 8 and 32 on: a loop device over a file in /dev/shm (CPU-bound), a
# zram device, and a file in /var/tmp on the machine's disk (O_DIRECT).
# Each round runs back to back: this build, OLD_IOTRIAGE, and fio as an
# expert runs it (batched submission and completion; on io_uring, fixed
# buffers and registered files). Prints per row the median (range) over
# ROUNDS (default 3) of this build over the old one and over fio.
# Needs root and fio; removes the devices and files it makes on exit and
# signals. Run it alone on the machine.
set -eu
old=${1:?usage: bench/submit_batch.sh OLD_IOTRIAGE [ROUNDS] [SECONDS]}
rounds=${2:-3}
secs=${3:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
new=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-submit.XXXXXX)
shm=$(mktemp -d /dev/shm/iotriage-submit.XXXXXX)
zram_id="" loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	if [ -n "$zram_id" ]; then
		echo 1 >/sys/block/zram$zram_id/reset
		echo "$zram_id" >/sys/class/zram-control/hot_remove
	fi
	rm -rf "$work" "$shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export IOTRIAGE_STATE_DIR=$work/state

head -c 512M /dev/zero >"$shm/img"
loop=$(losetup -f --show "$shm/img")
zram_id=$(cat /sys/class/zram-control/hot_add)
echo 512M >/sys/block/zram$zram_id/disksize
head -c 256M /dev/urandom >"$work/file"
sync "$work/file"

iops_of() { # iops_of BUILD TARGET ENGINE DEPTH
	"$1" run "$2" --rw randread --bs 4k --iodepth "$4" --engine "$3" --size 256M \
		--runtime "${secs}s" --time-based --json 2>/dev/null | jq '.result.read.iops'
}
fio_iops() { # fio_iops TARGET ENGINE DEPTH
	local extra=()
	[ "$2" = io_uring ] && extra=(--fixedbufs --registerfiles)
	fio --name=j --filename="$1" --rw=randread --bs=4k --direct=1 --size=256M --norandommap \
		--ioengine="$2" "${extra[@]}" --iodepth="$3" --iodepth_batch_submit="$3" \
		--iodepth_batch_complete_min=1 --iodepth_batch_complete_max="$3" \
		--runtime="$secs" --time_based --output-format=json | jq '.jobs[0].read.iops'
}
median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f (%.3f-%.3f)", m, a[1], a[NR]}'; }

printf '%-28s %-24s %-24s\n' "target, engine, depth" "this build / old" "this build / fio tuned"
for target in "$loop" "/dev/zram$zram_id" "$work/file"; do
	case $target in
	/dev/loop*) label=loop-on-shm ;; /dev/zram*) label=zram ;; *) label=file-on-disk ;;
	esac
	for engine in libaio io_uring; do
		for depth in 8 32; do
			: >"$work/vs_old"
			: >"$work/vs_fio"
			for ((r = 1; r <= rounds; r++)); do
				a=$(iops_of "$new" "$target" "$engine" "$depth")
				b=$(iops_of "$old" "$target" "$engine" "$depth")
				f=$(fio_iops "$target" "$engine" "$depth")
				echo "$a / $b" | bc -l >>"$work/vs_old"
				echo "$a / $f" | bc -l >>"$work/vs_fio"
			done
			printf '%-28s %-24s %-24s\n' "$label $engine qd$depth" "$(median <"$work/vs_old")" \
				"$(median <"$work/vs_fio")"
		done
	done
done
