/* The manual pages (docgen/docgen.h): roff (man(7)) from the command table
 * and the option rows. */
#include "docgen/docgen.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "basic/fsutil.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"

/* The date on every page: the version's release date, so the pages of one
 * version are the same wherever they are built. */
#define DOC_DATE "2026-12-01"

void docgen_each_doc(docgen_doc_fn fn, void *arg)
{
	for (const struct command *c = commands; c->name; c++) {
		if (c->frame)
			fn(c->name, c->frame->doc, arg);
		for (const struct command_frame *const *f = c->subframes; f && *f; f++)
			fn(c->name, (*f)->doc, arg);
		for (const struct command_doc *const *d = c->docs; d && *d; d++)
			fn(c->name, *d, arg);
	}
}

/* Roff text: backslashes escaped, a line that starts with a control
 * character protected, hyphens made minus signs where they are options. */
static void roff_text(struct strbuf *out, const char *text)
{
	bool line_start = true;
	for (const char *p = text; *p; p++) {
		if (line_start && (*p == '.' || *p == '\''))
			strbuf_adds(out, "\\&");
		line_start = *p == '\n';
		if (*p == '\\')
			strbuf_adds(out, "\\e");
		else if (*p == '-' && (p == text || p[-1] == ' ' || p[-1] == '-' || p[-1] == '(' || p[-1] == '\n'))
			strbuf_adds(out, "\\-");
		else
			strbuf_addch(out, *p);
	}
}

/* TEXT's paragraphs (split by a blank line) as roff paragraphs. */
static void roff_paragraphs(struct strbuf *out, const char *text)
{
	struct strbuf para = STRBUF_INIT;
	for (const char *p = text; *p;) {
		const char *end = strstr(p, "\n\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		strbuf_reset(&para);
		strbuf_add(&para, p, n);
		roff_text(out, para.buf);
		strbuf_adds(out, end ? "\n.PP\n" : "\n");
		p = end ? end + 2 : p + n;
	}
	strbuf_release(&para);
}

static bool details_for(const struct docgen_details *d, const char *doc_name)
{
	for (size_t i = 0; i < sizeof(d->pages) / sizeof(d->pages[0]) && d->pages[i]; i++)
		if (strcmp(d->pages[i], doc_name) == 0)
			return true;
	return false;
}

/* A command page's DETAILS section, when details.c has any for it. */
static void details_section(struct strbuf *out, const char *doc_name)
{
	bool any = false;
	for (const struct docgen_details *d = docgen_details_table(); d->text; d++) {
		if (!details_for(d, doc_name))
			continue;
		strbuf_adds(out, any ? ".PP\n" : ".SH DETAILS\n");
		roff_paragraphs(out, d->text);
		any = true;
	}
}

static void page_name(const char *doc_name, char *buf, size_t len)
{
	snprintf(buf, len, "iotriage-%s", doc_name);
	for (char *p = buf; *p; p++)
		if (*p == ' ')
			*p = '-';
}

static void choices_text(const struct opt_def *d, struct strbuf *out)
{
	if (!d->v.choices)
		return;
	strbuf_adds(out, " One of:");
	for (const char *const *c = d->v.choices; *c; c++)
		strbuf_addf(out, "%s %s", c == d->v.choices ? "" : ",", *c);
	strbuf_adds(out, ".");
}

static void option_items(struct strbuf *out, const struct opt_def *defs)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++) {
		strbuf_adds(out, ".TP\n");
		if (d->short_name)
			strbuf_addf(out, "\\fB\\-%c\\fR, ", d->short_name);
		strbuf_adds(out, "\\fB\\-\\-");
		roff_text(out, d->long_name);
		strbuf_adds(out, "\\fR");
		if (d->arg) {
			strbuf_adds(out, " \\fI");
			roff_text(out, d->arg);
			strbuf_adds(out, "\\fR");
		}
		strbuf_adds(out, "\n");
		struct strbuf help = STRBUF_INIT;
		strbuf_adds(&help, d->help);
		if (d->v.def && d->v.type != OPT_TYPE_FLAG)
			strbuf_addf(&help, " (default %s)", d->v.def);
		choices_text(d, &help);
		roff_text(out, help.buf);
		strbuf_release(&help);
		strbuf_adds(out, "\n");
	}
}

static void page_head(struct strbuf *out, const char *name, const char *what)
{
	struct strbuf upper = STRBUF_INIT;
	for (const char *p = name; *p; p++)
		strbuf_addch(&upper, (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p));
	strbuf_addf(out, ".TH %s 1 %s \"iotriage %s\" \"iotriage manual\"\n.SH NAME\n", upper.buf, DOC_DATE,
		    IOTRIAGE_VERSION);
	strbuf_release(&upper);
	roff_text(out, name);
	strbuf_adds(out, " \\- ");
	roff_text(out, what);
	strbuf_adds(out, "\n");
}

static const char *command_summary(const char *command)
{
	const struct command *c = command_find(command);
	return c ? c->summary : "";
}

