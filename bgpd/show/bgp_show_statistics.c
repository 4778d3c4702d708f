/* SPDX-License-Identifier: ISC */
/*
 * `show [ip] bgp [ipv4|ipv6 [unicast]] statistics [json]`: FRR 8.4's RIB statistics
 * (bgp_table_stats()), text and JSON (which adds the prefixes per length). Counted over every
 * prefix of the table with paths and every path of those: a prefix is "unaggregateable" when no
 * other prefix of the table covers it, and only those add to the address space; AS path hops count
 * a set as one and confederation segments as none, sizes are the 4-octet encoding (2 + 4 per AS per
 * segment), the highest ASN skips private ones. Bare `show bgp statistics` is IPv6 unicast, as in
 * FRR.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <string.h>

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/show/bgp_route_out.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_af.h"
#include "lib/command.h"
#include "lib/json.h"
#include "lib/memory.h"
#include "lib/table.h"
#include "lib/vty.h"

static DEFINE_MTYPE(BGP_SHOW_STATS, "BGP show statistics");

/* Prefixes nest at most one per prefix length: the covering ones of the current prefix. */
#define STATS_MAX_DEPTH 129

struct table_stats {
	uint64_t prefixes, total_plen, unaggregateable, aggregateable, rib, aggregates;
	uint64_t aspath_count, max_hops, max_size, tot_hops, tot_size, highest_asn;
	uint64_t per_len[STATS_MAX_DEPTH]; /* prefixes of each length */
	double space;
	unsigned bits; /* 32 or 128 */
	const struct prefix *cover[STATS_MAX_DEPTH];
	struct prefix cover_buf[STATS_MAX_DEPTH];
	unsigned depth;
};

struct aspath_stats {
	uint64_t hops, size, highest;
};

/* 2^n, exact in a double for n <= 128 (no libm for this one use). */
static double pow2(unsigned n)
{
	double v = 1.0;

	while (n--)
		v *= 2.0;
	return v;
}

/* FRR's BGP_AS_IS_PRIVATE: 64512-65535 and 4200000000-4294967295. */
static bool asn_private(uint32_t as)
{
	return (as >= 64512 && as <= 65535) || as >= 4200000000u;
}

static void seg_stats(const char *type, const uint32_t *as, unsigned count, void *arg)
{
	struct aspath_stats *st = arg;

	st->size += 2 + 4 * (uint64_t)count;
	if (!strcmp(type, "as-sequence"))
		st->hops += count;
	else if (!strcmp(type, "as-set"))
		st->hops += 1;
	for (unsigned i = 0; i < count; i++)
		if (!asn_private(as[i]) && as[i] > st->highest)
			st->highest = as[i];
}

