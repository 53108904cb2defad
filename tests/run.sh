#!/usr/bin/env bash
# tests/run.sh BUILD_DIR [LABEL]: runs every unit test program and every
# command test against one build, and ends with "N passed, N failed, N skipped".
# A test program that exits non-zero without a failing check (a crash, a
# sanitizer report) counts as one failure.
set -u
build=${1:?usage: tests/run.sh BUILD_DIR [LABEL]}
label=${2:-$build}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
passed=0 failed=0 skipped=0

count() { # count NAME LOGFILE EXIT_STATUS
	local name=$1 log=$2 status=$3 p f s
	p=$(grep -Ec '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -Ec '^ok [0-9]+ .*# SKIP' "$log" | tr -d ' ')
	f=$(grep -Ec '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - s))
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $status without a failing check" >>"$log"
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	printf '%-28s %4d passed %4d failed %4d skipped\n' "[$label] $name" "$p" "$f" "$s"
	if [ "$f" -ne 0 ]; then
		grep -E '^not ok|^#' "$log" | sed 's/^/    /'
		tail -n 20 "$log" | grep -vE '^(not )?ok ' | sed 's/^/    | /'
	fi
	grep -E '# SKIP' "$log" | sed 's/^/    /'
}

logs=$(mktemp -d /tmp/iotriage-testlogs.XXXXXX)
trap 'rm -rf "$logs"' EXIT

for t in "$build"/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	name=$(basename "$t")
	(cd "$logs" && "$t") >"$logs/$name.log" 2>&1
	count "$name" "$logs/$name.log" $?
done

for t in "$here"/cli/test_*.sh; do
	name=$(basename "$t" .sh)
	IOTRIAGE="$build/iotriage" bash "$t" >"$logs/$name.log" 2>&1
	count "$name" "$logs/$name.log" $?
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
