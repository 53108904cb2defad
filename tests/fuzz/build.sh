#!/usr/bin/env bash
# tests/fuzz/build.sh OUTDIR: builds every libFuzzer harness in tests/fuzz/
# (fuzz_*.c) with clang -fsanitize=fuzzer,address,undefined into OUTDIR.
# The parsers' sources are compiled once (fuzzer-no-link) into one archive;
# each harness links only what it uses. The normal (gcc, meson) build is
# not touched. CC overrides clang (clang-14 where only that exists).
set -eu
out=${1:?usage: tests/fuzz/build.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../src" && pwd)
cc=${CC:-}
if [ -z "$cc" ]; then
	for c in clang clang-14; do command -v "$c" >/dev/null && cc=$c && break; done
fi
[ -n "$cc" ] || { echo "build.sh: clang is not installed" >&2; exit 3; }
mkdir -p "$out/obj"
flags=(-std=gnu11 -D_GNU_SOURCE -DIOTRIAGE_VERSION='"fuzz"' -g -O1 -I"$src" -I"$here"
	-fno-omit-frame-pointer -fno-sanitize-recover=undefined)
# The parsers and what they call (basic/ for strbuf, jsonread, spawn).
sources=("$src"/basic/*.c "$src"/pool/zfs.c "$src"/pool/zpool_json.c "$src"/pool/zpool_lat.c "$src"/pool/btrfs.c "$src"/pool/zfs_datasets.c
	"$src"/poolbench/parse.c "$src"/bench/fiojob.c "$src"/bench/fiojob_value.c "$src"/bench/distribution.c "$src"/bench/histogram.c "$src"/disk/smart.c
	"$src"/net/bonding.c "$src"/net/tcp_rtt.c "$src"/fs/mounts.c
	"$src"/remote/handshake.c "$src"/remote/remote_read.c "$src"/output/json.c "$src"/net/iperf3.c "$src"/remote/fio_clients.c
	"$src"/pool/zpool_iostat.c "$src"/pool/pool_state.c "$src"/disk/diskstats.c "$src"/pool/arc.c
	"$src"/pool/ceph.c "$src"/pool/ceph_osd.c "$src"/pool/ceph_findings.c "$src"/pool/finding.c "$src"/pool/zfs_label.c
	"$src"/pool/zpool_hist.c)
objs=() running=0 jobs=$(nproc)
for s in "${sources[@]}"; do
	o="$out/obj/$(basename "$(dirname "$s")")_$(basename "$s" .c).o"
	objs+=("$o")
	rm -f "$o"
	"$cc" "${flags[@]}" -fsanitize=fuzzer-no-link,address,undefined -c "$s" -o "$o" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait
for o in "${objs[@]}"; do [ -s "$o" ] || { echo "build.sh: cannot compile $o" >&2; exit 1; }; done
rm -f "$out/obj/parsers.a"
ar rcs "$out/obj/parsers.a" "${objs[@]}"
for h in "$here"/fuzz_*.c; do
	name=$(basename "$h" .c)
	"$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined "$h" "$out/obj/parsers.a" -lm -lpthread -o "$out/$name"
done
echo "built $(ls "$here"/fuzz_*.c | wc -l) fuzz targets in $out"
