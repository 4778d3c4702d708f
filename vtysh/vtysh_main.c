/* SPDX-License-Identifier: ISC */
/*
 * vtysh: options and the batch modes.
 *   vtysh [--vty-socket PATH] [-E] [-c CMD]... [-f FILE] [-b [--config FILE]]
 * -c runs each command in order and stops at the first failure (exit status 1), as FRR's
 * vtysh does; -f/-b send a file in configuration mode and report every failing line as
 * FILE:LINE; with stdin not a terminal, each line of stdin is a command (all run; exit
 * status 1 when one failed). -E echoes each command after the prompt, as a terminal would
 * show it. There is no pager: output goes straight to stdout (`terminal length 0` is
 * accepted and changes nothing).
 */
#include "lib/compat.h"

#include <getopt.h>
#include <limits.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/vty.h"
#include "vtysh/vtysh.h"

#define DEFAULT_CONFIG "/etc/skua/bgpd.conf"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: vtysh [OPTION]...\n"
		"The shell of skua's bgpd.\n\n"
		"  -c, --command CMD     run CMD and exit (repeatable: in order, stopping at\n"
		"                        the first failure; a CMD ending in '?' lists help)\n"
		"  -E, --echo            print the prompt and each command before its output\n"
		"                        (with -c and with commands from stdin)\n"
		"  -f, --inputfile FILE  apply FILE in configuration mode\n"
		"  -b, --boot            apply the saved configuration (see --config)\n"
		"      --config FILE     the saved configuration (default %s)\n"
		"      --vty-socket PATH bgpd's vty socket (default %s; also --vty_socket,\n"
		"                        FRR's spelling, but the socket itself, not its "
		"directory)\n"
		"      --version         print the version\n"
		"  -h, --help            this text\n\n"
		"Without -c/-f/-b: an interactive shell when stdin is a terminal, else every line\n"
		"of stdin is a command. Exit status 1 when a command failed. Output is never\n"
		"paged; pipe it to less(1) if you want a pager.\n",
		DEFAULT_CONFIG, VTY_DEFAULT_SOCKET);
}

/* Print text with a prefix on its first line and the continuation lines aligned under it,
 * so a caret line still points at the right word. */
static void print_prefixed(FILE *fp, const char *prefix, const char *text)
{
	size_t plen = strlen(prefix);
	bool first = true;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);

		if (first)
			fputs(prefix, fp);
		else
			fprintf(fp, "%*s", (int)plen, "");
		fwrite(text, 1, n, fp);
		fputc('\n', fp);
		first = false;
		text += n + (nl ? 1 : 0);
	}
}

static bool is_blank_or_comment(const char *line)
{
	line += strspn(line, " \t");
	return *line == '\0' || *line == '!' || *line == '#';
}

static void chomp(char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
}

static bool echo_commands; /* -E */

/* -E: "r1(config)# router bgp 1", as the command would look typed at the prompt. */
static void echo_line(struct vtysh_client *c, const char *line)
{
	struct sbuf prompt;

	sbuf_init(&prompt);
	if (vtysh_request(c, 'p', "", NULL, &prompt) >= 0 && prompt.buf)
		fputs(prompt.buf, stdout);
	fprintf(stdout, "%s\n", line);
	fflush(stdout);
	sbuf_free(&prompt);
}

/* One command line, output to stdout; "cmd ?" asks for the help list. Returns the status. */
static int run_line(struct vtysh_client *c, const char *line)
{
	size_t n = strlen(line);
	int status;

	if (echo_commands)
		echo_line(c, line);
	if (n && line[n - 1] == '?') {
		char *head = XSTRNDUP(MTYPE_VTYSH, line, n - 1);

		status = vtysh_request(c, '?', head, stdout, NULL);
		XFREE(MTYPE_VTYSH, head);
	} else {
		status = vtysh_execute(c, line, stdout);
	}
	if (status < 0)
		fprintf(stderr, "vtysh: lost the connection to bgpd at %s: %s (did bgpd exit?)\n",
			c->path, strerror(-status));
	return status;
}

/* -c: in order, stop at the first failure. A CMD may hold several lines. */
static int run_commands(struct vtysh_client *c, char **cmds, int ncmds)
{
	for (int i = 0; i < ncmds; i++) {
		char *copy = XSTRDUP(MTYPE_VTYSH, cmds[i]), *save = NULL;

		for (char *line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			int status;

			chomp(line);
			if (is_blank_or_comment(line))
				continue;
			status = run_line(c, line);
			if (status == CMD_CLOSE) {
				XFREE(MTYPE_VTYSH, copy);
				return 0;
			}
			if (!vtysh_status_ok(status)) {
				XFREE(MTYPE_VTYSH, copy);
				return 1;
			}
		}
		XFREE(MTYPE_VTYSH, copy);
	}
	return 0;
}

/* stdin that is not a terminal: every line is a command; go on after failures. */
static int run_stream(struct vtysh_client *c, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	while (getline(&line, &cap, in) >= 0) {
		int status;

		chomp(line);
		if (is_blank_or_comment(line))
			continue;
		status = run_line(c, line);
		if (status < 0) {
			rc = 1;
			break;
		}
		if (status == CMD_CLOSE)
			break;
		if (!vtysh_status_ok(status))
			rc = 1;
	}
	free(line); /* getline's buffer */
	return rc;
}

