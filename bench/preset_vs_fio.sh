#!/usr/bin/env bash
# bench/preset_vs_fio.sh [ROUNDS] [RAMP] [RUNTIME]: the presets' 4K random-read
# tests (nas-iops "4K random read", cdm "RND4K Q32T1 read") run by iotriage
# against fio running the command line `iotriage presets` prints for them
# (batched submission and completion, fixed buffers, registered files), on a
# fresh zram device, alternating which runs first, ROUNDS times (default 5).
#
# The fio command is parsed from the listing into an argv array (TARGET
# replaced by the device, --output-format=json added); iotriage runs the same
# test with `iotriage run` and the parameters read from that same command line
# (`iotriage presets NAME TARGET` runs every test of a set, with no way to pick
# one). RAMP and RUNTIME (e.g. 3s 10s) replace the preset's own timings in both
# tools; without them the preset's are used. The output says which.
# Prints per row the median IOPS of each tool and their ratio, and the median
# CPU time per I/O (user+sys of the whole process, ramp included, over the
# I/Os counted after the ramp: the same rule for both) and its ratio. The
# machine's speed drifts between rounds (a shared VM: one tool's rounds span
# 30%), so each round's two runs, back to back, also give a paired ratio; the
# last columns are the median of those and their range.
# Needs root; removes the zram device on exit and signals. Run it alone.
set -eu
rounds=${1:-5}
ramp=${2:-}
runtime=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-pbench.XXXXXX)
zram_id=""
cleanup() {
	if [ -n "$zram_id" ]; then
		echo 1 >"/sys/block/zram$zram_id/reset"
		echo "$zram_id" >/sys/class/zram-control/hot_remove
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export IOTRIAGE_STATE_DIR=$work/state

zram_id=$(cat /sys/class/zram-control/hot_add)
echo 1G >"/sys/block/zram$zram_id/disksize"
dev=/dev/zram$zram_id
# Unwritten zram pages read as nothing; fill it as a disk would be.
dd if=/dev/urandom of="$dev" bs=1M count=1024 status=none

"$iotriage" presets >"$work/presets.txt" 2>/dev/null
# fio_line PRESET TEST -> the fio command printed for that test
fio_line() {
	awk -v p="$1:" -v t="$2" '
		/^[^ ]/ { in_p = ($1 == p) }
		in_p && index($0, "  " t " ") == 1 { sub(/^.*  fio /, "fio "); print; exit }' "$work/presets.txt"
}

# Globals set by parse_row from the fio words: fio_argv and iot_argv.
parse_row() {
	local words w key val
	read -r -a words <<<"$1"
	[ "${words[0]}" = fio ] || { echo "not a fio command: $1" >&2; exit 1; }
	fio_argv=() iot_argv=(run "$dev" --json)
	for w in "${words[@]:1}"; do
		key=${w%%=*} val=${w#*=}
		case $key in
		--filename) w="--filename=$dev" ;;
		--ramp_time) [ -n "$ramp" ] && val=$ramp && w="--ramp_time=$ramp"; iot_argv+=(--ramp-time "$val") row_ramp=$val ;;
		--runtime) [ -n "$runtime" ] && val=$runtime && w="--runtime=$runtime"; iot_argv+=(--runtime "$val") row_runtime=$val ;;
		--rw) iot_argv+=(--rw "$val") ;;
		--bs) iot_argv+=(--bs "$val") ;;
		--iodepth) iot_argv+=(--iodepth "$val") ;;
		--numjobs) iot_argv+=(--numjobs "$val") ;;
		--direct) iot_argv+=(--direct "$val") ;;
		--ioengine) iot_argv+=(--engine "$val") ;;
		--time_based) iot_argv+=(--time-based) ;;
		--norandommap) iot_argv+=(--random-map uniform) ;;
		# fio's own submission tuning and reporting: iotriage has no such knobs.
		--name | --iodepth_batch_submit | --iodepth_batch_complete_min | --iodepth_batch_complete_max | \
			--fixedbufs | --registerfiles | --randrepeat | --group_reporting) ;;
		*) echo "unknown option in the preset's fio command: $w" >&2; exit 1 ;;
		esac
		fio_argv+=("$w")
	done
	fio_argv+=(--output-format=json)
}

