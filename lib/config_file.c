/* SPDX-License-Identifier: ISC */
/*
 * Configuration files: FRR syntax, one command per line, run through the command engine on a
 * file vty with FRR's walk-up (a line that does not fit the current node is tried in the
 * enclosing ones). Every line edits ONE candidate; the file is committed once at the end, so
 * a file is applied completely or not at all.
 *
 * The candidate starts empty, not as a copy of running: the file is the whole configuration.
 * At start-up running is empty anyway; on a reload (SIGHUP, `clear configuration reload`)
 * the commit's diff against running is exactly what the file changed, so only that reaches
 * bgpd and untouched sessions stay up.
 *
 * A line the engine or a handler refuses is reported ("FILE:LINE: message") and the load goes
 * on to the end of the file, so one run (`bgpd -C`, start-up, a reload) names every bad line,
 * in order; nothing is committed when any line was refused. A problem only the whole-tree
 * validation sees (a must between two settings, say) is pinned on
 * a line afterwards, only when the file is already known to be bad: the file is replayed and
 * the candidate validated after each line that edited the node at fault (or a node above or
 * below it); the line reported is the one after which the configuration became invalid and
 * stayed so. When that finds nothing (a constraint reaching across the tree), a bisection over
 * prefixes of the file finds a line after which it turned invalid: log2(lines) replays, with
 * one validation each, instead of one validation per line.
 *
 * A file whose name ends in .json, or whose first character is '{', is libyang's JSON
 * encoding of the models instead (lib/config_json.c); it takes the same path from the
 * candidate on.
 */
#include "lib/compat.h"

#include <limits.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/northbound_private.h"
#include "lib/vty.h"
#include "lib/yang.h"

DEFINE_MTYPE(NB_CONFIG_FILE, "Configuration file");

static char *startup_path; /* MTYPE_NB_CONFIG_FILE, absolute */

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

static void edit_seen(const char *xpath, void *arg)
{
	struct cf_run *r = arg;

	if (yang_path_covers(xpath, r->err_path) || yang_path_covers(r->err_path, xpath))
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

/* Text from the file goes to terminals and logs: control bytes are written as \xNN. */
static void put_safe(struct sbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			sbuf_printf(sb, "\\x%02x", c);
		else
			sbuf_put(sb, s + i, 1);
	}
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

			if (any)
				sbuf_puts(r->errors, "; ");
			put_safe(r->errors, pct ? p + 2 : p, pct ? n - 2 : n);
			any = true;
		}
		p += nl ? n + 1 : n;
	}
	if (!any) {
		sbuf_puts(r->errors, "command failed: ");
		put_safe(r->errors, line, strlen(line));
	}
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

