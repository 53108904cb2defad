# tests/vm/wire_scenario.sh: runs inside the test VM (busybox sh): step 3
# across the wire. A null_blk RAM disk exported over NVMe/TCP by the
# kernel's nvmet on 10.77.0.1 (the VM's own network namespace, the server)
# and read from a client network namespace "cli" (10.77.0.2) joined by a
# veth, with no delay and then with netem 500 us on both ends; bad input,
# --ndelay: a scsi_debug RAM disk's back end slowed at runtime and
# restored, refused on null_blk;
# destroy while exported, Ctrl-C of the client, SIGKILL of an export; the
# target's side shaped with tbf (the link's ceiling); doctor --client with
# --client-iotriage.
# Sections as in ramdisk_scenario.sh; tests/cli/test_wire_vm.sh asserts.
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
CFS=/sys/kernel/config/nvmet
run() { n=$1; shift; echo "=== BEGIN $n"; "$@" 2>&1; rc=$?; echo "=== END $n rc=$rc"; }
runj() {
	n=$1; shift
	echo "=== JSON $n"; "$@" 2>/tmp/err; rc=$?; echo; echo "=== ENDJSON $n rc=$rc"
	echo "=== BEGIN $n-log"; cat /tmp/err; echo "=== END $n-log rc=$rc"
}
objects() { # what nvmet and the initiator hold now
	for d in $CFS/subsystems/* $CFS/ports/* $CFS/hosts/*; do [ -e "$d" ] && echo "nvmet ${d#$CFS/}"; done
	for c in /sys/class/nvme/*; do [ -e "$c" ] && echo "controller ${c##*/} $(cat $c/subsysnqn)"; done
	[ -e /run/iotriage/ramdisk/export-nvmet ] && echo "record export-nvmet"
	true
}

# busybox sh runs its own applets for bare names (ip, tc): the real ones by
# path; the kernel cannot load modules on demand here (no /sbin/modprobe)
modprobe veth
modprobe sch_netem
modprobe sch_tbf
modprobe loop # doctor's own RAM disk in step 3 is a loop device on /dev/shm
/bin/ip link set lo up
/bin/ip netns add cli
/bin/ip link add vsrv type veth peer name vcli
/bin/ip link set vcli netns cli
/bin/ip addr add 10.77.0.1/24 dev vsrv
/bin/ip link set vsrv up
/bin/ip netns exec cli ip addr add 10.77.0.2/24 dev vcli
/bin/ip netns exec cli ip link set vcli up
/bin/ip netns exec cli ip link set lo up
run ping /bin/ip netns exec cli ping -c 1 -W 5 10.77.0.1

run export-none $I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host
run objects-none objects
runj create $I ramdisk create 64M --backend null_blk -y --json
run export-nohost $I ramdisk export --nvme-tcp 10.77.0.1
run export-notlocal $I ramdisk export --nvme-tcp 192.0.2.1 --allow-any-host
run objects-notlocal objects
nc -l -p 4500 >/dev/null 2>&1 &
ncpid=$!
sleep 1
run export-inuse $I ramdisk export --nvme-tcp 10.77.0.1:4500 --allow-any-host
kill $ncpid; wait $ncpid 2>/dev/null
run objects-inuse objects

runj export $I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host --json
run objects-exported objects
run list $I ramdisk list
runj export-again $I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host --json

runj wire0 $I ramdisk wire --via "/bin/ip netns exec cli" --runtime 1s --json
run objects-wire0 objects
# the target's side shaped to 400 Mbit/s (reads flow from it): the 1 MiB
# reads meet the link's ceiling
/bin/tc qdisc add dev vsrv root tbf rate 400mbit burst 512kb latency 100ms
run qdisc-rate /bin/tc qdisc show dev vsrv
runj wire-rate $I ramdisk wire --via "/bin/ip netns exec cli" --runtime 1s --json
run wire-rate-table $I ramdisk wire --via "/bin/ip netns exec cli" --runtime 1s
/bin/tc qdisc del dev vsrv root
/bin/tc qdisc add dev vsrv root netem delay 500us
/bin/ip netns exec cli tc qdisc add dev vcli root netem delay 500us
run ping-delay /bin/ip netns exec cli ping -c 3 10.77.0.1
runj wire500 $I ramdisk wire --via "/bin/ip netns exec cli" --runtime 1s --json
run objects-wire500 objects
run wire-table $I ramdisk wire --via "/bin/ip netns exec cli" --runtime 500ms

