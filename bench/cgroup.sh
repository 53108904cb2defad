# bench/cgroup.sh: sourced by the benches that run work in a blkio group.
# remove_group DIR [KEEP_PID]: removes the group, killing what is still in
# it first (a signal can stop a bench while one of its readers is exiting),
# except KEEP_PID (a daemon the bench moved in, which it must move out
# before). Retries for 10 s.
remove_group() {
	local dir=$1 keep=${2:-} i p
	for i in $(seq 50); do
		[ -d "$dir" ] || return 0
		for p in $(cat "$dir/cgroup.procs" 2>/dev/null); do
			[ "$p" = "$keep" ] || kill -KILL "$p" 2>/dev/null
		done
		rmdir "$dir" 2>/dev/null && return 0
		sleep 0.2
	done
	echo "could not remove the blkio group $dir" >&2
	return 1
}
