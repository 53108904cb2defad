#!/usr/bin/env bash
# A short fuzz pass over every parser of another program's output and the
# option value parsers: tests/fuzz/build.sh builds the libFuzzer harnesses
# (clang, ASan + UBSan), each runs on its regression inputs
# (tests/data/fuzz/NAME/) and then fuzzes for IOTRIAGE_FUZZ_SECONDS (default
# 10 s per target; the issue's minute per target is IOTRIAGE_FUZZ_SECONDS=60),
# IOTRIAGE_FUZZ_JOBS targets at a time (default 2), seeded with the captures
# in tests/data. Any crash, leak, sanitizer report or timeout fails the
# target, and the input that did it is kept in the log. Does not use
# $IOTRIAGE: the harnesses link the parsers' sources themselves, built with
# ASan and UBSan whichever build the suite tests, so tests/run.sh runs this
# once, in the plain pass:
# run-once: plain
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
data=$here/tests/data
seconds=${IOTRIAGE_FUZZ_SECONDS:-10}
jobs=${IOTRIAGE_FUZZ_JOBS:-2}

if ! command -v clang >/dev/null && ! command -v clang-14 >/dev/null; then
	skip "fuzz" "clang is not installed (scripts/install-test-deps.sh installs it)"
	exit 0
fi

# Seeds per target: its captures in tests/data, and its own directory.
declare -A seeds=(
	[zpool_status]="zpool_status_* openzfs*_status*.txt"
	[zpool_status_json]="openzfs232_*_status_j.json"
	[zpool_lat]="openzfs*_iostat_lHp.txt"
	[zfs_label]="*zdb_label*.txt"
	[zpool_hist]="openzfs*_iostat_wHp.txt"
	[zpool_list]=""
	[ceph]="ceph_*.json rbd_*.json"
	[ceph_osd]="ceph_*.json"
	[zfs_datasets]="zfs_get_datasets_*"
	[btrfs_show]="btrfs_show_*"
	[jsonread]="*.json"
	[smart]="smartctl_*.json"
	[fio]="fio*.json"
	[dd]=""
	[elbencho]="elbencho_*"
	[bonding]="bonding_*"
	[mountinfo]="mountinfo_*"
	[parse]=""
	[fiojob]="fiojob_*"
	[handshake]=""
	[remote_read]="readdisk_remote_*"
	[iperf3]="iperf3_*"
	[fio_clients]="fio333_client_server_*"
	[zpool_iostat]=""
	[pool_state]="zpool_get_* zfs_get_Hp_* zfs_get_all_* zpool_status_* btrfs_usage_*"
	[diskstats]="proc_diskstats_*"
	[arc]=""
)

"$here/tests/fuzz/build.sh" "$TMP/fuzz" >"$TMP/build.log" 2>&1
ok $? "the fuzz targets build (tests/fuzz/build.sh)" || { sed 's/^/# /' "$TMP/build.log"; exit 1; }
built=$(ls "$TMP/fuzz"/fuzz_* 2>/dev/null | wc -l)
check "one target per parser: ${#seeds[@]} built" -- test "$built" -eq "${#seeds[@]}"

# fuzz NAME: regression inputs once, then a timed run; writes NAME.status.
fuzz() {
	local name=$1 bin=$TMP/fuzz/fuzz_$1 corpus=$TMP/corpus/$1 regress=$data/fuzz/$1 g f st
	mkdir -p "$corpus" "$TMP/art"
	for g in ${seeds[$name]}; do
		for f in "$data"/$g; do [ -f "$f" ] && cp "$f" "$corpus/"; done
	done
	if [ -d "$regress" ] && ls "$regress"/* >/dev/null 2>&1; then
		"$bin" -runs=1 "$regress"/* >"$TMP/$name.regress.log" 2>&1
		echo $? >"$TMP/$name.regress"
		cp "$regress"/* "$corpus/"
	else
		echo 0 >"$TMP/$name.regress"
	fi
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$TMP/art/$name-" "$corpus" >"$TMP/$name.log" 2>&1
	st=$?
	echo "$st" >"$TMP/$name.status"
}

running=0
for name in "${!seeds[@]}"; do
	fuzz "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

total=0
for name in $(printf '%s\n' "${!seeds[@]}" | sort); do
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/$name.log" | tail -n 1)
	total=$((total + ${execs:-0}))
	check "fuzz_$name: the regression inputs run clean" -- test "$(cat "$TMP/$name.regress")" -eq 0
	check "fuzz_$name: no crash in ${seconds}s (${execs:-0} inputs)" -- test "$(cat "$TMP/$name.status")" -eq 0
	check "fuzz_$name: it really ran (more than 100 inputs)" -- test "${execs:-0}" -gt 100
	if [ "$(cat "$TMP/$name.status")" -ne 0 ] || [ "$(cat "$TMP/$name.regress")" -ne 0 ]; then
		grep -E "ERROR|SUMMARY|Test unit written|runtime error" "$TMP/$name.log" "$TMP/$name.regress.log" 2>/dev/null |
			head -n 12 | sed 's/^/# /'
		for f in "$TMP/art/$name"-*; do [ -f "$f" ] && diag "input: $(basename "$f"): $(base64 -w0 "$f" | head -c 400)"; done
	fi
done
diag "${#seeds[@]} targets, ${seconds}s each, $total inputs in all"
finish
