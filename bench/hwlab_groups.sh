#!/usr/bin/env bash
# bench/hwlab_groups.sh RUNS: does `readdisks --mode both` name a group of
# disks slowed together as a group, with its disks judged fine alone, and name
# no group when none is slowed? Two boots of the hardware lab
# (tests/vm/hwlab.sh), each running tests/vm/hwlab_groups_scenario.sh:
# `iotriage readdisks --size 32M --mode both --json` on the lab's nine
# virtio-scsi disks, RUNS times. The controller scsi1 holds IOTSCSIG0..2;
# scsi0 holds IOTSCSI00..05 (IOTSCSI05 read-throttled to 40%, IOTSCSI03 and
# 04 in a throttle group of their own, tg1, in both boots).
#   throttled:   IOTSCSIG0..2 in one qemu throttle group (tg0; each reads at
#                the normal rate alone, a third of it together). A run counts
#                as "group named" when scsi1's group (the path group of the
#                three disks) is a bottleneck both in its own group pass and
#                among all the disks (shared_paths), with its three disks and
#                nothing else; "its disks fine alone" when each of the three
#                read ok alone with the verdict ok; "other groups named" when
#                any other group is a bottleneck in either pass, is held back
#                by the others (held_by_others), or has a verdict not ok in
#                .grouping.
#   unthrottled: the same lab with HWLAB_NO_THROTTLE_GROUP=1 (each of the
#                three throttled on its own like the others). A run counts as
#                "a group named" on any of the above for any group.
# A run whose JSON is missing or not a readdisks document counts against the
# bar. tg1's pair on scsi0 is a subset held back on a controller that keeps
# its rate (held_back, not a group verdict); it is printed per run, not
# counted. Prints one line per run, then the counts; exits 1 unless the group
# is named with its disks fine alone in RUNS of RUNS and no other group in 0,
# and no group is named unthrottled in 0 of RUNS (2 on a usage error or a
# failed boot). Needs root, qemu, busybox-static, a kernel image, smartctl,
# udev and jq (what tests/cli/test_hwlab_vm.sh needs); run it under
# `flock /tmp/iotriage-vm.lock` where other VMs share the host. IOTRIAGE
# picks the binary (default build/iotriage); KEEP=DIR keeps both consoles
# (DIR/throttled.console, DIR/unthrottled.console), CONSOLES=DIR re-checks
# kept ones without booting.
# Everything it makes (image directories, initramfs, qemu) is removed by
# hwlab.sh and run_vm.sh; its own directory on every exit.
set -u
usage() { echo "usage: bench/hwlab_groups.sh RUNS   (RUNS >= 1: readdisks --mode both runs per boot)" >&2; exit 2; }
[ $# -eq 1 ] || usage
case $1 in '' | *[!0-9]* | 0) usage ;; esac
runs=$1
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${IOTRIAGE:-$here/build/iotriage}
[ -x "$bin" ] || { echo "hwlab_groups: no iotriage binary at $bin (build first, or set IOTRIAGE)" >&2; exit 2; }
for t in qemu-system-x86_64 jq smartctl udevadm; do
	command -v $t >/dev/null || { echo "hwlab_groups: needs $t" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "hwlab_groups: needs root (the kernel image in /boot)" >&2; exit 2; }