static int write_page(const char *dir, const char *file, const struct strbuf *text)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s.1", dir, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return write_file_atomic(path, text->buf, text->len, 0644);
}

struct man_state {
	const char *dir;
	int error;
};

static void command_page(const char *command, const struct command_doc *doc, void *arg)
{
	struct man_state *st = arg;
	char name[128];
	page_name(doc->name, name, sizeof(name));
	struct strbuf out = STRBUF_INIT;
	page_head(&out, name, strcmp(command, doc->name) == 0 ? command_summary(command) : doc->name);
	strbuf_adds(&out, ".SH SYNOPSIS\n.B iotriage\n");
	roff_text(&out, doc->usage);
	strbuf_adds(&out, "\n.SH DESCRIPTION\n");
	roff_text(&out, doc->summary);
	strbuf_adds(&out, "\n");
	details_section(&out, doc->name);
	if (doc->opts && doc->opts->long_name) {
		strbuf_adds(&out, ".SH OPTIONS\n");
		option_items(&out, doc->opts);
	}
	strbuf_adds(&out, ".SH GLOBAL OPTIONS\n");
	option_items(&out, global_opts_table);
	strbuf_adds(&out, ".SH SEE ALSO\n.BR iotriage (1)\n");
	int r = write_page(st->dir, name, &out);
	if (r < 0 && !st->error)
		st->error = r;
	strbuf_release(&out);
}

static void see_also_entry(const char *command, const struct command_doc *doc, void *arg)
{
	(void)command;
	char name[128];
	page_name(doc->name, name, sizeof(name));
	struct strbuf *see = arg;
	strbuf_adds(see, ".BR ");
	roff_text(see, name);
	strbuf_adds(see, " (1),\n");
}

static void main_page(struct strbuf *out)
{
	page_head(out, "iotriage", "storage performance triage: which layer is losing the performance");
	strbuf_adds(out, ".SH SYNOPSIS\n.B iotriage\n[global options] \\fICOMMAND\\fR [options] [operands]\n"
			 ".SH DESCRIPTION\n");
	roff_text(out, "iotriage walks the isolation method bottom up (the media, the network, the media "
		       "factored out with a RAM disk, the pool) and says which layer loses the performance, "
		       "with figures that say what they measured.");
	strbuf_adds(out, "\n.SH COMMANDS\n");
	for (const struct command *c = commands; c->name; c++) {
		if (c == commands || strcmp(c->group, c[-1].group) != 0) {
			strbuf_adds(out, ".SS ");
			roff_text(out, c->group);
			strbuf_adds(out, "\n");
		}
		strbuf_adds(out, ".TP\n.B ");
		roff_text(out, c->name);
		strbuf_adds(out, "\n");
		roff_text(out, c->summary);
		strbuf_adds(out, "\n");
	}
	strbuf_adds(out, ".SH GLOBAL OPTIONS\n");
	option_items(out, global_opts_table);
	for (const struct docgen_section *s = docgen_main_sections(); s->text; s++) {
		strbuf_adds(out, ".SH ");
		roff_text(out, s->heading);
		strbuf_adds(out, "\n");
		roff_paragraphs(out, s->text);
	}
	strbuf_adds(out, ".SH EXIT STATUS\n0: done, every figure measured; 1: a measurement failed or nothing "
			 "could be measured; 2: bad usage or input; 128+N: interrupted by signal N, after "
			 "cleaning up. fleet: 1 when some hosts failed, 3 when none succeeded.\n.SH SEE ALSO\n");
	struct strbuf see = STRBUF_INIT;
	docgen_each_doc(see_also_entry, &see);
	strbuf_add(out, see.buf, see.len ? see.len - 2 : 0); /* the last ",\n" becomes "\n" */
	strbuf_adds(out, "\n");
	strbuf_release(&see);
}

struct page_search {
	const char *name;
	bool found;
};

static void find_page(const char *command, const struct command_doc *doc, void *arg)
{
	(void)command;
	struct page_search *ps = arg;
	if (strcmp(doc->name, ps->name) == 0)
		ps->found = true;
}

/* Every page a details entry names is a command doc's: a renamed command
 * must not leave its details behind unseen. */
static int details_check(void)
{
	for (const struct docgen_details *d = docgen_details_table(); d->text; d++)
		for (size_t i = 0; i < sizeof(d->pages) / sizeof(d->pages[0]) && d->pages[i]; i++) {
			struct page_search ps = { d->pages[i], false };
			docgen_each_doc(find_page, &ps);
			if (!ps.found) {
				fprintf(stderr, "iotriage-docgen: details for '%s', which is no command's page\n",
					d->pages[i]);
				return -ENOENT;
			}
		}
	return 0;
}

int docgen_man(const char *dir)
{
	int checked = details_check();
	if (checked < 0)
		return checked;
	struct strbuf out = STRBUF_INIT;
	main_page(&out);
	int r = write_page(dir, "iotriage", &out);
	strbuf_release(&out);
	struct man_state st = { .dir = dir };
	docgen_each_doc(command_page, &st);
	return r < 0 ? r : st.error;
}
