/* SPDX-License-Identifier: ISC */
/* Harness of the configuration fuzz targets: see fuzz_daemon.h. */
#include "lib/compat.h"

#include <signal.h>
#include <stdlib.h>

#include "bgpd/config/bgp_config.h"
#include "bgpd/session/bgp_closer.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/sbuf.h"
#include "tests/fuzz/fuzz_daemon.h"
#include "tests/fuzz/fuzz_sandbox.h"

static struct event_base *base;

void fz_daemon_init(void)
{
	char path[128];

	if (base)
		return;
	signal(SIGPIPE, SIG_IGN);
	log_init("bgpd");
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
	cmd_init();
	nb_init();
	/* What `write memory` writes and `clear configuration reload` reads. */
	snprintf(path, sizeof(path), "%s/bgpd.conf", fuzz_sandbox_dir());
	nb_config_set_startup(path);
	bgp_config_init();
	bgp_show_init();
	base = event_loop_new();
	if (!base)
		abort();
	bgp_config_set_event_base(base);
}

void fz_daemon_run(void)
{
	for (int i = 0; i < 8; i++)
		event_loop_once(base, false);
}

const char *fz_daemon_file(const char *name, const char *text, size_t len)
{
	static char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_sandbox_dir(), name);
	f = fopen(path, "w");
	if (!f || (len && fwrite(text, 1, len, f) != len) || fclose(f) != 0) {
		fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
		abort();
	}
	return path;
}

void fz_daemon_reset(void)
{
	struct sbuf errors;

	sbuf_init(&errors);
	if (nb_config_reload(fz_daemon_file("empty.conf", "", 0), NULL, &errors) < 0) {
		/* Deleting everything must always be possible. */
		fprintf(stderr, "fuzz: the empty configuration was refused:\n%s\n",
			errors.buf ? errors.buf : "");
		abort();
	}
	sbuf_free(&errors);
	fz_daemon_run();
	bgp_closer_flush();
}

static void round_trip(bool json, bool same_text)
{
	struct sbuf text, again, errors;
	uint32_t txid = 0;
	const char *path, *why = NULL;

	sbuf_init(&text);
	sbuf_init(&again);
	sbuf_init(&errors);
	nb_config_text(&text, json);
	path = fz_daemon_file(json ? "printed.json" : "printed.conf", text.buf ? text.buf : "",
			      text.len);
	if (nb_config_reload(path, &txid, &errors) < 0) {
		why = "is refused";
	} else if (json && txid) {
		why = "reloads with changes"; /* JSON prints the tree as written, exactly */
	} else if (!json) {
		/* Text is the CLI's: it may write a tree in its own canonical way (a neighbor's
		 * implied `activate` as an explicit leaf), but printing that must give the same
		 * text. */
		nb_config_text(&again, false);
		if (same_text &&
		    (text.len != again.len || (text.len && strcmp(text.buf, again.buf))))
			why = "prints differently once reloaded";
	}
	if (why) {
		fprintf(stderr, "fuzz: running, printed as %s, %s:\n%s\n%s%s\n",
			json ? "JSON" : "text", why, text.buf ? text.buf : "",
			again.buf ? again.buf : "", errors.buf ? errors.buf : "");
		abort();
	}
	sbuf_free(&text);
	sbuf_free(&again);
	sbuf_free(&errors);
}

void fz_daemon_round_trip(bool json)
{
	round_trip(json, true);
}

void fz_daemon_text_normalise(void)
{
	round_trip(false, false);
}
