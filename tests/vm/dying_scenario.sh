# tests/vm/dying_scenario.sh: runs inside the test VM (busybox sh) as one
# boot's whole scenario: four disks, two of them failing. null_blk gives
# three (one with badblocks at 32 MiB: EIO from there); scsi_debug gives the
# fourth, which stops answering (a response delay of 600 s, set after the
# disk is up, with the SCSI command timeout raised so that error handling
# does not end the wait first). Output between "=== BEGIN name" and
# "=== END name rc=N" (JSON between "=== JSON name" and "=== ENDJSON name
# rc=N") for tests/cli/test_dying_vm.sh; times from /proc/uptime (the
# guest's clock).
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
up() { cut -d' ' -f1 /proc/uptime; }

modprobe configfs
mount -t configfs none /sys/kernel/config
modprobe null_blk nr_devices=0
modprobe sd_mod
modprobe scsi_debug dev_size_mb=64 num_tgts=1
for n in 0 1 2; do
	d=/sys/kernel/config/nullb/nb$n
	mkdir "$d"
	echo 64 >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 1 >"$d/power"
done
# EIO from 32 MiB (sector 65536) on the second one.
echo "+65536-65543" >/sys/kernel/config/nullb/nb1/badblocks
bad=/dev/nb1 # named after its configfs directory
[ -b $bad ] || bad=/dev/nullb$(cat /sys/kernel/config/nullb/nb1/index)
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -b /dev/sda ] && break
	sleep 1
done
stuck=/dev/sda
echo 900 >/sys/block/sda/device/timeout
echo 150000 >/sys/bus/pseudo/drivers/scsi_debug/delay
echo "=== DISKS bad=$bad stuck=$stuck delay=$(cat /sys/bus/pseudo/drivers/scsi_debug/delay)"

echo "=== JSON readdisks"
t0=$(up)
$I readdisks --size 64M --json 2>/tmp/err
rc=$?
t1=$(up)
echo
echo "=== ENDJSON readdisks rc=$rc"
echo "=== BEGIN readdisks-log"
cat /tmp/err
echo "=== END readdisks-log rc=$rc"
echo "=== TIME readdisks $t0 $t1"

# Ctrl-C while the read is stuck in the kernel.
echo "=== BEGIN interrupt"
$I readdisk "$stuck" --size 64M >/tmp/out 2>&1 &
pid=$!
# After the health sweep (smartctl on the stuck disk is given up after 5 s),
# so the interrupt lands in the stuck read itself.
sleep 9
t0=$(up)
kill -INT $pid
wait $pid
rc=$?
t1=$(up)
cat /tmp/out
echo "=== END interrupt rc=$rc"
echo "=== TIME interrupt $t0 $t1"
echo "=== BEGIN stuck-in-kernel"
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = iotriage ] || continue
	states=""
	for t in $p/task/*; do states="$states $(awk '/^State/ { print $2 }' $t/status)"; done
	echo "pid ${p#/proc/} threads$states"
done
echo "=== END stuck-in-kernel rc=0"