static bool is_show_header(const char *line)
{
	size_t n;

	while (*line == ' ' || *line == '\t')
		line++;
	n = strlen(line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	return (n == 25 && !strncmp(line, "Building configuration...", n)) ||
	       (n == 22 && !strncmp(line, "Current configuration:", n));
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
		/* The parser sees a C string: a NUL would silently cut the line there and
		 * `password abc\0REST` would load as `password abc`. */
		if (memchr(line, '\0', (size_t)len)) {
			sbuf_printf(r->errors,
				    "%s:%u: contains a NUL byte; nothing was applied (remove the "
				    "byte: the file must be text)\n",
				    r->path, lineno);
			ret = -1;
			continue;
		}
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
		/* The header `show running-config` prints (skua's and FRR's vtysh): a pasted
		 * printout loads as it is. */
		if (vty->node == CONFIG_NODE && is_show_header(line))
			continue;
		sbuf_reset(&vty->out);
		rc = cmd_execute(vty, line, true);
		if (rc != CMD_SUCCESS && rc != CMD_WARNING) {
			/* Go on: the operator fixes every line of one report at once. */
			report_line(r, lineno, &vty->out, line);
			ret = -1;
			continue;
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
	struct nb_candidate *cand = nb_candidate_new_empty();
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
		struct nb_candidate *cand = nb_candidate_new_empty();
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

enum cf_mode { CF_CHECK, CF_LOAD, CF_RELOAD };

/* Validate (CF_CHECK) or commit cand; a refusal goes to errors, its line found by locate. */
static int cf_finish(const char *path, struct nb_candidate *cand, enum cf_mode mode, uint32_t *txid,
		     struct nb_error *err)
{
	memset(err, 0, sizeof(*err));
	*txid = 0;
	/* bgpd -C checks the file as start-up would load it */
	nb_candidate_set_origin(cand, mode == CF_RELOAD ? NB_SRC_RELOAD : NB_SRC_FILE, NULL, path);
	if (mode == CF_CHECK)
		return nb_candidate_validate(cand, err);
	return nb_candidate_commit_id(cand, txid, err);
}

static int cf_text(const char *path, enum cf_mode mode, uint32_t *txid, struct sbuf *errors)
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
	cand = nb_candidate_new_empty();
	ret = cf_exec_lines(&r, f, cand);
	if (ret == 0) {
		ret = cf_finish(path, cand, mode, txid, &err);
		if (ret < 0 && err.validation)
			locate_error(path, f, &err, errors);
		else if (ret < 0)
			sbuf_printf(errors, "%s: %s\n", path, err.msg);
	}
	nb_candidate_free(cand);
	fclose(f);
	return ret < 0 ? -1 : 0;
}

static int cf_json(const char *path, enum cf_mode mode, uint32_t *txid, struct sbuf *errors)
{
	struct lyd_node *tree = NULL;
	struct nb_candidate *cand;
	struct nb_error err;
	size_t len;
	char *text;
	int ret;

	text = nb_file_read(path, &len, errors);
	if (!text)
		return -1;
	if (strlen(text) != len) {
		sbuf_printf(errors, "%s: a NUL byte in the file; not a JSON configuration\n", path);
		XFREE(MTYPE_SBUF, text);
		return -1;
	}
	if (nb_json_parse(path, text, &tree, errors) < 0) {
		XFREE(MTYPE_SBUF, text);
		return -1;
	}
	cand = nb_candidate_new_from(tree);
	lyd_free_all(tree);
	ret = cf_finish(path, cand, mode, txid, &err);
	if (ret < 0) {
		unsigned line = err.validation && err.xpath[0]
					? nb_json_line_of_path(text, err.xpath, err.duplicate)
					: 0;

		if (line)
			sbuf_printf(errors, "%s:%u: %s\n", path, line, err.msg);
		else
			sbuf_printf(errors, "%s: %s\n", path, err.msg);
	}
	nb_candidate_free(cand);
	XFREE(MTYPE_SBUF, text);
	return ret < 0 ? -1 : 0;
}

static int config_file_process(const char *path, enum cf_mode mode, uint32_t *txid,
			       struct sbuf *errors)
{
	uint32_t scratch;

	if (!txid)
		txid = &scratch;
	*txid = 0;
	if (access(path, R_OK) != 0) {
		sbuf_printf(errors, "%s: cannot open the configuration file: %s\n", path,
			    strerror(errno));
		return -1;
	}
	return nb_config_is_json(path) ? cf_json(path, mode, txid, errors)
				       : cf_text(path, mode, txid, errors);
}

int nb_config_load_file(const char *path, struct sbuf *errors)
{
	return config_file_process(path, CF_LOAD, NULL, errors);
}

int nb_config_check_file(const char *path, struct sbuf *errors)
{
	return config_file_process(path, CF_CHECK, NULL, errors);
}

int nb_config_reload(const char *path, uint32_t *txid, struct sbuf *errors)
{
	return config_file_process(path, CF_RELOAD, txid, errors);
}

/* ---- the startup file ------------------------------------------------------------------ */

void nb_config_set_startup(const char *path)
{
	char cwd[PATH_MAX];

	XFREE(MTYPE_NB_CONFIG_FILE, startup_path);
	if (!path)
		return;
	/* Absolute now: a daemon chdirs to / when it goes to the background, and SIGHUP or
	 * `write memory` come later. The file itself need not exist yet. */
	if (path[0] != '/' && getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(cwd) + strlen(path) + 2;

		startup_path = XMALLOC(MTYPE_NB_CONFIG_FILE, n);
		snprintf(startup_path, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", path);
	} else {
		startup_path = XSTRDUP(MTYPE_NB_CONFIG_FILE, path);
	}
}

const char *nb_config_startup(void)
{
	return startup_path;
}

void nb_config_sighup(void)
{
	struct sbuf errors;
	uint32_t txid;

	if (!startup_path) {
		log_warn("SIGHUP: no configuration file to reload");
		return;
	}
	sbuf_init(&errors);
	if (nb_config_reload(startup_path, &txid, &errors) < 0) {
		const char *p = errors.buf ? errors.buf : "";

		/* One log line per error line: "FILE:LINE: reason". */
		while (*p) {
			const char *nl = strchr(p, '\n');
			int n = nl ? (int)(nl - p) : (int)strlen(p);

			log_err("reload refused, configuration unchanged: %.*s", n, p);
			p += nl ? n + 1 : n;
		}
	} else if (txid) {
		log_notice("configuration reloaded from %s (transaction %u)", startup_path, txid);
	} else {
		log_notice("configuration reloaded from %s: no changes", startup_path);
	}
	sbuf_free(&errors);
}
