/* ramdisk export, unexport, client and wire: step 3 across the wire
 * (triage/ramdisk/ramdisk_export.h does the work). Here the options, the lines
 * printed, the JSON and the exit statuses; and the export's line in
 * `ramdisk list`. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/ramdisk_cmd.h"
#include "cmd/runctx.h"
#include "ramdisk/lio.h"
#include "ramdisk/nvmet.h"
#include "triage/ramdisk/ramdisk_export.h"

enum { OPT_ANY_HOST = OPT_COMMAND_BASE, OPT_RUNTIME, OPT_VIA, OPT_CLIENT_BIN, OPT_NDELAY,
       OPT_ADDR = OPT_COMMAND_BASE + 20, OPT_CLIENT = OPT_ADDR + RAMDISK_TRANSPORT_MAX,
       OPT_TARGET = OPT_CLIENT + RAMDISK_TRANSPORT_MAX };

/* Per transport (ramdisk_transports[i]): --NAME ADDR, its client option
 * and, for ramdisk client, its target option. */
struct wire_args {
	const char *addr[RAMDISK_TRANSPORT_MAX], *client[RAMDISK_TRANSPORT_MAX], *target[RAMDISK_TRANSPORT_MAX];
	const char *via, *client_bin;
	bool any_host;
	uint64_t runtime_ns;
	uint64_t ndelays[WIRE_MAX_DELAYS]; /* wire --ndelay */
	size_t n_ndelays;
};

#define ROW_RUNTIME(HELP) \
	{ "runtime", 't', "TIME", HELP, OPT_RUNTIME, OPT_V_DURATION(struct wire_args, runtime_ns, 100000000ULL, 0, "5s") }

/* The transports' rows are made from the table (transport_rows), each
 * transport's in its order: a new transport brings its own options. */
#define TRANSPORT_ROWS (3 * RAMDISK_TRANSPORT_MAX)
static struct opt_def export_opts[TRANSPORT_ROWS + 2];
static struct opt_def client_opts[TRANSPORT_ROWS + 2];

static struct opt_def string_row(const char *name, const char *arg, const char *help, int id, size_t offset)
{
	return (struct opt_def){ name, 0, arg, help, id, { .type = OPT_TYPE_STRING, .offset = offset } };
}

#define ARG_OFFSET(FIELD, I) (offsetof(struct wire_args, FIELD) + (I) * sizeof(const char *))

__attribute__((constructor)) static void transport_rows(void)
{
	size_t e = 0, c = 0;
	for (size_t i = 0; ramdisk_transports[i] && i < RAMDISK_TRANSPORT_MAX; i++) {
		const struct export_transport *t = ramdisk_transports[i];
		const struct export_transport_words *w = t->words;
		int k = (int)i;
		export_opts[e++] = string_row(t->name, "ADDR[:PORT]", w->export_help, OPT_ADDR + k, ARG_OFFSET(addr, i));
		export_opts[e++] = string_row(w->client_option, w->client_arg, w->client_help, OPT_CLIENT + k,
					      ARG_OFFSET(client, i));
		client_opts[c++] = string_row(t->name, "ADDR[:PORT]", w->remote_help, OPT_ADDR + k, ARG_OFFSET(addr, i));
		client_opts[c++] = string_row(w->target_option, w->target_arg, w->target_help, OPT_TARGET + k,
					      ARG_OFFSET(target, i));
		if (w->client_as_help)
			client_opts[c++] = string_row(w->client_option, w->client_arg, w->client_as_help, OPT_CLIENT + k,
						      ARG_OFFSET(client, i));
	}
	export_opts[e] = (struct opt_def){ "allow-any-host", 0, NULL, "let any host that reaches the port connect",
					   OPT_ANY_HOST, OPT_V_FLAG(struct wire_args, any_host) };
	client_opts[c] = (struct opt_def)ROW_RUNTIME("reading time of each workload");
}

/* The one transport whose --NAME was given (with its target for client),
 * or -1 when none or several were. */
static int chosen(const struct wire_args *a, bool with_target)
{
	int found = -1;
	for (size_t i = 0; ramdisk_transports[i] && i < RAMDISK_TRANSPORT_MAX; i++) {
		if (!a->addr[i] || (with_target && !a->target[i]))
			continue;
		if (found >= 0)
			return -1;
		found = (int)i;
	}
	return found;
}

static const struct opt_def unexport_opts[] = { OPT_END };
static const struct opt_def wire_opts[] = {
	{ "via", 0, "PREFIX", "how to run a command on the client: 'ssh HOST' or 'ip netns exec NS'", OPT_VIA,
	  OPT_V_STRING(struct wire_args, via) },
	{ "client-iotriage", 0, "PATH", "iotriage on the client (default: this binary's path)", OPT_CLIENT_BIN,
	  OPT_V_STRING(struct wire_args, client_bin) },
	ROW_RUNTIME("reading time of each workload on each side"),
	{ "ndelay", 0, "LIST", "then again with the RAM disk's back end this much slower per command (2ms, or "
	  "100us,2ms; scsi_debug RAM disks)", OPT_NDELAY, { 0 } },
	OPT_END,
};

