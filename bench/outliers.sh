#!/usr/bin/env bash
# bench/outliers.sh [RUNS] [DISKS]: does readdisks find the one slow disk,
# and only it, every time? DISKS identical loop devices (default 5) are each
# limited to 200 MB/s by a cgroup blkio rule, like a set of identical hard
# disks; in the "fault" pass one of them is limited to 60% of that (120 MB/s).
# Each pass runs readdisks RUNS times (default 10) and counts the verdicts.
# Needs root; removes everything it makes.
set -eu
runs=${1:-10}
ndisks=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-outliers.XXXXXX)
devs=() cg=""
cleanup() {
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	for d in "${devs[@]}"; do losetup -d "$d" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
export IOTRIAGE_STATE_DIR=$work/state

for i in $(seq "$ndisks"); do
	head -c 300M /dev/urandom >"$work/d$i.img"
	devs+=("$(losetup -f --show --direct-io=on "$work/d$i.img")")
done
cg=/sys/fs/cgroup/blkio/iotriage-outliers-$$
mkdir "$cg"
rate=200000000
set_rules() { # set_rules SLOW_INDEX (0 = none)
	local i=0
	for d in "${devs[@]}"; do
		i=$((i + 1))
		local r=$rate
		[ "$i" = "$1" ] && r=$((rate * 60 / 100))
		echo "$(lsblk -dno MAJ:MIN "$d" | tr -d ' ') $r" >"$cg/blkio.throttle.read_bps_device"
	done
}
match=()
for d in "${devs[@]}"; do match+=(--match "${d#/dev/}"); done

pass() { # pass LABEL SLOW_INDEX
	local label=$1 slow=$2 hit=0 false_pos=0 missed=0
	set_rules "$slow"
	for r in $(seq "$runs"); do
		bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" \
			"$iotriage" readdisks "${match[@]}" --size 256M --json >"$work/r.json" 2>/dev/null || true
		local slow_dev=""
		[ "$slow" -gt 0 ] && slow_dev=${devs[$((slow - 1))]}
		local flagged
		flagged=$(jq -r '.devices[] | select(.verdict == "slow" or .verdict == "fast") | .path' "$work/r.json")
		local got_slow=0 others=0 p
		while read -r p; do
			[ -z "$p" ] && continue
			if [ "$p" = "$slow_dev" ]; then got_slow=1; else others=$((others + 1)); fi
		done <<<"$flagged"
		if [ "$others" -eq 0 ] && { [ -z "$slow_dev" ] || [ "$got_slow" -eq 1 ]; }; then
			hit=$((hit + 1))
		fi
		[ -n "$slow_dev" ] && [ "$got_slow" -eq 0 ] && missed=$((missed + 1))
		false_pos=$((false_pos + others))
		[ "$r" -eq 1 ] && jq -r '.devices[] | "  \(.path)  \(.verdict)  \(.sentence)"' "$work/r.json"
	done
	printf '%s: %d of %d runs exactly right (missed %d, disks wrongly flagged %d)\n' "$label" "$hit" "$runs" \
		"$missed" "$false_pos"
}
pass "one disk at 60% (${devs[2]})" 3
pass "no fault" 0
