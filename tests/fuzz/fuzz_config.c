/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: configuration files of commands (FRR syntax) loaded through the
 * northbound (lib/config_file.c): every line through the command engine with FRR's walk-up
 * into one candidate, the whole-tree validation (YANG, the effective tree of peer-groups,
 * bgpd's module checks), the commit's callbacks in phases into the real instance, session
 * side and RIB, the search for the line to blame when the file is refused; then a second text
 * loaded as a reload (the diff against running: what changed is applied, the rest untouched),
 * and `show running-config` printed and reloaded (the printer is the inverse of the parser:
 * it must be accepted and print the same text again, fz_daemon_round_trip()). Every input
 * ends with an empty configuration, which must always be accepted.
 *
 * Input: the first file's text, optionally a NUL byte and the reloaded file's text (without
 * one, the same text is reloaded). See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "lib/northbound.h"
#include "lib/sbuf.h"
#include "tests/fuzz/fuzz_daemon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool load(const char *name, const char *text, size_t len, bool reload)
{
	const char *path = fz_daemon_file(name, text, len);
	struct sbuf errors;
	int r;

	sbuf_init(&errors);
	r = reload ? nb_config_reload(path, NULL, &errors) : nb_config_load_file(path, &errors);
	sbuf_free(&errors);
	fz_daemon_run();
	return r == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nul = memchr(data, '\0', size);
	size_t first = nul ? (size_t)(nul - text) : size;

	fz_daemon_init();
	/* A text starting with '{' would be read as JSON: fuzz_json's. */
	if (size && data[0] == '{')
		return 0;
	if (load("first.conf", text, first, false))
		fz_daemon_round_trip(false);
	if (nul && size - first - 1 && nul[1] == '{')
		nul = NULL;
	if (load("second.conf", nul ? nul + 1 : text, nul ? size - first - 1 : first, true))
		fz_daemon_round_trip(false);
	fz_daemon_reset();
	return 0;
}
