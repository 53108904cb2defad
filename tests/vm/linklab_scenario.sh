# tests/vm/linklab_scenario.sh: runs inside the link lab VM
# (tests/vm/linklab.sh) as its whole job: loads the drivers, shows every
# disk's link-rate files, captures its sysfs tree (capture_sysfs.sh,
# capture_links.sh: a base64 tar between "=== TAR" and "=== ENDTAR"), then
# runs readdisks three times (documents) and once more (the table).
# Then the slow tail: four null_blk devices of 256 MiB (irqmode=2, each
# command completed TAIL_BASE_NS after it is queued: a disk with a
# latency of its own) and a device-mapper device over the fourth whose
# table delays five 1 MiB stretches of 256 (2%) by TAIL_DELAY_MS (dm-delay:
# every command touching them, as a disk's remapped sectors would), the
# rest mapped linear. readdisks reads the five three times, then doctor
# (the full budget: 1 MiB reads of the whole device, 256 of them, enough for
# a p99) once. Sections as in hwlab_scenario.sh.
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
uptime_s() { cut -d. -f1 /proc/uptime; }
run() { n=$1; shift; echo "=== TIME $n $(uptime_s)"; echo "=== BEGIN $n"; "$@" 2>&1; rc=$?; echo "=== END $n rc=$rc"; }
runj() {
	n=$1; shift
	echo "=== TIME $n $(uptime_s)"
	echo "=== JSON $n"
	"$@" 2>/tmp/err
	rc=$?
	echo
	echo "=== ENDJSON $n rc=$rc"
	echo "=== BEGIN $n-log"
	cat /tmp/err
	echo "=== END $n-log rc=$rc"
}
settle() {
	last="" same=0 i=0
	while [ $i -lt 60 ] && [ $same -lt 3 ]; do
		now=$(ls /sys/block | tr '\n' ' ')
		if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; last=$now; fi
		sleep 1
		i=$((i + 1))
	done
	echo "settled after ${i}s: $last"
}
disks() { for d in /sys/block/*; do echo "${d##*/}"; done; }
links() {
	for k in $(disks); do
		echo "$k -> $(readlink /sys/block/$k)"
	done
	for f in $(find /sys/devices -name current_link_speed -o -name max_link_speed -o -name current_link_width -o -name max_link_width -o -name sata_spd -o -name hw_sata_spd_limit -o -name sata_spd_limit -o -name negotiated_linkrate -o -name maximum_linkrate_hw 2>/dev/null); do
		echo "$f: $(cat $f 2>&1)"
	done
}
for m in nvme ahci sd_mod; do
	modprobe $m || echo "=== MODPROBE FAILED $m"
done
run settle settle
run links links
mkdir -p /tmp/cap
run capture sh /capture_sysfs.sh /tmp/cap $(disks)
run capture-links sh /capture_links.sh /tmp/cap $(disks)
for i in 1 2 3; do
	runj readdisks-$i $I readdisks --size 64M --json
done
run table $I readdisks --size 64M

TAIL_BASE_NS=4000000 TAIL_DELAY_MS=30
tail_setup() {
	modprobe null_blk nr_devices=0 || return 1
	mount -t configfs none /sys/kernel/config || return 1
	modprobe dm_delay || return 1
	# (not $n: run's own variable, which names the section's end)
	for k in 0 1 2 3; do
		d=/sys/kernel/config/nullb/nullb$k
		mkdir $d && echo 256 >$d/size && echo 2 >$d/irqmode && echo $TAIL_BASE_NS >$d/completion_nsec &&
			echo $k >$d/index && echo 1 >$d/power || return 1
	done
	# 524288 sectors; 2048 a MiB; stretches 40, 90, 140, 190 and 240 delayed
	mib=0
	while [ $mib -lt 256 ]; do
		case " 40 90 140 190 240 " in
		*" $mib "*) echo "$((mib * 2048)) 2048 delay /dev/nullb3 $((mib * 2048)) $TAIL_DELAY_MS" ;;
		*) echo "$((mib * 2048)) 2048 linear /dev/nullb3 $((mib * 2048))" ;;
		esac
		mib=$((mib + 1))
	done >/tmp/tail.table
	dmsetup create --noudevsync iotriage-tail </tmp/tail.table || return 1
	ls -l /dev/nullb* /dev/dm-* /dev/mapper/
	cat /sys/block/dm-0/dm/name /sys/block/dm-0/size /sys/block/nullb3/size
}
tail_teardown() {
	dmsetup remove --noudevsync iotriage-tail
	for k in 0 1 2 3; do rmdir /sys/kernel/config/nullb/nullb$k; done
	ls /sys/block
}
run tail-setup tail_setup
for i in 1 2 3; do
	runj tail-$i $I readdisks --match 'nullb*' --match 'dm-*' --json
done
runj tail-doctor $I doctor --no-network --json
run tail-teardown tail_teardown
echo "=== TAR"
(cd /tmp/cap && tar cf - .) | gzip | base64
echo "=== ENDTAR"