/* --ndelay LIST: up to WIRE_MAX_DELAYS durations under a second. */
static int wire_option(int id, const char *arg, void *settings)
{
	struct wire_args *a = settings;
	char *copy = xstrdup(arg), *save = NULL;
	bool bad = id != OPT_NDELAY || !*arg || *arg == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,");
	a->n_ndelays = 0;
	for (char *w = strtok_r(copy, ",", &save); w && !bad; w = strtok_r(NULL, ",", &save))
		bad = a->n_ndelays == WIRE_MAX_DELAYS || parse_duration_ns(w, &a->ndelays[a->n_ndelays]) < 0 ||
		      a->ndelays[a->n_ndelays++] > RAMDISK_MAX_NDELAY_NS;
	free(copy);
	return bad ? opts_usage_error("ramdisk wire", "invalid --ndelay '%s': expected up to %d comma-separated "
				      "per-command delays under 1 s (2ms, or 100us,2ms)", arg, WIRE_MAX_DELAYS) : 0;
}

void ramdisk_list_export(FILE *out, struct json *j)
{
	struct ramdisk_export e;
	if (!ramdisk_export_current(&e)) {
		if (j)
			json_null(j, "export");
		return;
	}
	if (j)
		ramdisk_export_json(j, &e);
	if (out)
		ramdisk_export_print(out, &e);
}

/* The document shared by export, unexport, client and wire. */
static int finish(struct command_call *call, const char *action, int status, const char *reason,
		  void (*body)(struct json *, const void *), const void *arg)
{
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	struct json *j = call->doc;
	json_begin_object(j, "ramdisk");
	json_string(j, "action", action);
	json_string(j, "reason", reason && *reason ? reason : NULL);
	if (body)
		body(j, arg);
	json_end_object(j);
	return status;
}

static void export_body(struct json *j, const void *arg)
{
	const struct ramdisk_export *e = arg;
	if (e->complete)
		ramdisk_export_json(j, e);
	else
		json_null(j, "export");
}

static int export_check(struct command_call *call)
{
	const struct wire_args *a = call->settings;
	if (chosen(a, false) < 0)
		return opts_usage_error(call->name, "expected --nvme-tcp ADDR[:PORT] or --iscsi ADDR[:PORT] (an address of "
					"this host)");
	return 0;
}

static int export_main(struct command_call *call)
{
	const struct wire_args *a = call->settings;
	int k = chosen(a, false);
	struct export_request req = { .transport = ramdisk_transports[k], .addr_arg = a->addr[k],
				      .client = a->client[k], .allow_any_host = a->any_host, .run_id = call->rc->id };
	struct ramdisk_export e = { 0 };
	char reason[600] = "";
	int r = ramdisk_export_start(&req, &e, reason, sizeof(reason));
	if (r < 0)
		log_msg(LOG_ERR, "RAMDISK: nothing exported: %s", reason);
	else if (!call->rc->json)
		ramdisk_list_export(stdout, NULL);
	return finish(call, "export", r < 0 ? 1 : 0, reason, export_body, &e);
}

static const struct command_doc export_doc = {
	"ramdisk export",
	"ramdisk export --nvme-tcp ADDR[:PORT] (--host-nqn NQN | --allow-any-host)\n"
	"       ramdisk export --iscsi ADDR[:PORT] (--initiator IQN | --allow-any-host)",
	"Exports iotriage's RAM disks (and nothing else) through the kernel's NVMe/TCP target:\n"
	"one subsystem " RAMDISK_NVMET_NQN_PREFIX "<run id>, a namespace per RAM disk;\n"
	"or through LIO over iSCSI: target " RAMDISK_LIO_IQN_PREFIX "<run id>, a LUN per RAM disk.\n"
	"'ramdisk unexport' removes it; destroy refuses while it exists (--force removes it).",
	export_opts,
};

const struct command_frame ramdisk_export_frame = {
	.doc = &export_doc, .settings_size = sizeof(struct wire_args), .flags = CMD_RECORDS_RUN | CMD_NEEDS_ROOT,
	.run_name = "ramdisk-export", .check = export_check, .main = export_main,
};

static int unexport_main(struct command_call *call)
{
	char reason[600] = "";
	int r = ramdisk_export_stop(reason, sizeof(reason));
	if (r < 0)
		log_msg(LOG_ERR, "RAMDISK: %s", reason);
	else if (r == 0)
		log_msg(LOG_INFO, "RAMDISK: nothing is exported");
	return finish(call, "unexport", r < 0 ? 1 : 0, reason, NULL, NULL);
}

static const struct command_doc unexport_doc = {
	"ramdisk unexport", "ramdisk unexport", "Removes the NVMe/TCP or iSCSI export of the RAM disks (clients lose them).",
	unexport_opts,
};

const struct command_frame ramdisk_unexport_frame = {
	.doc = &unexport_doc, .flags = CMD_RECORDS_RUN | CMD_NEEDS_ROOT, .run_name = "ramdisk-unexport",
	.main = unexport_main,
};

