#!/usr/bin/env bash
# matrix over four temporary ZFS datasets (zfs-fuse on loop devices:
# recordsize 8k/64k x compression off/lz4, lz4 falling back to on where
# zfs-fuse lacks it), end to end: every test runs on every dataset in a
# fixed order, nothing temporary survives (success, SIGINT, SIGKILL then
# the next run), and the HTML report, opened in headless Chromium, shows one
# chart per test with four bars each (counted in the DOM it rendered, and a
# screenshot), with no console messages from the page.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "matrix" "needs root for loop devices and zfs-fuse"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "matrix" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi
leftovers() { zfs list -H -t all -r -o name "$1" 2>/dev/null | grep "^$1/iotriage-" || true; }

pool=iotriage-mx-$$
zpool create -f "$pool" "$(make_loop 400M)" >/dev/null 2>&1
ok $? "zpool create on a loop device"
undo "destroy_pool $pool"

tests=seqread-64k,seqwrite-8k,randread-8k,randwrite-1m
extra=()
command -v dbench >/dev/null && { tests=$tests,dbench-2; extra=(--dbench-clients 2); }
ntests=$(echo "$tests" | tr , '\n' | wc -l)
"$IOTRIAGE" matrix --pool "$pool" --recordsize 8k,64k --compression off,lz4 --tests "$tests" "${extra[@]}" \
	--size 8M --runtime 1s --json >"$TMP/mx.json" 2>"$TMP/mx.err"
ok $? "matrix over four datasets exits 0"
check "four targets in the fixed order: recordsize, then compression" -- \
	jtest "$TMP/mx.json" '[.targets[] | .recordsize + "/" + .compression_requested] == ["8K/off", "8K/lz4", "64K/off", "64K/lz4"]'
check "each target was a dataset of the pool with the asked recordsize" -- \
	jtest "$TMP/mx.json" "[.targets[] | .kind == \"zfs dataset\" and (.dataset | startswith(\"$pool/iotriage-\"))] | all"
check "lz4, missing on zfs-fuse, fell back to on and says so" -- \
	jtest "$TMP/mx.json" '[.targets[] | select(.compression_requested == "lz4") | .compression == "on" and (.note | test("no lz4"))] | all'
check "every test ran on every target, in order ($ntests x 4)" -- \
	jtest "$TMP/mx.json" "(.results | length) == ($ntests * 4) and ([.results[].status] | unique) == [\"ok\"] and ([.results[:$ntests][].test] | join(\",\")) == \"$tests\""
check "every result moved bytes at a rate" -- jtest "$TMP/mx.json" '[.results[] | .bw_bytes_per_s > 0] | all'
# fio's percentiles are the values of its histogram buckets (64 a power of
# two: up to 1/64 above the true value), so they may pass its exact max by that.
check "every fio-style result carries its latency percentiles (p50 <= p99 <= p99.9 <= max, over its I/Os)" -- \
	jtest "$TMP/mx.json" '[.results[] | select(.test | startswith("dbench") | not) | .lat_ns | .count > 0 and .p50 > 0 and .p50 <= .p99 and .p99 <= .["p99.9"] and .["p99.9"] <= .max * (1 + 1 / 64)] | length > 0 and all'
check "and the p99 is the one the result always had" -- \
	jtest "$TMP/mx.json" '[.results[] | select(.lat_ns) | .lat_ns.p99 == .lat_p99_ns] | all'
nlat=$(json "$TMP/mx.json" '[.results[] | select(.lat_ns)] | length')
nlat_tests=$(json "$TMP/mx.json" '[.results[] | select(.lat_ns) | .test] | unique | length')
check "the pool's member was sampled while each dataset's tests ran, and wrote" -- \
	jtest "$TMP/mx.json" '[.targets[] | (.pool_members | length == 1) and .pool_members[0].write_bytes > 0] | all'
check "the compressing datasets carry the compression note, the others no pool finding" -- \
	jtest "$TMP/mx.json" '[.targets[] | if .compression_requested == "off" then .pool_findings == null else (.pool_findings | test("^compression: ")) end] | all'
