#!/usr/bin/env bash
# bench/compare_repeats.sh [TRIALS]: what repeat runs (compare ID+ID+ID)
# buy over single runs. Each trial makes, on one loop device:
#   - two sets of 3 unthrottled runs of one workload (a 2 s, 64K sequential
#     read, 250 ms samples): a verdict other than "not significant" between
#     them is a false alarm;
#   - 3 runs with the device read-throttled to 16 MiB/s and 3 at 12.8 MiB/s
#     (cgroup v1 blkio; a 20% drop): "worse" between them is a detection.
# Each is judged twice: first run against first run, and set against set.
# Prints one line per trial and the totals. Needs root; removes what it makes.
set -eu
trials=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-repeats.XXXXXX)
dev=""
cleanup() {
	rmdir /sys/fs/cgroup/blkio/iotriage-bench-$$-* 2>/dev/null || true
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
export IOTRIAGE_STATE_DIR=$work/state
head -c 64M /dev/urandom >"$work/img"
dev=$(losetup -f --show --direct-io=on "$work/img")
majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
dd if="$dev" of=/dev/null bs=1M iflag=direct status=none
n=0
# A fresh cgroup per run: a reused one carries its throttle budget over from
# the last run (runs then differ by up to 8%).
set_of() { # set_of BPS|none: three runs, their ids joined by '+'
	local ids=() i c
	for i in 1 2 3; do
		if [ "$1" = none ]; then
			"$iotriage" "${w[@]}" >"$work/r.json" 2>/dev/null
		else
			n=$((n + 1))
			c=/sys/fs/cgroup/blkio/iotriage-bench-$$-$n
			mkdir "$c"
			echo "$majmin $1" >"$c/blkio.throttle.read_bps_device"
			bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$c" "$iotriage" "${w[@]}" >"$work/r.json" 2>/dev/null
			rmdir "$c"
		fi
		ids+=("$(jq -r .run_id "$work/r.json")")
	done
	(IFS=+; echo "${ids[*]}")
}
w=(run "$dev" --rw read --bs 64k --iodepth 4 --size 64M --io-size 64G --runtime 2s --sample-interval 250ms --json)
verdict() { # verdict A B: the bandwidth verdict and change of compare A B
	"$iotriage" compare "$1" "$2" --json |
		jq -r '.comparisons[] | select(.metric == "bandwidth") | "\(.verdict) (\(.change_percent * 10 | round / 10)%, limit \(.threshold_percent * 10 | round / 10)%)"'
}
sa=0 ra=0 sd=0 rd=0
for t in $(seq 1 "$trials"); do
	x=$(set_of none) y=$(set_of none) p=$(set_of 16777216) q=$(set_of 13421772)
	s_same=$(verdict "${x%%+*}" "${y%%+*}") r_same=$(verdict "$x" "$y")
	s_drop=$(verdict "${p%%+*}" "${q%%+*}") r_drop=$(verdict "$p" "$q")
	echo "trial $t: same workload: single $s_same, repeats $r_same; 20% drop: single $s_drop, repeats $r_drop"
	case $s_same in "not significant"*) ;; *) sa=$((sa + 1)) ;; esac
	case $r_same in "not significant"*) ;; *) ra=$((ra + 1)) ;; esac
	case $s_drop in worse*) sd=$((sd + 1)) ;; esac
	case $r_drop in worse*) rd=$((rd + 1)) ;; esac
done
echo "single runs: false alarms $sa of $trials, 20% drop detected $sd of $trials"
echo "3 repeats a side: false alarms $ra of $trials, 20% drop detected $rd of $trials"
