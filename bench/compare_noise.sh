#!/usr/bin/env bash
# bench/compare_noise.sh [RUNS]: how often does compare call two runs of the
# same workload on the same device a win or a loss (a false alarm), and does
# it always see a throttled run as a drop? RUNS identical runs (default 6) of
# a 3 s, 64K sequential read of a loop device (250 ms samples) are compared
# pairwise with the first; then one run with the device throttled to 8 MiB/s.
# Also prints each run's p99 latency, the figure behind the latency rule.
# Needs root; removes everything it makes.
set -eu
runs=${1:-6}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-noise.XXXXXX)
dev="" cg=""
cleanup() {
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
export IOTRIAGE_STATE_DIR=$work/state
head -c 64M /dev/urandom >"$work/img"
dev=$(losetup -f --show --direct-io=on "$work/img")
w=(run "$dev" --rw read --bs 64k --iodepth 4 --size 64M --io-size 64G --runtime 3s --sample-interval 250ms --json)
ids=()
for i in $(seq 1 "$runs"); do
	"$iotriage" "${w[@]}" >"$work/r$i.json" 2>/dev/null
	ids+=("$(jq -r .run_id "$work/r$i.json")")
	jq -r '"run \(.run_id): \(.result.bw_bytes_per_s / 1e6 | floor) MB/s, sd \(.result.samples.stddev_bw_bytes_per_s / 1e6 | floor) MB/s over \(.result.samples.count) samples, p99 \(.result.read.lat_ns.p99 / 1e3 | floor) us"' "$work/r$i.json"
done
cg=/sys/fs/cgroup/blkio/iotriage-bench-$$
mkdir "$cg"
echo "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ') 8388608" >"$cg/blkio.throttle.read_bps_device"
bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$iotriage" "${w[@]}" >"$work/slow.json" 2>/dev/null
echo "throttled: $(jq -r '.result.bw_bytes_per_s / 1e6 | floor' "$work/slow.json") MB/s"
alarms=0 lat_alarms=0
for i in $(seq 2 "$runs"); do
	"$iotriage" compare "${ids[0]}" "${ids[$((i - 1))]}" --json >"$work/c$i.json"
	v=$(jq -r '.comparisons[] | select(.metric == "bandwidth") | "\(.verdict) (\(.change_percent | floor)%, limit \(.threshold_percent | floor)%)"' "$work/c$i.json")
	l=$(jq -r '.comparisons[] | select(.metric == "p99 latency") | "\(.verdict) (\(.change_percent | floor)%)"' "$work/c$i.json")
	echo "run 1 vs run $i: bandwidth $v; p99 latency $l"
	case $v in "not significant"*) ;; *) alarms=$((alarms + 1)) ;; esac
	case $l in "not significant"*|"not judged"*) ;; *) lat_alarms=$((lat_alarms + 1)) ;; esac
done
"$iotriage" compare "${ids[0]}" "$(jq -r .run_id "$work/slow.json")" --json >"$work/cs.json"
drop=$(jq -r '.comparisons[] | select(.metric == "bandwidth") | "\(.verdict) (\(.change_percent | floor)%)"' "$work/cs.json")
echo "false alarms: bandwidth $alarms of $((runs - 1)), p99 latency $lat_alarms of $((runs - 1)); throttled run: $drop"
