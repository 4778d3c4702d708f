/* SPDX-License-Identifier: ISC */
/*
 * The rpki node on the CLI and in the northbound (yang/skua-rpki.yang), FRR 8.4's syntax:
 *
 *   rpki                                                    enters r1(config-rpki)#
 *    rpki polling_period (1-86400) | rpki retry_interval (1-7200)
 *    rpki expire_interval (600-172800)                      (and their no forms)
 *    rpki cache HOST PORT [source ADDR] preference (1-255)             FRR 8.4
 *    rpki cache tcp HOST PORT [source ADDR] [password WORD] preference (1-255)   FRR 10, MD5
 *    rpki cache tls HOST PORT [source ADDR] ca-file FILE [client-cert FILE client-key FILE]
 *               preference (1-255)                                     skua
 *    no rpki cache ... preference (1-255)                   the preference is the key
 *   exit
 *   no rpki                                                 every cache removed (FRR 8.4)
 *
 * Printed last (after the route-maps, as FRR does), caches in preference order: a TCP cache
 * without a password in FRR 8.4's form (so FRR reads the printout back), one with a password
 * in the `tcp` form, a TLS cache in the `tls` form.
 *
 * A cache statement is checked in the validate phase by rtr_cache_check() (files readable,
 * a key that matches its certificate...), applied whole by rtr_cache_set() once per commit
 * (the entry's apply_finish), so the RTR manager never sees half a statement; the intervals
 * are applied together by the container's apply_finish.
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/rtr/rtr.h"
#include "lib/log.h"
#include "lib/northbound_cli.h"
#include "lib/prefix.h"
#include "lib/yang.h"

#define RPKI_XPATH "/skua-rpki:rpki"
#define CACHE_XPATH RPKI_XPATH "/cache[preference='%s']"

/* ---- callbacks ----------------------------------------------------------------------- */

/* The statement of a cache entry; the strings point into the tree. */
static void cache_config(const struct lyd_node *entry, struct rtr_cache_config *c)
{
	const char *transport = yang_dnode_get_string(entry, "transport");

	memset(c, 0, sizeof(*c));
	c->transport =
		transport && strcmp(transport, "tls") == 0 ? RTR_TRANSPORT_TLS : RTR_TRANSPORT_TCP;
	c->host = yang_dnode_get_string(entry, "host");
	c->port = (uint16_t)yang_dnode_get_uint(entry, 0, "port");
	c->preference = (uint8_t)yang_dnode_get_uint(entry, 0, "preference");
	c->source = yang_dnode_get_string(entry, "source");
	c->password = yang_dnode_get_string(entry, "password");
	c->ca_file = yang_dnode_get_string(entry, "ca-file");
	c->client_cert = yang_dnode_get_string(entry, "client-cert");
	c->client_key = yang_dnode_get_string(entry, "client-key");
}

/* VALIDATE of a new cache or a changed leaf of one: what only the RTR layer can tell (the
 * files are readable, the key is the certificate's). */
static int cache_check(struct nb_cb_args *args, const struct lyd_node *entry)
{
	struct rtr_cache_config c;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	cache_config(entry, &c);
	if (rtr_cache_check(&c, args->errmsg, args->errmsg_len) < 0)
		return NB_ERR;
	return NB_OK;
}

static int cache_create(struct nb_cb_args *args)
{
	return cache_check(args, args->dnode);
}

static int cache_leaf_modify(struct nb_cb_args *args)
{
	return cache_check(args, lyd_parent(args->dnode));
}

static int cache_leaf_destroy(struct nb_cb_args *args)
{
	(void)args; /* the entry's apply_finish applies what is left */
	return NB_OK;
}

static int cache_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		rtr_cache_del((uint8_t)yang_dnode_get_uint(args->dnode, 0, "preference"));
	return NB_OK;
}

static void cache_apply_finish(struct nb_cb_args *args)
{
	struct rtr_cache_config c;
	char err[256];

	cache_config(args->dnode, &c);
	/* Checked in the validate phase; a failure now (a file removed in between) is
	 * logged, the statement stays configured and the RTR layer keeps retrying. */
	if (rtr_cache_set(&c, err, sizeof(err)) < 0)
		log_err("rpki cache %s %u preference %u: %s", c.host, c.port, c.preference, err);
}

static void timers_apply_finish(struct nb_cb_args *args)
{
	struct rtr_timers t, now;

	t.polling_period = (uint32_t)yang_dnode_get_uint(args->dnode, RTR_DEFAULT_POLLING_PERIOD,
							 "polling-period");
	t.retry_interval = (uint32_t)yang_dnode_get_uint(args->dnode, RTR_DEFAULT_RETRY_INTERVAL,
							 "retry-interval");
	t.expire_interval = (uint32_t)yang_dnode_get_uint(args->dnode, RTR_DEFAULT_EXPIRE_INTERVAL,
							  "expire-interval");
	rtr_timers_get(&now);
	if (memcmp(&t, &now, sizeof(t)) != 0)
		rtr_timers_set(&t);
}

