#!/usr/bin/env bash
# bench/engine_vs_fio.sh [ROUNDS] [SECONDS]: the built-in engine against fio,
# same workload, same device, alternating which runs first, ROUNDS times.
#
# Rows: {zram, loop with direct I/O} x {4k randread qd1, 4k randread qd32,
# 1M sequential read qd8, 4k randwrite qd32} x {psync, libaio, io_uring}.
# psync runs at queue depth 1 in both tools. fio runs with --norandommap
# because iotriage's random offsets are uniform with replacement too.
# Prints per row the median IOPS of each tool and their ratio, and the CPU
# time (user+sys of the whole process) per I/O and its ratio.
# "*" marks the engine that --engine auto picks for that target and depth.
# Writes: fio scrambles its buffers before every write by default
# (scramble_buffers=1), iotriage scrambles every 512-byte sector; both are in
# the figures. FIO_TUNED=1 runs fio as an expert would: batched submission and
# completion (iodepth_batch_submit/complete) and, on io_uring, fixed buffers
# and registered files (engine options: after --ioengine). WORKLOADS="write 1M 8;randwrite 4k 32" measures the
# cost of the scrambling; IOTRIAGE=old/build/iotriage compares two builds.
# Needs root; removes the devices it makes. Run it alone on the machine.
set -eu
rounds=${1:-3}
secs=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-bench.XXXXXX)
zram_id="" loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "${loop_img:-}" ] && rm -f "$loop_img"
	if [ -n "$zram_id" ]; then
		echo 1 >/sys/block/zram$zram_id/reset
		echo "$zram_id" >/sys/class/zram-control/hot_remove
	fi
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
export IOTRIAGE_STATE_DIR=$work/state

zram_id=$(cat /sys/class/zram-control/hot_add)
echo 1G >/sys/block/zram$zram_id/disksize
zram=/dev/zram$zram_id
# The loop device's file lives on tmpfs by default (LOOP_BACKING=/var/tmp puts
# the VM's virtual disk underneath, whose speed swings by 2x between runs).
loop_img=$(mktemp "${LOOP_BACKING:-/dev/shm}/iotriage-bench.XXXXXX")
head -c 1G /dev/urandom >"$loop_img"
loop=$(losetup -f --show --direct-io=on "$loop_img")
dd if=/dev/urandom of="$zram" bs=1M count=1024 status=none

# run_fio DEV RW BS QD ENGINE -> "iops cpu_seconds ios"
run_fio() {
	local dev=$1 rw=$2 bs=$3 qd=$4 engine=$5 tuned=()
	if [ "${FIO_TUNED:-0}" = 1 ] && [ "$engine" != psync ]; then
		tuned=(--iodepth_batch_submit="$qd" --iodepth_batch_complete_min=1 --iodepth_batch_complete_max="$qd")
		[ "$engine" = io_uring ] && tuned+=(--fixedbufs --registerfiles)
	fi
	/usr/bin/time -f "%U %S" -o "$work/time" fio --name=bench --filename="$dev" --rw="$rw" --bs="$bs" \
		--iodepth="$qd" --ioengine="$engine" --direct=1 --time_based --runtime="$secs" \
		--norandommap --randrepeat=0 --output-format=json "${tuned[@]}" >"$work/fio.json" 2>/dev/null
	local dir=read
	[[ $rw == *write* ]] && dir=write
	local iops ios
	iops=$(jq -r ".jobs[0].$dir.iops" "$work/fio.json")
	ios=$(jq -r ".jobs[0].$dir.total_ios" "$work/fio.json")
	echo "$iops $(awk '{print $1 + $2}' "$work/time") $ios"
}
run_iotriage() {
	local dev=$1 rw=$2 bs=$3 qd=$4 engine=$5
	/usr/bin/time -f "%U %S" -o "$work/time" "$iotriage" run "$dev" --rw "$rw" --bs "$bs" \
		--iodepth "$qd" --engine "$engine" --direct 1 --runtime "${secs}s" --io-size 1P \
		--json >"$work/iot.json" 2>/dev/null
	echo "$(jq -r '.result.iops' "$work/iot.json") $(awk '{print $1 + $2}' "$work/time") $(jq -r '.result.ios' "$work/iot.json")"
}
# Narrow the table with TARGETS="loop", ENGINES="psync", WORKLOADS="randwrite 4k 1;read 1M 8".
IFS=';' read -r -a WORKLOADS <<<"${WORKLOADS:-randread 4k 1;randread 4k 32;read 1M 8;randwrite 4k 32}"
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

auto_engine() { # the engine --engine auto picks for DEV at depth QD
	"$iotriage" run "$1" --rw randread --bs 4k --iodepth "$2" --runtime 100ms --io-size 1P --json 2>/dev/null |
		jq -r '.result.engine'
}
printf '%-5s %-16s %-8s %12s %12s %6s %10s %10s %6s\n' target workload engine "fio IOPS" "iot IOPS" ratio \
	"fio us/IO" "iot us/IO" cpu
for target in ${TARGETS:-zram loop}; do
	dev=$zram
	[ "$target" = loop ] && dev=$loop
	for wl in "${WORKLOADS[@]}"; do
		read -r rw bs qd <<<"$wl"
		for engine in ${ENGINES:-psync libaio io_uring}; do
			q=$qd
			[ "$engine" = psync ] && q=1
			fi=() ii=() fc=() ic=()
			for r in $(seq "$rounds"); do
				if [ $((r % 2)) -eq 1 ]; then
					f=$(run_fio "$dev" "$rw" "$bs" "$q" "$engine"); t=$(run_iotriage "$dev" "$rw" "$bs" "$q" "$engine")
				else
					t=$(run_iotriage "$dev" "$rw" "$bs" "$q" "$engine"); f=$(run_fio "$dev" "$rw" "$bs" "$q" "$engine")
				fi
				read -r fiops fcpu fios <<<"$f"
				read -r tiops tcpu tios <<<"$t"
				fi+=("$fiops") ii+=("$tiops")
				fc+=("$(awk -v c="$fcpu" -v n="$fios" 'BEGIN {print c / n * 1e6}')")
				ic+=("$(awk -v c="$tcpu" -v n="$tios" 'BEGIN {print c / n * 1e6}')")
			done
			mf=$(printf '%s\n' "${fi[@]}" | median); mi=$(printf '%s\n' "${ii[@]}" | median)
			cf=$(printf '%s\n' "${fc[@]}" | median); ci=$(printf '%s\n' "${ic[@]}" | median)
			mark=" "
			[ "$(auto_engine "$dev" "$q")" = "$engine" ] && mark="*"
			printf '%-5s %-16s %-8s %12.0f %12.0f %6.2f %10.2f %10.2f %6.2f\n' "$target" "$rw $bs qd$q" "$engine$mark" \
				"$mf" "$mi" "$(awk -v a="$mi" -v b="$mf" 'BEGIN {print a / b}')" "$cf" "$ci" \
				"$(awk -v a="$ci" -v b="$cf" 'BEGIN {print a / b}')"
		done
	done
done