if command -v fio >/dev/null; then
	check "fio ran the fio-style tests" -- jtest "$TMP/mx.json" '.engine == "fio" and ([.results[] | select(.test | startswith("dbench") | not) | .tool] | unique) == ["fio"]'
	check "fio (libaio) gives each result its submission latency too (p50 <= max, over the same I/Os)" -- \
		jtest "$TMP/mx.json" '[.results[] | select(.test | startswith("dbench") | not) | .slat_ns.count == .lat_ns.count and .slat_ns.p50 <= .slat_ns.max] | length > 0 and all'
fi
check "no temporary dataset is left" -- test -z "$(leftovers "$pool")"
check "the run is in history under the pool" -- \
	bash -c "'$IOTRIAGE' history --pool '$pool' --json | jq -e '.runs | length == 1 and .[0].command == \"matrix\"' >/dev/null"

id=$(json "$TMP/mx.json" .run_id)
"$IOTRIAGE" report "$id" --html "$TMP/mx.html" --csv "$TMP/mx.csv" --prom "$TMP/mx.prom" 2>/dev/null
ok $? "report --html --csv --prom of the matrix"
check "CSV: one row per result, and its p50, p99 and p99.9 latency where it has them" -- \
	test "$(($(wc -l <"$TMP/mx.csv") - 1))" -eq $((ntests * 4 + 3 * nlat))
check "CSV: the latency rows are in ns, lower is better" -- \
	test "$(grep -c ',p99.9 latency,ns,false,' "$TMP/mx.csv")" -eq "$nlat"
if command -v promtool >/dev/null; then
	check "promtool check metrics passes" -- bash -c "promtool check metrics <'$TMP/mx.prom' >/dev/null 2>&1"
else
	skip "promtool check metrics" "promtool is not installed"
fi
check "the page asks for nothing from the network" -- \
	bash -c "! grep -Eiq '<script|<link|src=|url\\(|@import' '$TMP/mx.html'"

chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
	skip "chromium" "chromium is not installed (scripts/install-test-deps.sh installs it)"
	finish; exit
fi
profile=$(mktemp -d /tmp/iotriage-chromium.XXXXXX)
undo "rm -rf $profile"
chrome() { # chrome ARGS...: headless, offline, a throwaway profile
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 "$@"
}
chrome --dump-dom "file://$TMP/mx.html" >"$TMP/dom.html" 2>"$TMP/chrome-dom.err"
ok $? "chromium renders the report (--dump-dom)"
charts=$(grep -o '<svg class="chart"' "$TMP/dom.html" | wc -l)
check "one chart per test and figure ($charts of $ntests bandwidth + 3 x $nlat_tests latency)" -- \
	test "$charts" -eq $((ntests + 3 * nlat_tests))
check "four bars in each chart" -- \
	python3 -c "
import re,sys
dom=open('$TMP/dom.html').read()
charts=re.findall(r'<svg class=\"chart\".*?</svg>', dom, re.S)
sys.exit(not (len(charts)==$ntests + 3 * $nlat_tests and all(len(re.findall(r'<rect class=\"bar', c))==4 for c in charts)))"
check "each bandwidth chart is marked higher is better" -- test "$(grep -c 'Higher is better' "$TMP/dom.html")" -eq "$ntests"
check "each latency chart lower is better" -- test "$(grep -c 'Lower is better (ns)<' "$TMP/dom.html")" -eq $((3 * nlat_tests))
check "the run's latency percentile curve: a line per result with latency (at most 12)" -- \
	test "$(grep -c '<svg class="curve"' "$TMP/dom.html")/$(grep -c '<polyline class="curve-line"' "$TMP/dom.html")" = "1/$((nlat < 12 ? nlat : 12))"
check "no console messages from the page" -- bash -c "! grep -q 'CONSOLE' '$TMP/chrome-dom.err'"
chrome --screenshot="$TMP/shot.png" --window-size=1200,2400 "file://$TMP/mx.html" >/dev/null 2>"$TMP/chrome-shot.err"
ok $? "chromium takes a screenshot"
check "the screenshot is a PNG of the page, 1200 wide" -- \
	python3 -c "
