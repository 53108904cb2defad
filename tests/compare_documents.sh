#!/usr/bin/env bash
# tests/compare_documents.sh BINARY OUTDIR: runs a fixed set of commands with
# BINARY on real fixtures and writes, per command, the shape of its JSON
# document (every key path, array indices folded) and its verdicts into
# OUTDIR. Run it with the binary before a refactor and after, then
# `diff -r BEFORE AFTER`: the same keys and the same verdicts mean the
# behaviour was kept. Needs root, zfs-fuse (scripts/start-services.sh), jq.
#
#   readdisks   four loop devices, one slowed by a cgroup blkio rule
#   doctor      --lab (the slowed member) and --lab --fault none
#   netcheck    a namespace with two default routes of equal metric
#   benchpool   a zfs-fuse mirror on two loop devices (builtin and dd)
#   ramdisk     create (zram), list, destroy
#   run         a 4 KiB random read on a file
set -u
bin=$(readlink -f "${1:?usage: compare_documents.sh BINARY OUTDIR}")
out=${2:?usage: compare_documents.sh BINARY OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

IOTRIAGE=$bin
. "$here/cli/lib.sh"
trap 'cleanup >/dev/null' EXIT

# shape NAME DOC [VERDICT-EXPR]: the key paths of DOC, and what VERDICT-EXPR picks out.
shape() {
	local name=$1 doc=$2 expr=${3:-}
	if ! jq -e . "$doc" >/dev/null 2>&1; then
		echo "no JSON document" >"$out/$name.keys"
		return
	fi
	jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' \
		"$doc" >"$out/$name.keys"
	[ -n "$expr" ] && jq -c "$expr" "$doc" >"$out/$name.verdicts"
}

# readdisks: four loop devices, the third slowed for this process.
loops=()
for i in 1 2 3 4; do loops+=("$(make_loop 64M)"); done
slow=${loops[2]}
cg=$(make_cgroup "$(lsblk -dno MAJ:MIN "$slow" | tr -d ' ') 20000000")
run_in_cgroup "$cg" "$bin" readdisks --match "$(basename "${loops[0]%?}")*" --size 32M --json \
	>"$TMP/readdisks.json" 2>/dev/null
echo "exit $?" >"$out/readdisks.exit"
shape readdisks "$TMP/readdisks.json" \
	"[.devices[] | select(.path == \"${loops[0]}\" or .path == \"${loops[1]}\" or .path == \"${loops[2]}\" or .path == \"${loops[3]}\") | {path: (.path == \"$slow\"), verdict}]"

# doctor: the lab with its fault, and without.
"$bin" doctor --lab --json >"$TMP/lab.json" 2>/dev/null
echo "exit $?" >"$out/doctor-lab.exit"
shape doctor-lab "$TMP/lab.json" '{layer: .doctor.verdict.layer, subject_is_slowed: (.doctor.verdict.subject == .lab.slowed_device), states: [.doctor.steps[].state]}'
"$bin" doctor --lab --fault none --json >"$TMP/clean.json" 2>/dev/null
echo "exit $?" >"$out/doctor-clean.exit"
shape doctor-clean "$TMP/clean.json" '{layer: .doctor.verdict.layer, states: [.doctor.steps[].state]}'

# netcheck: namespace A of the netcheck test's lab, with two default routes of equal metric.
. "$here/cli/netlab.sh"
netlab_up
ip -n "$NS_A" route add default via 10.99.1.254 dev a0 metric 100
ip -n "$NS_A" route append default via 10.99.2.254 dev a1 metric 100
ip netns exec "$NS_A" "$bin" netcheck --dest 10.99.4.2 --dest 10.99.5.2 --window 0.2 --json \
	>"$TMP/netcheck.json" 2>/dev/null
echo "exit $?" >"$out/netcheck.exit"
shape netcheck "$TMP/netcheck.json" '[.findings[]? | {kind, subject}] | sort'

# benchpool: a zfs-fuse mirror on two loop devices.
pool=iotcmp$$
m1=$(make_loop 256M) m2=$(make_loop 256M)
if zpool create -f "$pool" mirror "$m1" "$m2" >/dev/null 2>&1; then
	undo "destroy_pool $pool"
	"$bin" benchpool "$pool" 32M --tests builtin,dd --runtime 10 --json >"$TMP/benchpool.json" 2>/dev/null
	echo "exit $?" >"$out/benchpool.exit"
	shape benchpool "$TMP/benchpool.json" '[.results[].figures[] | {cache, pattern: (.pattern // .data)}] | unique'
else
	echo "zpool create failed" >"$out/benchpool.exit"
fi

# ramdisk: create on zram, list, destroy.
"$bin" ramdisk create 32M --count 2 --backend zram -y --json >"$TMP/rd-create.json" 2>/dev/null
echo "exit $?" >"$out/ramdisk-create.exit"
shape ramdisk-create "$TMP/rd-create.json"
"$bin" ramdisk list --json >"$TMP/rd-list.json" 2>/dev/null
echo "exit $?" >"$out/ramdisk-list.exit"
shape ramdisk-list "$TMP/rd-list.json"
"$bin" ramdisk destroy -y --json >"$TMP/rd-destroy.json" 2>/dev/null
echo "exit $?" >"$out/ramdisk-destroy.exit"
shape ramdisk-destroy "$TMP/rd-destroy.json"

# run: a file.
head -c 64M /dev/urandom >"$TMP/run.dat"
"$bin" run "$TMP/run.dat" --rw randread --bs 4k --size 64M --runtime 2 --json >"$TMP/run.json" 2>/dev/null
echo "exit $?" >"$out/run.exit"
shape run "$TMP/run.json"
echo "documents compared in $out"
