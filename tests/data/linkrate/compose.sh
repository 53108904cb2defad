#!/bin/sh
# compose.sh: makes the link-rate trees of this directory from the captured
# link lab (tests/data/linklab/sys) and writes them here; README says what
# each changes. Run from anywhere: sh tests/data/linkrate/compose.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../linklab/sys
ata=devices/pci0000:00/0000:00:1f.2/ata1/link1
id=$ata/dev1.0/ata_device/dev1.0/id
spd=$ata/ata_link/link1
copy() { rm -rf "$here/$1"; mkdir -p "$here/$1"; cp -a "$src" "$here/$1/sys"; }
word76() { # TREE HEX: IDENTIFY word 76 of ata1's drive set to HEX
	awk -v w="$2" '{ for (i = 1; i <= NF; i++) if ((NR - 1) * 8 + i - 1 == 76) $i = w; print }' \
		"$here/$1/sys/$id" >"$here/$1/id.tmp"
	mv "$here/$1/id.tmp" "$here/$1/sys/$id"
}
# pcie_degraded: nvme0n1's device and its root port both support 8 GT/s x4,
# the link trained at 2.5 GT/s x1 (as captured)
copy pcie_degraded
for d in devices/pci0000:00/0000:00:03.0 devices/pci0000:00/0000:00:03.0/0000:01:00.0; do
	echo "8.0 GT/s PCIe" >"$here/pcie_degraded/sys/$d/max_link_speed"
	echo 4 >"$here/pcie_degraded/sys/$d/max_link_width"
done
# sata_degraded: port and drive support 6.0 Gb/s, the link at 1.5 Gb/s (as
# captured), libata's limit lowered to 1.5 Gb/s
copy sata_degraded
echo "6.0 Gbps" >"$here/sata_degraded/sys/$spd/hw_sata_spd_limit"
echo "1.5 Gbps" >"$here/sata_degraded/sys/$spd/sata_spd_limit"
word76 sata_degraded 010e
# sata_one_end: a 3.0 Gb/s drive on a 6.0 Gb/s port, the link at 3.0 Gb/s:
# slow on one end only, no finding
copy sata_one_end
echo "6.0 Gbps" >"$here/sata_one_end/sys/$spd/hw_sata_spd_limit"
echo "3.0 Gbps" >"$here/sata_one_end/sys/$spd/sata_spd"
word76 sata_one_end 0106
# sas_*: hand-made (qemu's SAS1068 found no disk in the lab), in the
# kernel's layout: HBA 0000:00:06.0 host6, a wide port-6:0 of phys 6:0-6:3
# to expander-6:0, whose port-6:0:1 (phy-6:0:1) holds end_device-6:0:1 ->
# sdb. sas_degraded: the HBA-expander link at 3.0 Gbit, both ends 12.0;
# sas_one_end: the expander-drive link at 6.0 Gbit of the expander's 12.0
# (the drive's maximum is not in sysfs), the rest at 12.0
sas() { # TREE HBA-LINK DRIVE-LINK
	t=$here/$1/sys
	rm -rf "$here/$1"
	h=devices/pci0000:00/0000:00:06.0/host6
	e=$h/port-6:0/expander-6:0
	mkdir -p "$t/block" "$t/$e/port-6:0:1/end_device-6:0:1/target6:0:1/6:0:1:0/block/sdb"
	echo "8:16" >"$t/$e/port-6:0:1/end_device-6:0:1/target6:0:1/6:0:1:0/block/sdb/dev"
	ln -s "../$e/port-6:0:1/end_device-6:0:1/target6:0:1/6:0:1:0/block/sdb" "$t/block/sdb"
	phy() { # DIR NAME NEGOTIATED
		mkdir -p "$t/$1/$2/sas_phy/$2"
		echo "$3" >"$t/$1/$2/sas_phy/$2/negotiated_linkrate"
		echo "12.0 Gbit" >"$t/$1/$2/sas_phy/$2/maximum_linkrate_hw"
		echo "12.0 Gbit" >"$t/$1/$2/sas_phy/$2/maximum_linkrate"
	}
	for i in 0 1 2 3; do
		phy "$h" "phy-6:$i" "$2"
		ln -s "../phy-6:$i" "$t/$h/port-6:0/phy-6:$i"
	done
	for i in 0 1 2 3; do phy "$e" "phy-6:0:$((i + 4))" "$2"; done
	phy "$e" "phy-6:0:1" "$3"
	ln -s "../phy-6:0:1" "$t/$e/port-6:0:1/phy-6:0:1"
}
sas sas_degraded "3.0 Gbit" "12.0 Gbit"
sas sas_one_end "12.0 Gbit" "6.0 Gbit"
