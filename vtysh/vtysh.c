/* SPDX-License-Identifier: ISC */
/*
 * The interactive shell on libedit (FRR vtysh behaviour): the prompt comes from the daemon
 * after every command, `?` lists what may come next without being inserted, TAB completes
 * keywords, Ctrl-Z is `end`, Ctrl-C drops the line, history lives in memory and in
 * ~/.history_skua when that file can be written, without the lines that set passwords
 * (vtysh/vtysh_history.h).
 */
#include "lib/compat.h"

#include <histedit.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "lib/command.h"
#include "vtysh/vtysh.h"
#include "vtysh/vtysh_history.h"

#define HISTORY_FILE ".history_skua"
#define HISTORY_SIZE 1000

struct vtysh_shell {
	struct vtysh_client *client;
	EditLine *el;
	History *hist;
	char prompt[256];
	bool lost;	    /* the connection broke inside a key binding */
	struct termios tio; /* the terminal as we found it */
	bool have_tio;
};

/*
 * Ctrl-Z and Ctrl-C must reach the editor as keys while a line is edited (FRR: `end`, drop
 * the line), but keep their usual meaning while a command runs. libedit copies the terminal's
 * special characters into its edit mode only when it sees them change, so they are switched
 * off on the terminal itself around each el_gets() (libedit then takes them over).
 */
static void tty_keys_for_editing(struct vtysh_shell *sh, bool editing)
{
	struct termios t;

	if (!sh->have_tio || tcgetattr(STDIN_FILENO, &t) != 0)
		return;
	t.c_cc[VSUSP] = editing ? _POSIX_VDISABLE : sh->tio.c_cc[VSUSP];
	t.c_cc[VINTR] = editing ? _POSIX_VDISABLE : sh->tio.c_cc[VINTR];
	tcsetattr(STDIN_FILENO, TCSADRAIN, &t);
}

static struct vtysh_shell *shell_of(EditLine *el)
{
	void *data = NULL;

	el_get(el, EL_CLIENTDATA, &data);
	return data;
}

static char *prompt_fn(EditLine *el)
{
	return shell_of(el)->prompt;
}

/* Ask the daemon; on a broken connection, say so and let the main loop end. */
static int ask(struct vtysh_shell *sh, char kind, const char *line, FILE *out, struct sbuf *text)
{
	int status;

	if (sh->lost)
		return -EPIPE;
	status = kind == 'x' && out ? vtysh_execute(sh->client, line, out)
				    : vtysh_request(sh->client, kind, line, out, text);
	if (status < 0) {
		fprintf(stderr, "\nvtysh: lost the connection to bgpd at %s: %s (did bgpd exit?)\n",
			sh->client->path, strerror(-status));
		sh->lost = true;
	}
	return status;
}

static void refresh_prompt(struct vtysh_shell *sh)
{
	struct sbuf text;

	sbuf_init(&text);
	if (ask(sh, 'p', "", NULL, &text) >= 0 && text.buf)
		snprintf(sh->prompt, sizeof(sh->prompt), "%s", text.buf);
	sbuf_free(&text);
}

static char *line_dup(const LineInfo *li, bool to_cursor)
{
	const char *end = to_cursor ? li->cursor : li->lastchar;

	return XSTRNDUP(MTYPE_VTYSH, li->buffer, (size_t)(end - li->buffer));
}

/* `?`: the help list goes under the line, then the prompt and the line come back unchanged. */
static unsigned char describe_fn(EditLine *el, int ch)
{
	struct vtysh_shell *sh = shell_of(el);
	char *line = line_dup(el_line(el), false);
	struct sbuf text;

	sbuf_init(&text);
	fputc('\n', stdout);
	if (ask(sh, '?', line, NULL, &text) >= 0 && text.buf)
		fputs(text.buf, stdout);
	fflush(stdout);
	sbuf_free(&text);
	XFREE(MTYPE_VTYSH, line);
	return sh->lost ? CC_EOF : CC_REDISPLAY;
}

static int terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static void print_columns(char **v, int n)
{
	int width = 0, cols;

	for (int i = 0; i < n; i++)
		width = MAX(width, (int)strlen(v[i]));
	width += 2;
	cols = MAX(1, terminal_width() / width);
	fputc('\n', stdout);
	for (int i = 0; i < n; i++) {
		bool last = (i + 1) % cols == 0 || i + 1 == n;

		if (last)
			fprintf(stdout, "%s\n", v[i]);
		else
			fprintf(stdout, "%-*s", width, v[i]);
	}
	fflush(stdout);
}

/* TAB: one candidate completes the word (and adds a space); several complete their common
 * prefix, or are listed when there is nothing to add. */
static unsigned char complete_fn(EditLine *el, int ch)
{
	struct vtysh_shell *sh = shell_of(el);
	const LineInfo *li = el_line(el);
	char *line = line_dup(li, true), *v[256], *p;
	const char *word = line + strlen(line);
	size_t wlen, common;
	struct sbuf text;
	int n = 0, status;
	unsigned char rc = CC_ERROR;

	while (word > line && word[-1] != ' ' && word[-1] != '\t')
		word--;
	wlen = strlen(word);
	sbuf_init(&text);
	status = ask(sh, 't', line, NULL, &text);
	if (status == CMD_SUCCESS && text.buf) {
		for (p = strtok(text.buf, "\n"); p && n < (int)array_size(v);
		     p = strtok(NULL, "\n"))
			if (strncmp(p, word, wlen) == 0)
				v[n++] = p;
	}
	if (n == 1) {
		el_insertstr(el, v[0] + wlen);
		el_insertstr(el, " ");
		rc = CC_REFRESH;
	} else if (n > 1) {
		common = strlen(v[0]);
		for (int i = 1; i < n; i++) {
			size_t k = 0;

			while (k < common && v[i][k] == v[0][k])
				k++;
			common = k;
		}
		if (common > wlen) {
			char *add = XSTRNDUP(MTYPE_VTYSH, v[0] + wlen, common - wlen);

			el_insertstr(el, add);
			XFREE(MTYPE_VTYSH, add);
			rc = CC_REFRESH;
		} else {
			print_columns(v, n);
			rc = CC_REDISPLAY;
		}
	}
	sbuf_free(&text);
	XFREE(MTYPE_VTYSH, line);
	return sh->lost ? CC_EOF : rc;
}

