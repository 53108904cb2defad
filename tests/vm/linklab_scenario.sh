# tests/vm/linklab_scenario.sh: runs inside the link lab VM
# (tests/vm/linklab.sh) as its whole job: loads the drivers, shows every
# disk's link-rate files, captures its sysfs tree (capture_sysfs.sh,
# capture_links.sh: a base64 tar between "=== TAR" and "=== ENDTAR"), then
# runs readdisks three times (documents) and once more (the table). Sections as in hwlab_scenario.sh.
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
echo "=== TAR"
(cd /tmp/cap && tar cf - .) | gzip | base64
echo "=== ENDTAR"
