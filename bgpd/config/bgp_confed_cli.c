/* SPDX-License-Identifier: ISC */
/*
 * Confederations (RFC 5065, FRR 8.4's commands): the commands, their northbound callback and
 * their running-config lines. What they do is in bgpd/core/bgp_confed.c.
 *
 *   router bgp ASN
 *    bgp confederation identifier ASNUM
 *    bgp confederation peers ASNUM...      (added to the list; `no` removes those given)
 *
 * FRR prints them after `bgp cluster-id`, the identifier first, the peers on one line in the
 * order they were given; the model keeps that order.
 */
#include "lib/compat.h"

#include <errno.h>
#include <inttypes.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

void bgp_nb_confed_apply_finish(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	uint32_t peers[BGP_CONFED_PEERS_MAX], id;
	const struct lyd_node *n;
	unsigned np = 0;

	if (!bgp)
		return;
	id = (uint32_t)yang_dnode_get_uint(args->dnode, 0, "identifier");
	LY_LIST_FOR(lyd_child(args->dnode), n)
	{
		if (strcmp(n->schema->name, "peers") != 0 || np == BGP_CONFED_PEERS_MAX)
			continue;
		peers[np++] = (uint32_t)strtoul(lyd_get_value(n), NULL, 10);
	}
	if (id == bgp->confed_id && np == bgp->confed_npeers &&
	    memcmp(peers, bgp->confed_peers, np * sizeof(peers[0])) == 0)
		return;
	bgp->confed_id = id;
	memcpy(bgp->confed_peers, peers, np * sizeof(peers[0]));
	bgp->confed_npeers = (uint8_t)np;
	bgp_confed_changed(bgp);
}

void bgp_print_confed(struct sbuf *out, const struct lyd_node *dnode)
{
	const struct lyd_node *n;
	bool first = true;

	if (yang_dnode_exists(dnode, "identifier"))
		sbuf_printf(out, " bgp confederation identifier %s\n",
			    yang_dnode_get_string(dnode, "identifier"));
	LY_LIST_FOR(lyd_child(dnode), n)
	{
		if (strcmp(n->schema->name, "peers") != 0)
			continue;
		sbuf_printf(out, "%s %s", first ? " bgp confederation peers" : "",
			    lyd_get_value(n));
		first = false;
	}
	if (!first)
		sbuf_puts(out, "\n");
}

#define CONFED_STR BGP_STR "AS confederation parameters\n"

DEFCMD(bgp_confed_id, "bgp confederation identifier ASNUM$asn",
       CONFED_STR "Set routing domain confederation AS\n"
		  "AS number\n")
{
	nb_cli_enqueue_change(vty, "./confederation/identifier", NB_OP_MODIFY,
			      cmd_arg(args, "asn"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(no_bgp_confed_id, "no bgp confederation identifier [ASNUM]",
       NO_STR CONFED_STR "Set routing domain confederation AS\n"
			 "AS number\n")
{
	nb_cli_enqueue_change(vty, "./confederation/identifier", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/* One AS number of the list: plain 1..4294967295, or asdot x.y (RFC 5396). */
static bool parse_asn(const char *w, uint32_t *asn)
{
	unsigned long long hi, lo = 0;
	char *end;

	if (*w < '0' || *w > '9')
		return false;
	errno = 0;
	hi = strtoull(w, &end, 10);
	if (errno)
		return false;
	if (*end == '.') {
		const char *s = end + 1;

		if (hi > 0xffff || *s < '0' || *s > '9')
			return false;
		lo = strtoull(s, &end, 10);
		if (errno || *end || lo > 0xffff)
			return false;
		hi = (hi << 16) | lo;
	} else if (*end) {
		return false;
	}
	if (hi == 0 || hi > UINT32_MAX)
		return false;
	*asn = (uint32_t)hi;
	return true;
}

static bool listed(const uint32_t *asns, unsigned n, uint32_t asn)
{
	for (unsigned i = 0; i < n; i++)
		if (asns[i] == asn)
			return true;
	return false;
}

DEFCMD(bgp_confed_peers, "[no] bgp confederation peers LINE...$asns",
       NO_STR CONFED_STR "Peer ASs in BGP confederation\n"
			 "AS numbers, separated by spaces\n")
{
	const char *s = cmd_arg(args, "asns");
	const struct lyd_node *bgp = nb_cli_get(vty, "%s", BGP_XPATH);
	uint32_t own = bgp ? (uint32_t)yang_dnode_get_uint(bgp, 0, "local-as") : 0;
	uint32_t asns[NB_CLI_MAX_CHANGES]; /* one edit each */
	unsigned n_asns = 0;
	char word[32], xpath[XPATH_MAX], value[16];

	/* Every word checked before any edit is queued: a bad one changes nothing. */
	while (s && *s) {
		size_t n = strcspn(s, " ");
		uint32_t asn;

		if (n == 0) {
			s++;
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)MIN(n, sizeof(word) - 1), s);
		s += n;
		if (n >= sizeof(word) || !parse_asn(word, &asn)) {
			vty_out(vty,
				"%% Invalid AS number in bgp confederation peers: %s (give "
				"1-4294967295 or asdot x.y, separated by spaces)\n",
				word);
			return CMD_WARNING_CONFIG_FAILED;
		}
		if (asn == own) {
			/* FRR's words, then what to do */
			vty_out(vty,
				"%% Local member-AS not allowed in confed peer list: %u is this "
				"router's own AS (router bgp %u); list only the other member "
				"ASes\n",
				asn, own);
			return CMD_WARNING_CONFIG_FAILED;
		}
		if (listed(asns, n_asns, asn))
			continue; /* given twice: once is enough */
		if (n_asns == NB_CLI_MAX_CHANGES) {
			vty_out(vty,
				"%% More than %d AS numbers in one bgp confederation peers line: "
				"split it over several lines\n",
				NB_CLI_MAX_CHANGES);
			return CMD_WARNING_CONFIG_FAILED;
		}
		asns[n_asns++] = asn;
	}
	for (unsigned i = 0; i < n_asns; i++) {
		snprintf(value, sizeof(value), "%" PRIu32, asns[i]);
		snprintf(xpath, sizeof(xpath), "./confederation/peers[.='%s']", value);
		if (cmd_has(args, "no"))
			nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
		else if (!nb_cli_exists(vty, "%s/confederation/peers[.='%s']", BGP_XPATH, value))
			nb_cli_enqueue_change(vty, "./confederation/peers", NB_OP_CREATE, value);
	}
	return nb_cli_apply_changes(vty, NULL);
}

void bgp_confed_cli_init(void)
{
	cmd_install(BGP_NODE, &bgp_confed_id_cmd);
	cmd_install(BGP_NODE, &no_bgp_confed_id_cmd);
	cmd_install(BGP_NODE, &bgp_confed_peers_cmd);
}
