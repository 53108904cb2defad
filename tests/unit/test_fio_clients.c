/* remote/fio_clients and remote/ssh's ssh -G reader: fio's client/server
 * report (fio 3.33, captured: tests/data/fio333_client_server_*_captured.json,
 * two fio servers in a network namespace at 10.99.0.2:8765 and
 * 10.99.0.3:8766, numjobs=2), the job file, the servers' readiness line. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "remote/fio_clients.h"
#include "remote/ssh.h"
#include "tap.h"
#include "test_data.h"

static void test_two_clients(void)
{
	const char *text = test_data("fio333_client_server_captured.json", NULL);
	ok(text != NULL, "the capture is there");
	const struct fio_endpoint ep[] = { { "rack-a", "10.99.0.2", 8765 }, { "rack-b", "10.99.0.3", 8766 } };
	struct fio_clients_result r;
	char why[256];
	is_int(fio_clients_parse(text, ep, 2, &r, why, sizeof(why)), 0, "two clients' report parses");
	is_str(r.clients[0].host, "rack-a", "the first client is named by the host given, not fio's address");
	is_int(r.clients[0].jobs, 2, "its two jobs (numjobs=2) are summed");
	ok(r.clients[0].reported && r.clients[1].reported, "both clients reported");
	ok(fabs(r.clients[0].read_bw - (1008090187.0 + 1002089650.0)) < 1, "rack-a's read rate is its jobs' sum");
	ok(fabs(r.clients[1].read_bw - (879057083.0 + 839108844.0)) < 1, "rack-b's too");
	ok(fabs(r.aggregate.read_bw - (r.clients[0].read_bw + r.clients[1].read_bw)) < 1, "the aggregate is their sum");
	is_int(r.aggregate.jobs, 4, "of four jobs");
	ok(r.has_fio_total, "fio's own All clients entry is read");
	ok(fabs(r.fio_total_read_bw - r.aggregate.read_bw) < 0.02 * r.aggregate.read_bw,
	   "and agrees with the sum within 2%");
	is_int(r.unmatched, 0, "no entry of another address");
	is_str(r.fio_version, "fio-3.33", "fio's version");
	ok(r.clients[0].runtime_s > 0.9 && r.clients[0].runtime_s < 1.2, "the job's runtime in seconds");
	fio_clients_release(&r);
	const struct fio_endpoint swapped[] = { { "x", "10.99.0.2", 8766 } };
	is_int(fio_clients_parse(text, swapped, 1, &r, why, sizeof(why)), 0, "an address on another port");
	ok(!r.clients[0].reported && r.unmatched == 4, "is not taken for the client");
	fio_clients_release(&r);
}

static void test_one_refused(void)
{
	const char *text = test_data("fio333_client_server_one_refused_captured.json", NULL);
	const struct fio_endpoint ep[] = { { "a", "10.99.0.2", 8765 }, { "gone", "10.99.0.5", 8766 } };
	struct fio_clients_result r;
	char why[256];
	is_int(fio_clients_parse(text, ep, 2, &r, why, sizeof(why)), 0, "a report missing a client parses");
	ok(r.clients[0].reported, "the client that ran is there");
	ok(!r.clients[1].reported, "the one fio could not reach is unreported (fio exits 0 all the same)");
	ok(fabs(r.aggregate.read_bw - r.clients[0].read_bw) < 1, "the aggregate holds only what ran");
	ok(!r.has_fio_total, "one client: fio prints no All clients entry");
	fio_clients_release(&r);
	is_int(fio_clients_parse("fio: no such job\n", ep, 2, &r, why, sizeof(why)), -EINVAL, "no report");
	ok(strstr(why, "no JSON report") != NULL, "is said");
	fio_clients_release(&r);
	is_int(fio_clients_parse("{\"jobs\": []}", ep, 2, &r, why, sizeof(why)), -EINVAL, "a local run's report");
	ok(strstr(why, "client_stats") != NULL, "is not taken for client/server mode");
	fio_clients_release(&r);
}

static void test_jobfile(void)
{
	struct strbuf sb = STRBUF_INIT;
	char why[256];
	const char *args[] = { "--rw=randread", "--bs=4k", "--direct", "--name=load" };
	is_int(fio_jobfile(args, 4, &sb, why, sizeof(why)), 0, "fio's options make a job file");
	is_str(sb.buf, "[load]\nrw=randread\nbs=4k\ndirect\n", "one section named by --name, one line per option");
	strbuf_release(&sb);
	const char *file[] = { "--rw=read", "job.fio" };
	is_int(fio_jobfile(file, 2, &sb, why, sizeof(why)), -EINVAL, "a job file operand is refused");
	ok(strstr(why, "--key=value") != NULL, "saying how to give options");
	strbuf_release(&sb);
	const char *out[] = { "--output-format=normal" };
	is_int(fio_jobfile(out, 1, &sb, why, sizeof(why)), -EINVAL, "an option that changes the report is refused");
	strbuf_release(&sb);
	const char *nl[] = { "--filename=/a\n[evil]" };
	is_int(fio_jobfile(nl, 1, &sb, why, sizeof(why)), -EINVAL, "a value with a line break is refused");
	strbuf_release(&sb);
	const char *none[] = { NULL };
	is_int(fio_jobfile(none, 0, &sb, why, sizeof(why)), 0, "no options: an empty default job");
	is_str(sb.buf, "[iotriage]\n", "named iotriage");
	strbuf_release(&sb);
	ok(fio_server_ready("fio: server listening on 10.77.0.10,8765\r\n"), "the server's readiness line");
	ok(!fio_server_ready("fio: failed to bind\r\n"), "and not another");
}

static void test_ssh_config(void)
{
	char buf[64];
	is_int(ssh_config_hostname("user root\nhostname 10.77.0.12\nport 2212\n", buf, sizeof(buf)), 0,
	       "ssh -G's hostname line");
	is_str(buf, "10.77.0.12", "read");
	is_int(ssh_config_hostname("user root\nport 22\n", buf, sizeof(buf)), -ENOENT, "none");
	struct ssh_opts o = { .config_file = "/tmp/cfg", .tty = true };
	const char *words[] = { "fio", "--server=1.2.3.4,8765", NULL };
	char **argv = ssh_argv(&o, "h1", words);
	int tt = 0;
	for (size_t i = 0; argv[i]; i++)
		tt += strcmp(argv[i], "-tt") == 0;
	is_int(tt, 1, "a session with a terminal asks for -tt");
	ssh_argv_free(argv);
	argv = ssh_config_argv(&o, "h1");
	ok(strcmp(argv[0], "ssh") == 0 && strcmp(argv[1], "-F") == 0 && strcmp(argv[3], "-G") == 0 &&
	   strcmp(argv[4], "h1") == 0 && !argv[5], "ssh -F FILE -G HOST");
	ssh_argv_free(argv);
}

int main(void)
{
	test_two_clients();
	test_one_refused();
	test_jobfile();
	test_ssh_config();
	return tap_done();
}
