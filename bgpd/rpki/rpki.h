/* SPDX-License-Identifier: ISC */
/*
 * RPKI validation states, shared by the store (rpki_db.h), the route-maps that match them
 * (bgpd/policy) and the show commands. Header only: a layer that needs the names and not the
 * store includes this and links nothing.
 */
#ifndef SKUA_RPKI_H
#define SKUA_RPKI_H

/* Route origin validation, RFC 6811 2. NOT_USED: no `rpki` cache is configured, so no state
 * is shown (FRR prints no V/I/N code without its rpki module). The values are FRR's
 * (bgpd/bgp_rpki.h) so that a JSON consumer sees the same numbers. */
enum rpki_state {
	RPKI_NOT_USED = 0,
	RPKI_VALID = 1,
	RPKI_NOTFOUND = 2,
	RPKI_INVALID = 3,
};

/* AS path verification with ASPA (draft-ietf-sidrops-aspa-verification 6). NOT_USED: no
 * cache configured, or the route's neighbor has no role (`neighbor X local-role`) that says
 * which of the two procedures applies. */
enum aspa_state {
	ASPA_NOT_USED = 0,
	ASPA_VALID,
	ASPA_INVALID,
	ASPA_UNKNOWN,
};

/* Which procedure applies to a route, from the role of the neighbor it came from (RFC 9234
 * roles): upstream for routes from a customer, a lateral peer or a route server client's
 * route server; downstream for routes from a provider. */
enum aspa_dir {
	ASPA_DIR_NONE = 0, /* no role configured: ASPA_NOT_USED */
	ASPA_DIR_UPSTREAM,
	ASPA_DIR_DOWNSTREAM,
};

/* "valid", "invalid", "notfound" (FRR's words in `match rpki` and JSON), "" for NOT_USED. */
static inline const char *rpki_state_name(enum rpki_state s)
{
	switch (s) {
	case RPKI_VALID:
		return "valid";
	case RPKI_INVALID:
		return "invalid";
	case RPKI_NOTFOUND:
		return "notfound";
	default:
		return "";
	}
}

static inline const char *aspa_state_name(enum aspa_state s)
{
	switch (s) {
	case ASPA_VALID:
		return "valid";
	case ASPA_INVALID:
		return "invalid";
	case ASPA_UNKNOWN:
		return "unknown";
	default:
		return "";
	}
}

#endif /* SKUA_RPKI_H */
