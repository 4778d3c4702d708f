/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: one RTR session's input path (bgpd/rtr/rtr_session.c) on a real event
 * loop and a real store, the cache played by the input through a socketpair.
 * Input: one byte of chunk size (1 + byte), then the byte stream the cache sends, written in
 * chunks of that size with the loop run between chunks (reassembly, several PDUs per read,
 * the per-turn budget).
 * Properties: everything the client writes is a well-formed Reset Query, Serial Query or
 * Error Report of a version it speaks; with no Cache Response open, the store holds one ASPA
 * record per customer of the session's per-AFI table. A version fallback reconnects, and the
 * sandbox refuses that connect() (tests/fuzz/fuzz_sandbox.c). See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr_pdu.h"
#include "bgpd/rtr/rtr_private.h"
#include "lib/event.h"
#include "lib/log.h"
#include "tests/fuzz/fuzz_sandbox.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[1 << 20];
static size_t nout;

/* Drain what the client wrote and check every PDU of it. */
static void check_output(int fd)
{
	ssize_t r;
	size_t off = 0;

	while (nout < sizeof(out) &&
	       (r = recv(fd, out + nout, sizeof(out) - nout, MSG_DONTWAIT)) > 0)
		nout += (size_t)r;
	while (nout - off >= RTR_PDU_HEADER_LEN) {
		struct rtr_pdu_error err;
		struct rtr_pdu p;
		uint32_t len;

		if (rtr_pdu_frame(out + off, nout - off, &len, &err) != 0)
			abort();
		if (len > nout - off)
			break;
		if (rtr_pdu_decode(out + off, len, &p, &err) < 0)
			abort();
		if (p.type != RTR_PDU_RESET_QUERY && p.type != RTR_PDU_SERIAL_QUERY &&
		    p.type != RTR_PDU_ERROR_REPORT)
			abort();
		off += len;
	}
	memmove(out, out + off, nout - off);
	nout -= off;
}

static void check_store(const struct rtr_cache *c)
{
	if (c->in_response || c->source < 0)
		return;
	if (rpki_source_aspa_count(c->db, c->source) != rtr_aspa_customers(&c->aspa))
		abort();
}

static void run_loop(struct event_base *base)
{
	for (int i = 0; i < 4; i++)
		event_loop_once(base, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	struct rtr_cache_config cfg = { .transport = RTR_TRANSPORT_TCP,
					.host = "192.0.2.1",
					.port = RTR_PORT_TCP,
					.preference = 1 };
	struct rtr_timers t = { 3600, 600, 7200 };
	struct event_base *base;
	struct rpki_db *db;
	struct rtr_cache *c;
	size_t chunk, off = 1;
	int sv[2];

	if (!init) {
		log_init("bgpd");
		log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
		(void)fuzz_sandbox_dir;
		init = true;
	}
	if (size < 1)
		return 0;
	chunk = (size_t)data[0] + 1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 0;
	base = event_loop_new();
	db = rpki_db_new();
	c = rtr_session_new(base, db, &cfg, &t);
	nout = 0;
	rtr_session_attach_fd(c, sv[0]);
	run_loop(base);
	check_output(sv[1]);
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk;
		ssize_t w = send(sv[1], data + off, n, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w <= 0) {
			if (w < 0 && errno == EAGAIN) {
				run_loop(base);
				check_output(sv[1]);
				continue;
			}
			break; /* the client closed its end */
		}
		off += (size_t)w;
		run_loop(base);
		check_output(sv[1]);
		check_store(c);
	}
	run_loop(base);
	check_output(sv[1]);
	check_store(c);
	close(sv[1]);
	rtr_session_free(c);
	rpki_db_free(db);
	event_loop_free(base);
	return 0;
}
