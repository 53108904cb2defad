# tests/cli/fleetlab.sh: hosts for the fleet tests, all on this machine.
# Source after lib.sh. Every host is a network namespace on one bridge with
# its own sshd (Debian's openssh-server: its own config, host key, port and
# authorized keys), in its own mount and UTS namespace: its own host name,
# its own /etc/machine-id, and a tmpfs at the fixed path $FLEET_FIX holding
#   $FLEET_FIX/bin/iotriage   a copy of the binary under test (0755)
#   $FLEET_FIX/disk           bound to the host's own loop device
#   $FLEET_FIX/pool           bound to $FLEET_DIR/NAME/pool, an ext4 file system on
#                             another loop device of the host's own
# so one fleet command line means "this host's disk" on every host. The
# client (the fleet) runs in its own namespace on the bridge, with an ssh
# config ($FLEET_SSH_CONFIG) that names every host, a throwaway key and a
# known_hosts of the hosts' keys. Nothing is left: namespaces, sshd and
# everything they started, loop devices, cgroups, files (undo in lib.sh).
#
#   fleetlab_up                 bridge, client namespace, keys, config
#   fleetlab_files              keys and config only (for fleetlab_host_here)
#   fleetlab_host_here NAME     a host whose sshd listens on 127.0.0.1 here, in
#                               this network namespace (no bridge needed)
#   fleetlab_host NAME [KIND] [DISK_BPS]
#       KIND: ok (default); nokey (authorized keys hold another key);
#       noiotriage (no binary); nodisk (no loop device: commands on it fail);
#       notools (fio and iperf3 cannot run there: an empty file bound over each);
#       shared (as ok, but its runs keep their state, the database among it, in
#       the client's $IOTRIAGE_STATE_DIR: a host sharing the fleet's file system)
#       Its sshd, and so every run there, is in a blkio cgroup of its own:
#       the pool's reads and writes at 2 MB/s (so a benchpool lasts), and
#       with DISK_BPS its disk's reads at that rate.
#   fleetlab_dead NAME          a name in the config where nothing listens
#   fleet ARGS...               iotriage fleet from the client namespace
#   fleetlab_pids NAME          the processes of a host (its namespace)
#   fleetlab_iotriage_pids NAME the iotriage processes among them

FLEET=itf$$
FLEET_NS_BR=$FLEET-br
FLEET_NS_C=$FLEET-c
FLEET_FIX=/run/$FLEET
FLEET_DIR=$TMP/fleet
FLEET_SSH_CONFIG=$FLEET_DIR/ssh_config
FLEET_NEXT=10
FLEET_BIN=$FLEET_DIR/iotriage

fleetlab_need() {
	need_root || { echo "needs root"; return 1; }
	command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] ||
		{ echo "sshd is not installed (openssh-server)"; return 1; }
	command -v ssh >/dev/null 2>&1 || { echo "ssh is not installed (openssh-client)"; return 1; }
	command -v unshare >/dev/null 2>&1 || { echo "unshare is not installed"; return 1; }
	return 0
}