static int stats_cb(const struct prefix *p, void *value, void *arg)
{
	struct table_stats *ts = arg;
	const struct bgp_dest *d = value;

	if (!dest_has_paths(d))
		return 0;
	ts->prefixes++;
	ts->total_plen += p->len;
	if (p->len < STATS_MAX_DEPTH)
		ts->per_len[p->len]++;
	/* The walk meets a covering prefix before the ones it covers. */
	while (ts->depth && !prefix_contains(ts->cover[ts->depth - 1], p))
		ts->depth--;
	if (ts->depth) {
		ts->aggregateable++;
	} else {
		ts->unaggregateable++;
		ts->space += pow2(ts->bits - p->len);
	}
	if (ts->depth < STATS_MAX_DEPTH) {
		ts->cover_buf[ts->depth] = *p;
		ts->cover[ts->depth] = &ts->cover_buf[ts->depth];
		ts->depth++;
	}
	for (const struct bgp_path *path = dest_paths(d); path; path = path_next(path)) {
		struct aspath_stats st = { 0 };

		ts->rib++;
		if (path_attr(path)->present & ATTR_BIT(BGP_ATTR_ATOMIC_AGGREGATE))
			ts->aggregates++;
		if (!path_attr(path)->aspath)
			continue;
		route_aspath_segments(path_attr(path)->aspath, seg_stats, &st);
		ts->aspath_count++;
		ts->max_hops = st.hops > ts->max_hops ? st.hops : ts->max_hops;
		ts->max_size = st.size > ts->max_size ? st.size : ts->max_size;
		ts->tot_hops += st.hops;
		ts->tot_size += st.size;
		ts->highest_asn = st.highest > ts->highest_asn ? st.highest : ts->highest_asn;
	}
	return 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void count_line(struct vty *vty, const char *label, uint64_t v)
{
	vty_out(vty, "%-30s: %12" PRIu64 "\n", label, v);
}

static void avg_line(struct vty *vty, const char *label, double v)
{
	vty_out(vty, "%-30s: %12.2f\n", label, v);
}

static void stats_text(struct vty *vty, const struct table_stats *ts, enum bgp_af af)
{
	bool v4 = af == BGP_AF_IPV4_UNICAST;

	vty_out(vty, "BGP %s RIB statistics (VRF default)\n", bgp_af_text_name(af));
	count_line(vty, "Total Advertisements", ts->rib);
	count_line(vty, "Total Prefixes", ts->prefixes);
	avg_line(vty, "Average prefix length", ratio(ts->total_plen, ts->prefixes));
	count_line(vty, "Unaggregateable prefixes", ts->unaggregateable);
	count_line(vty, "Maximum aggregateable prefixes", ts->aggregateable);
	count_line(vty, "BGP Aggregate advertisements", ts->aggregates);
	vty_out(vty, "%-30s: %12g\n", "Address space advertised", ts->space);
	if (v4) {
		vty_out(vty, "%30s: %12.2f\n", "% announced ", ts->space * 100.0 / pow2(32));
		vty_out(vty, "%30s: %12.2f\n", "/8 equivalent ", ts->space / pow2(24));
		vty_out(vty, "%30s: %12.2f\n", "/24 equivalent ", ts->space / pow2(8));
	} else {
		/* FRR 8.4 prints a stray "%s" and a line break in these two labels; the values
		 * are the same. */
		vty_out(vty, "%30s: %12.2f\n", "/32 equivalent ", ts->space / pow2(96));
		vty_out(vty, "%30s: %12.2f\n", "/48 equivalent ", ts->space / pow2(80));
	}
	vty_out(vty, "\n"); /* FRR's blank line after the address space */
	count_line(vty, "Advertisements with paths", ts->aspath_count);
	count_line(vty, "Longest AS-Path (hops)", ts->max_hops);
	avg_line(vty, "Average AS-Path length (hops)", ratio(ts->tot_hops, ts->aspath_count));
	count_line(vty, "Largest AS-Path (bytes)", ts->max_size);
	avg_line(vty, "Average AS-Path size (bytes)", ratio(ts->tot_size, ts->aspath_count));
	count_line(vty, "Highest public ASN", ts->highest_asn);
}

/* FRR's keys and order (bgp_table_stats_single() with json). */
static void stats_json(struct vty *vty, const struct table_stats *ts, enum bgp_af af)
{
	bool v4 = af == BGP_AF_IPV4_UNICAST;
	struct json_writer j;
	char len[8];

	json_init(&j, &vty->out, true);
	json_object_open(&j, NULL);
	json_array_open(&j, bgp_af_json_name(af));
	json_object_open(&j, NULL);
	json_string(&j, "instance", "VRF default");
	json_uint(&j, "totalAdvertisements", ts->rib);
	json_uint(&j, "totalPrefixes", ts->prefixes);
	json_double(&j, "averagePrefixLength", ratio(ts->total_plen, ts->prefixes));
	json_uint(&j, "unaggregateablePrefixes", ts->unaggregateable);
	json_uint(&j, "maximumAggregateablePrefixes", ts->aggregateable);
	json_uint(&j, "bgpAggregateAdvertisements", ts->aggregates);
	json_double(&j, "addressSpaceAdvertised", ts->space);
	if (v4) {
		json_double(&j, "%announced", ts->space * 100.0 / pow2(32));
		json_double(&j, "/8equivalent", ts->space / pow2(24));
		json_double(&j, "/24equivalent", ts->space / pow2(8));
	} else {
		json_double(&j, "/32equivalent", ts->space / pow2(96));
		json_double(&j, "/48equivalent", ts->space / pow2(80));
	}
	json_uint(&j, "advertisementsWithPaths", ts->aspath_count);
	json_uint(&j, "longestAsPath", ts->max_hops);
	json_double(&j, "averageAsPathLengthHops", ratio(ts->tot_hops, ts->aspath_count));
	json_uint(&j, "largestAsPath", ts->max_size);
	json_double(&j, "averageAsPathSizeBytes", ratio(ts->tot_size, ts->aspath_count));
	json_uint(&j, "highestPublicAsn", ts->highest_asn);
	json_array_open(&j, "prefixLength");
	for (unsigned l = 0; l < STATS_MAX_DEPTH; l++) {
		if (!ts->per_len[l])
			continue;
		snprintf(len, sizeof(len), "%u", l);
		json_object_open(&j, NULL);
		json_uint(&j, len, ts->per_len[l]);
		json_object_close(&j);
	}
	json_array_close(&j);
	json_object_close(&j);
	json_array_close(&j);
	json_object_close(&j);
	json_end(&j);
}

static int show_statistics(struct vty *vty, enum bgp_af af, bool json)
{
	struct bgp *bgp = bgp_get();
	struct table_stats *ts;

	if (!bgp || !bgp->rib) {
		vty_out(vty, "%% No BGP process is configured\n");
		return CMD_WARNING;
	}
	ts = XCALLOC(MTYPE_BGP_SHOW_STATS, sizeof(*ts)); /* ~5 KiB: not on the stack */
	ts->bits = af == BGP_AF_IPV4_UNICAST ? 32 : 128;
	ptree_walk(bgp->rib->af[af].tree, stats_cb, ts);
	(json ? stats_json : stats_text)(vty, ts, af);
	XFREE(MTYPE_BGP_SHOW_STATS, ts);
	return CMD_SUCCESS;
}

#define STATS_STR "BGP RIB advertisement statistics\n"

DEFCMD(show_ip_bgp_statistics, "show ip bgp statistics [json]",
       SHOW_STR IP_STR BGP_STR STATS_STR JSON_STR)
{
	return show_statistics(vty, BGP_AF_IPV4_UNICAST, cmd_has(args, "json"));
}

DEFCMD(show_bgp_statistics, "show bgp [<ipv4|ipv6>$af [unicast]] statistics [json]",
       SHOW_STR BGP_STR AF_STR AF_STR SAFI_STR STATS_STR JSON_STR)
{
	const char *af = cmd_arg(args, "af");

	return show_statistics(
		vty, af && !strcmp(af, "ipv4") ? BGP_AF_IPV4_UNICAST : BGP_AF_IPV6_UNICAST,
		cmd_has(args, "json"));
}

void bgp_show_statistics_init(void)
{
	cmd_install(VIEW_NODE, &show_ip_bgp_statistics_cmd);
	cmd_install(VIEW_NODE, &show_bgp_statistics_cmd);
}
