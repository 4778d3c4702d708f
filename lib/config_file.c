/* SPDX-License-Identifier: ISC */
/*
 * Configuration files: FRR syntax, one command per line, run through the command engine on a
 * file vty with FRR's walk-up (a line that does not fit the current node is tried in the
 * enclosing ones). Every line edits ONE candidate; the file is committed once at the end, so
 * a file is applied completely or not at all.
 *
 * A line the engine or a handler refuses stops the load there ("FILE:LINE: message"). A
 * problem only the whole-tree validation sees (a must between two settings, say) is pinned on
 * a line afterwards, only when the file is already known to be bad: the file is replayed and
 * the candidate validated after each line that edited the node at fault (or a node above or
 * below it); the line reported is the one after which the configuration became invalid and
 * stayed so. When that finds nothing (a constraint reaching across the tree), a bisection over
 * prefixes of the file finds a line after which it turned invalid: log2(lines) replays, with
 * one validation each, instead of one validation per line.
 */
#include "lib/compat.h"

#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"

struct cf_run {
	const char *path;
	struct sbuf *errors;
	unsigned stop_after; /* execute lines 1..stop_after only (0: all) */
	/* Replay: validate after each line that edited a node related to err_path. */
	const char *err_path;
	bool line_relevant;
	bool valid;	   /* the candidate was valid at the last validation */
	unsigned bad_line; /* where it last became invalid (0: never) */
	struct nb_error bad_err;
};

/* a is b, or an ancestor of b, in data path terms ("/x:a/b[k='v']" above "/x:a/b[k='v']/c"). */
static bool path_covers(const char *a, const char *b)
{
	size_t n = strlen(a);

	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/' || b[n] == '[');
}

static void edit_seen(const char *xpath, void *arg)
{
	struct cf_run *r = arg;

	if (path_covers(xpath, r->err_path) || path_covers(r->err_path, xpath))
		r->line_relevant = true;
}

static bool is_caret_line(const char *s, size_t n)
{
	bool caret = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '^')
			caret = true;
		else if (s[i] != ' ' && s[i] != '\t')
			return false;
	}
	return caret;
}

/* The handler's or engine's message ("% Unknown command: ..."), one line, without "% ". */
static void report_line(struct cf_run *r, unsigned lineno, const struct sbuf *out, const char *line)
{
	const char *p = out->buf ? out->buf : "";
	bool any = false;

	sbuf_printf(r->errors, "%s:%u: ", r->path, lineno);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n && !is_caret_line(p, n)) {
			bool pct = n >= 2 && p[0] == '%' && p[1] == ' ';

			sbuf_printf(r->errors, "%s%.*s", any ? "; " : "", (int)(pct ? n - 2 : n),
				    pct ? p + 2 : p);
			any = true;
		}
		p += nl ? n + 1 : n;
	}
	if (!any)
		sbuf_printf(r->errors, "command failed: %s", line);
	sbuf_puts(r->errors, "\n");
}

static const char *first_word(const char *line, char *buf, size_t size)
{
	size_t n = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	while (line[n] && line[n] != ' ' && line[n] != '\t' && n + 1 < size) {
		buf[n] = line[n];
		n++;
	}
	buf[n] = '\0';
	return buf;
}

static int cf_exec_lines(struct cf_run *r, FILE *f, struct nb_candidate *cand)
{
	struct vty *vty = vty_new(-1);
	char *line = NULL, word[16];
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	int ret = 0;

	vty->candidate = cand;
	vty->source_name = r->path;
	cmd_enter_node(vty, CONFIG_NODE);
	r->valid = true;
	r->bad_line = 0;
	if (r->err_path)
		nb_cli_set_edit_observer(edit_seen, r);
	while ((len = getline(&line, &cap, f)) >= 0) {
		int rc;

		if (r->stop_after && lineno >= r->stop_after)
			break;
		lineno++;
		r->line_relevant = false;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		vty->source_line = lineno;
		first_word(line, word, sizeof(word));
		/* A file stays in configuration mode: `end` (printed by show running-config) goes
		 * back to the top, and `exit` at the top has nothing to leave. */
		if (!strcmp(word, "end")) {
			cmd_enter_node(vty, CONFIG_NODE);
			continue;
		}
		if ((!strcmp(word, "exit") || !strcmp(word, "quit")) && vty->node == CONFIG_NODE)
			continue;
		sbuf_reset(&vty->out);
		rc = cmd_execute(vty, line, true);
		if (rc != CMD_SUCCESS && rc != CMD_WARNING) {
			report_line(r, lineno, &vty->out, line);
			ret = -1;
			break;
		}
		if (!cmd_node_is_config(vty->node))
			cmd_enter_node(vty, CONFIG_NODE);
		if (r->err_path && r->line_relevant) {
			struct nb_error e;
			bool valid;

			memset(&e, 0, sizeof(e));
			valid = nb_candidate_validate(cand, &e) == 0;
			if (!valid && r->valid) {
				r->bad_line = lineno;
				r->bad_err = e;
			}
			r->valid = valid;
		}
	}
	nb_cli_set_edit_observer(NULL, NULL);
	free(line);
	vty->candidate = NULL;
	/* The file vty never held configuration mode: leave without the engine's leave hook. */
	vty->node = ENABLE_NODE;
	vty_free(vty);
	return ret;
}

