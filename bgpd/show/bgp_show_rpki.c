/* SPDX-License-Identifier: ISC */
/*
 * The RPKI show and exec commands, FRR 8.4's words and layouts (bgpd/bgp_rpki.c):
 *
 *   show rpki prefix-table [json]                  every VRP, IPv4 first
 *   show rpki prefix <A.B.C.D/M|X:X::X:X/M> [ASN] [json]   the VRPs that cover the prefix
 *   show rpki as-number ASN [json]                 the VRPs of one origin AS
 *   show rpki cache-connection [json]              the caches and which are connected
 *   show rpki cache-server [json]                  the configured caches (+ skua's state)
 *   show rpki aspa-table [json]                    skua's: the ASPA records
 *   rpki reset | rpki start | rpki stop            (enable node; reset in the rpki node too)
 *
 * The records come from the daemon's store (bgpd/rpki/rpki_db.h), the caches from the RTR
 * manager (bgpd/rtr/rtr.h). Each view is collected once and handed to a text or a JSON
 * renderer. While no cache is configured, or none has ever delivered data and the store is
 * empty, the tables say FRR's "No connection to RPKI cache server." instead.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/json.h"
#include "lib/vty.h"

#define RPKI_OUTPUT_STRING "Control rpki specific settings\n"
#define NO_CONNECTION "No connection to RPKI cache server."

/* ---- whether there is anything to show ---------------------------------------------- */

static void any_data_cb(const struct rtr_cache_status *s, void *arg)
{
	if (s->have_serial && !s->data_expired)
		*(bool *)arg = true;
}

/* The store in use, or NULL when FRR would say there is no connection: no cache configured,
 * or no cache has delivered data and the store holds nothing. */
static const struct rpki_db *store_in_use(void)
{
	const struct rpki_db *db = rpki_db_default();
	bool data = false;

	if (!db || !rpki_db_active(db))
		return NULL;
	rtr_status_walk(any_data_cb, &data);
	if (!data && rpki_vrp_count(db, AF_UNSPEC) == 0 && rpki_aspa_count(db) == 0)
		return NULL;
	return db;
}

static int no_connection(struct vty *vty, bool json)
{
	if (json) {
		struct json_writer w;

		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		json_string(&w, "error", NO_CONNECTION);
		json_object_close(&w);
		json_end(&w);
	} else {
		vty_out(vty, "%s\n", NO_CONNECTION);
	}
	return CMD_WARNING;
}

/* ---- VRP tables: prefix-table, prefix, as-number -------------------------------------- */

/* One renderer per format: a title (prefix-table and as-number print one, prefix does not),
 * the records, the counts (not for prefix). */
struct vrp_render {
	void (*begin)(struct vty *vty, struct json_writer *w, bool title);
	void (*record)(struct vty *vty, struct json_writer *w, const struct rpki_vrp *v);
	void (*end)(struct vty *vty, struct json_writer *w, bool counts, size_t n4, size_t n6);
};

static void vrp_text_begin(struct vty *vty, struct json_writer *w, bool title)
{
	(void)w;
	if (title)
		vty_out(vty, "RPKI/RTR prefix table\n");
	vty_out(vty, "%-40s %s  %s\n", "Prefix", "Prefix Length", "Origin-AS");
}

static void vrp_text_record(struct vty *vty, struct json_writer *w, const struct rpki_vrp *v)
{
	char addr[INET6_ADDRSTRLEN];

	(void)w;
	inet_ntop(v->prefix.family, &v->prefix.u, addr, sizeof(addr));
	vty_out(vty, "%-40s   %3u - %3u   %10u\n", addr, v->prefix.len, v->max_len, v->asn);
}

static void vrp_text_end(struct vty *vty, struct json_writer *w, bool counts, size_t n4, size_t n6)
{
	(void)w;
	if (counts) {
		vty_out(vty, "Number of IPv4 Prefixes: %zu\n", n4);
		vty_out(vty, "Number of IPv6 Prefixes: %zu\n", n6);
	}
}

static const struct vrp_render vrp_text = { vrp_text_begin, vrp_text_record, vrp_text_end };

static void vrp_json_begin(struct vty *vty, struct json_writer *w, bool title)
{
	(void)title;
	json_init(w, &vty->out, true);
	json_object_open(w, NULL);
	json_array_open(w, "prefixes");
}