/* -f/-b: the file's lines in configuration mode; every failure reported as FILE:LINE. */
static int run_file(struct vtysh_client *c, const char *file)
{
	FILE *fp = fopen(file, "r");
	unsigned lineno = 0, errors = 0;
	struct sbuf text;
	char *line = NULL;
	size_t cap = 0;
	int status;

	if (!fp) {
		fprintf(stderr,
			"vtysh: cannot open %s: %s (give the file with -f FILE or --config "
			"FILE)\n",
			file, strerror(errno));
		return 1;
	}
	sbuf_init(&text);
	status = vtysh_request(c, 'x', "configure terminal", NULL, &text);
	if (!vtysh_status_ok(status)) {
		const char *why = text.len ? text.buf : "refused";

		if (status < 0)
			why = strerror(-status);
		fprintf(stderr, "vtysh: %s: cannot enter configuration mode: %s\n", file, why);
		sbuf_free(&text);
		fclose(fp);
		return 1;
	}
	while (getline(&line, &cap, fp) >= 0) {
		char prefix[PATH_MAX + 32];

		lineno++;
		chomp(line);
		if (is_blank_or_comment(line))
			continue;
		sbuf_reset(&text);
		status = vtysh_request(c, 'x', line, NULL, &text);
		snprintf(prefix, sizeof(prefix), "%s:%u: ", file, lineno);
		if (status < 0) {
			fprintf(stderr,
				"%slost the connection to bgpd at %s: %s (did bgpd exit?)\n",
				prefix, c->path, strerror(-status));
			errors++;
			break;
		}
		if (vtysh_status_ok(status)) {
			if (text.len)
				fputs(text.buf, stdout);
			continue;
		}
		errors++;
		if (status == CMD_CLOSE) {
			fprintf(stderr,
				"%s'%s' ended the session; the rest of the file was not "
				"applied\n",
				prefix, line);
			break;
		}
		if (text.len)
			print_prefixed(stderr, prefix, text.buf);
		else
			fprintf(stderr, "%scommand failed (status %d): %s\n", prefix, status, line);
	}
	if (status >= 0 && status != CMD_CLOSE)
		vtysh_request(c, 'x', "end", NULL, NULL);
	free(line); /* getline's buffer */
	sbuf_free(&text);
	fclose(fp);
	return errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	enum { OPT_SOCKET = 256, OPT_CONFIG, OPT_VERSION };
	static const struct option longopts[] = {
		{ "vty-socket", required_argument, NULL, OPT_SOCKET },
		{ "vty_socket", required_argument, NULL, OPT_SOCKET }, /* FRR's spelling */
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "command", required_argument, NULL, 'c' },
		{ "inputfile", required_argument, NULL, 'f' },
		{ "boot", no_argument, NULL, 'b' },
		{ "echo", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = VTY_DEFAULT_SOCKET, *file = NULL, *config = DEFAULT_CONFIG;
	struct vtysh_client client;
	bool boot = false;
	char **cmds;
	int ncmds = 0, opt, rc;

	cmds = XCALLOC(MTYPE_VTYSH, ((size_t)argc + 1) * sizeof(*cmds));
	while ((opt = getopt_long(argc, argv, "c:f:bEh", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SOCKET:
			path = optarg;
			break;
		case OPT_CONFIG:
			config = optarg;
			break;
		case 'c':
			cmds[ncmds++] = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'b':
			boot = true;
			break;
		case 'E':
			echo_commands = true;
			break;
		case OPT_VERSION:
			printf("vtysh (skua) %s\n", PACKAGE_VERSION);
			XFREE(MTYPE_VTYSH, cmds);
			return 0;
		case 'h':
			usage(stdout);
			XFREE(MTYPE_VTYSH, cmds);
			return 0;
		default:
			usage(stderr);
			XFREE(MTYPE_VTYSH, cmds);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vtysh: unexpected argument '%s' (commands go with -c CMD)\n",
			argv[optind]);
		XFREE(MTYPE_VTYSH, cmds);
		return 2;
	}
	if ((ncmds > 0) + (file != NULL) + boot > 1) {
		fprintf(stderr, "vtysh: -c, -f and -b do not mix; use one of them\n");
		XFREE(MTYPE_VTYSH, cmds);
		return 2;
	}

	rc = vtysh_connect(&client, path);
	if (rc < 0) {
		vtysh_connect_error(path, -rc);
		XFREE(MTYPE_VTYSH, cmds);
		return 1;
	}
	if (ncmds)
		rc = run_commands(&client, cmds, ncmds);
	else if (file || boot)
		rc = run_file(&client, file ? file : config);
	else if (isatty(STDIN_FILENO))
		rc = vtysh_interactive(&client);
	else
		rc = run_stream(&client, stdin);
	vtysh_disconnect(&client);
	XFREE(MTYPE_VTYSH, cmds);
	fflush(stdout);
	return rc;
}