/* Execute lines 1..k into a fresh candidate; is the result valid? */
static bool prefix_valid(const char *path, FILE *f, unsigned k, struct nb_error *err)
{
	struct nb_candidate *cand = nb_candidate_new();
	struct sbuf scratch;
	struct cf_run r = { .path = path, .errors = &scratch, .stop_after = k };
	bool valid;

	sbuf_init(&scratch);
	rewind(f);
	memset(err, 0, sizeof(*err));
	valid = cf_exec_lines(&r, f, cand) == 0 && nb_candidate_validate(cand, err) == 0;
	sbuf_free(&scratch);
	nb_candidate_free(cand);
	return valid;
}

static unsigned count_lines(FILE *f)
{
	unsigned n = 0;
	int c, last = '\n';

	rewind(f);
	while ((c = getc(f)) != EOF) {
		if (c == '\n')
			n++;
		last = c;
	}
	return last == '\n' ? n : n + 1;
}

/* The whole-file validation failed with err: find the line to blame. */
static void locate_error(const char *path, FILE *f, const struct nb_error *err, struct sbuf *errors)
{
	struct nb_error e;
	unsigned lo, hi;

	if (err->xpath[0]) {
		struct nb_candidate *cand = nb_candidate_new();
		struct sbuf scratch;
		struct cf_run r = { .path = path, .errors = &scratch, .err_path = err->xpath };

		sbuf_init(&scratch);
		rewind(f);
		cf_exec_lines(&r, f, cand);
		sbuf_free(&scratch);
		nb_candidate_free(cand);
		if (r.bad_line && !r.valid) {
			sbuf_printf(errors, "%s:%u: %s\n", path, r.bad_line, r.bad_err.msg);
			return;
		}
	}
	/* Bisection: lines 1..lo give a valid configuration, 1..hi an invalid one. */
	lo = 0;
	hi = count_lines(f);
	if (hi == 0 || prefix_valid(path, f, hi, &e)) {
		sbuf_printf(errors, "%s: %s\n", path, err->msg);
		return;
	}
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (prefix_valid(path, f, mid, &e))
			lo = mid;
		else
			hi = mid;
	}
	prefix_valid(path, f, hi, &e);
	sbuf_printf(errors, "%s:%u: %s\n", path, hi, e.msg[0] ? e.msg : err->msg);
}

static int config_file_process(const char *path, struct sbuf *errors, bool apply)
{
	struct cf_run r = { .path = path, .errors = errors };
	struct nb_candidate *cand;
	struct nb_error err;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (!f) {
		sbuf_printf(errors, "%s: cannot open the configuration file: %s\n", path,
			    strerror(errno));
		return -1;
	}
	cand = nb_candidate_new();
	ret = cf_exec_lines(&r, f, cand);
	if (ret == 0) {
		memset(&err, 0, sizeof(err));
		ret = apply ? nb_candidate_commit(cand, &err) : nb_candidate_validate(cand, &err);
		if (ret < 0 && err.validation)
			locate_error(path, f, &err, errors);
		else if (ret < 0)
			sbuf_printf(errors, "%s: %s\n", path, err.msg);
	}
	nb_candidate_free(cand);
	fclose(f);
	return ret < 0 ? -1 : 0;
}

int nb_config_load_file(const char *path, struct sbuf *errors)
{
	return config_file_process(path, errors, true);
}

int nb_config_check_file(const char *path, struct sbuf *errors)
{
	return config_file_process(path, errors, false);
}
