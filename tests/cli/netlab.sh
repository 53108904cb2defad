# tests/cli/netlab.sh: a small network in namespaces for the netcheck test.
# Source after lib.sh. Every namespace is registered with undo (deleting a
# namespace deletes its veths and bridge), so nothing survives the test.
#
#   A (under test)                R (router, forwards)          B
#   a0 9000 10.99.1.1/24 ------- r0 9000 10.99.1.254
#                                r1 1500 10.99.4.254 --------- b0 9000 10.99.4.2/24
#   a1 1500 10.99.2.1/24 ------- r2 1500 10.99.2.254
#
#   A                             S (a switch: bridge br0)      C, D
#   a2 9000 10.99.5.1/24 ------- sa 9000 | sc 1500 ----------- c0 9000 10.99.5.2/24
#                                          | sd 9000 ----------- d0 9000 10.99.5.3/24
#
# Addresses exist only inside these namespaces.

NETLAB=iot$$
NS_A=$NETLAB-a NS_R=$NETLAB-r NS_B=$NETLAB-b NS_S=$NETLAB-s NS_C=$NETLAB-c NS_D=$NETLAB-d

netlab_ns() { # netlab_ns NAME: a namespace with its loopback up
	ip netns add "$1" || return 1
	undo "ip netns del $1"
	ip -n "$1" link set lo up
}

# netlab_veth NS1 IF1 MTU1 NS2 IF2 MTU2: a veth pair between two namespaces, both ends up
netlab_veth() {
	ip -n "$1" link add "$2" mtu "$3" type veth peer name "$5" mtu "$6" netns "$4" || return 1
	ip -n "$1" link set "$2" up && ip -n "$4" link set "$5" up
}

netlab_up() {
	local ns
	for ns in $NS_A $NS_R $NS_B $NS_S $NS_C $NS_D; do netlab_ns "$ns" || return 1; done
	netlab_veth $NS_A a0 9000 $NS_R r0 9000 &&
	netlab_veth $NS_A a1 1500 $NS_R r2 1500 &&
	netlab_veth $NS_R r1 1500 $NS_B b0 9000 &&
	netlab_veth $NS_A a2 9000 $NS_S sa 9000 &&
	netlab_veth $NS_S sc 1500 $NS_C c0 9000 &&
	netlab_veth $NS_S sd 9000 $NS_D d0 9000 || return 1
	ip -n $NS_A addr add 10.99.1.1/24 dev a0 &&
	ip -n $NS_A addr add 10.99.2.1/24 dev a1 &&
	ip -n $NS_A addr add 10.99.5.1/24 dev a2 &&
	ip -n $NS_A route add 10.99.4.0/24 via 10.99.1.254 dev a0 &&
	ip -n $NS_R addr add 10.99.1.254/24 dev r0 &&
	ip -n $NS_R addr add 10.99.4.254/24 dev r1 &&
	ip -n $NS_R addr add 10.99.2.254/24 dev r2 &&
	ip netns exec $NS_R sysctl -qw net.ipv4.ip_forward=1 &&
	ip -n $NS_B addr add 10.99.4.2/24 dev b0 &&
	ip -n $NS_B route add default via 10.99.4.254 &&
	ip -n $NS_S link add br0 type bridge &&
	ip -n $NS_S link set sa master br0 &&
	ip -n $NS_S link set sc master br0 &&
	ip -n $NS_S link set sd master br0 &&
	ip -n $NS_S link set br0 up &&
	ip -n $NS_C addr add 10.99.5.2/24 dev c0 &&
	ip -n $NS_D addr add 10.99.5.3/24 dev d0
}
