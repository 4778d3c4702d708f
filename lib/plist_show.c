/* SPDX-License-Identifier: ISC */
/*
 * `show ip prefix-list` / `show ipv6 prefix-list`, FRR's text and JSON:
 *
 *   show ip prefix-list [NAME] [json]          the lists and their entries
 *   show ip prefix-list summary|detail [NAME]  counts, sequence range (and hit counts)
 *   show ip prefix-list NAME seq N             one entry
 *   show ip prefix-list NAME PREFIX [longer|first-match]
 *       the entries for exactly PREFIX (first-match: the first of them, as FRR 8.4), or the
 *       entries inside it (longer)
 *
 * Lines start with "BGP: " as FRR's vtysh prints the daemon that answers. The objects are
 * the applied ones (lib/plist.c), with their hit counts.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <string.h>

#include "lib/command.h"
#include "lib/json.h"
#include "lib/plist.h"
#include "lib/plist_cli.h"
#include "lib/vty.h"

#define DAEMON_TAG "BGP"

enum show_mode {
	SHOW_NORMAL = 0,
	SHOW_SUMMARY,
	SHOW_DETAIL,
};

struct show_ctx {
	struct vty *vty;
	enum show_mode mode;
	struct json_writer *w; /* NULL: text */
};

static const char *keyword_of(int family)
{
	return family == AF_INET ? "ip" : "ipv6";
}

static uint32_t range_entries(const struct prefix_list *pl)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < pl->count; i++)
		if (pl->entries[i].ge || pl->entries[i].le)
			n++;
	return n;
}

static void entry_text(struct vty *vty, const struct prefix_list_entry *e, bool hits)
{
	char buf[128];

	vty_out(vty, "   seq %" PRIu32 " %s", e->seq, prefix_list_entry_str(e, buf, sizeof(buf)));
	if (hits)
		vty_out(vty, " (hit count: %" PRIu64 ")", e->hits);
	vty_out(vty, "\n");
}

static void entry_json(struct json_writer *w, const struct prefix_list_entry *e, int family)
{
	char buf[PREFIX_STRLEN];

	json_object_open(w, NULL);
	json_uint(w, "sequenceNumber", e->seq);
	json_string(w, "type", prefix_list_action_str(e->action));
	if (e->any) {
		json_string(w, "prefix", family == AF_INET ? "0.0.0.0/0" : "::/0");
		json_uint(w, "maximumPrefixLength", prefix_maxlen(family));
	} else {
		json_string(w, "prefix", prefix_to_str(&e->p, buf, sizeof(buf)));
		if (e->ge)
			json_uint(w, "minimumPrefixLength", e->ge);
		if (e->le)
			json_uint(w, "maximumPrefixLength", e->le);
	}
	json_uint(w, "hitCount", e->hits);
	json_object_close(w);
}

static void list_text(struct prefix_list *pl, void *arg)
{
	struct show_ctx *c = arg;
	struct vty *vty = c->vty;

	if (c->mode == SHOW_NORMAL)
		vty_out(vty, "%s: %s prefix-list %s: %" PRIu32 " entries\n", DAEMON_TAG,
			keyword_of(pl->family), pl->name, pl->count);
	else
		vty_out(vty, "%s: %s prefix-list %s:\n", DAEMON_TAG, keyword_of(pl->family),
			pl->name);
	if (pl->description)
		vty_out(vty, "   Description: %s\n", pl->description);
	if (c->mode != SHOW_NORMAL)
		vty_out(vty,
			"   count: %" PRIu32 ", range entries: %" PRIu32 ", sequences: %" PRIu32
			" - %" PRIu32 "\n",
			pl->count, range_entries(pl), pl->count ? pl->entries[0].seq : 0,
			pl->count ? pl->entries[pl->count - 1].seq : 0);
	if (c->mode == SHOW_SUMMARY)
		return;
	for (uint32_t i = 0; i < pl->count; i++)
		entry_text(vty, &pl->entries[i], c->mode == SHOW_DETAIL);
}