# Each prints "iops cpu_seconds ios".
run_fio() {
	/usr/bin/time -f "%U %S" -o "$work/time" fio "${fio_argv[@]}" >"$work/fio.json" 2>"$work/fio.err" ||
		{ cat "$work/fio.err" >&2; exit 1; }
	echo "$(jq -r '.jobs[0].read.iops' "$work/fio.json") $(awk '{print $1 + $2}' "$work/time")" \
		"$(jq -r '.jobs[0].read.total_ios' "$work/fio.json")"
}
run_iotriage() {
	/usr/bin/time -f "%U %S" -o "$work/time" "$iotriage" "${iot_argv[@]}" >"$work/iot.json" 2>"$work/iot.err" ||
		{ cat "$work/iot.err" >&2; exit 1; }
	echo "$(jq -r '.result.iops' "$work/iot.json") $(awk '{print $1 + $2}' "$work/time")" \
		"$(jq -r '.result.ios' "$work/iot.json")"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
per_io_us() { awk -v c="$1" -v n="$2" 'BEGIN {print c / n * 1e6}'; }

own="the preset's own"
echo "zram ${dev#/dev/}, 1 GiB filled, $rounds rounds, alternating who runs first;" \
	"ramp ${ramp:-$own}, runtime ${runtime:-$own}"
printf '%-28s %-11s %12s %12s %6s %10s %10s %6s %7s %13s %7s\n' test ramp+run "fio IOPS" "iot IOPS" ratio \
	"fio us/IO" "iot us/IO" cpu paired "paired range" "p. cpu"
for row in "nas-iops;4K random read" "cdm;RND4K Q32T1 read"; do
	preset=${row%%;*} test=${row#*;}
	line=$(fio_line "$preset" "$test")
	[ -n "$line" ] || { echo "no test '$test' in preset $preset" >&2; exit 1; }
	parse_row "$line"
	echo "  fio ${fio_argv[*]}" >&2
	echo "  iotriage ${iot_argv[*]}" >&2
	fi=() ii=() fc=() ic=() pr=() pc=()
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then
			f=$(run_fio); t=$(run_iotriage)
		else
			t=$(run_iotriage); f=$(run_fio)
		fi
		read -r fiops fcpu fios <<<"$f"
		read -r tiops tcpu tios <<<"$t"
		echo "  round $r: fio $fiops IOPS $fcpu s cpu $fios I/Os; iotriage $tiops IOPS $tcpu s cpu $tios I/Os" >&2
		fi+=("$fiops") ii+=("$tiops")
		fc+=("$(per_io_us "$fcpu" "$fios")") ic+=("$(per_io_us "$tcpu" "$tios")")
		pr+=("$(awk -v a="$tiops" -v b="$fiops" 'BEGIN {print a / b}')")
		pc+=("$(awk -v a="${ic[-1]}" -v b="${fc[-1]}" 'BEGIN {print a / b}')")
	done
	pm=$(printf '%s\n' "${pr[@]}" | median) pcm=$(printf '%s\n' "${pc[@]}" | median)
	prange=$(printf '%s\n' "${pr[@]}" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}')
	mf=$(printf '%s\n' "${fi[@]}" | median) mi=$(printf '%s\n' "${ii[@]}" | median)
	cf=$(printf '%s\n' "${fc[@]}" | median) ci=$(printf '%s\n' "${ic[@]}" | median)
	printf '%-28s %-11s %12.0f %12.0f %6.2f %10.2f %10.2f %6.2f %7.3f %13s %7.3f\n' "$preset $test" \
		"$row_ramp+$row_runtime" "$mf" "$mi" \
		"$(awk -v a="$mi" -v b="$mf" 'BEGIN {print a / b}')" "$cf" "$ci" \
		"$(awk -v a="$ci" -v b="$cf" 'BEGIN {print a / b}')" "$pm" "$prange" "$pcm"
done