# Everything running in a namespace is ours (sshd and what it started).
fleetlab_kill_ns() {
	local pid
	for pid in $(ip netns pids "$1" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
	for pid in $(seq 50); do [ -z "$(ip netns pids "$1" 2>/dev/null)" ] && break; sleep 0.1; done
	ip netns del "$1" 2>/dev/null
}

fleetlab_up() {
	fleetlab_files || return 1
	ip netns add "$FLEET_NS_BR" && undo "fleetlab_kill_ns $FLEET_NS_BR" || return 1
	ip -n "$FLEET_NS_BR" link add br0 type bridge && ip -n "$FLEET_NS_BR" link set br0 up || return 1
	fleetlab_ns "$FLEET_NS_C" 10.77.0.1 c
}

# The binary, the keys and the ssh config, without any namespace.
fleetlab_files() {
	mkdir -p "$FLEET_DIR" && chmod 0755 "$FLEET_DIR" || return 1
	install -m 0755 "$IOTRIAGE" "$FLEET_BIN" || return 1
	if [ ! -d /run/sshd ]; then
		mkdir -p /run/sshd && undo "rmdir /run/sshd"
	fi
	mkdir "$FLEET_FIX" && undo "rmdir $FLEET_FIX" || return 1
	ssh-keygen -q -t ed25519 -N '' -C fleet-client -f "$FLEET_DIR/client_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -C fleet-other -f "$FLEET_DIR/other_key" || return 1
	cp "$FLEET_DIR/client_key.pub" "$FLEET_DIR/authorized_keys"
	cp "$FLEET_DIR/other_key.pub" "$FLEET_DIR/other_authorized_keys"
	: >"$FLEET_DIR/known_hosts"
	cat >"$FLEET_SSH_CONFIG" <<-EOF
	Host *
	  User root
	  IdentityFile $FLEET_DIR/client_key
	  IdentitiesOnly yes
	  UserKnownHostsFile $FLEET_DIR/known_hosts
	  GlobalKnownHostsFile /dev/null
	  StrictHostKeyChecking yes
	  LogLevel ERROR
	EOF
}

# fleetlab_ns NS ADDR TAG: a namespace with a port on the bridge at ADDR/24
fleetlab_ns() {
	local ns=$1 addr=$2 n=${FLEET}v$3
	ip netns add "$ns" && undo "fleetlab_kill_ns $ns" || return 1
	ip -n "$ns" link set lo up &&
	ip -n "$ns" link add e0 type veth peer name "$n" netns "$FLEET_NS_BR" &&
	ip -n "$FLEET_NS_BR" link set "$n" master br0 &&
	ip -n "$FLEET_NS_BR" link set "$n" up &&
	ip -n "$ns" addr add "$addr/24" dev e0 &&
	ip -n "$ns" link set e0 up
}

fleetlab_sshd_config() { # NAME ADDR PORT KEYS [STATE_DIR]
	local d=$FLEET_DIR/$1 state=${5:-$FLEET_DIR/$1/state}
	cat >"$d/sshd_config" <<-EOF
	ListenAddress $2
	Port $3
	HostKey $d/host_key
	PidFile $d/sshd.pid
	AuthorizedKeysFile $4
	StrictModes no
	PubkeyAuthentication yes
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	PermitRootLogin prohibit-password
	UsePAM no
	SetEnv IOTRIAGE_STATE_DIR=$state
	LogLevel ERROR
	EOF
}

# What runs inside the host's own mount and UTS namespaces before sshd.
fleetlab_host_init() { # NAME KIND LOOP
	local d=$FLEET_DIR/$1
	cat >"$d/init.sh" <<-EOF
	set -e
	hostname fleet-$1
	mount --bind $d/machine-id /etc/machine-id
	mount -t tmpfs -o size=64m,mode=0755 fleet-$1 $FLEET_FIX
	mkdir $FLEET_FIX/bin $FLEET_FIX/pool
	touch $FLEET_FIX/disk
	mount --bind $d/pool $FLEET_FIX/pool
	[ "$2" = noiotriage ] || install -m 0755 $FLEET_BIN $FLEET_FIX/bin/iotriage
	[ -z "$3" ] || mount --bind $3 $FLEET_FIX/disk
	if [ "$2" = notools ]; then
		for t in fio iperf3; do p=\$(command -v \$t) && mount --bind $d/hidden \$p; done
	fi
	exec /usr/sbin/sshd -D -e -f $d/sshd_config
	EOF
}

# fleetlab_pool NAME: an ext4 file system on a loop device, mounted at
# $FLEET_DIR/NAME/pool (empty: no lost+found). Prints the device.
fleetlab_pool() {
	local dev mnt=$FLEET_DIR/$1/pool img=$FLEET_DIR/$1/pool.img
	truncate -s 256M "$img" && dev=$(losetup -f --show --direct-io=on "$img") || return 1
	undo "losetup -d $dev"
	mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 && mount "$dev" "$mnt" || return 1
	undo "umount -l $mnt"
	rmdir "$mnt/lost+found"
	echo "$dev"
}

# fleetlab_cgroup NAME POOL_DEV DISK_DEV DISK_BPS: the host's blkio cgroup. Prints it.
fleetlab_cgroup() {
	local dir=/sys/fs/cgroup/blkio/$FLEET-$1 pool
	mkdir "$dir" && undo "remove_cgroup $dir" || return 1
	pool=$(lsblk -dno MAJ:MIN "$2" | tr -d ' ')
	echo "$pool 2097152" >"$dir/blkio.throttle.read_bps_device" &&
	echo "$pool 2097152" >"$dir/blkio.throttle.write_bps_device" || return 1
	if [ -n "$3" ] && [ -n "$4" ]; then
		echo "$(lsblk -dno MAJ:MIN "$3" | tr -d ' ') $4" >"$dir/blkio.throttle.read_bps_device" || return 1
	fi
	echo "$dir"
}

fleetlab_host() { # NAME [KIND] [DISK_BPS]
	local name=$1 kind=${2:-ok} bps=${3:-} d=$FLEET_DIR/$1 i addr port keys loop="" pooldev cgroup state=""
	i=$FLEET_NEXT
	FLEET_NEXT=$((FLEET_NEXT + 1))
	addr=10.77.0.$i port=$((2200 + i))
	mkdir -p "$d/pool" "$d/state" || return 1
	: >"$d/hidden"
	head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$d/machine-id" && echo >>"$d/machine-id"
	ssh-keygen -q -t ed25519 -N '' -C "host-$name" -f "$d/host_key" || return 1
	echo "$name $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$FLEET_DIR/known_hosts"
	keys=$FLEET_DIR/authorized_keys
	[ "$kind" = nokey ] && keys=$FLEET_DIR/other_authorized_keys
	[ "$kind" = nodisk ] || loop=$(make_loop 64M) || return 1
	pooldev=$(fleetlab_pool "$name") || return 1
	cgroup=$(fleetlab_cgroup "$name" "$pooldev" "$loop" "$bps") || return 1
	fleetlab_ns "$FLEET-$name" "$addr" "$i" || return 1
	[ "$kind" = shared ] && state=$IOTRIAGE_STATE_DIR
	fleetlab_sshd_config "$name" "$addr" "$port" "$keys" "$state"
	fleetlab_host_init "$name" "$kind" "$loop"
	printf 'Host %s\n  HostName %s\n  Port %s\n  HostKeyAlias %s\n' "$name" "$addr" "$port" "$name" \
		>>"$FLEET_SSH_CONFIG.hosts"
	# The cgroup first: ip netns exec mounts a /sys of its own, without cgroups.
	bash -c 'echo $$ > "$0/cgroup.procs" && exec ip netns exec "$1" unshare --mount --uts --propagation private sh "$2"' \
		"$cgroup" "$FLEET-$name" "$d/init.sh" >"$d/sshd.log" 2>&1 &
	fleetlab_wait_port "$addr" "$port" || { cat "$d/sshd.log" >&2; return 1; }
	echo "$loop" >"$d/loop"
}

# fleetlab_host_here NAME: a host NAME whose sshd listens on 127.0.0.1 in
# this network namespace (port 40700 and up), in a mount and UTS namespace
# of its own as fleetlab_host's (its own host name, machine-id and
# $FLEET_FIX/bin/iotriage), sharing this host's network, file system and
# /dev: what runs there reaches what runs here at 127.0.0.1 and reads its
# devices by the same paths (a Ceph OSD's device, tests/cli/test_ceph.sh).
# Needs fleetlab_files only. Its sshd and every session are killed at the end.
fleetlab_host_here() {
	local name=$1 d=$FLEET_DIR/$1 i port pid
	i=$FLEET_NEXT
	FLEET_NEXT=$((FLEET_NEXT + 1))
	port=$((40700 + i))
	mkdir -p "$d/pool" "$d/state" || return 1
	head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$d/machine-id" && echo >>"$d/machine-id"
	ssh-keygen -q -t ed25519 -N '' -C "host-$name" -f "$d/host_key" || return 1
	echo "$name $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$FLEET_DIR/known_hosts"
	fleetlab_sshd_config "$name" 127.0.0.1 "$port" "$FLEET_DIR/authorized_keys"
	fleetlab_host_init "$name" ok ""
	printf 'Host %s\n  HostName 127.0.0.1\n  Port %s\n  HostKeyAlias %s\n' "$name" "$port" "$name" \
		>>"$FLEET_SSH_CONFIG.hosts"
	unshare --mount --uts --propagation private sh "$d/init.sh" >"$d/sshd.log" 2>&1 &
	pid=$!
	undo "fleetlab_kill_tree $pid"
	fleetlab_wait_port_here "$port" || { cat "$d/sshd.log" >&2; return 1; }
}

# fleetlab_kill_tree PID: PID and every process under it (an sshd and its sessions).
fleetlab_kill_tree() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null); do fleetlab_kill_tree "$child"; done
	kill -KILL "$1" 2>/dev/null
	return 0
}