# Ctrl-C while the client reads: the client disconnects
# (the local half reads for 3 x 1 s first; then the client connects and
# reads for 3 x 1 s: the signal comes 1 s in)
$I ramdisk wire --via "/bin/ip netns exec cli" --runtime 1s >/tmp/int.out 2>&1 &
wpid=$!
n=0
while [ $n -lt 600 ] && ! ls /sys/class/nvme/ 2>/dev/null | grep -q nvme; do sleep 0.1; n=$((n + 1)); done
sleep 1
run objects-during objects
kill -INT $wpid
wait $wpid
echo "=== INT rc=$?"
run int-log cat /tmp/int.out
run objects-int objects

run destroy-exported $I ramdisk destroy -y
run objects-refused objects
run unexport $I ramdisk unexport
run objects-unexported objects

# one allowed host: it connects; another host NQN is refused
H=nqn.2014-08.org.nvmexpress:uuid:wire-client
runj export-host $I ramdisk export --nvme-tcp 10.77.0.1 --host-nqn $H --json
run objects-host objects
nqn=$(ls $CFS/subsystems | head -n 1)
run client-intruder /bin/ip netns exec cli $I ramdisk client --nvme-tcp 10.77.0.1 --nqn "$nqn" --host-nqn nqn.2014-08.org.nvmexpress:uuid:intruder --runtime 1s
run objects-intruder objects
runj wire-host $I ramdisk wire --via "/bin/ip netns exec cli" --runtime 500ms --json
# --ndelay on a null_blk RAM disk (its completion_nsec is fixed once the
# device is powered): refused up front, nothing measured, its delay as made
nb=$(ls -d /sys/kernel/config/nullb/iotriage-nullb* | head -n 1)
echo "=== NULLB before irqmode=$(cat $nb/irqmode) completion_nsec=$(cat $nb/completion_nsec)"
run wire-nullblk-ndelay $I ramdisk wire --via "/bin/ip netns exec cli" --ndelay 2ms --runtime 1s
echo "=== NULLB after irqmode=$(cat $nb/irqmode) completion_nsec=$(cat $nb/completion_nsec)"
run wire-bad-ndelay $I ramdisk wire --via "/bin/ip netns exec cli" --ndelay 2parsecs
run unexport-host $I ramdisk unexport
run objects-host-after objects

# SIGKILL of an export at a few moments (where it lands is up to the
# scheduler: what it left is shown; the unit test covers a half-made one
# exactly), each time followed by the next run
for d in 0.005 0.01 0.012 0.014 0.016 0.018 0.02 0.04; do
	$I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host >/dev/null 2>&1 &
	kpid=$!
	sleep $d
	kill -9 $kpid
	wait $kpid 2>/dev/null
	echo "=== KILLED after $d s: $(objects | tr '\n' ' ') $(grep complete= /run/iotriage/ramdisk/export-nvmet 2>/dev/null)"
	run unexport-after-kill-$d $I ramdisk unexport
	run objects-after-kill-$d objects
done
# the last one is killed the moment its record appears (written before
# anything is made)
$I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host >/dev/null 2>&1 &
kpid=$!
while [ ! -e /run/iotriage/ramdisk/export-nvmet ] && kill -0 $kpid 2>/dev/null; do :; done
kill -9 $kpid
wait $kpid 2>/dev/null
echo "=== KILLED before destroy: $(objects | tr '\n' ' ') $(grep complete= /run/iotriage/ramdisk/export-nvmet 2>/dev/null)"
run destroy-after-kill $I ramdisk destroy --force -y
run objects-final objects
run list-final $I ramdisk list