/* ---- running-config -------------------------------------------------------------------- */

static void print_interval(struct sbuf *out, const struct lyd_node *dnode, const char *leaf,
			   const char *word)
{
	const struct lyd_node *n = yang_dnode_get(dnode, "%s", leaf);

	if (n && !yang_dnode_is_default(n))
		sbuf_printf(out, " rpki %s %s\n", word, lyd_get_value(n));
}

static void rpki_show(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_puts(out, "rpki\n");
	print_interval(out, dnode, "polling-period", "polling_period");
	print_interval(out, dnode, "retry-interval", "retry_interval");
	print_interval(out, dnode, "expire-interval", "expire_interval");
}

static void rpki_show_end(struct sbuf *out, const struct lyd_node *dnode)
{
	(void)dnode;
	sbuf_puts(out, "exit\n");
}

static void cache_show(struct sbuf *out, const struct lyd_node *dnode)
{
	struct rtr_cache_config c;

	cache_config(dnode, &c);
	sbuf_puts(out, " rpki cache ");
	if (c.transport == RTR_TRANSPORT_TLS)
		sbuf_puts(out, "tls ");
	else if (c.password)
		sbuf_puts(out, "tcp ");
	sbuf_printf(out, "%s %u", c.host, c.port);
	if (c.source)
		sbuf_printf(out, " source %s", c.source);
	if (c.password)
		sbuf_printf(out, " password %s", c.password);
	if (c.ca_file)
		sbuf_printf(out, " ca-file %s", c.ca_file);
	if (c.client_cert)
		sbuf_printf(out, " client-cert %s", c.client_cert);
	if (c.client_key)
		sbuf_printf(out, " client-key %s", c.client_key);
	sbuf_printf(out, " preference %u\n", c.preference);
}

static int cache_cmp(const struct lyd_node *a, const struct lyd_node *b)
{
	uint64_t pa = yang_dnode_get_uint(a, 0, "preference");
	uint64_t pb = yang_dnode_get_uint(b, 0, "preference");

	return pa < pb ? -1 : pa > pb;
}

#define CACHE_LEAF(leaf)                                                               \
	{                                                                              \
		.xpath = RPKI_XPATH "/cache/" leaf,                                    \
		.cbs = { .modify = cache_leaf_modify, .destroy = cache_leaf_destroy }, \
	}

static const struct nb_node_info rpki_nb_nodes[] = {
	{
		.xpath = RPKI_XPATH,
		.cbs = { .apply_finish = timers_apply_finish,
			 .cli_show = rpki_show,
			 .cli_show_end = rpki_show_end },
	},
	{
		.xpath = RPKI_XPATH "/cache",
		.cbs = { .create = cache_create,
			 .destroy = cache_destroy,
			 .apply_finish = cache_apply_finish,
			 .cli_show = cache_show,
			 .cli_cmp = cache_cmp },
	},
	CACHE_LEAF("transport"),
	CACHE_LEAF("host"),
	CACHE_LEAF("port"),
	CACHE_LEAF("source"),
	CACHE_LEAF("password"),
	CACHE_LEAF("ca-file"),
	CACHE_LEAF("client-cert"),
	CACHE_LEAF("client-key"),
	{ .xpath = NULL },
};

static const struct nb_module_info rpki_nb_module = {
	.name = "skua-rpki",
	.nodes = rpki_nb_nodes,
};

/* ---- commands ---------------------------------------------------------------------------- */

#define RPKI_OUTPUT_STRING "Control rpki specific settings\n"

DEFCMD(rpki_node, "rpki", "Enable rpki and enter rpki configuration mode\n")
{
	nb_cli_enter_node(vty, RPKI_NODE, RPKI_XPATH);
	return CMD_SUCCESS;
}

/* FRR 8.4: every cache goes (validation is off), the intervals stay. */
DEFCMD(no_rpki, "no rpki", NO_STR "Enable rpki and enter rpki configuration mode\n")
{
	const struct lyd_node *rpki = nb_cli_get(vty, RPKI_XPATH);
	char xp[XPATH_MAX];
	int n = 0;

	for (const struct lyd_node *c = rpki ? lyd_child(rpki) : NULL; c; c = c->next) {
		if (strcmp(c->schema->name, "cache") != 0)
			continue;
		if (n++ == NB_CLI_MAX_CHANGES) {
			/* More than one command may queue: commit what is queued, go on. */
			int ret = nb_cli_apply_changes(vty, NULL);

			if (ret != CMD_SUCCESS)
				return ret;
			n = 1;
		}
		snprintf(xp, sizeof(xp), CACHE_XPATH, yang_dnode_get_string(c, "preference"));
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	}
	return n ? nb_cli_apply_changes(vty, NULL) : CMD_SUCCESS;
}