fleetlab_wait_port_here() { # PORT: until a local sshd listens on 127.0.0.1 (5 s)
	local k
	for k in $(seq 50); do
		bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

fleetlab_wait_port() { # ADDR PORT: until sshd listens (5 s)
	local k
	for k in $(seq 50); do
		ip netns exec "$FLEET_NS_C" bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

fleetlab_dead() { # NAME: in the config, but nothing listens there
	printf 'Host %s\n  HostName 10.77.0.%s\n  Port 2299\n  HostKeyAlias %s\n' "$1" 10 "$1" \
		>>"$FLEET_SSH_CONFIG.hosts"
}

# The config in effect: per-host blocks first (ssh takes the first value).
fleetlab_config() {
	cat "$FLEET_SSH_CONFIG.hosts" "$FLEET_SSH_CONFIG" >"$FLEET_SSH_CONFIG.all"
}

fleet() {
	fleetlab_config
	ip netns exec "$FLEET_NS_C" "$IOTRIAGE" fleet -F "$FLEET_SSH_CONFIG.all" \
		--remote-iotriage "$FLEET_FIX/bin/iotriage" "$@"
}

# fleetlab_client CMD...: CMD in the client namespace (netcheck --peer, fio)
fleetlab_client() {
	fleetlab_config
	ip netns exec "$FLEET_NS_C" "$@"
}

fleetlab_pids() { ip netns pids "$FLEET-$1" 2>/dev/null; }

fleetlab_iotriage_pids() {
	local pid
	for pid in $(fleetlab_pids "$1"); do
		{ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -q "^$FLEET_FIX/bin/iotriage " && echo "$pid"
	done
}

# fleetlab_clean NAME: nothing of a run left on the host: no iotriage
# process, nothing in its pool directory. Waits up to 20 s for it.
fleetlab_clean() {
	local k
	for k in $(seq 100); do
		[ -z "$(fleetlab_iotriage_pids "$1")" ] && [ -z "$(ls -A "$FLEET_DIR/$1/pool")" ] && return 0
		sleep 0.2
	done
	echo "# $1: left: processes [$(fleetlab_iotriage_pids "$1" | tr '\n' ' ')] files [$(ls -A "$FLEET_DIR/$1/pool" | tr '\n' ' ')]"
	return 1
}