static void list_json(struct prefix_list *pl, void *arg)
{
	struct show_ctx *c = arg;
	struct json_writer *w = c->w;

	json_object_open(w, pl->name);
	json_string(w, "addressFamily", pl->family == AF_INET ? "IPv4" : "IPv6");
	if (pl->description)
		json_string(w, "description", pl->description);
	if (c->mode != SHOW_NORMAL) {
		json_uint(w, "count", pl->count);
		json_uint(w, "rangeEntries", range_entries(pl));
		json_uint(w, "sequenceStart", pl->count ? pl->entries[0].seq : 0);
		json_uint(w, "sequenceEnd", pl->count ? pl->entries[pl->count - 1].seq : 0);
	}
	if (c->mode != SHOW_SUMMARY) {
		json_array_open(w, "entries");
		for (uint32_t i = 0; i < pl->count; i++)
			entry_json(w, &pl->entries[i], pl->family);
		json_array_close(w);
	}
	json_object_close(w);
}

static int show_lists(struct vty *vty, const struct cmd_args *args, int family, enum show_mode mode)
{
	const char *name = cmd_arg(args, "name");
	struct show_ctx c = { .vty = vty, .mode = mode };
	struct json_writer w;
	struct prefix_list *pl = NULL;

	if (name && !(pl = prefix_list_lookup(family, name))) {
		vty_out(vty,
			cmd_has(args, "json") ? "{}\n" : "%% Can't find specified prefix-list\n");
		return CMD_WARNING;
	}
	if (cmd_has(args, "json")) {
		c.w = &w;
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		json_object_open(&w, DAEMON_TAG);
		if (pl)
			list_json(pl, &c);
		else
			prefix_list_walk(family, list_json, &c);
		json_object_close(&w);
		json_object_close(&w);
		json_end(&w);
		return CMD_SUCCESS;
	}
	if (pl)
		list_text(pl, &c);
	else
		prefix_list_walk(family, list_text, &c);
	return CMD_SUCCESS;
}

/* `NAME seq N` and `NAME PREFIX [longer|first-match]`. */
static int show_entries(struct vty *vty, const struct cmd_args *args, int family)
{
	const char *name = cmd_arg(args, "name"), *text = cmd_arg(args, "prefix");
	struct prefix_list *pl = prefix_list_lookup(family, name);
	struct prefix p;
	bool longer = cmd_has(args, "longer"), first = cmd_has(args, "first-match");

	if (!pl) {
		vty_out(vty, "%% Can't find specified prefix-list\n");
		return CMD_WARNING;
	}
	if (cmd_has(args, "seq")) {
		const struct prefix_list_entry *e =
			prefix_list_entry_find(pl, (uint32_t)cmd_arg_u64(args, "seq", 0));

		if (e) {
			vty_out(vty, "%s: ", DAEMON_TAG);
			entry_text(vty, e, true);
		}
		return CMD_SUCCESS;
	}
	if (prefix_from_str(&p, text, false) < 0) {
		vty_out(vty, "%% Malformed prefix %s\n", text);
		return CMD_WARNING;
	}
	prefix_apply_mask(&p);
	for (uint32_t i = 0; i < pl->count; i++) {
		const struct prefix_list_entry *e = &pl->entries[i];
		bool show;

		if (longer)
			show = !e->any && prefix_contains(&p, &e->p);
		else
			show = !e->any && prefix_same(&p, &e->p);
		if (!show)
			continue;
		entry_text(vty, e, true);
		if (first)
			break;
	}
	return CMD_SUCCESS;
}

#define PLIST_STR "List prefix-list entries\n"
#define PLIST_NAME_STR "Name of a prefix list\n"
#define MODE_STR                    \
	"Summary of prefix lists\n" \
	"Detail of prefix lists\n"