import struct,sys
d=open('$TMP/shot.png','rb').read()
w,h=struct.unpack('>II', d[16:24])
sys.exit(not (d[:8]==b'\x89PNG\r\n\x1a\n' and w==1200 and h==2400 and len(d) > 20000))"
check "no console messages while screenshotting" -- bash -c "! grep -q 'CONSOLE' '$TMP/chrome-shot.err'"
if [ -n "${IOTRIAGE_KEEP_SCREENSHOT:-}" ]; then cp "$TMP/shot.png" "$IOTRIAGE_KEEP_SCREENSHOT"; fi

# A test that runs its whole time cap: dbench where installed, else 8K random writes.
long=(--tests randwrite-8k --engine builtin --size 256M)
command -v dbench >/dev/null && long=(--tests dbench-1)

# SIGINT part way: datasets removed, exit 130.
"$IOTRIAGE" matrix --pool "$pool" --recordsize 8k,64k --compression off "${long[@]}" --runtime 10s >/dev/null 2>&1 &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
ok $(($? != 130)) "SIGINT: matrix exits 130"
check "SIGINT: no temporary dataset is left" -- test -z "$(leftovers "$pool")"

# SIGKILL: the datasets stay; the next run removes them (and only them).
zfs create "$pool/iotriage-lookalike" 2>/dev/null
"$IOTRIAGE" matrix --pool "$pool" --recordsize 8k --compression off "${long[@]}" --runtime 10s >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 50); do [ -n "$(leftovers "$pool" | grep -v lookalike)" ] && break; sleep 0.2; done
sleep 1
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL leaves the tagged dataset behind" -- test -n "$(leftovers "$pool" | grep -v lookalike)"
"$IOTRIAGE" matrix --pool "$pool" --recordsize 8k --compression off --tests seqread-64k --engine builtin \
	--size 4M --runtime 1s --json >"$TMP/next.json" 2>/dev/null
ok $? "the next run succeeds"
check "and removed the killed run's dataset" -- jtest "$TMP/next.json" '.stale_areas_removed == 1'
check "but not the untagged look-alike" -- test "$(leftovers "$pool")" = "$pool/iotriage-lookalike"
for _ in 1 2 3 4 5 6 7 8 9 10; do zfs destroy "$pool/iotriage-lookalike" 2>/dev/null && break; sleep 1; done

# A directory target: its file goes in a tagged subdirectory, which a
# SIGKILLed run leaves and the next run removes (never an untagged one).
dirt=$TMP/dirtarget
mkdir -p "$dirt/iotriage-lookalike"
dir_left() { find "$dirt" -mindepth 1 -maxdepth 1 -name 'iotriage-*-matrix' | head -1; }
"$IOTRIAGE" matrix --target "$dirt" --tests randwrite-8k --iodepth 1 --engine builtin --size 1G --runtime 10s >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 50); do [ -n "$(dir_left)" ] && break; sleep 0.2; done
sleep 1
kill -KILL "$pid"
wait "$pid" 2>/dev/null
left=$(dir_left)
check "SIGKILL leaves the tagged directory (owner file inside)" -- test -f "$left/.iotriage-owner"
"$IOTRIAGE" matrix --target "$dirt" --tests seqread-64k --engine builtin --size 4M --runtime 1s --json >"$TMP/dnext.json" 2>/dev/null
ok $? "the next run on the directory succeeds"
check "and removed the killed run's directory" -- jtest "$TMP/dnext.json" '.stale_areas_removed == 1'
check "the built-in engine's result carries its latency percentiles" -- \
	jtest "$TMP/dnext.json" '.results[0] | .tool == "builtin" and .lat_ns.count > 0 and .lat_ns.p50 <= .lat_ns.p99 and .lat_ns.p99 <= .lat_ns["p99.9"]'
