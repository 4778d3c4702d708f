/* SPDX-License-Identifier: ISC */
/*
 * Harness of the configuration fuzz targets (fuzz_config, fuzz_json, fuzz_vty): bgpd as
 * bgpd/main.c sets it up (command tree, northbound, bgpd's models and callbacks, show
 * commands, an event loop for the instance) on the null kernel, with its startup
 * configuration file in the sandbox directory (tests/fuzz/fuzz_sandbox.h), and no listener
 * and no vty socket. Every input starts from an empty configuration and ends with one.
 */
#ifndef SKUA_FUZZ_DAEMON_H
#define SKUA_FUZZ_DAEMON_H

#include <stdbool.h>
#include <stddef.h>

/* Once. */
void fz_daemon_init(void);
/* Run the loop's ready work (sessions kicked, the RIB's batches), a bounded number of turns. */
void fz_daemon_run(void);
/* Write text to the sandbox file NAME (its extension says CLI text or JSON); its path. */
const char *fz_daemon_file(const char *name, const char *text, size_t len);
/*
 * The printers are the inverse of the parsers (doc/architecture.md "Configuration"): running
 * printed as JSON and reloaded must be accepted and change nothing; printed as CLI text and
 * reloaded, it must be accepted and print the same text again (the CLI may write the tree its
 * own way: a JSON neighbor without address families gets `activate` as an explicit leaf).
 * abort() otherwise, with the texts on stderr.
 */
void fz_daemon_round_trip(bool json);
/* Running printed as CLI text and reloaded: only that it is accepted (a tree from JSON may
 * hold what the CLI normalises, e.g. a description's leading or repeated spaces). */
void fz_daemon_text_normalise(void);
/* Back to the empty configuration (a reload of an empty file: everything is deleted). */
void fz_daemon_reset(void);

#endif /* SKUA_FUZZ_DAEMON_H */
