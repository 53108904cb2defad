#!/usr/bin/env bash
# bench/doctor_lab.sh RUNS: the doctor's accuracy on its lab (issue 9).
# RUNS labs with a fault (one raidz member slowed by a cgroup blkio rule)
# and RUNS without; counts the runs where doctor named the media layer and
# exactly the slowed member, and the runs where it said no layer stands out.
# Needs root and zfs-fuse running (scripts/start-services.sh).
set -u
runs=${1:-10}
bin=${IOTRIAGE:-$(dirname "$0")/../build/iotriage}
state=$(mktemp -d /tmp/iotriage-bench.XXXXXX)
trap 'rm -rf "$state"' EXIT
export IOTRIAGE_STATE_DIR=$state
named=0 clean=0
for i in $(seq 1 "$runs"); do
	"$bin" doctor --lab --json >"$state/f.json" 2>/dev/null
	if jq -e '.doctor.verdict.layer == "media" and .doctor.verdict.subject == .lab.slowed_device and
		  ([.devices[] | select(.verdict == "slow") | .path] == [.lab.slowed_device])' "$state/f.json" >/dev/null; then
		named=$((named + 1))
	else
		echo "fault run $i: $(jq -c '.doctor.verdict' "$state/f.json")"
	fi
	"$bin" doctor --lab --fault none --json >"$state/n.json" 2>/dev/null
	if jq -e '.doctor.verdict.layer == "none"' "$state/n.json" >/dev/null; then
		clean=$((clean + 1))
	else
		echo "no-fault run $i: $(jq -c '.doctor.verdict' "$state/n.json")"
	fi
done
echo "with a slowed member: $named of $runs runs named the media layer and that member"
echo "with no fault:        $clean of $runs runs said no layer stands out"