/* Ctrl-Z: `end`, whatever is on the line is dropped (FRR). */
static unsigned char end_fn(EditLine *el, int ch)
{
	struct vtysh_shell *sh = shell_of(el);
	const LineInfo *li = el_line(el);

	el_cursor(el, (int)(li->lastchar - li->cursor));
	el_deletestr(el, (int)(li->lastchar - li->buffer));
	fputs("^Z\n", stdout);
	ask(sh, 'x', "end", stdout, NULL);
	refresh_prompt(sh);
	return sh->lost ? CC_EOF : CC_REDISPLAY;
}

/* Ctrl-C: drop the line, start a new one. */
static unsigned char cancel_fn(EditLine *el, int ch)
{
	const LineInfo *li = el_line(el);

	el_cursor(el, (int)(li->lastchar - li->cursor));
	el_deletestr(el, (int)(li->lastchar - li->buffer));
	fputs("^C\n", stdout);
	fflush(stdout);
	return CC_REDISPLAY;
}

static char *history_path(void)
{
	const char *home = getenv("HOME");
	size_t n;
	char *path;

	if (!home || !*home)
		return NULL;
	n = strlen(home) + sizeof(HISTORY_FILE) + 1;
	path = XMALLOC(MTYPE_VTYSH, n);
	snprintf(path, n, "%s/%s", home, HISTORY_FILE);
	return path;
}

static void shell_setup(struct vtysh_shell *sh)
{
	HistEvent hev;

	sh->hist = history_init();
	history(sh->hist, &hev, H_SETSIZE, HISTORY_SIZE);
	history(sh->hist, &hev, H_SETUNIQUE, 1);
	sh->el = el_init("vtysh", stdin, stdout, stderr);
	el_set(sh->el, EL_CLIENTDATA, sh);
	el_set(sh->el, EL_EDITOR, "emacs");
	el_set(sh->el, EL_SIGNAL, 1);
	el_set(sh->el, EL_PROMPT, prompt_fn);
	el_set(sh->el, EL_HIST, history, sh->hist);
	/* Ctrl-Z and Ctrl-C are keys while a line is edited (see tty_keys_for_editing()). */
	el_set(sh->el, EL_SETTY, "-d", "-susp", "-intr", NULL);
	/* The wide variant: libedit's narrow EL_ADDFN duplicates the strings and never frees
	 * them (a leak report in every sanitizer run). */
	el_wset(sh->el, EL_ADDFN, L"skua-describe", L"List what may come next", describe_fn);
	el_wset(sh->el, EL_ADDFN, L"skua-complete", L"Complete the word", complete_fn);
	el_wset(sh->el, EL_ADDFN, L"skua-end", L"Leave configuration mode", end_fn);
	el_wset(sh->el, EL_ADDFN, L"skua-cancel", L"Drop the line", cancel_fn);
	el_set(sh->el, EL_BIND, "?", "skua-describe", NULL);
	el_set(sh->el, EL_BIND, "^I", "skua-complete", NULL);
	el_set(sh->el, EL_BIND, "^Z", "skua-end", NULL);
	el_set(sh->el, EL_BIND, "^C", "skua-cancel", NULL);
}

int vtysh_interactive(struct vtysh_client *c)
{
	struct vtysh_shell sh = { .client = c };
	char *hpath = history_path();
	int rc = 0;
	HistEvent hev;

	sh.have_tio = tcgetattr(STDIN_FILENO, &sh.tio) == 0;
	shell_setup(&sh);
	if (hpath)
		vtysh_history_load(sh.hist, hpath);
	refresh_prompt(&sh);
	while (!sh.lost) {
		int count = 0, status;
		const char *in;
		char *line, *end;

		tty_keys_for_editing(&sh, true);
		in = el_gets(sh.el, &count);
		tty_keys_for_editing(&sh, false);
		if (!in) {
			if (count < 0 && errno == EINTR)
				continue;
			if (!sh.lost)
				fputc('\n', stdout);
			break;
		}
		line = XSTRDUP(MTYPE_VTYSH, in);
		end = line + strlen(line);
		while (end > line && (end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		if (line[strspn(line, " \t")] == '\0') {
			XFREE(MTYPE_VTYSH, line);
			continue;
		}
		if (!vtysh_history_is_secret(line))
			history(sh.hist, &hev, H_ENTER, line);
		status = ask(&sh, 'x', line, stdout, NULL);
		XFREE(MTYPE_VTYSH, line);
		if (status == CMD_CLOSE)
			break;
		refresh_prompt(&sh);
	}
	if (sh.lost)
		rc = 1;
	/* Best effort: a history file that cannot be written is not worth an error. */
	if (hpath)
		(void)vtysh_history_save(sh.hist, hpath);
	XFREE(MTYPE_VTYSH, hpath);
	el_end(sh.el);
	history_end(sh.hist);
	if (sh.have_tio)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &sh.tio);
	return rc;
}