static int interval_edit(struct vty *vty, const struct cmd_args *args, const char *leaf)
{
	char xp[XPATH_MAX];

	snprintf(xp, sizeof(xp), RPKI_XPATH "/%s", leaf);
	if (cmd_has(args, "no"))
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
	else
		nb_cli_enqueue_change(vty, xp, NB_OP_MODIFY, cmd_arg(args, "secs"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(rpki_polling_period, "rpki polling_period (1-86400)$secs",
       RPKI_OUTPUT_STRING "Set polling period\n"
			  "Polling period value\n")
{
	return interval_edit(vty, args, "polling-period");
}

DEFCMD(no_rpki_polling_period, "no rpki polling_period [(1-86400)$secs]",
       NO_STR RPKI_OUTPUT_STRING "Set polling period back to default\n"
				 "Polling period value\n")
{
	return interval_edit(vty, args, "polling-period");
}

DEFCMD(rpki_retry_interval, "rpki retry_interval (1-7200)$secs",
       RPKI_OUTPUT_STRING "Set retry interval\n"
			  "retry interval value\n")
{
	return interval_edit(vty, args, "retry-interval");
}

DEFCMD(no_rpki_retry_interval, "no rpki retry_interval [(1-7200)$secs]",
       NO_STR RPKI_OUTPUT_STRING "Set retry interval back to default\n"
				 "retry interval value\n")
{
	return interval_edit(vty, args, "retry-interval");
}

DEFCMD(rpki_expire_interval, "rpki expire_interval (600-172800)$secs",
       RPKI_OUTPUT_STRING "Set expire interval\n"
			  "Expire interval value\n")
{
	return interval_edit(vty, args, "expire-interval");
}

DEFCMD(no_rpki_expire_interval, "no rpki expire_interval [(600-172800)$secs]",
       NO_STR RPKI_OUTPUT_STRING "Set expire interval back to default\n"
				 "Expire interval value\n")
{
	return interval_edit(vty, args, "expire-interval");
}

/* The leaves of a cache statement, NULL where the statement has none. */
struct cache_words {
	const char *transport, *host, *port, *source, *password, *ca_file, *cert, *key;
};

static const char *const cache_leaves[] = {
	"transport", "host", "port", "source", "password", "ca-file", "client-cert", "client-key",
};

static void words_of(const struct cmd_args *args, const char *transport, struct cache_words *w)
{
	w->transport = transport;
	w->host = cmd_arg(args, "host");
	w->port = cmd_arg(args, "port");
	w->source = cmd_arg(args, "source");
	w->password = cmd_arg(args, "password");
	w->ca_file = cmd_arg(args, "ca");
	w->cert = cmd_arg(args, "cert");
	w->key = cmd_arg(args, "key");
}

static const char *word_at(const struct cache_words *w, size_t i)
{
	const char *const v[] = { w->transport, w->host,    w->port, w->source,
				  w->password,	w->ca_file, w->cert, w->key };

	return v[i];
}

/* Two spellings of one address ("2001:DB8::1" and the model's canonical "2001:db8::1"). */
static bool same_address(const char *a, const char *b)
{
	struct ipaddr x, y;

	return ipaddr_from_str(&x, a) == 0 && ipaddr_from_str(&y, b) == 0 &&
	       ipaddr_cmp(&x, &y) == 0;
}

/* The configured entry says what the statement says (the same statement again is not an
 * error: a file may repeat it, as FRR's would). Addresses compare as the model stores them. */
static bool entry_is(const struct lyd_node *entry, const struct cache_words *w)
{
	for (size_t i = 0; i < array_size(cache_leaves); i++) {
		const struct lyd_node *n = yang_dnode_get(entry, "%s", cache_leaves[i]);
		const char *want = word_at(w, i);
		const char *have = n ? lyd_get_value(n) : NULL;

		if (i == 0) { /* the default: present in a validated tree, not in a file's */
			want = want ? want : "tcp";
			have = have ? have : "tcp";
		}
		if (!want != !have)
			return false;
		if (want && strcmp(want, have) != 0 && !same_address(want, have))
			return false;
	}
	return true;
}

static int cache_edit(struct vty *vty, const struct cmd_args *args, const char *transport)
{
	const char *pref = cmd_arg(args, "pref");
	const struct lyd_node *entry;
	struct cache_words w;
	char xp[XPATH_MAX], leaf[XPATH_MAX + 32];

	snprintf(xp, sizeof(xp), CACHE_XPATH, pref);
	entry = nb_cli_get(vty, "%s", xp);
	if (cmd_has(args, "no")) {
		if (!entry) {
			vty_out(vty, "%% Could not find cache with preference %s\n", pref);
			return CMD_WARNING_CONFIG_FAILED;
		}
		nb_cli_enqueue_change(vty, xp, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	words_of(args, transport, &w);
	if (entry) {
		if (entry_is(entry, &w))
			return CMD_SUCCESS;
		vty_out(vty,
			"%% Cache with preference %s is already configured (remove it first: no "
			"rpki cache ... preference %s)\n",
			pref, pref);
		return CMD_WARNING_CONFIG_FAILED;
	}
	for (size_t i = 0; i < array_size(cache_leaves); i++) {
		if (!word_at(&w, i))
			continue;
		snprintf(leaf, sizeof(leaf), "%s/%s", xp, cache_leaves[i]);
		nb_cli_enqueue_change(vty, leaf, NB_OP_MODIFY, word_at(&w, i));
	}
	return nb_cli_apply_changes(vty, NULL);
}

#define CACHE_HOST "<A.B.C.D|X:X::X:X|WORD>$host (0-65535)$port"
#define CACHE_HOST_HELP                  \
	"IP address of cache server\n"   \
	"IPv6 address of cache server\n" \
	"Hostname of cache server\n"     \
	"TCP port number\n"
#define CACHE_SOURCE "[source <A.B.C.D|X:X::X:X>$source]"
#define CACHE_SOURCE_HELP                                  \
	"Configure source IP address of RPKI connection\n" \
	"Define a Source IP Address\n"                     \
	"Define a Source IPv6 Address\n"
#define CACHE_PREF "preference (1-255)$pref"
#define CACHE_PREF_HELP                    \
	"Preference of the cache server\n" \
	"Preference value\n"
#define CACHE_STR RPKI_OUTPUT_STRING "Install a cache server to current group\n"

DEFCMD(rpki_cache, "[no] rpki cache " CACHE_HOST " " CACHE_SOURCE " " CACHE_PREF,
       NO_STR CACHE_STR CACHE_HOST_HELP CACHE_SOURCE_HELP CACHE_PREF_HELP)
{
	return cache_edit(vty, args, NULL);
}

DEFCMD(rpki_cache_tcp,
       "[no] rpki cache tcp " CACHE_HOST " " CACHE_SOURCE " [password WORD$password] " CACHE_PREF,
       NO_STR CACHE_STR "Use TCP\n" CACHE_HOST_HELP CACHE_SOURCE_HELP
			"Protect the connection with a TCP-MD5 signature (RFC 2385)\n"
			"The key (1-80 characters)\n" CACHE_PREF_HELP)
{
	/* "tcp" is the default: a TCP statement is the same whichever form it came in. */
	return cache_edit(vty, args, NULL);
}

DEFCMD(rpki_cache_tls,
       "[no] rpki cache tls " CACHE_HOST " " CACHE_SOURCE
       " [{ca-file WORD$ca|client-cert WORD$cert|client-key WORD$key}] " CACHE_PREF,
       NO_STR CACHE_STR "Use TLS (RFC 8210 7)\n" CACHE_HOST_HELP CACHE_SOURCE_HELP
			"The CAs the cache's certificate must chain to\n"
			"PEM file\n"
			"A certificate to present to the cache\n"
			"PEM file\n"
			"The private key of the client certificate\n"
			"PEM file\n" CACHE_PREF_HELP)
{
	/* The files are optional here so that the model can say which one is missing. */
	return cache_edit(vty, args, "tls");
}

void bgp_rpki_cli_init(void)
{
	static const struct cmd_def *rpki_cmds[] = {
		&rpki_polling_period_cmd,  &no_rpki_polling_period_cmd,
		&rpki_retry_interval_cmd,  &no_rpki_retry_interval_cmd,
		&rpki_expire_interval_cmd, &no_rpki_expire_interval_cmd,
		&rpki_cache_cmd,	   &rpki_cache_tcp_cmd,
		&rpki_cache_tls_cmd,
	};

	nb_module_register(&rpki_nb_module);
	cmd_install(CONFIG_NODE, &rpki_node_cmd);
	cmd_install(CONFIG_NODE, &no_rpki_cmd);
	bgp_cli_install(RPKI_NODE, rpki_cmds, array_size(rpki_cmds));
}
