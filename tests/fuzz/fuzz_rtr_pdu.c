/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: what an RTR cache sends. Input: the byte stream of one connection.
 *
 * Each PDU is framed and decoded as the client does (bgpd/rtr/rtr_pdu.c); property: a decoded
 * PDU re-encodes into bytes that decode again and re-encode identically. The data then takes
 * the client's path into a real store: a Cache Response opens a store transaction and an ASPA
 * transaction (bgpd/rtr/rtr_aspa.c; a reset one first and after a Cache Reset), prefix and
 * ASPA PDUs go into them, End of Data commits, any refusal aborts both. Property: after every
 * commit or abort, the store holds exactly one ASPA record per customer the client's per-AFI
 * table holds for the source. A stream that cannot be framed ends the input, as it ends the
 * connection. See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include <stdlib.h>
#include <string.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr_aspa.h"
#include "bgpd/rtr/rtr_pdu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reencode(const struct rtr_pdu *p)
{
	static uint8_t e1[RTR_PDU_MAX], e2[RTR_PDU_MAX];
	struct rtr_pdu_error err;
	struct rtr_pdu p2;
	char line[64]; /* short: the describe cut is exercised too */
	int n1, n2;

	rtr_pdu_describe(p, line, sizeof(line));
	if (strnlen(line, sizeof(line)) == sizeof(line))
		abort();

	n1 = rtr_pdu_encode(p, e1, sizeof(e1));
	if (n1 < 0)
		abort(); /* whatever decodes must encode */
	if (rtr_pdu_decode(e1, (size_t)n1, &p2, &err) < 0)
		abort();
	n2 = rtr_pdu_encode(&p2, e2, sizeof(e2));
	if (n2 != n1 || memcmp(e1, e2, (size_t)n1))
		abort();
}

static void check_aspa_consistent(struct rpki_db *db, int src, const struct rtr_aspa_table *t)
{
	if (rpki_source_aspa_count(db, src) != rtr_aspa_customers(t))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpki_db *db = rpki_db_new();
	int src = rpki_source_add(db, "fuzz 323");
	struct rtr_aspa_table aspa;
	struct rpki_txn *txn = NULL;
	bool reset = true;
	size_t off = 0;

	rtr_aspa_init(&aspa);
	while (off < size) {
		struct rtr_pdu_error err;
		struct rtr_pdu p;
		struct rpki_vrp vrp;
		uint32_t len;
		int ret = 0;

		if (rtr_pdu_frame(data + off, size - off, &len, &err) != 0 || len > size - off)
			break;
		if (rtr_pdu_decode(data + off, len, &p, &err) < 0) {
			ret = -1;
			goto next;
		}
		check_reencode(&p);
		switch (p.type) {
		case RTR_PDU_CACHE_RESPONSE:
			if (txn)
				ret = -1;
			else {
				txn = rpki_txn_begin(db, src, reset);
				rtr_aspa_begin(&aspa, reset);
			}
			break;
		case RTR_PDU_IPV4_PREFIX:
		case RTR_PDU_IPV6_PREFIX:
			if (!txn) {
				ret = -1;
				break;
			}
			memset(&vrp, 0, sizeof(vrp));
			vrp.prefix.family = p.type == RTR_PDU_IPV6_PREFIX ? AF_INET6 : AF_INET;
			vrp.prefix.len = p.u.prefix.prefix_len;
			memcpy(&vrp.prefix.u, p.u.prefix.addr, 16);
			if (p.type == RTR_PDU_IPV4_PREFIX)
				memset(vrp.prefix.u.bytes + 4, 0, 12);
			prefix_apply_mask(&vrp.prefix);
			vrp.max_len = p.u.prefix.max_len;
			vrp.asn = p.u.prefix.asn;
			ret = rpki_txn_vrp(txn, &vrp, p.u.prefix.flags & RTR_FLAG_ANNOUNCE);
			break;
		case RTR_PDU_ASPA:
			ret = txn ? (rtr_aspa_apply(&aspa, &p) ? -1 : 0) : -1;
			break;
		case RTR_PDU_END_OF_DATA:
			if (!txn) {
				ret = -1;
				break;
			}
			ret = rtr_aspa_commit(&aspa, txn);
			if (ret < 0) {
				rpki_txn_abort(txn);
			} else {
				rpki_txn_commit(txn);
				reset = false;
			}
			txn = NULL;
			check_aspa_consistent(db, src, &aspa);
			break;
		case RTR_PDU_CACHE_RESET:
			reset = true;
			break;
		default:
			break;
		}
	next:
		if (ret < 0 && txn) {
			/* The client's answer to a refused PDU: abort, store untouched. */
			rpki_txn_abort(txn);
			rtr_aspa_abort(&aspa);
			txn = NULL;
			check_aspa_consistent(db, src, &aspa);
		}
		off += len;
	}
	if (txn) {
		rpki_txn_abort(txn);
		rtr_aspa_abort(&aspa);
	}
	check_aspa_consistent(db, src, &aspa);
	rtr_aspa_fini(&aspa);
	rpki_db_free(db);
	return 0;
}