static void vrp_json_record(struct vty *vty, struct json_writer *w, const struct rpki_vrp *v)
{
	char addr[INET6_ADDRSTRLEN];

	(void)vty;
	inet_ntop(v->prefix.family, &v->prefix.u, addr, sizeof(addr));
	json_object_open(w, NULL);
	json_string(w, "prefix", addr);
	json_uint(w, "prefixLenMin", v->prefix.len);
	json_uint(w, "prefixLenMax", v->max_len);
	json_uint(w, "asn", v->asn);
	json_object_close(w);
}

static void vrp_json_end(struct vty *vty, struct json_writer *w, bool counts, size_t n4, size_t n6)
{
	(void)vty;
	json_array_close(w);
	if (counts) {
		json_uint(w, "ipv4PrefixCount", n4);
		json_uint(w, "ipv6PrefixCount", n6);
	}
	json_object_close(w);
	json_end(w);
}

static const struct vrp_render vrp_json = { vrp_json_begin, vrp_json_record, vrp_json_end };

/* What one table shows: every VRP, those of one AS, or those covering a prefix (whose
 * maximum length reaches it, of asn when asn is non-zero: FRR's filter). */
struct vrp_view {
	const struct vrp_render *r;
	struct vty *vty;
	struct json_writer *w;
	bool by_asn;
	uint32_t asn;
	uint8_t min_len; /* show rpki prefix: the prefix's length */
	size_t n4, n6;
};

static int vrp_cb(const struct rpki_vrp *v, void *arg)
{
	struct vrp_view *view = arg;

	if (view->by_asn && v->asn != view->asn)
		return 0;
	if (v->max_len < view->min_len)
		return 0;
	if (v->prefix.family == AF_INET)
		view->n4++;
	else
		view->n6++;
	view->r->record(view->vty, view->w, v);
	return 0;
}

static const struct vrp_render *renderer(const struct cmd_args *args)
{
	return cmd_has(args, "json") ? &vrp_json : &vrp_text;
}

DEFCMD(show_rpki_prefix_table, "show rpki prefix-table [json]",
       SHOW_STR RPKI_OUTPUT_STRING
       "Show validated prefixes which were received from RPKI Cache\n" JSON_STR)
{
	const struct rpki_db *db = store_in_use();
	struct json_writer w;
	struct vrp_view view = { .r = renderer(args), .vty = vty, .w = &w };

	if (!db)
		return no_connection(vty, cmd_has(args, "json"));
	view.r->begin(vty, &w, true);
	rpki_vrp_walk(db, AF_UNSPEC, vrp_cb, &view);
	view.r->end(vty, &w, true, view.n4, view.n6);
	return CMD_SUCCESS;
}

DEFCMD(show_rpki_as_number, "show rpki as-number (0-4294967295)$asn [json]",
       SHOW_STR RPKI_OUTPUT_STRING "Lookup by ASN in prefix table\n"
				   "AS Number\n" JSON_STR)
{
	const struct rpki_db *db = store_in_use();
	struct json_writer w;
	struct vrp_view view = { .r = renderer(args), .vty = vty, .w = &w, .by_asn = true };

	if (!db)
		return no_connection(vty, cmd_has(args, "json"));
	view.asn = (uint32_t)cmd_arg_u64(args, "asn", 0);
	view.r->begin(vty, &w, true);
	rpki_vrp_walk(db, AF_UNSPEC, vrp_cb, &view);
	view.r->end(vty, &w, true, view.n4, view.n6);
	return CMD_SUCCESS;
}

DEFCMD(show_rpki_prefix,
       "show rpki prefix <A.B.C.D/M|X:X::X:X/M>$prefix [(0-4294967295)$asn] [json]",
       SHOW_STR RPKI_OUTPUT_STRING "Lookup IP prefix and optionally ASN in prefix table\n"
				   "IPv4 prefix\n"
				   "IPv6 prefix\n"
				   "AS Number\n" JSON_STR)
{
	const struct rpki_db *db = store_in_use();
	struct json_writer w;
	struct vrp_view view = { .r = renderer(args), .vty = vty, .w = &w };
	struct prefix p;

	if (!db)
		return no_connection(vty, cmd_has(args, "json"));
	if (prefix_from_str(&p, cmd_arg(args, "prefix"), false) < 0) {
		vty_out(vty, "%% Invalid prefix %s\n", cmd_arg(args, "prefix"));
		return CMD_WARNING;
	}
	prefix_apply_mask(&p);
	view.asn = (uint32_t)cmd_arg_u64(args, "asn", 0);
	view.by_asn = view.asn != 0; /* FRR: 0 (or none) lists every origin */
	view.min_len = p.len;
	view.r->begin(vty, &w, false);
	rpki_vrp_walk_covering(db, &p, vrp_cb, &view);
	view.r->end(vty, &w, false, view.n4, view.n6);
	return CMD_SUCCESS;
}