work=$(mktemp -d /tmp/iotriage-hwgroups.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

# boot NAME [ENV=VALUE...]: one lab boot running the scenario RUNS times;
# its console, without carriage returns, in $work/NAME
boot() {
	local name=$1 start=$SECONDS
	shift
	if [ -n "${CONSOLES:-}" ]; then # re-check kept consoles, no boot
		cp "$CONSOLES/$name.console" "$work/$name.raw" && grep -q '^=== VM DONE' "$work/$name.raw"
	else
		env "$@" VM_APPEND="hwlab_runs=$runs" bash "$here/tests/vm/hwlab.sh" "$bin" \
			"$here/tests/vm/hwlab_groups_scenario.sh" "$work/$name.raw" $((240 + runs * 120)) 2>"$work/$name.err"
	fi
	local st=$?
	tr -d '\r' <"$work/$name.raw" >"$work/$name"
	[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$work/$name" "$KEEP/$name.console"
	if [ $st -ne 0 ]; then
		echo "hwlab_groups: the $name boot failed (exit $st)" >&2
		tail -n 20 "$work/$name.err" "$work/$name" >&2
		exit 2
	fi
	if [ -n "${CONSOLES:-}" ]; then echo "$name boot: kept console $CONSOLES/$name.console"; else echo "$name boot: $((SECONDS - start)) s"; fi
}
# jsect CONSOLE R: run R's JSON into a file, its path printed
jsect() {
	awk -v n="both-$2" '$0 == "=== JSON " n { on = 1; next } on && index($0, "=== ENDJSON " n " rc=") == 1 { exit } on' \
		"$work/$1" >"$work/$1-$2.json"
	echo "$work/$1-$2.json"
}

# The three disks' path group, when they share one, else "".
TG='([.devices[] | select(.serial // "" | test("^IOTSCSIG[0-2]$")) | .groups.controller] | unique) as $g
	| if ($g | length) == 1 then $g[0] else "" end'
# The groups named, one {group, why} each: a bottleneck in its own group
# pass or among all, held back by the other groups, or a group verdict.
NAMED='[(.group_passes.groups // [])[] | select(.bottleneck) | {group, why: "bottleneck alone"}]
	+ [(.group_passes.groups // [])[] | select(.held_by_others) | {group, why: "held back by the others"}]
	+ [(.shared_paths // [])[] | select(.bottleneck) | {group: .path_group, why: "bottleneck among all"}]
	+ [(.grouping.groups // [])[] | select(.verdict != null and .verdict != "ok") | {group: .name, why: .verdict}]'
SAY='map("\(.group): \(.why)") | join(", ")'
# a run's figures for its line: each group pass's share alone and among all
# (a subset held back: its disks by serial, kernel names move between boots)
FIG='. as $d | [(.group_passes.groups // [])[] | "\(.group) \(.disks) disks: \(.median_percent_of_serial | floor)% alone, \(.all_median_percent_of_serial | floor)% among all\(if (.held_back | length) > 0 then ", held back: " + ([.held_back[] as $k | $d.devices[] | select(.kname == $k) | .serial] | join(" ")) else "" end)"] | join("; ")'

named=0 fine=0 other=0 any=0
echo "readdisks --size 32M --mode both on 9 virtio-scsi disks, $runs run(s) a boot"
boot throttled
for r in $(seq "$runs"); do
	j=$(jsect throttled "$r")
	if ! jq -e '.devices | length == 9' "$j" >/dev/null 2>&1; then
		echo "throttled run $r: no readdisks document for the 9 disks (rc $(sed -n "s/^=== ENDJSON both-$r rc=//p" "$work/throttled"))"
		continue
	fi
	tg=$(jq -r "$TG" "$j")
	# the group named: a bottleneck on its own and among all, with its three disks
	g=$(jq -r --arg tg "$tg" '$tg != "" and ([.group_passes.groups[]? | select(.group == $tg and .bottleneck and .disks == 3)] | length == 1)
		and ([.shared_paths[]? | select(.path_group == $tg and .bottleneck and .disks == 3)] | length == 1)' "$j")
	# each of the three read ok alone, verdict ok
	f=$(jq -r '[.devices[] | select(.serial // "" | test("^IOTSCSIG[0-2]$")) | select(.status == "ok" and .verdict == "ok")] | length == 3' "$j")
	others=$(jq -r --arg tg "$tg" "$NAMED"' | map(select(.group != $tg or $tg == "")) | '"$SAY" "$j")
	[ "$g" = true ] && named=$((named + 1))
	[ "$f" = true ] && fine=$((fine + 1))
	[ -n "$others" ] && other=$((other + 1))
	echo "throttled run $r: group ${tg:-?} named $g, its disks fine alone $f ($(jq -r '[.devices[] | select(.serial // "" | test("^IOTSCSIG")) | "\(.serial) \(.verdict)"] | join(", ")' "$j")), other groups named [${others}]"
	echo "    $(jq -r "$FIG" "$j")"
done
boot unthrottled HWLAB_NO_THROTTLE_GROUP=1
for r in $(seq "$runs"); do
	j=$(jsect unthrottled "$r")
	if ! jq -e '.devices | length == 9' "$j" >/dev/null 2>&1; then
		echo "unthrottled run $r: no readdisks document for the 9 disks; counted as a group named"
		any=$((any + 1))
		continue
	fi
	names=$(jq -r "$NAMED | $SAY" "$j")
	[ -n "$names" ] && any=$((any + 1))
	echo "unthrottled run $r: groups named [${names}]"
	echo "    $(jq -r "$FIG" "$j")"
done
echo "throttled: group named $named of $runs, its disks fine alone $fine of $runs, other groups named $other of $runs; unthrottled: a group named $any of $runs"
[ "$named" = "$runs" ] && [ "$fine" = "$runs" ] && [ "$other" = 0 ] && [ "$any" = 0 ]
