/* SPDX-License-Identifier: ISC */
/*
 * One cache's ASPA records per address family, merged into the store's one record per
 * customer.
 *
 * draft-ietf-sidrops-8210bis-10 (StayRTR 0.5.1) sends an ASPA per (customer, AFI): an
 * announcement replaces the record of that customer and AFI, a withdrawal of one that does
 * not exist or does not match is an error. StayRTR sends a changed record as the new one
 * announced, then the old one withdrawn: that withdrawal is accepted and does nothing.
 *
 * ASPA verification (and the store) knows one provider set per customer, AFI-independent as
 * later drafts made it. So the client keeps what the cache told it per AFI here, and at End
 * of Data hands the store the union of both families for every customer the transaction
 * touched (or withdraws it when neither family is left).
 *
 * A transaction snapshots each customer the first time it touches it, so an aborted
 * transaction puts the table back as it was; a reset transaction starts from an empty table
 * and keeps the old one until commit or abort.
 */
#ifndef SKUA_RTR_ASPA_H
#define SKUA_RTR_ASPA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rpki_txn;
struct rtr_pdu;

struct rtr_aspa_rec {
	uint32_t customer;
	uint32_t *prov[2]; /* [0] IPv4, [1] IPv6: sorted, no duplicates */
	uint16_t n[2];
	bool has[2];
};

struct rtr_aspa_touch {
	uint32_t customer;
	bool existed;
	struct rtr_aspa_rec before; /* deep copy when existed */
};

struct rtr_aspa_table {
	struct rtr_aspa_rec *recs; /* sorted by customer */
	size_t n, cap;
	/* the transaction in progress */
	bool in_txn, reset;
	struct rtr_aspa_touch *touched;
	size_t ntouched, touched_cap;
	struct rtr_aspa_rec *saved; /* reset: the table before it */
	size_t nsaved;
};

void rtr_aspa_init(struct rtr_aspa_table *t);
void rtr_aspa_fini(struct rtr_aspa_table *t); /* frees everything, the transaction too */
void rtr_aspa_clear(struct rtr_aspa_table *t);

void rtr_aspa_begin(struct rtr_aspa_table *t, bool reset);
/* One ASPA PDU. 0, or an RTR error code: Withdrawal of Unknown Record, ASPA Provider List
 * Error (the customer among its providers), Corrupt Data (customer AS 0). */
int rtr_aspa_apply(struct rtr_aspa_table *t, const struct rtr_pdu *pdu);
/* Hand the store the merged records of what changed (rpki_txn_aspa). 0, or the store's
 * negative errno (the caller aborts both). The transaction here ends either way: on error,
 * the table is put back. */
int rtr_aspa_commit(struct rtr_aspa_table *t, struct rpki_txn *txn);
void rtr_aspa_abort(struct rtr_aspa_table *t);

size_t rtr_aspa_customers(const struct rtr_aspa_table *t);

#endif /* SKUA_RTR_ASPA_H */
