/* The system inventory's parsers, on /proc/cpuinfo and /etc/os-release text. */
#include <errno.h>
#include <string.h>

#include "basic/sysinfo.h"
#include "tap.h"

int main(void)
{
	char buf[128];
	const char *cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n"
			      "stepping\t: 1\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n";
	is_int(sysinfo_field(cpuinfo, "model name", ':', buf, sizeof(buf)), 0, "cpuinfo: model name found");
	is_str(buf, "AMD EPYC 7B13 64-Core Processor", "cpuinfo: the value without the tab and colon");
	is_int(sysinfo_field(cpuinfo, "model", ':', buf, sizeof(buf)), -ENOENT, "a key's prefix is not the key");
	const char *osr = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_ID=\"12\"\n";
	is_int(sysinfo_field(osr, "PRETTY_NAME", '=', buf, sizeof(buf)), 0, "os-release: PRETTY_NAME found");
	is_str(buf, "Debian GNU/Linux 12 (bookworm)", "os-release: the quotes removed");
	is_int(sysinfo_field(osr, "ID", '=', buf, sizeof(buf)), -ENOENT, "a missing key is -ENOENT");
	is_int(sysinfo_field("", "NAME", '=', buf, sizeof(buf)), -ENOENT, "empty text is -ENOENT");
	struct sysinfo_inventory inv;
	sysinfo_read(&inv);
	ok(inv.cpus >= 1 && inv.memory_bytes > 0 && inv.kernel[0] && inv.machine[0], "this machine's inventory is read");
	return tap_done();
}