#define SEQ_STR                         \
	"sequence number of an entry\n" \
	"Sequence number\n"
#define LOOKUP_STR               \
	"Lookup longer prefix\n" \
	"First matched prefix\n"

DEFCMD(show_ip_prefix_list, "show ip prefix-list [WORD$name] [json]",
       SHOW_STR IP_STR PLIST_STR PLIST_NAME_STR JSON_STR)
{
	return show_lists(vty, args, AF_INET, SHOW_NORMAL);
}

DEFCMD(show_ip_prefix_list_mode, "show ip prefix-list <summary|detail>$mode [WORD$name] [json]",
       SHOW_STR IP_STR PLIST_STR MODE_STR PLIST_NAME_STR JSON_STR)
{
	return show_lists(vty, args, AF_INET,
			  strcmp(cmd_arg(args, "mode"), "summary") ? SHOW_DETAIL : SHOW_SUMMARY);
}

DEFCMD(show_ip_prefix_list_seq, "show ip prefix-list WORD$name seq (1-4294967295)$seq",
       SHOW_STR IP_STR PLIST_STR PLIST_NAME_STR SEQ_STR)
{
	return show_entries(vty, args, AF_INET);
}

DEFCMD(show_ip_prefix_list_prefix,
       "show ip prefix-list WORD$name A.B.C.D/M$prefix [<longer|first-match>]",
       SHOW_STR IP_STR PLIST_STR PLIST_NAME_STR
       "IP prefix <network>/<length>, e.g., 35.0.0.0/8\n" LOOKUP_STR)
{
	return show_entries(vty, args, AF_INET);
}

DEFCMD(show_ipv6_prefix_list, "show ipv6 prefix-list [WORD$name] [json]",
       SHOW_STR IPV6_STR PLIST_STR PLIST_NAME_STR JSON_STR)
{
	return show_lists(vty, args, AF_INET6, SHOW_NORMAL);
}

DEFCMD(show_ipv6_prefix_list_mode, "show ipv6 prefix-list <summary|detail>$mode [WORD$name] [json]",
       SHOW_STR IPV6_STR PLIST_STR MODE_STR PLIST_NAME_STR JSON_STR)
{
	return show_lists(vty, args, AF_INET6,
			  strcmp(cmd_arg(args, "mode"), "summary") ? SHOW_DETAIL : SHOW_SUMMARY);
}

DEFCMD(show_ipv6_prefix_list_seq, "show ipv6 prefix-list WORD$name seq (1-4294967295)$seq",
       SHOW_STR IPV6_STR PLIST_STR PLIST_NAME_STR SEQ_STR)
{
	return show_entries(vty, args, AF_INET6);
}

DEFCMD(show_ipv6_prefix_list_prefix,
       "show ipv6 prefix-list WORD$name X:X::X:X/M$prefix [<longer|first-match>]",
       SHOW_STR IPV6_STR PLIST_STR PLIST_NAME_STR
       "IPv6 prefix <network>/<length>, e.g., 3ffe::/16\n" LOOKUP_STR)
{
	return show_entries(vty, args, AF_INET6);
}

void plist_show_init(void)
{
	cmd_install(VIEW_NODE, &show_ip_prefix_list_cmd);
	cmd_install(VIEW_NODE, &show_ip_prefix_list_mode_cmd);
	cmd_install(VIEW_NODE, &show_ip_prefix_list_seq_cmd);
	cmd_install(VIEW_NODE, &show_ip_prefix_list_prefix_cmd);
	cmd_install(VIEW_NODE, &show_ipv6_prefix_list_cmd);
	cmd_install(VIEW_NODE, &show_ipv6_prefix_list_mode_cmd);
	cmd_install(VIEW_NODE, &show_ipv6_prefix_list_seq_cmd);
	cmd_install(VIEW_NODE, &show_ipv6_prefix_list_prefix_cmd);
}
