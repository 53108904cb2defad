/* remote/: the host list parser, ssh's command lines and quoting, the
 * classification of ssh's failures, and the handshake. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "remote/handshake.h"
#include "remote/hostlist.h"
#include "remote/ssh.h"
#include "tap.h"

static int list(const char *text, struct hostlist *hl, char *why, size_t len)
{
	*hl = (struct hostlist){ 0 };
	return hostlist_add_list(hl, text, why, len);
}

static void test_lists(void)
{
	struct hostlist hl;
	char why[256];
	is_int(list("a,b,user@c", &hl, why, sizeof(why)), 0, "a comma list");
	is_int(hl.n, 3, "three hosts");
	is_str(hl.hosts[2], "user@c", "user@host kept as given");
	hostlist_release(&hl);
	is_int(list("10.0.0.1,[fe80::1%eth0],node-3.example.org", &hl, why, sizeof(why)), 0, "addresses and names");
	hostlist_release(&hl);
	is_int(list("a,,b", &hl, why, sizeof(why)), -EINVAL, "an empty element is refused");
	ok(strstr(why, "empty host name") != NULL, "and said");
	hostlist_release(&hl);
	is_int(list("a,b,", &hl, why, sizeof(why)), -EINVAL, "a trailing comma is refused");
	hostlist_release(&hl);
	is_int(list("", &hl, why, sizeof(why)), -EINVAL, "an empty list is refused");
	hostlist_release(&hl);
	is_int(list("a,b,a", &hl, why, sizeof(why)), -EINVAL, "a duplicate is refused");
	ok(strstr(why, "'a' is listed twice") != NULL, "naming the host");
	hostlist_release(&hl);
	is_int(list("-oProxyCommand=x", &hl, why, sizeof(why)), -EINVAL, "a name ssh would take for an option");
	hostlist_release(&hl);
	is_int(list("a;reboot", &hl, why, sizeof(why)), -EINVAL, "shell characters are refused");
	hostlist_release(&hl);
}

static void test_files(void)
{
	struct hostlist hl = { 0 };
	char why[256];
	is_int(hostlist_add_text(&hl, "# rack 1\nnode1\n  node2  # the spare\n\n\tnode3\r\n", "f", why, sizeof(why)), 0,
	       "a host file with comments, blanks and CRLF");
	is_int(hl.n, 3, "three hosts from it");
	is_str(hl.hosts[1], "node2", "trimmed, comment dropped");
	is_int(hostlist_add_list(&hl, "node4,node1", why, sizeof(why)), -EINVAL, "a list repeating a file's host");
	hostlist_release(&hl);
	is_int(hostlist_add_text(&hl, "node1\nnode2 node3\n", "hosts.txt", why, sizeof(why)), -EINVAL,
	       "two words on a line are refused");
	ok(strstr(why, "line 2 of 'hosts.txt'") != NULL, "naming the line and file");
	hostlist_release(&hl);
	is_int(hostlist_add_text(&hl, "# only comments\n\n", "f", why, sizeof(why)), 0, "a file with no hosts");
	is_int(hl.n, 0, "adds none (the command refuses the empty list)");
	is_int(hostlist_add_file(&hl, "/nonexistent/hosts", why, sizeof(why)), -ENOENT, "a missing file");
	hostlist_release(&hl);
}

static bool has_pair(char **argv, const char *a, const char *b)
{
	for (size_t i = 0; argv[i] && argv[i + 1]; i++)
		if (strcmp(argv[i], a) == 0 && strcmp(argv[i + 1], b) == 0)
			return true;
	return false;
}

static void test_ssh_argv(void)
{
	struct ssh_opts o = { .config_file = "/t/ssh_config", .control_dir = "/tmp/d", .connect_timeout_s = 5 };
	const char *words[] = { "iotriage", "--json", "readdisk", "/dev/x y", "it's", NULL };
	char **argv = ssh_argv(&o, "h1", words);
	is_str(argv[0], "ssh", "ssh is run");
	ok(has_pair(argv, "-F", "/t/ssh_config"), "-F passes the config file");
	ok(has_pair(argv, "-o", "BatchMode=yes"), "BatchMode");
	ok(has_pair(argv, "-o", "ConnectTimeout=5"), "ConnectTimeout");
	ok(has_pair(argv, "-o", "ControlMaster=auto"), "one multiplexed connection");
	ok(has_pair(argv, "-o", "ControlPath=/tmp/d/%C"), "its socket");
	ok(has_pair(argv, "-o", "ControlPersist=60"), "the master outlives a session briefly");
	bool strict = false;
	size_t n = 0;
	for (; argv[n]; n++)
		strict |= strstr(argv[n], "StrictHostKeyChecking") != NULL;
	ok(!strict, "host key checking left to the user's configuration");
	ok(has_pair(argv, "h1", "--"), "the host, then --");
	is_str(argv[n - 1], "iotriage --json readdisk '/dev/x y' 'it'\\''s'", "remote words quoted for the shell");
	ssh_argv_free(argv);
	o.config_file = NULL;
	o.accept_new_host_keys = true;
	argv = ssh_exit_argv(&o, "h1");
	ok(has_pair(argv, "-O", "exit"), "the master is stopped with -O exit");
	ok(has_pair(argv, "-o", "StrictHostKeyChecking=accept-new"), "accept-new only when asked");
	ok(!has_pair(argv, "-F", "/t/ssh_config"), "no -F without a config file");
	ssh_argv_free(argv);
}

static void test_classify(void)
{
	char why[256];
	is_int(ssh_classify(255, "ssh: connect to host 10.1.1.9 port 22: Connection refused\r\n", why, sizeof(why)),
	       SSH_FAIL_UNREACHABLE, "connection refused: unreachable");
	is_str(why, "ssh: connect to host 10.1.1.9 port 22: Connection refused", "ssh's own line");
	is_int(ssh_classify(255, "ssh: connect to host x port 22: Connection timed out\n", why, sizeof(why)),
	       SSH_FAIL_UNREACHABLE, "timed out: unreachable");
	is_int(ssh_classify(255, "ssh: Could not resolve hostname nope: Name or service not known\n", why, sizeof(why)),
	       SSH_FAIL_UNREACHABLE, "unknown name: unreachable");
	is_int(ssh_classify(255, "root@10.1.1.3: Permission denied (publickey).\n", why, sizeof(why)), SSH_FAIL_AUTH,
	       "permission denied: authentication refused");
	is_int(ssh_classify(255, "No ED25519 host key is known for h and you have requested strict checking.\n"
				 "Host key verification failed.\n", why, sizeof(why)),
	       SSH_FAIL_HOST_KEY, "unknown host key");
	is_int(ssh_classify(127, "bash: line 1: iotriage: command not found\n", why, sizeof(why)), SSH_FAIL_NOT_FOUND,
	       "exit 127: not found");
	is_int(ssh_classify(1, "whatever\n", why, sizeof(why)), SSH_FAIL_NONE, "the remote command's own failure");
	is_int(ssh_classify(0, "", why, sizeof(why)), SSH_FAIL_NONE, "success");
	is_int(ssh_classify(255, "/t/cfg line 3: Bad configuration option: foo\n", why, sizeof(why)), SSH_FAIL_OTHER,
	       "a bad config file: another ssh failure");
}

static void test_handshake(void)
{
	struct host_identity ours, theirs;
	char why[512];
	struct json j;
	handshake_local(&ours, 1);
	json_init(&j);
	handshake_write(&j, &ours);
	is_int(handshake_parse(j.out.buf, &theirs, why, sizeof(why)), 0, "our answer reads back");
	json_release(&j);
	is_str(theirs.version, ours.version, "version");
	is_int(theirs.schema_version, 1, "schema");
	is_str(theirs.hostname, ours.hostname, "host name");
	ok(handshake_compatible(&theirs, &ours, why, sizeof(why)), "same schema: compatible");
	theirs.schema_version = 2;
	ok(!handshake_compatible(&theirs, &ours, why, sizeof(why)), "another schema: incompatible");
	ok(strstr(why, "install iotriage") != NULL, "says what to install");
	is_int(handshake_parse("iotriage 0.0.9\n", &theirs, why, sizeof(why)), 0, "an old plain answer");
	is_int(theirs.schema_version, 0, "without a schema");
	ok(!handshake_compatible(&theirs, &ours, why, sizeof(why)), "is not compatible");
	is_int(handshake_parse("bash: foo\n", &theirs, why, sizeof(why)), -EINVAL, "anything else is refused");
}

int main(void)
{
	test_lists();
	test_files();
	test_ssh_argv();
	test_classify();
	test_handshake();
	return tap_done();
}