static void client_body(struct json *j, const void *arg)
{
	const struct wire_side *s = arg;
	if (s->w[WIRE_SEQ].measured)
		ramdisk_wire_side_json(j, "remote", s);
}

static int client_check(struct command_call *call)
{
	const struct wire_args *a = call->settings;
	if (chosen(a, true) < 0)
		return opts_usage_error(call->name, "expected --nvme-tcp ADDR[:PORT] and --nqn NQN, or --iscsi ADDR[:PORT] "
					"and --target IQN");
	return 0;
}

static int client_main(struct command_call *call)
{
	const struct wire_args *a = call->settings;
	int k = chosen(a, true);
	struct wire_side l = { 0 };
	char reason[600] = "";
	int r = ramdisk_client(ramdisk_transports[k], a->addr[k], a->target[k], a->client[k], a->runtime_ns, &l,
			       reason, sizeof(reason));
	if (r < 0) {
		log_msg(LOG_ERR, "RAMDISK: %s", reason);
	} else if (!call->rc->json) {
		char lines[1024];
		ramdisk_wire_format(&l, lines, sizeof(lines));
		fputs(lines, stdout);
	}
	return finish(call, "client", r < 0 ? 1 : 0, reason, client_body, &l);
}

static const struct command_doc client_doc = {
	"ramdisk client", "ramdisk client (--nvme-tcp ADDR[:PORT] --nqn NQN | --iscsi ADDR[:PORT] --target IQN) [--runtime TIME]",
	"The client's half of 'ramdisk wire', run on the client host: connects to the\n"
	"export, finds namespace 1 by its NQN (or LUN 0 by the target IQN), reads it\n"
	"(the three workloads of 'ramdisk wire') and disconnects (iSCSI: logs out,\n"
	"deletes the node record); first the round trip to the port (TCP connects).",
	client_opts,
};

const struct command_frame ramdisk_client_frame = {
	.doc = &client_doc, .settings_size = sizeof(struct wire_args), .flags = CMD_RECORDS_RUN | CMD_NEEDS_ROOT,
	.run_name = "ramdisk-client", .check = client_check, .main = client_main,
};

static void wire_body(struct json *j, const void *arg)
{
	const struct wire_outcome *w = arg;
	if (w->judged)
		ramdisk_wire_json(j, &w->local, &w->remote, &w->judgement);
	if (w->delays)
		ramdisk_wire_delay_json(j, &w->run);
}

static int wire_check(struct command_call *call)
{
	const struct wire_args *a = call->settings;
	if (!a->via)
		return opts_usage_error(call->name, "expected --via PREFIX ('ssh HOST' or 'ip netns exec NS')");
	return 0;
}

static int wire_main(struct command_call *call)
{
	const struct wire_args *a = call->settings;
	char self[PATH_MAX] = "iotriage";
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[k > 0 ? k : 8] = '\0';
	char *via_copy = xstrdup(a->via), *save = NULL;
	const char *via[16];
	size_t n = 0;
	for (char *w = strtok_r(via_copy, " \t", &save); w && n < 16; w = strtok_r(NULL, " \t", &save))
		via[n++] = w;
	struct wire_outcome *w = xcalloc(1, sizeof(*w));
	char reason[1200] = "";
	const char *client = a->client_bin ? a->client_bin : self;
	int r = ramdisk_wire_pair(via, n, client, a->runtime_ns, a->ndelays, a->n_ndelays, w, reason, sizeof(reason));
	free(via_copy);
	if (r < 0)
		log_msg(LOG_ERR, "RAMDISK: %s", reason);
	if (!call->rc->json && w->judged)
		ramdisk_wire_print(&w->local, &w->remote, &w->judgement);
	if (!call->rc->json && w->delays)
		ramdisk_wire_delay_print(&w->run);
	r = finish(call, "wire", r < 0 ? 1 : 0, reason, wire_body, w);
	free(w);
	return r;
}

static const struct command_doc wire_doc = {
	"ramdisk wire", "ramdisk wire --via PREFIX [--runtime TIME] [--ndelay LIST]",
	"Step 3 across the wire: reads the first exported RAM disk here, then from the client\n"
	"(PREFIX iotriage ramdisk client ...: 'ssh HOST' or 'ip netns exec NS'): 4 KiB random\n"
	"at QD1 and QD32, 1 MiB sequential; reports what the network and the target stack add\n"
	"per I/O, the share of local IOPS and bandwidth reached, and the layer when the loss is large.\n"
	"--ndelay: then again with the back end slower per command (scsi_debug's delay, set at\n"
	"runtime, restored after): whether the path passes a slow back end through, hides it\n"
	"or amplifies it.",
	wire_opts,
};

const struct command_frame ramdisk_wire_frame = {
	.doc = &wire_doc, .settings_size = sizeof(struct wire_args), .flags = CMD_RECORDS_RUN | CMD_NEEDS_ROOT,
	.run_name = "ramdisk-wire", .handle = wire_option, .check = wire_check, .main = wire_main,
};
