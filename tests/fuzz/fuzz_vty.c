/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: vty command lines against bgpd's whole command tree (lib/command*.c:
 * the lexer, the graph of grammar strings, matching with its errors and caret lines, walk-up,
 * `?` describe, TAB completion with the neighbor completion provider, prompts; lib/vty.c; and
 * every handler: show, clear and debug commands of bgpd/show, configuration commands of
 * bgpd/config and lib, the northbound's sessions, commits, rollbacks and transactions), in
 * enable mode and in every configuration mode the lines reach. Commands that would act
 * outside the process stay in the sandbox (tests/fuzz/fuzz_sandbox.h): `write memory` writes
 * the sandbox's startup file, `log file` goes there, `log syslog|stdout` stay off.
 *
 * Property: a command that succeeded and asked for JSON printed one valid JSON document.
 *
 * Input: lines (newline or NUL separated, at most 256), each a request as vtysh sends them
 * (doc/architecture.md "vtysh protocol"): a kind byte 'x' execute, '?' describe, 't' complete,
 * 'p' prompt, then the line; a line with any other first byte is executed whole, so that a
 * plain list of commands is an input too. The vty starts in enable mode; `exit` at the top
 * starts a new one. Every input ends with an empty configuration. See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "lib/command.h"
#include "lib/log.h"
#include "lib/vty.h"
#include "tests/fuzz/fuzz_daemon.h"
#include "tests/fuzz/fuzz_json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LINES 256

static bool wants_json(const char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	return n >= 4 && strncmp(line + n - 4, "json", 4) == 0;
}

static struct vty *request(struct vty *vty, const char *req)
{
	const char *line = req + 1;
	char prompt[256];
	int status;

	sbuf_reset(&vty->out);
	switch (req[0]) {
	case '?':
		cmd_describe_print(vty, line);
		break;
	case 't':
		cmd_complete_print(vty, line);
		break;
	case 'p':
		vty_prompt(vty, prompt, sizeof(prompt));
		break;
	default:
		if (req[0] != 'x')
			line = req;
		/* As the vty server does: interactive vtys walk up to enclosing nodes. */
		status = cmd_execute(vty, line, true);
		if (status == CMD_SUCCESS && wants_json(line) && vty->out.len &&
		    !fuzz_json_valid(vty->out.buf)) {
			fprintf(stderr, "invalid JSON from `%s`:\n%s\n", line, vty->out.buf);
			abort();
		}
		if (status == CMD_CLOSE) {
			vty_free(vty);
			vty = vty_new(-1);
		}
		break;
	}
	return vty;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[4096];
	struct vty *vty;
	size_t off = 0;

	fz_daemon_init();
	vty = vty_new(-1);
	for (int n = 0; n < MAX_LINES && off < size; n++) {
		size_t len = 0;

		while (off + len < size && data[off + len] != '\n' && data[off + len] != '\0')
			len++;
		if (len && len < sizeof(line)) {
			memcpy(line, data + off, len);
			line[len] = '\0';
			vty = request(vty, line);
		}
		off += len + 1;
	}
	vty_free(vty); /* leaves configuration mode, as a session that ends */
	fz_daemon_reset();
	debug_flags = 0; /* `debug bgp ...` is not configuration: the next input starts clean */
	return 0;
}