/* ---- ASPA table (skua's) ------------------------------------------------------------------ */

struct aspa_view {
	struct vty *vty;
	struct json_writer *w; /* NULL: text */
};

static int aspa_cb(uint32_t customer, const uint32_t *providers, size_t n, void *arg)
{
	struct aspa_view *view = arg;

	if (view->w) {
		json_object_open(view->w, NULL);
		json_uint(view->w, "customerAsn", customer);
		json_array_open(view->w, "providers");
		for (size_t i = 0; i < n; i++)
			json_uint(view->w, NULL, providers[i]);
		json_array_close(view->w);
		json_object_close(view->w);
		return 0;
	}
	vty_out(view->vty, "%-12u ", customer);
	for (size_t i = 0; i < n; i++)
		vty_out(view->vty, " %u", providers[i]);
	vty_out(view->vty, "%s\n", n ? "" : " (none: AS0, no provider may carry it)");
	return 0;
}

DEFCMD(show_rpki_aspa_table, "show rpki aspa-table [json]",
       SHOW_STR RPKI_OUTPUT_STRING "Show the ASPA records received from the RPKI caches\n" JSON_STR)
{
	const struct rpki_db *db = store_in_use();
	struct json_writer w;
	struct aspa_view view = { .vty = vty };

	if (!db)
		return no_connection(vty, cmd_has(args, "json"));
	if (cmd_has(args, "json")) {
		view.w = &w;
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		json_array_open(&w, "aspas");
		rpki_aspa_walk(db, aspa_cb, &view);
		json_array_close(&w);
		json_uint(&w, "aspaCount", rpki_aspa_count(db));
		json_object_close(&w);
		json_end(&w);
		return CMD_SUCCESS;
	}
	vty_out(vty, "RPKI/RTR ASPA table\n");
	vty_out(vty, "%-12s  %s\n", "Customer-AS", "Provider-AS");
	rpki_aspa_walk(db, aspa_cb, &view);
	vty_out(vty, "Number of ASPA records: %zu\n", rpki_aspa_count(db));
	return CMD_SUCCESS;
}

/* ---- caches ---------------------------------------------------------------------------- */

/* FRR's "connected": the session is up and synchronised (or refreshing after it was). */
static bool cache_connected(const struct rtr_cache_status *s)
{
	return s->state == RTR_STATE_ESTABLISHED ||
	       (s->state == RTR_STATE_SYNCING && s->have_serial);
}

static const char *mode_name(const struct rtr_cache_status *s)
{
	return s->config.transport == RTR_TRANSPORT_TLS ? "tls" : "tcp";
}

struct cache_view {
	struct vty *vty;
	struct json_writer *w; /* NULL: text */
	bool any_connected;
	int count;
};

static void count_cb(const struct rtr_cache_status *s, void *arg)
{
	struct cache_view *view = arg;

	view->count++;
	view->any_connected |= cache_connected(s);
}

/* FRR's line: "rpki tcp cache HOST PORT pref N (connected)". A cache that is not connected and
 * failed gets skua's indented line saying why (the TLS verdict, the refused connect...), so
 * that the one command an FRR operator types tells what is wrong. */
static void connection_cb(const struct rtr_cache_status *s, void *arg)
{
	struct cache_view *view = arg;
	bool failed = !cache_connected(s) && s->last_error[0];

	if (!view->w) {
		vty_out(view->vty, "rpki %s cache %s %u pref %u%s\n", mode_name(s), s->config.host,
			s->config.port, s->config.preference,
			cache_connected(s) ? " (connected)" : "");
		if (failed)
			vty_out(view->vty, "  %s: %s\n", rtr_state_name(s->state), s->last_error);
		return;
	}
	json_object_open(view->w, NULL);
	json_string(view->w, "mode", mode_name(s));
	json_string(view->w, "host", s->config.host);
	json_stringf(view->w, "port", "%u", s->config.port); /* a string in FRR's */
	json_uint(view->w, "preference", s->config.preference);
	json_string(view->w, "state", cache_connected(s) ? "connected" : "disconnected");
	if (failed)
		json_string(view->w, "lastError", s->last_error);
	json_object_close(view->w);
}