check "and its submission latency (queue depth 8: an asynchronous engine), over the same I/Os" -- \
	jtest "$TMP/dnext.json" '.iodepth == 8 and (.results[0] | .slat_ns.count == .lat_ns.count and .slat_ns.min > 0 and .slat_ns.p50 <= .lat_ns.p50)'
check "leaving only the untagged look-alike" -- test "$(ls -A "$dirt")" = "iotriage-lookalike"

# Raw against qcow2 image files (the published benchmark's comparison),
# through QEMU's block layer with qemu-img bench.
if command -v qemu-img >/dev/null; then
	imgdir=$TMP/images
	mkdir -p "$imgdir"
	"$IOTRIAGE" matrix --images "$imgdir" --tests seqread-64k,seqwrite-1m,randread-8k --size 32M --json \
		>"$TMP/img.json" 2>/dev/null
	ok $? "matrix --images runs"
	check "two targets: a raw and a qcow2 image, in that order" -- \
		jtest "$TMP/img.json" '[.targets[] | .kind + ":" + .format] == ["image:raw", "image:qcow2"]'
	check "sequential tests measured through qemu-img on both" -- \
		jtest "$TMP/img.json" '[.results[] | select(.test != "randread-8k") | .status == "ok" and .tool == "qemu-img" and .bw_bytes_per_s > 0 and .bytes > 0] | (length == 4 and all)'
	check "a random test is not measured, and says why" -- \
		jtest "$TMP/img.json" '[.results[] | select(.test == "randread-8k") | .status == "skipped" and (.reason | test("sequential I/O only"))] | (length == 2 and all)'
	check "the image files are removed" -- test -z "$(ls -A "$imgdir")"
else
	skip "matrix --images" "qemu-img is not installed (scripts/install-test-deps.sh installs qemu-utils)"
fi

# Bad input: clear errors, exit 2, nothing created.
"$IOTRIAGE" matrix >/dev/null 2>"$TMP/none.err"
check "no targets is a usage error" -- bash -c "[ $? -eq 2 ] && grep -q 'expected targets' '$TMP/none.err'"
"$IOTRIAGE" matrix --pool "$pool" --tests seqread-3k >/dev/null 2>"$TMP/badtest.err"
check "an unknown test is a usage error naming it" -- bash -c "[ $? -eq 2 ] && grep -q \"unknown test 'seqread-3k'\" '$TMP/badtest.err'"
"$IOTRIAGE" matrix --pool "$pool" --recordsize 3k >/dev/null 2>&1
ok $(($? != 2)) "a recordsize that is not a power of two is a usage error"
"$IOTRIAGE" matrix --pool no-such-pool-$$ --tests seqread-8k >/dev/null 2>&1
ok $(($? != 1)) "a pool that does not exist fails"
check "nothing was created by the failures" -- test -z "$(leftovers "$pool")"
"$IOTRIAGE" matrix --zvol --target "$TMP" >/dev/null 2>"$TMP/zvol.err"
check "--zvol without --pool is a usage error" -- bash -c "[ $? -eq 2 ] && grep -q -- '--zvol need --pool' '$TMP/zvol.err'"
# zfs-fuse has no zvols: the zvol row says why and the rest of the matrix runs (real zvols: test_openzfs_vm).
"$IOTRIAGE" matrix --pool "$pool" --zvol --recordsize 8k --compression off --tests seqread-64k --size 8M --runtime 1s \
	--engine builtin --json >"$TMP/zvol.json" 2>/dev/null
check "--zvol on zfs-fuse: the dataset row runs, the zvol row is skipped saying this ZFS has no zvols" -- jtest "$TMP/zvol.json" \
	'[.results[] | [.target, .status]] == [["recordsize 8K, compression off","ok"],["zvol, volblocksize 8K","skipped"]] and (.results[1].reason | test("has no zvols"))'
check "and no volume is left" -- test -z "$(leftovers "$pool")"
"$IOTRIAGE" matrix --images /nonexistent-$$ >/dev/null 2>"$TMP/img.err"
check "--images on a missing directory fails, saying so" -- bash -c "[ $? -ne 0 ] && grep -q 'is not a directory' '$TMP/img.err'"
finish
