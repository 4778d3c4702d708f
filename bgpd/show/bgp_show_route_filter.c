/* SPDX-License-Identifier: ISC */
/*
 * Filtered route tables, FRR 8.4's daily ones: `show [ip] bgp [AFI [unicast]] regexp REGEX`,
 * `community [C [exact-match]]`, `large-community [L [exact-match]]`, `PREFIX
 * longer-prefixes`, each with `json`; and the spellings of the whole table FRR also takes:
 * `show ip bgp ipv4 [unicast]`, `... detail` and bare `show bgp`, which is IPv6 unicast in FRR (as
 * are all its bare `show bgp ...` forms), however surprising.
 *
 * A path is shown when its AS path (written as FRR writes it) matches the regular expression
 * (POSIX extended with FRR's `_`, as AS path lists), when it carries the community given
 * (and no other with exact-match; any community when none is given), or when its prefix lies inside
 * the one given; the table walk and the renderers are those of the unfiltered table
 * (bgp_show_route.c).
 */
#include "lib/compat.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/show/bgp_route_out.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_community.h"
#include "lib/command.h"
#include "lib/memory.h"
#include "lib/vty.h"

static DEFINE_MTYPE(BGP_SHOW_FILTER, "BGP show filter");

struct regexp_filter {
	struct route_filter f; /* first: the filter callbacks get it back */
	regex_t re;
};

/* One community or large community, as FRR 8.4 takes it; none: any path that has one. */
struct comm_filter {
	struct route_filter f;
	bool large, exact, any;
	uint32_t v[3]; /* v[0] alone, or the three parts of a large community */
};

/* ---- the words after the filter keyword ---- */

/* Split the bound LINE... text in place into words; a trailing `json` sets *json (FRR takes
 * it after a regular expression too). Returns the number of words left. */