static void failed_cb(const struct rtr_cache_status *s, void *arg)
{
	if (s->last_error[0])
		connection_cb(s, arg);
}

/* No cache connected: FRR's sentence, then each configured cache that failed and why. */
static int no_connection_caches(struct vty *vty, bool json)
{
	struct cache_view view = { .vty = vty };
	struct json_writer w;

	if (!json) {
		vty_out(vty, "%s\n", NO_CONNECTION);
		rtr_status_walk(failed_cb, &view);
		return CMD_WARNING;
	}
	view.w = &w;
	json_init(&w, &vty->out, true);
	json_object_open(&w, NULL);
	json_string(&w, "error", NO_CONNECTION);
	json_array_open(&w, "connections");
	rtr_status_walk(failed_cb, &view);
	json_array_close(&w);
	json_object_close(&w);
	json_end(&w);
	return CMD_WARNING;
}

DEFCMD(show_rpki_cache_connection, "show rpki cache-connection [json]",
       SHOW_STR RPKI_OUTPUT_STRING
       "Show to which RPKI Cache Servers we have a connection\n" JSON_STR)
{
	struct cache_view view = { .vty = vty };
	struct json_writer w;

	rtr_status_walk(count_cb, &view);
	if (!view.any_connected)
		return view.count ? no_connection_caches(vty, cmd_has(args, "json"))
				  : no_connection(vty, cmd_has(args, "json"));
	if (!cmd_has(args, "json")) {
		vty_out(vty, "Connected to group %u\n", rtr_active_group());
		rtr_status_walk(connection_cb, &view);
		return CMD_SUCCESS;
	}
	view.w = &w;
	json_init(&w, &vty->out, true);
	json_object_open(&w, NULL);
	json_uint(&w, "connectedGroup", rtr_active_group());
	json_array_open(&w, "connections");
	rtr_status_walk(connection_cb, &view);
	json_array_close(&w);
	json_object_close(&w);
	json_end(&w);
	return CMD_SUCCESS;
}

static void time_text(int64_t epoch, char *buf, size_t size)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (epoch <= 0 || !localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "never");
}

/* FRR's line, then skua's indented lines: what FRR shows stays the first line of each
 * cache, so a script reading FRR's output reads ours. */
static void server_text(struct vty *vty, const struct rtr_cache_status *s)
{
	char since[32], sync[32];

	vty_out(vty, "host: %s port: %u, preference: %u\n", s->config.host, s->config.port,
		s->config.preference);
	time_text(s->state_since, since, sizeof(since));
	time_text(s->last_sync, sync, sizeof(sync));
	vty_out(vty, "  transport: %s%s%s%s\n", mode_name(s), s->config.source ? ", source " : "",
		s->config.source ? s->config.source : "", s->config.password ? ", TCP-MD5" : "");
	vty_out(vty, "  state: %s since %s%s\n", rtr_state_name(s->state), since,
		s->data_expired ? " (data expired)" : "");
	if (s->have_serial)
		vty_out(vty, "  RTR version %u, session %u, serial %u, last sync %s\n", s->version,
			s->session_id, s->serial, sync);
	vty_out(vty, "  refresh %us, retry %us, expire %us\n", s->refresh, s->retry, s->expire);
	vty_out(vty, "  records: %zu IPv4 VRPs, %zu IPv6 VRPs, %zu ASPA\n", s->vrps_v4, s->vrps_v6,
		s->aspas);
	vty_out(vty,
		"  PDUs received %" PRIu64 ", sent %" PRIu64 "; errors received %" PRIu64
		", sent %" PRIu64 "; connections %" PRIu64 "\n",
		s->pdus_rx, s->pdus_tx, s->errors_rx, s->errors_tx, s->connects);
	if (s->config.transport == RTR_TRANSPORT_TLS)
		vty_out(vty, "  TLS: ca-file %s%s%s, %s%s%s\n", s->config.ca_file,
			s->config.client_cert ? ", client-cert " : "",
			s->config.client_cert ? s->config.client_cert : "",
			s->tls_version[0] ? s->tls_version : "not established",
			s->tls_peer[0] ? ", verified peer " : "", s->tls_peer);
	if (s->last_error[0])
		vty_out(vty, "  last error: %s\n", s->last_error);
}

