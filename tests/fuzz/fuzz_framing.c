/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the session's message reader (bgpd/session/bgp_io.c), where the bytes of
 * a connection become messages: header check (marker, length, type; the limit of 4,096 or,
 * with RFC 8654 extended messages negotiated, 65,535 bytes), reassembly of messages split
 * across reads, several messages in one read, the per-turn budget that defers the rest to the
 * next loop turn, and each message's dispatch to the FSM (and from there to the RIB).
 *
 * Input:
 *   byte 0   flags: bit 0 establish the session first (the harness sends an OPEN and a
 *            KEEPALIVE); bit 1 that OPEN offers extended messages; bit 2 iBGP; bit 3 IPv6
 *   byte 1   n = byte & 15 chunk sizes follow, each byte b giving a chunk of 1 + b * b bytes
 *            (1 to 65,026); none: the stream is written at once
 *   rest     the byte stream from the neighbor, written chunk by chunk (the sizes taken in
 *            turn, the rest at once after 256 chunks), the loop run after each chunk; it
 *            stops when bgpd closed the connection
 * See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "bgpd/session/bgp_session.h"
#include "tests/fuzz/fuzz_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WRITES 256

static void establish(struct bgp_peer *peer, int slot, const struct fz_peer_opts *o, bool ext)
{
	unsigned caps = FZ_CAP_MP4 | FZ_CAP_MP6 | FZ_CAP_RR | FZ_CAP_AS4 | (ext ? FZ_CAP_EXT : 0);
	uint8_t buf[128];

	fz_send(slot, buf, fz_open(buf, fz_peer_as(o), 180, 0xc6336402, caps));
	fz_pump();
	fz_send(slot, buf, fz_msg(buf, 4, NULL, 0));
	fz_pump();
	if (bgp_session_state(peer) != BGP_ST_ESTABLISHED)
		abort(); /* a valid OPEN and KEEPALIVE must establish it */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_peer_opts o = { 0 };
	size_t chunk[15], nchunks, off, i;
	struct bgp_peer *peer;
	int slot;

	if (size < 2)
		return 0;
	fz_session_init();
	o.as_kind = (data[0] & 4) ? 1 : 0;
	o.ipv6 = data[0] & 8;
	nchunks = data[1] & 15;
	if (size < 2 + nchunks)
		return 0;
	for (i = 0; i < nchunks; i++)
		chunk[i] = 1 + (size_t)data[2 + i] * data[2 + i];
	off = 2 + nchunks;

	peer = fz_peer_new(&o);
	slot = fz_connect(peer);
	if (data[0] & 1)
		establish(peer, slot, &o, data[0] & 2);
	for (i = 0; off < size; i++) {
		/* At most MAX_WRITES pieces: the loop runs after each, and one-byte pieces of a
		 * 64 KiB stream would make an input take seconds. */
		size_t n = nchunks && i < MAX_WRITES ? MIN(chunk[i % nchunks], size - off)
						     : size - off;

		if (!fz_send(slot, data + off, n))
			break;
		off += n;
		fz_pump();
	}
	fz_peer_delete(peer);
	return 0;
}
