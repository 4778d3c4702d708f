/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the JSON configuration loader (lib/config_json.c): libyang's parse of the
 * models' JSON encoding, the translation of its errors into operators' messages with the line
 * found in the text (nb_json_line_of_path() and its search of members and list entries), and
 * the commit of what parsed into the real instance; then running printed as JSON and as CLI
 * text and reloaded (accepted; JSON changes nothing; text, once it went through the CLI's
 * normalisation, prints the same again: fz_daemon_round_trip()). Every input ends with an
 * empty configuration.
 *
 * Input: a JSON document, loaded as a file named *.json. See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "lib/northbound.h"
#include "lib/sbuf.h"
#include "tests/fuzz/fuzz_daemon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct sbuf errors;

	fz_daemon_init();
	path = fz_daemon_file("input.json", (const char *)data, size);
	sbuf_init(&errors);
	if (nb_config_load_file(path, &errors) == 0) {
		fz_daemon_run();
		fz_daemon_round_trip(true);
		/* JSON holds what the CLI normalises (a description's leading or repeated spaces):
		 * the first trip through text may change running; the second must not. */
		fz_daemon_text_normalise();
		fz_daemon_round_trip(false);
	}
	sbuf_free(&errors);
	fz_daemon_reset();
	return 0;
}
