/* SPDX-License-Identifier: ISC */
/*
 * Output filters after a show command, as an FRR (or Cisco) operator types them:
 *   show ... | include REGEX   only the lines REGEX matches
 *   show ... | exclude REGEX   only the lines it does not match
 *   show ... | begin REGEX     from the first line it matches to the end
 *   show ... | count [REGEX]   how many lines (that it matches) the output has
 * REGEX is a POSIX extended regular expression (as FRR's `| include`), the rest of the line
 * after the action, spaces included. The daemon runs the command as usual; vtysh filters the
 * reply. Only show commands (`show`, `do show`, abbreviated or not) take a filter: elsewhere
 * " | " can be part of a value (a description), which must reach bgpd unchanged.
 */
#include "lib/compat.h"

#include <regex.h>

#include "lib/command.h"
#include "vtysh/vtysh.h"

enum filter_kind { FILTER_INCLUDE, FILTER_EXCLUDE, FILTER_BEGIN, FILTER_COUNT };

struct filter {
	enum filter_kind kind;
	bool has_re;
	regex_t re;
};

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The word at p (up to a blank or the end): its length. */
static size_t word_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != ' ' && p[n] != '\t')
		n++;
	return n;
}

/* Is the word at p (n bytes) an abbreviation of keyword, at least min bytes long? */
static bool abbrev_of(const char *p, size_t n, const char *keyword, size_t min)
{
	return n >= min && n <= strlen(keyword) && strncmp(p, keyword, n) == 0;
}

/* `show ...` or `do show ...`, the words abbreviated as the command engine allows. */
static bool is_show(const char *line)
{
	const char *p = skip_blanks(line);
	size_t n = word_len(p);

	if (abbrev_of(p, n, "do", 2)) {
		p = skip_blanks(p + n);
		n = word_len(p);
	}
	return abbrev_of(p, n, "show", 2);
}

/* The '|' that starts the filter: the first one standing alone as a word. */
static const char *find_pipe(const char *line)
{
	for (const char *p = strchr(line, '|'); p; p = strchr(p + 1, '|'))
		if (p > line && (p[-1] == ' ' || p[-1] == '\t') &&
		    (p[1] == '\0' || p[1] == ' ' || p[1] == '\t'))
			return p;
	return NULL;
}

/* Parse what follows the pipe into f. 0, or -1 after printing why to out. */
static int parse_action(const char *p, struct filter *f, FILE *out)
{
	static const struct {
		const char *word;
		enum filter_kind kind;
	} actions[] = {
		{ "include", FILTER_INCLUDE },
		{ "exclude", FILTER_EXCLUDE },
		{ "begin", FILTER_BEGIN },
		{ "count", FILTER_COUNT },
	};
	size_t n, i;
	const char *re;
	int err;

	p = skip_blanks(p);
	n = word_len(p);
	for (i = 0; i < array_size(actions); i++)
		if (abbrev_of(p, n, actions[i].word, 1))
			break;
	if (i == array_size(actions)) {
		fprintf(out,
			"%% Unknown output filter '%.*s' after '|': use include, exclude, "
			"begin or count, then a regular expression\n",
			(int)n, p);
		return -1;
	}
	f->kind = actions[i].kind;
	re = skip_blanks(p + n);
	if (!*re) {
		if (f->kind == FILTER_COUNT)
			return 0;
		fprintf(out, "%% '| %s' needs a regular expression after it\n", actions[i].word);
		return -1;
	}
	err = regcomp(&f->re, re, REG_EXTENDED | REG_NOSUB);
	if (err) {
		char why[128];

		regerror(err, &f->re, why, sizeof(why));
		fprintf(out, "%% Bad regular expression '%s': %s\n", re, why);
		return -1;
	}
	f->has_re = true;
	return 0;
}

static bool line_matches(const struct filter *f, const char *line, size_t n)
{
	char *copy;
	bool match;

	if (!f->has_re)
		return true;
	copy = XSTRNDUP(MTYPE_VTYSH, line, n);
	match = regexec(&f->re, copy, 0, NULL, 0) == 0;
	XFREE(MTYPE_VTYSH, copy);
	return match;
}

static void filter_text(const struct filter *f, const char *text, FILE *out)
{
	bool begun = false;
	unsigned long count = 0;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		bool match = line_matches(f, text, n);
		bool print = false;

		switch (f->kind) {
		case FILTER_INCLUDE:
			print = match;
			break;
		case FILTER_EXCLUDE:
			print = !match;
			break;
		case FILTER_BEGIN:
			begun = begun || match;
			print = begun;
			break;
		case FILTER_COUNT:
			count += match;
			break;
		}
		if (print) {
			fwrite(text, 1, n, out);
			fputc('\n', out);
		}
		text += nl ? n + 1 : n;
	}
	if (f->kind == FILTER_COUNT)
		fprintf(out, "Number of lines which match regexp = %lu\n", count);
}

int vtysh_execute(struct vtysh_client *c, const char *line, FILE *out)
{
	const char *pipe = is_show(line) ? find_pipe(line) : NULL;
	struct filter f = { .has_re = false };
	struct sbuf text;
	char *command;
	int status;

	if (!pipe)
		return vtysh_request(c, 'x', line, out, NULL);
	if (parse_action(pipe + 1, &f, out) < 0) {
		fflush(out);
		return CMD_WARNING_CONFIG_FAILED;
	}
	command = XSTRNDUP(MTYPE_VTYSH, line, (size_t)(pipe - line));
	sbuf_init(&text);
	status = vtysh_request(c, 'x', command, NULL, &text);
	if (status >= 0) {
		/* A refused command's message (the caret under a typo) is shown whole. */
		if (vtysh_status_ok(status))
			filter_text(&f, text.buf ? text.buf : "", out);
		else if (text.buf)
			fputs(text.buf, out);
		fflush(out);
	}
	sbuf_free(&text);
	XFREE(MTYPE_VTYSH, command);
	if (f.has_re)
		regfree(&f.re);
	return status;
}