static void server_json(struct json_writer *w, const struct rtr_cache_status *s)
{
	json_object_open(w, NULL);
	/* FRR's keys. */
	json_string(w, "mode", mode_name(s));
	json_string(w, "host", s->config.host);
	json_stringf(w, "port", "%u", s->config.port);
	json_uint(w, "preference", s->config.preference);
	if (s->config.source)
		json_string(w, "source", s->config.source);
	/* skua's. */
	json_bool(w, "tcpMd5", s->config.password != NULL);
	if (s->config.ca_file)
		json_string(w, "caFile", s->config.ca_file);
	if (s->config.client_cert)
		json_string(w, "clientCert", s->config.client_cert);
	json_string(w, "state", rtr_state_name(s->state));
	json_int(w, "stateSinceEpoch", s->state_since);
	json_bool(w, "dataExpired", s->data_expired);
	if (s->have_serial) {
		json_uint(w, "rtrVersion", s->version);
		json_uint(w, "sessionId", s->session_id);
		json_uint(w, "serial", s->serial);
	}
	json_int(w, "lastSyncEpoch", s->last_sync);
	json_uint(w, "refreshInterval", s->refresh);
	json_uint(w, "retryInterval", s->retry);
	json_uint(w, "expireInterval", s->expire);
	json_uint(w, "ipv4PrefixCount", s->vrps_v4);
	json_uint(w, "ipv6PrefixCount", s->vrps_v6);
	json_uint(w, "aspaCount", s->aspas);
	json_uint(w, "pdusReceived", s->pdus_rx);
	json_uint(w, "pdusSent", s->pdus_tx);
	json_uint(w, "errorsReceived", s->errors_rx);
	json_uint(w, "errorsSent", s->errors_tx);
	json_uint(w, "connects", s->connects);
	if (s->tls_version[0])
		json_string(w, "tlsVersion", s->tls_version);
	if (s->tls_peer[0])
		json_string(w, "tlsPeer", s->tls_peer);
	if (s->last_error[0])
		json_string(w, "lastError", s->last_error);
	json_object_close(w);
}

static void server_cb(const struct rtr_cache_status *s, void *arg)
{
	struct cache_view *view = arg;

	if (view->w)
		server_json(view->w, s);
	else
		server_text(view->vty, s);
}

DEFCMD(show_rpki_cache_server, "show rpki cache-server [json]",
       SHOW_STR RPKI_OUTPUT_STRING "Show configured cache server\n" JSON_STR)
{
	struct cache_view view = { .vty = vty };
	struct json_writer w;

	if (cmd_has(args, "json")) {
		view.w = &w;
		json_init(&w, &vty->out, true);
		json_object_open(&w, NULL);
		json_array_open(&w, "servers");
	}
	rtr_status_walk(server_cb, &view);
	if (view.w) {
		json_array_close(&w);
		json_object_close(&w);
		json_end(&w);
	}
	return CMD_SUCCESS;
}

/* ---- exec ---------------------------------------------------------------------------------- */

DEFCMD(rpki_reset, "rpki reset", RPKI_OUTPUT_STRING "reset rpki\n")
{
	(void)args;
	rtr_reset();
	return CMD_SUCCESS;
}

DEFCMD(rpki_start, "rpki start", RPKI_OUTPUT_STRING "start rpki support\n")
{
	(void)args;
	rtr_start();
	return CMD_SUCCESS;
}

DEFCMD(rpki_stop, "rpki stop", RPKI_OUTPUT_STRING "stop rpki support\n")
{
	(void)args;
	rtr_stop();
	return CMD_SUCCESS;
}

void bgp_show_rpki_init(void)
{
	static const struct cmd_def *const shows[] = {
		&show_rpki_prefix_table_cmd,	 &show_rpki_as_number_cmd,
		&show_rpki_prefix_cmd,		 &show_rpki_aspa_table_cmd,
		&show_rpki_cache_connection_cmd, &show_rpki_cache_server_cmd,
	};

	for (size_t i = 0; i < array_size(shows); i++)
		cmd_install(VIEW_NODE, shows[i]);
	cmd_install(ENABLE_NODE, &rpki_reset_cmd);
	cmd_install(ENABLE_NODE, &rpki_start_cmd);
	cmd_install(ENABLE_NODE, &rpki_stop_cmd);
	cmd_install(RPKI_NODE, &rpki_reset_cmd); /* FRR has it in the rpki node too */
}