static unsigned split_words(char *line, char **w, unsigned max, bool *json)
{
	unsigned n = 0;

	for (char *save = NULL, *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (n < max)
			w[n++] = t;
	*json = n > 0 && !strcmp(w[n - 1], "json");
	return *json ? n - 1 : n;
}

/* ---- regexp ---- */

static bool regexp_ok(const struct route_filter *f, const struct bgp_path *path)
{
	const struct regexp_filter *rf = (const struct regexp_filter *)f;
	const struct bgp_aspath *as = path_attr(path)->aspath;
	char small[1024], *text = small;
	/* At most 11 characters per AS number (10 digits and a separator) plus brackets. */
	size_t need = as ? (size_t)as->len / 4 * 11 + (size_t)as->len + 16 : 1;
	bool ok;

	if (need > sizeof(small))
		text = XMALLOC(MTYPE_BGP_SHOW_FILTER, need);
	bgp_aspath_to_str(as, text, need > sizeof(small) ? need : sizeof(small));
	ok = regexec(&rf->re, text, 0, NULL, 0) == 0;
	if (text != small)
		XFREE(MTYPE_BGP_SHOW_FILTER, text);
	return ok;
}

static int show_regexp(struct vty *vty, enum bgp_af af, const char *line_arg)
{
	struct regexp_filter rf = { .f = { .path_ok = regexp_ok } };
	char line[1024], err[256];
	size_t len;
	bool json;
	int ret;

	snprintf(line, sizeof(line), "%s", line_arg);
	len = strlen(line);
	json = len >= 5 && !strcmp(line + len - 5, " json");
	if (json)
		line[len - 5] = '\0';
	if (bgp_regex_compile(&rf.re, line, err, sizeof(err)) < 0) {
		vty_out(vty,
			"%% %s: give a POSIX extended regular expression, `_` for a separator\n",
			err);
		return CMD_WARNING;
	}
	ret = route_show_table(vty, af, json, &rf.f);
	regfree(&rf.re);
	return ret;
}

/* ---- community and large-community ---- */

static bool comm_ok(const struct route_filter *f, const struct bgp_path *path)
{
	const struct comm_filter *cf = (const struct comm_filter *)f;
	const struct bgp_attr *attr = path_attr(path);
	const struct bgp_attr_extra *ex = bgp_attr_ex(attr);
	unsigned width = cf->large ? 3 : 1;
	const uint32_t *vals = NULL;
	uint32_t count = 0;
	bool found = false;

	if (cf->large && ex && ex->lcommunities) {
		vals = ex->lcommunities->val;
		count = ex->lcommunities->count;
	} else if (!cf->large && attr->communities) {
		vals = attr->communities->val;
		count = attr->communities->count;
	}
	if (cf->any)
		return count > 0;
	/* exact-match: the given one and no other (repeats of it allowed, a set in FRR). */
	for (uint32_t i = 0; i < count; i++) {
		bool same = !memcmp(&vals[width * i], cf->v, width * sizeof(uint32_t));

		if (same)
			found = true;
		else if (cf->exact)
			return false;
	}
	return found;
}

static int show_comm(struct vty *vty, enum bgp_af af, const char *line_arg, bool large)
{
	struct comm_filter cf = { .f = { .path_ok = comm_ok }, .large = large };
	char line[1024], *w[4];
	unsigned n;
	bool json;
	int bad;

	snprintf(line, sizeof(line), "%s", line_arg ? line_arg : "");
	n = split_words(line, w, array_size(w), &json);
	cf.exact = n == 2 && !strcmp(w[1], "exact-match");
	if (n > (cf.exact ? 2u : 1u)) {
		vty_out(vty,
			"%% One %scommunity at a time (FRR's syntax), then exact-match, json\n",
			large ? "large " : "");
		return CMD_WARNING;
	}
	cf.any = n == 0;
	bad = cf.any  ? 0
	      : large ? bgp_lcommunity_from_str(w[0], cf.v)
		      : bgp_community_from_str(w[0], cf.v);
	if (bad) {
		vty_out(vty, "%% %s malformed: %s (write %s)\n",
			large ? "Large community" : "Community", w[0],
			large ? "GLOBAL:LOCAL1:LOCAL2" : "AA:NN or a well-known name");
		return CMD_WARNING;
	}
	return route_show_table(vty, af, json, &cf.f);
}

/* ---- longer-prefixes ---- */

static int show_longer(struct vty *vty, enum bgp_af af, const char *net, bool json)
{
	struct prefix p;
	struct route_filter f = { .within = &p };

	if (prefix_from_str(&p, net, false) < 0) {
		vty_out(vty, "%% Malformed prefix %s\n", net);
		return CMD_WARNING;
	}
	prefix_apply_mask(&p);
	return route_show_table(vty, af, json, &f);
}

/* ---- commands: one set per spelling of the family ---- */

#define REGEXP_STR                                                 \
	"Display routes matching the AS path regular expression\n" \
	"A regular expression to match the BGP AS paths\n"
#define COMM_STR                                                     \
	"Display routes matching the communities\n"                  \
	"A community (AA:NN or a well-known name; none: any), then " \
	"exact-match (it and no other) and json\n"
#define LCOMM_STR                                                    \
	"Display routes matching the large communities\n"            \
	"A large community (GLOBAL:LOCAL1:LOCAL2; none: any), then " \
	"exact-match (it and no other) and json\n"
#define LONGER_STR "Display route and more specific routes\n"

#define FAMILY_CMDS(id, words, words_str, af, netform, netform_str)                       \
	DEFCMD(id##_regexp, words " regexp LINE...", words_str REGEXP_STR)                \
	{                                                                                 \
		return show_regexp(vty, af, cmd_arg(args, "LINE..."));                    \
	}                                                                                 \
	DEFCMD(id##_community, words " community [LINE...]", words_str COMM_STR)          \
	{                                                                                 \
		return show_comm(vty, af, cmd_arg(args, "LINE..."), false);               \
	}                                                                                 \
	DEFCMD(id##_lcommunity, words " large-community [LINE...]", words_str LCOMM_STR)  \
	{                                                                                 \
		return show_comm(vty, af, cmd_arg(args, "LINE..."), true);                \
	}                                                                                 \
	DEFCMD(id##_longer, words " " netform "$net longer-prefixes [json]",              \
	       words_str netform_str LONGER_STR JSON_STR)                                 \
	{                                                                                 \
		return show_longer(vty, af, cmd_arg(args, "net"), cmd_has(args, "json")); \
	}

#define V4_NET "A.B.C.D/M"
#define V4_NET_STR "IPv4 prefix\n"
#define V6_NET "X:X::X:X/M"
#define V6_NET_STR "IPv6 prefix\n"

FAMILY_CMDS(show_ip_bgp, "show ip bgp", SHOW_STR IP_STR BGP_STR, BGP_AF_IPV4_UNICAST, V4_NET,
	    V4_NET_STR)
FAMILY_CMDS(show_ip_bgp_ipv4, "show ip bgp ipv4 [unicast]", SHOW_STR IP_STR BGP_STR AF_STR SAFI_STR,
	    BGP_AF_IPV4_UNICAST, V4_NET, V4_NET_STR)
FAMILY_CMDS(show_bgp_ipv4, "show bgp ipv4 [unicast]", SHOW_STR BGP_STR AF_STR SAFI_STR,
	    BGP_AF_IPV4_UNICAST, V4_NET, V4_NET_STR)
FAMILY_CMDS(show_bgp_ipv6, "show bgp ipv6 [unicast]", SHOW_STR BGP_STR AF_STR SAFI_STR,
	    BGP_AF_IPV6_UNICAST, V6_NET, V6_NET_STR)
FAMILY_CMDS(show_bgp, "show bgp", SHOW_STR BGP_STR, BGP_AF_IPV6_UNICAST, V6_NET, V6_NET_STR)

DEFCMD(show_ip_bgp_ipv4_table, "show ip bgp ipv4 [unicast] [json]",
       SHOW_STR IP_STR BGP_STR AF_STR SAFI_STR JSON_STR)
{
	return route_show_table(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"), NULL);
}

#define DETAIL_STR "Every route with its paths in detail\n"

DEFCMD(show_ip_bgp_detail, "show ip bgp [ipv4 [unicast]] detail [json]",
       SHOW_STR IP_STR BGP_STR AF_STR SAFI_STR DETAIL_STR JSON_STR)
{
	return route_show_table_detail(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"));
}

DEFCMD(show_bgp_af_detail, "show bgp [<ipv4|ipv6>$af [unicast]] detail [json]",
       SHOW_STR BGP_STR AF_STR AF_STR SAFI_STR DETAIL_STR JSON_STR)
{
	const char *af = cmd_arg(args, "af");

	/* bare `show bgp detail` is IPv6, as every bare `show bgp` of FRR */
	return route_show_table_detail(
		vty, af && !strcmp(af, "ipv4") ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST,
		cmd_has(args, "json"));
}

/* FRR's bare `show bgp` is the IPv6 unicast table. */
DEFCMD(show_bgp_table, "show bgp [json]", SHOW_STR BGP_STR JSON_STR)
{
	return route_show_table(vty, BGP_AF_IPV6_UNICAST, cmd_has(args, "json"), NULL);
}

#define FAMILY_INSTALL(id) \
	&id##_regexp_cmd, &id##_community_cmd, &id##_lcommunity_cmd, &id##_longer_cmd

void bgp_show_route_filter_init(void)
{
	static const struct cmd_def *const cmds[] = {
		FAMILY_INSTALL(show_ip_bgp),   FAMILY_INSTALL(show_ip_bgp_ipv4),
		FAMILY_INSTALL(show_bgp_ipv4), FAMILY_INSTALL(show_bgp_ipv6),
		FAMILY_INSTALL(show_bgp),      &show_ip_bgp_ipv4_table_cmd,
		&show_bgp_table_cmd,	       &show_ip_bgp_detail_cmd,
		&show_bgp_af_detail_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(VIEW_NODE, cmds[i]);
}
