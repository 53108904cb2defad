# tests/vm/ramdisk_scenario.sh: runs inside the test VM (busybox sh) as one
# boot's whole scenario: scsi_debug, null_blk and brd through iotriage
# ramdisk, plus the latency sweeps. Every step's output goes to the serial
# console between "=== BEGIN name" and "=== END name rc=N" (JSON between
# "=== JSON name" and "=== ENDJSON name rc=N"); tests/cli/test_ramdisk_vm.sh
# reads the console and asserts.
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
run() { # run NAME CMD...
	n=$1; shift
	echo "=== BEGIN $n"
	"$@" 2>&1
	rc=$?
	echo "=== END $n rc=$rc"
}
runj() { # runj NAME CMD...: stdout (JSON) and stderr in separate sections
	n=$1; shift
	echo "=== JSON $n"
	"$@" 2>/tmp/err
	rc=$?
	echo
	echo "=== ENDJSON $n rc=$rc"
	echo "=== BEGIN $n-log"
	cat /tmp/err
	echo "=== END $n-log rc=$rc"
}
links() {
	for l in /dev/iotriage-ramdisk* /dev/disk/by-id/scsi-*; do
		[ -e "$l" ] || [ -L "$l" ] || continue
		d=$(readlink -f "$l"); k=${d#/dev/}
		echo "$l -> $d lbs=$(cat /sys/class/block/$k/queue/logical_block_size 2>/dev/null) getss=$(blockdev --getss $d 2>/dev/null) vendor=$(cat /sys/class/block/$k/device/vendor 2>/dev/null)"
	done
}
patterns() { # distinct data into ramdisk0 and ramdisk1, read back with O_DIRECT
	dd if=/dev/urandom of=/tmp/a bs=1M count=4 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=1M count=4 2>/dev/null
	dd if=/tmp/a of=/dev/iotriage-ramdisk0 bs=1M oflag=direct 2>/dev/null
	dd if=/tmp/b of=/dev/iotriage-ramdisk1 bs=1M oflag=direct 2>/dev/null
	dd if=/dev/iotriage-ramdisk0 of=/tmp/ra bs=1M count=4 iflag=direct 2>/dev/null
	dd if=/dev/iotriage-ramdisk1 of=/tmp/rb bs=1M count=4 iflag=direct 2>/dev/null
	cmp /tmp/a /tmp/ra && cmp /tmp/b /tmp/rb && ! cmp -s /tmp/ra /tmp/rb && echo "stores independent"
}

run list-empty $I ramdisk list

# scsi_debug: two disks with a by-id identity, each its own store
runj sd-create $I ramdisk create 64M --count 2 --backend scsi_debug -y --json
run sd-list $I ramdisk list
run sd-links links
run sd-patterns patterns
run sd-again $I ramdisk create 64M -y
sleep 600 </dev/iotriage-ramdisk0 &
holder=$!
echo "=== HOLDER pid=$holder"
run sd-busy-list $I ramdisk list
run sd-destroy-refused $I ramdisk destroy
run sd-destroy-force $I ramdisk destroy --force -y
kill $holder; wait $holder 2>/dev/null
run sd-after $I ramdisk list
run sd-links-after links
run sd-modules-after cat /proc/modules

# scsi_debug with 4096-byte sectors
runj sd4k-create $I ramdisk create 64M --sector-size 4096 --backend scsi_debug -y --json
run sd4k-links links
run sd4k-destroy $I ramdisk destroy

# the latency sweep on scsi_debug (the spec's worked example, as a curve)
runj sd-sweep $I ramdisk sweep --backend scsi_debug --ndelay 0,50000,250000 --size 64M --runtime 3s --json

# null_blk
runj nb-create $I ramdisk create 64M --count 2 --backend null_blk --ndelay 100000 -y --json
run nb-list $I ramdisk list
run nb-patterns patterns
run nb-destroy $I ramdisk destroy
run nb-modules-after cat /proc/modules
runj nb-sweep $I ramdisk sweep --backend null_blk --ndelay 0,250000 --size 64M --runtime 2s --json
# Latency against fio on the same device in the same boot: 4 KiB random
# reads at QD1 on a null_blk disk completing after 250 us, fio then iotriage.
runj nb-lat-create $I ramdisk create 64M --backend null_blk --ndelay 250000 -y --json
runj nb-lat-fio fio --name=lat --filename=/dev/iotriage-ramdisk0 --rw=randread --bs=4k --iodepth=1 --ioengine=psync \
	--direct=1 --runtime=2 --time_based --norandommap --randrepeat=0 --output-format=json
runj nb-lat-run $I run /dev/iotriage-ramdisk0 --rw randread --bs 4k --iodepth 1 --engine psync --runtime 2s --time-based --json
run nb-lat-destroy $I ramdisk destroy

# brd
runj brd-create $I ramdisk create 64M --count 2 --backend brd -y --json
run brd-list $I ramdisk list
run brd-patterns patterns
run brd-destroy $I ramdisk destroy
run brd-4k $I ramdisk create 64M --backend brd --sector-size 4096 -y
run brd-ndelay $I ramdisk create 64M --backend brd --ndelay 1000 -y

run final-list $I ramdisk list
run final-modules cat /proc/modules
