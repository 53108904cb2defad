#!/usr/bin/env bash
# bench/progress_eta.sh: how good the progress line's ETA is. Three 64 MiB
# loop devices, each read at most 32 MB/s (a cgroup blkio rule), read by
# readdisks serially and with --parallel on a pseudo-terminal; every redraw
# is timed, and each ETA shown is set against when the reads really ended;
# then benchpool's timed plan the same way.
# Needs root and python3 (its pty module); removes everything it makes.
set -eu
IOTRIAGE=${IOTRIAGE:-$(cd "$(dirname "$0")/.." && pwd)/build/iotriage}
export IOTRIAGE
. "$(dirname "$0")/../tests/cli/lib.sh"
a=$(make_loop 64M); b=$(make_loop 64M); c=$(make_loop 64M)
cg=$(make_cgroup "$(lsblk -dno MAJ:MIN "$a" | tr -d ' ') 33554432")
for d in "$b" "$c"; do
	echo "$(lsblk -dno MAJ:MIN "$d" | tr -d ' ') 33554432" >"$cg/blkio.throttle.read_bps_device"
done
cat >"$TMP/eta.py" <<'PY'
import os, pty, re, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
t0, samples = time.time(), []
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    now = time.time() - t0
    for m in re.finditer(rb"\x1b\[K[\w ]+: [^\r\n\x1b{]*?, (\d+)%, [^\r\n\x1b{]*ETA (\d+) s", data):
        samples.append((now, int(m.group(1)), int(m.group(2))))
os.waitpid(pid, 0)
end = samples[-1][0] if samples else 0
for t, pct, eta in samples[::max(1, len(samples) // 8)]:
    print(f"  t={t:5.2f} s {pct:3d}% ETA {eta:2d} s: predicted end {t + eta:5.2f} s, work ended {end:5.2f} s")
PY
m=(--match "${a#/dev/}" --match "${b#/dev/}" --match "${c#/dev/}")
echo "serial, 3 x 64 MiB at 32 MB/s:"
run_in_cgroup "$cg" python3 "$TMP/eta.py" "$IOTRIAGE" readdisks "${m[@]}" --size 64M
echo "parallel:"
run_in_cgroup "$cg" python3 "$TMP/eta.py" "$IOTRIAGE" readdisks "${m[@]}" --size 64M --parallel
# benchpool on a directory, planned in time (each test at its caps): dd
# then builtin, and builtin alone, whose line moves inside its passes.
mkdir "$TMP/bp"
echo "benchpool 128M --tests dd,builtin --runtime 2:"
python3 "$TMP/eta.py" "$IOTRIAGE" benchpool "$TMP/bp" 128M --tests dd,builtin --runtime 2
echo "benchpool 512M --tests builtin --runtime 3:"
python3 "$TMP/eta.py" "$IOTRIAGE" benchpool "$TMP/bp" 512M --tests builtin --runtime 3