# --ndelay across the wire: a scsi_debug RAM disk made with no delay, read
# at that and then with its back end 2 ms slower per command (netem 500 us
# each way is still on). Expected: QD1 gains the 2 ms locally and, within
# a quarter of it, from the client, whose path adds the same cost to both
# runs (passed through); QD32's local IOPS fall to the delay's bound (32
# in flight / 2 ms = 16,000), while the client's, already bound by the
# round trip (32 / ~1.1 ms), lose a smaller share (hidden in part).
SD=/sys/bus/pseudo/drivers/scsi_debug
runj sd-create $I ramdisk create 32M --backend scsi_debug -y --json
run sd-export $I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host
# (500 ms a workload: some 250 reads at QD1 locally with the delay)
runj wire-ndelay $I ramdisk wire --via "/bin/ip netns exec cli" --ndelay 2ms --runtime 500ms --json --log-file /tmp/ndelay.log
echo "=== SD after ndelay=$(cat $SD/ndelay) delay=$(cat $SD/delay)"
run ndelay-steps grep -E 'per-command delay|a back end' /tmp/ndelay.log
# the same on the terminal (short: only the table's lines are checked)
run wire-ndelay-table $I ramdisk wire --via "/bin/ip netns exec cli" --ndelay 2ms --runtime 200ms
# Ctrl-C once the back end is slowed (the comparison at 1 ms then fills
# the disk and reads for 3 x 200 ms before the client's turn): the
# recorded delay is restored too
$I ramdisk wire --via "/bin/ip netns exec cli" --ndelay 1ms --runtime 200ms >/tmp/sdint.out 2>&1 &
wpid=$!
n=0
while [ $n -lt 600 ] && [ "$(cat $SD/ndelay)" = 0 ]; do sleep 0.1; n=$((n + 1)); done
echo "=== SD during ndelay=$(cat $SD/ndelay)"
kill -INT $wpid
wait $wpid
echo "=== SD INT rc=$?"
run sd-int-log cat /tmp/sdint.out
echo "=== SD after-int ndelay=$(cat $SD/ndelay) delay=$(cat $SD/delay)"
run sd-unexport $I ramdisk unexport
run sd-destroy $I ramdisk destroy -y
run objects-sd objects
run sd-left ls /dev/iotriage-ramdisk0 /sys/module/scsi_debug

# doctor --client: step 3 across the wire (netem 500 us each way is still on)
objects_all() { objects; ls /dev/iotriage-ramdisk* /sys/block 2>/dev/null | grep -E 'iotriage-ramdisk|nullb' | sed 's/^/ramdisk /'; true; }
# (without /dev/shm for this one: doctor's own RAM disk says what is missing)
umount /dev/shm
rmdir /dev/shm
run doctor-badclient $I doctor --quick --no-network --client-via "/bin/ip netns exec nosuch" --nvme-tcp 10.77.0.1
mkdir /dev/shm
mount -t tmpfs tmpfs /dev/shm
run objects-doctor-badclient objects_all
runj doctor-wire $I doctor --quick --no-network --client-via "/bin/ip netns exec cli" --nvme-tcp 10.77.0.1 --json
run objects-doctor-wire objects_all
run doctor-wire-text $I doctor --quick --no-network --client-via "/bin/ip netns exec cli" --nvme-tcp 10.77.0.1
# Ctrl-C of doctor while the client reads: export, RAM disk, controller removed
$I doctor --quick --no-network --client-via "/bin/ip netns exec cli" --nvme-tcp 10.77.0.1 >/tmp/dint.out 2>&1 &
dpid=$!
n=0
while [ $n -lt 900 ] && ! ls /sys/class/nvme/ 2>/dev/null | grep -q nvme; do sleep 0.1; n=$((n + 1)); done
echo "=== DOCTOR WAITED $n"
sleep 1
run objects-doctor-during objects
kill -INT $dpid
wait $dpid
echo "=== DOCTOR INT rc=$?"
run doctor-int-log cat /tmp/dint.out
run objects-doctor-int objects_all
run list-doctor-int $I ramdisk list

# doctor --client-iotriage: the client runs the program named (a wrapper
# that notes its arguments), here over the target's side shaped to
# 400 Mbit/s and no delay; a program the client does not have fails the step
/bin/tc qdisc del dev vsrv root
/bin/ip netns exec cli tc qdisc del dev vcli root
/bin/tc qdisc add dev vsrv root tbf rate 400mbit burst 512kb latency 100ms
printf '#!/bin/sh\necho "$@" >/tmp/client-bin.args\nexec %s "$@"\n' "$(command -v $I)" >/tmp/client-bin
chmod 755 /tmp/client-bin
runj doctor-cbin $I doctor --quick --no-network --client-via "/bin/ip netns exec cli" --client-iotriage /tmp/client-bin --nvme-tcp 10.77.0.1 --json
run client-bin-args cat /tmp/client-bin.args
# (and on /dev/shm a file system that is not memory, proc here, over the
# tmpfs: doctor's own RAM disk is not made there)
mount -t proc proc /dev/shm
run shm-mounts grep ' /dev/shm ' /proc/mounts
run doctor-cbin-missing $I doctor --quick --no-network --client-via "/bin/ip netns exec cli" --client-iotriage /nonexistent/iotriage --nvme-tcp 10.77.0.1
umount /dev/shm
run objects-doctor-cbin objects_all
