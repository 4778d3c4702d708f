/* SPDX-License-Identifier: ISC */
/*
 * The northbound core against the real skua-bgp model, with a recording callback table
 * instead of bgpd: edits, libyang validation and its operator messages, the diff and the
 * order of callbacks, the phases, and that nothing is half-applied when a step fails.
 */
#include "lib/compat.h"

#include <check.h>

#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define NBR "/skua-bgp:bgp/neighbors/neighbor"
#define NBR1 NBR "[remote-address='10.0.0.1']"
#define NBR2 NBR "[remote-address='10.0.0.2']"
#define NBR3 NBR "[remote-address='10.0.0.3']"

/* ---- a recording callback table ------------------------------------------------------- */

static struct sbuf rec;		 /* one line per callback: "apply create /path" */
static const char *fail_xpath;	 /* the change whose callback fails ... */
static enum nb_event fail_event; /* ... in this phase */
static int resources_live;	 /* PREPARE allocates, APPLY/ABORT free */

static int record(struct nb_cb_args *args)
{
	char path[512];

	yang_dnode_path(args->dnode, path, sizeof(path));
	sbuf_printf(&rec, "%s %s %s\n", nb_event_name(args->event), nb_operation_name(args->op),
		    path);
	if (fail_xpath && args->event == fail_event && !strcmp(path, fail_xpath)) {
		snprintf(args->errmsg, args->errmsg_len, "refused by test at %s", path);
		return NB_ERR;
	}
	switch (args->event) {
	case NB_EV_PREPARE:
		*args->resource = malloc(16);
		resources_live++;
		break;
	case NB_EV_ABORT:
	case NB_EV_APPLY:
		if (*args->resource) {
			free(*args->resource);
			*args->resource = NULL;
			resources_live--;
		}
		break;
	case NB_EV_VALIDATE:
		break;
	}
	return NB_OK;
}

static void record_finish(struct nb_cb_args *args)
{
	char path[512];

	sbuf_printf(&rec, "finish %s\n", yang_dnode_path(args->dnode, path, sizeof(path)));
}

#define REC_LEAF                                    \
	{                                           \
		.modify = record, .destroy = record \
	}

static const struct nb_node_info test_nodes[] = {
	{ .xpath = "/skua-bgp:bgp", .cbs = { .create = record, .destroy = record } },
	{ .xpath = "/skua-bgp:bgp/local-as", .cbs = REC_LEAF },
	{ .xpath = "/skua-bgp:bgp/router-id", .cbs = REC_LEAF },
	{ .xpath = "/skua-bgp:bgp/timers", .cbs = { .apply_finish = record_finish } },
	{ .xpath = "/skua-bgp:bgp/timers/keepalive", .cbs = REC_LEAF },
	{ .xpath = "/skua-bgp:bgp/timers/hold-time", .cbs = REC_LEAF },
	/* No destroy on the neighbor: its children are told, children first. */
	{ .xpath = NBR, .cbs = { .create = record } },
	{ .xpath = NBR "/neighbor-remote-as/remote-as-type",
	  .cbs = REC_LEAF,
	  .missing_msg = "Specify remote-as or peer-group commands first" },
	{ .xpath = NBR "/neighbor-remote-as/remote-as", .cbs = REC_LEAF },
	{ .xpath = NBR "/description", .cbs = REC_LEAF },
	{ .xpath = NBR "/ttl-security", .cbs = REC_LEAF },
	{ .xpath = NBR "/ebgp-multihop", .cbs = REC_LEAF },
	{ .xpath = NULL },
};

static const struct nb_module_info test_module = { .name = "skua-bgp", .nodes = test_nodes };

static void setup(void)
{
	sbuf_init(&rec);
	fail_xpath = NULL;
	resources_live = 0;
	nb_init();
	nb_module_register(&test_module);
}

static void teardown(void)
{
	nb_terminate();
	sbuf_free(&rec);
}

static const char *recorded(void)
{
	return rec.buf ? rec.buf : "";
}

static void edit_ok(struct nb_candidate *c, enum nb_operation op, const char *xpath,
		    const char *value)
{
	struct nb_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(nb_candidate_edit(c, op, xpath, value, &err) == 0, "edit %s: %s", xpath,
		      err.msg);
}

/* running := bgp 65001 with neighbor 10.0.0.1 (remote-as 65002, description), via a commit. */
static void running_base(void)
{
	struct nb_candidate *c = nb_candidate_new();
	struct nb_error err;

	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/local-as", "65001");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/neighbor-remote-as/remote-as-type", "as-specified");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/neighbor-remote-as/remote-as", "65002");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/description", "transit");
	memset(&err, 0, sizeof(err));
	ck_assert_msg(nb_candidate_commit(c, &err) == 0, "%s", err.msg);
	nb_candidate_free(c);
	sbuf_reset(&rec);
}

static char *running_json(void)
{
	char *s = NULL;

	if (nb_running())
		lyd_print_mem(&s, nb_running(), LYD_JSON,
			      LYD_PRINT_WITHSIBLINGS | LYD_PRINT_WD_ALL);
	return s ? s : strdup("");
}

/* Index of a line in the recording, -1 when absent. */
static int rec_pos(const char *line)
{
	const char *p = strstr(recorded(), line);

	return p ? (int)(p - recorded()) : -1;
}

static int rec_count(const char *line)
{
	int n = 0;

	for (const char *p = recorded(); (p = strstr(p, line)) != NULL; p += strlen(line))
		n++;
	return n;
}

/* ---- tests --------------------------------------------------------------------------- */

START_TEST(t_commit_creates_running)
{
	struct nb_candidate *c;
	struct nb_error err;
	uint64_t v0 = nb_running_version();

	ck_assert_ptr_null(nb_running());
	c = nb_candidate_new();
	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/local-as", "65001");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(c, &err), 0);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), "/skua-bgp:bgp/local-as"), "65001");
	ck_assert_uint_eq(nb_running_version(), v0 + 1);
	/* Parent before child; every phase in order; defaults of the new container applied. */
	ck_assert_int_ge(rec_pos("validate create /skua-bgp:bgp\n"), 0);
	ck_assert_int_lt(rec_pos("validate create /skua-bgp:bgp\n"),
			 rec_pos("prepare create /skua-bgp:bgp\n"));
	ck_assert_int_lt(rec_pos("prepare create /skua-bgp:bgp\n"),
			 rec_pos("apply create /skua-bgp:bgp\n"));
	ck_assert_int_lt(rec_pos("apply create /skua-bgp:bgp\n"),
			 rec_pos("apply create /skua-bgp:bgp/local-as\n"));
	ck_assert_int_ge(rec_pos("apply create /skua-bgp:bgp/timers/hold-time\n"), 0);
	ck_assert_int_gt(rec_pos("finish /skua-bgp:bgp/timers\n"),
			 rec_pos("apply create /skua-bgp:bgp/timers/hold-time\n"));
	ck_assert_int_eq(resources_live, 0);
	/* The candidate is a copy of the new running: committing it again changes nothing. */
	sbuf_reset(&rec);
	ck_assert_int_eq(nb_candidate_commit(c, &err), 0);
	ck_assert_str_eq(recorded(), "");
	ck_assert_uint_eq(nb_running_version(), v0 + 1);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_edit_value_errors)
{
	struct nb_candidate *c = nb_candidate_new();
	struct nb_error err;

	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	/* The model's error-message, verbatim. */
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(
		nb_candidate_edit(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/hold-time", "2", &err),
		-1);
	ck_assert_str_eq(err.msg, "hold time value must be either 0 or greater than 3");
	/* libyang's generic text becomes the command, with the neighbor filled in. */
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_edit(c, NB_OP_MODIFY, NBR1 "/ttl-security", "abc", &err), -1);
	ck_assert_str_eq(err.msg,
			 "Invalid value \"abc\" for \"neighbor PEER ttl-security hops (1-254)\"");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_edit(c, NB_OP_MODIFY, NBR1 "/ttl-security", "300", &err), -1);
	ck_assert_msg(strstr(err.msg, "300") && strstr(err.msg, "ttl-security"), "%s", err.msg);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_edit(c, NB_OP_MODIFY, NBR1 "/ttl-security", "255", &err), -1);
	ck_assert_str_eq(err.msg, "ttl-security hops must be between 1 and 254");
	/* A path outside the model is refused, not ignored. */
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(
		nb_candidate_edit(c, NB_OP_MODIFY, "/skua-bgp:bgp/no-such-leaf", "1", &err), -1);
	ck_assert_str_ne(err.msg, "");
	/* Removing what is not there is fine (FRR). */
	edit_ok(c, NB_OP_DESTROY, NBR2 "/description", NULL);
	edit_ok(c, NB_OP_DESTROY, NBR2, NULL);
	nb_candidate_free(c);
	ck_assert_str_eq(recorded(), "");
}
END_TEST

/* A commit the model refuses calls no callback and leaves running as it was. */
static void commit_refused(struct nb_candidate *c, const char *msg, const char *xpath)
{
	char *before = running_json(), *after;
	uint64_t v = nb_running_version();
	struct nb_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(c, &err), -1);
	ck_assert_str_eq(err.msg, msg);
	if (xpath)
		ck_assert_str_eq(err.xpath, xpath);
	ck_assert(err.validation);
	ck_assert_str_eq(recorded(), "");
	after = running_json();
	ck_assert_str_eq(before, after);
	ck_assert_uint_eq(nb_running_version(), v);
	free(before);
	free(after);
}

START_TEST(t_must_ttl_security_multihop)
{
	struct nb_candidate *c;

	running_base();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR1 "/ebgp-multihop", "5");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/ttl-security", "1");
	commit_refused(c, "ebgp-multihop and ttl-security cannot be configured together", NBR1);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_mandatory_remote_as)
{
	struct nb_candidate *c;

	running_base();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR2 "/description", "no AS yet");
	commit_refused(c, "Specify remote-as or peer-group commands first", NULL);
	nb_candidate_free(c);

	/* The remote AS itself, without a message in the table: the command is named. */
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "as-specified");
	commit_refused(c, "Incomplete configuration: neighbor PEER remote-as ASNUM is required",
		       NULL);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_must_keepalive_hold_and_when)
{
	struct nb_candidate *c;

	running_base();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/keepalive", "100");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/hold-time", "30");
	commit_refused(c, "the keepalive interval must not be greater than the hold time",
		       "/skua-bgp:bgp/timers");
	nb_candidate_free(c);

	/* hold 0 disables keepalives (RFC 4271 4.4): any keepalive is accepted. */
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/keepalive", "100");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/hold-time", "0");
	ck_assert_int_eq(nb_candidate_validate(c, &(struct nb_error){ 0 }), 0);
	nb_candidate_free(c);
	sbuf_reset(&rec);

	/* remote-as only exists with remote-as-type as-specified: given with internal, it is
	 * refused ... */
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "internal");
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as", "65002");
	commit_refused(c,
		       "\"neighbor 10.0.0.2 remote-as ASNUM\" is not allowed in this configuration",
		       NBR2 "/neighbor-remote-as/remote-as");
	nb_candidate_free(c);

	/* ... while an existing AS number goes away when the type changes (libyang drops a
	 * node whose when became false). */
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR1 "/neighbor-remote-as/remote-as-type", "internal");
	ck_assert_int_eq(nb_candidate_commit(c, &(struct nb_error){ 0 }), 0);
	ck_assert(!yang_dnode_exists(nb_running(), NBR1 "/neighbor-remote-as/remote-as"));
	ck_assert_int_ge(rec_pos("apply destroy " NBR1 "/neighbor-remote-as/remote-as\n"), 0);
	nb_candidate_free(c);
}
END_TEST

struct change_list {
	char v[32][160];
	int n;
};

static void collect_change(enum nb_operation op, const char *xpath, void *arg)
{
	struct change_list *cl = arg;

	if (cl->n < 32)
		snprintf(cl->v[cl->n++], sizeof(cl->v[0]), "%s %s", nb_operation_name(op), xpath);
}

static int change_pos(const struct change_list *cl, const char *s)
{
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(cl->v[i], s))
			return i;
	return -1;
}

START_TEST(t_diff_order)
{
	struct change_list cl = { .n = 0 };
	struct nb_candidate *c;
	struct nb_error err;

	running_base();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_DESTROY, NBR1, NULL);
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "external");
	edit_ok(c, NB_OP_MODIFY, NBR2 "/description", "new");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/router-id", "192.0.2.1");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_changes(c, collect_change, &cl, &err), 0);

	/* The deleted neighbor has no destroy callback: its settings go first, then itself. */
	ck_assert_int_ge(change_pos(&cl, "destroy " NBR1 "/description"), 0);
	ck_assert_int_lt(change_pos(&cl, "destroy " NBR1 "/description"),
			 change_pos(&cl, "destroy " NBR1));
	ck_assert_int_lt(change_pos(&cl, "destroy " NBR1 "/neighbor-remote-as/remote-as"),
			 change_pos(&cl, "destroy " NBR1 "/neighbor-remote-as"));
	/* The created one: parent first. */
	ck_assert_int_ge(change_pos(&cl, "create " NBR2), 0);
	ck_assert_int_lt(change_pos(&cl, "create " NBR2),
			 change_pos(&cl, "create " NBR2 "/description"));
	ck_assert_int_lt(change_pos(&cl, "create " NBR2),
			 change_pos(&cl, "create " NBR2 "/neighbor-remote-as/remote-as-type"));
	/* A new leaf; schema order puts router-id before the neighbors. */
	ck_assert_int_ge(change_pos(&cl, "create /skua-bgp:bgp/router-id"), 0);
	ck_assert_int_lt(change_pos(&cl, "create /skua-bgp:bgp/router-id"),
			 change_pos(&cl, "create " NBR2));
	/* Keys are part of their entry. */
	ck_assert_int_eq(change_pos(&cl, "create " NBR2 "/remote-address"), -1);
	nb_candidate_free(c);

	/* Deleting the instance: only the topmost node with a destroy callback is told. */
	cl.n = 0;
	c = nb_candidate_new();
	edit_ok(c, NB_OP_DESTROY, "/skua-bgp:bgp", NULL);
	ck_assert_int_eq(nb_candidate_changes(c, collect_change, &cl, &err), 0);
	ck_assert_int_eq(cl.n, 1);
	ck_assert_str_eq(cl.v[0], "destroy /skua-bgp:bgp");
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_modify_and_defaults)
{
	struct nb_candidate *c;
	struct nb_error err;

	running_base();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/keepalive", "10");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/hold-time", "30");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(c, &err), 0);
	ck_assert_int_ge(rec_pos("apply modify /skua-bgp:bgp/timers/keepalive\n"), 0);
	ck_assert_int_ge(rec_pos("apply modify /skua-bgp:bgp/timers/hold-time\n"), 0);
	/* Two leaves changed; their container's apply_finish runs once, after both. */
	ck_assert_int_gt(rec_pos("finish /skua-bgp:bgp/timers\n"),
			 rec_pos("apply modify /skua-bgp:bgp/timers/hold-time\n"));
	ck_assert_int_eq(rec_count("finish /skua-bgp:bgp/timers\n"), 1);

	/* Back to the default: a modify to the default value, not a destroy. */
	sbuf_reset(&rec);
	edit_ok(c, NB_OP_DESTROY, "/skua-bgp:bgp/timers/keepalive", NULL);
	edit_ok(c, NB_OP_DESTROY, "/skua-bgp:bgp/timers/hold-time", NULL);
	ck_assert_int_eq(nb_candidate_commit(c, &err), 0);
	ck_assert_int_ge(rec_pos("apply modify /skua-bgp:bgp/timers/keepalive\n"), 0);
	ck_assert_int_eq(rec_pos("destroy /skua-bgp:bgp/timers/keepalive"), -1);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), "/skua-bgp:bgp/timers/keepalive"),
			 "60");
	ck_assert(yang_dnode_is_default(
		yang_dnode_get(nb_running(), "/skua-bgp:bgp/timers/keepalive")));
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_validate_callback_refuses)
{
	struct nb_candidate *c;
	struct nb_error err;
	char *before, *after;

	running_base();
	before = running_json();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR1 "/description", "changed");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/router-id", "192.0.2.1");
	fail_xpath = NBR1 "/description";
	fail_event = NB_EV_VALIDATE;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(c, &err), -1);
	ck_assert_str_eq(err.msg, "refused by test at " NBR1 "/description");
	ck_assert_str_eq(err.xpath, NBR1 "/description");
	ck_assert(err.validation);
	/* Nothing was prepared or applied. */
	ck_assert_int_eq(rec_pos("prepare"), -1);
	ck_assert_int_eq(rec_pos("apply"), -1);
	after = running_json();
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_prepare_failure_aborts_all)
{
	struct nb_candidate *c;
	struct nb_error err;
	char *before, *after;
	int p1, p2, a1, a2;

	running_base();
	before = running_json();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/router-id", "192.0.2.1");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/description", "changed");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/ttl-security", "1");
	fail_xpath = NBR1 "/ttl-security";
	fail_event = NB_EV_PREPARE;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(c, &err), -1);
	ck_assert_str_eq(err.msg, "refused by test at " NBR1 "/ttl-security");
	ck_assert(!err.validation);

	/* Every change validated; the two before the failure prepared, then aborted newest
	 * first; nothing applied; every resource given back; running untouched. */
	ck_assert_int_ge(rec_pos("validate create " NBR1 "/ttl-security\n"), 0);
	p1 = rec_pos("prepare create /skua-bgp:bgp/router-id\n");
	p2 = rec_pos("prepare modify " NBR1 "/description\n");
	a1 = rec_pos("abort create /skua-bgp:bgp/router-id\n");
	a2 = rec_pos("abort modify " NBR1 "/description\n");
	ck_assert(p1 >= 0 && p2 > p1);
	ck_assert(a2 > p2 && a1 > a2);
	ck_assert_int_eq(rec_pos("abort create " NBR1 "/ttl-security"), -1);
	ck_assert_int_eq(rec_pos("apply"), -1);
	ck_assert_int_eq(rec_pos("finish"), -1);
	ck_assert_int_eq(resources_live, 0);
	after = running_json();
	ck_assert_str_eq(before, after);
	free(after);

	/* The same candidate commits once the resource is there. */
	fail_xpath = NULL;
	sbuf_reset(&rec);
	ck_assert_int_eq(nb_candidate_commit(c, &err), 0);
	ck_assert_int_ge(rec_pos("apply create " NBR1 "/ttl-security\n"), 0);
	ck_assert_int_eq(resources_live, 0);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), NBR1 "/description"), "changed");
	free(before);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_stale_candidate)
{
	struct nb_candidate *a, *b;
	struct nb_error err;

	running_base();
	a = nb_candidate_new();
	b = nb_candidate_new();
	edit_ok(a, NB_OP_MODIFY, NBR1 "/description", "from a");
	edit_ok(b, NB_OP_MODIFY, NBR1 "/description", "from b");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(a, &err), 0);
	sbuf_reset(&rec);
	ck_assert_int_eq(nb_candidate_commit(b, &err), -1);
	ck_assert_msg(strstr(err.msg, "changed since"), "%s", err.msg);
	ck_assert_str_eq(recorded(), "");
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), NBR1 "/description"), "from a");
	nb_candidate_free(a);
	nb_candidate_free(b);
}
END_TEST

START_TEST(t_coverage_reports_unhandled_leaves)
{
	struct sbuf missing;

	sbuf_init(&missing);
	/* The test table leaves e.g. the password without any callback. */
	ck_assert_int_gt(nb_check_coverage(&missing), 0);
	ck_assert_ptr_nonnull(strstr(missing.buf, NBR "/password\n"));
	ck_assert_ptr_null(strstr(missing.buf, NBR "/description\n"));
	sbuf_free(&missing);
}
END_TEST

START_TEST(t_path_helpers)
{
	char buf[256];

	yang_path_strip_predicates(NBR "[remote-address='2001:db8::1']/timers/keepalive", buf,
				   sizeof(buf));
	ck_assert_str_eq(buf, NBR "/timers/keepalive");
	yang_path_strip_predicates("/a[k=\"x]y\"]/b", buf, sizeof(buf));
	ck_assert_str_eq(buf, "/a/b");
	ck_assert(yang_path_key(NBR1 "/description", "remote-address", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "10.0.0.1");
	ck_assert(!yang_path_key("/skua-bgp:bgp/router-id", "remote-address", buf, sizeof(buf)));
}
END_TEST

START_TEST(t_ipv6_keys_are_canonical)
{
	struct nb_candidate *c = nb_candidate_new();
	struct nb_error err;

	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/local-as", "65001");
	edit_ok(c, NB_OP_MODIFY,
		NBR "[remote-address='2001:DB8:0::01']/neighbor-remote-as/remote-as-type",
		"internal");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_commit(c, &err), 0);
	ck_assert_ptr_nonnull(yang_dnode_get(nb_running(), NBR "[remote-address='2001:db8::1']"));
	nb_candidate_free(c);
}
END_TEST

/* ---- three-way merge ------------------------------------------------------------- */

/* A candidate and the base it was made from (a copy of running now). */
static struct nb_candidate *session_new(struct lyd_node **base)
{
	lyd_dup_siblings(nb_running(), NULL, LYD_DUP_RECURSIVE | LYD_DUP_WITH_FLAGS, base);
	return nb_candidate_new();
}

static void commit_ok(struct nb_candidate *c)
{
	struct nb_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(nb_candidate_commit(c, &err) == 0, "%s", err.msg);
}

START_TEST(t_rebase_disjoint)
{
	struct lyd_node *base_a, *base_b;
	struct nb_candidate *a, *b;
	struct nb_error err;

	running_base();
	a = session_new(&base_a);
	b = session_new(&base_b);
	edit_ok(a, NB_OP_MODIFY, NBR1 "/description", "from a");
	edit_ok(b, NB_OP_MODIFY, "/skua-bgp:bgp/router-id", "192.0.2.9");
	edit_ok(b, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "internal");
	ck_assert_int_eq(nb_candidate_rebase(a, base_a, false, &err), 0); /* nothing moved */
	commit_ok(a);
	/* b is stale now: a plain commit refuses, the rebase merges. */
	ck_assert_int_eq(nb_candidate_commit(b, &err), -1);
	ck_assert_int_eq(nb_candidate_rebase(b, base_b, false, &err), 0);
	ck_assert_uint_eq(nb_candidate_version(b), nb_running_version());
	sbuf_reset(&rec);
	commit_ok(b);
	/* Only b's own changes reach the callbacks; a's description stays. */
	ck_assert_int_ge(rec_pos("apply create /skua-bgp:bgp/router-id\n"), 0);
	ck_assert_int_ge(rec_pos("apply create " NBR2 "\n"), 0);
	ck_assert_int_eq(rec_pos("description"), -1);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), NBR1 "/description"), "from a");
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), "/skua-bgp:bgp/router-id"),
			 "192.0.2.9");
	lyd_free_all(base_a);
	lyd_free_all(base_b);
	nb_candidate_free(a);
	nb_candidate_free(b);
}
END_TEST

START_TEST(t_rebase_conflicts)
{
	struct lyd_node *base_a, *base_b;
	struct nb_candidate *a, *b;
	struct nb_error err;
	char *before, *after, *cand_before;

	running_base();
	/* The same leaf, different values. */
	a = session_new(&base_a);
	b = session_new(&base_b);
	edit_ok(a, NB_OP_MODIFY, NBR1 "/description", "from a");
	edit_ok(b, NB_OP_MODIFY, NBR1 "/description", "from b");
	commit_ok(a);
	before = running_json();
	lyd_print_mem(&cand_before, nb_candidate_tree(b), LYD_JSON, LYD_PRINT_WITHSIBLINGS);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_rebase(b, base_b, false, &err), -1);
	ck_assert_msg(strstr(err.msg, "\"neighbor 10.0.0.1 description LINE...\""), "%s", err.msg);
	ck_assert_str_eq(err.xpath, NBR1 "/description");
	ck_assert(!err.validation);
	after = running_json();
	ck_assert_str_eq(before, after);
	free(after);
	/* Force takes b as it is. */
	ck_assert_int_eq(nb_candidate_rebase(b, base_b, true, &err), 0);
	commit_ok(b);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), NBR1 "/description"), "from b");
	free(before);
	free(cand_before);
	lyd_free_all(base_a);
	lyd_free_all(base_b);
	nb_candidate_free(a);
	nb_candidate_free(b);

	/* A neighbor deleted on one side, edited on the other. */
	a = session_new(&base_a);
	b = session_new(&base_b);
	edit_ok(a, NB_OP_DESTROY, NBR1, NULL);
	edit_ok(b, NB_OP_MODIFY, NBR1 "/ttl-security", "3");
	commit_ok(a);
	ck_assert_int_eq(nb_candidate_rebase(b, base_b, false, &err), -1);
	ck_assert_str_eq(err.xpath, NBR1 "/ttl-security");
	lyd_free_all(base_a);
	lyd_free_all(base_b);
	nb_candidate_free(a);
	nb_candidate_free(b);
}
END_TEST

START_TEST(t_rebase_same_change)
{
	struct lyd_node *base_a, *base_b;
	struct nb_candidate *a, *b;
	struct nb_error err;

	running_base();
	a = session_new(&base_a);
	b = session_new(&base_b);
	edit_ok(a, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "external");
	edit_ok(b, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "external");
	edit_ok(b, NB_OP_MODIFY, NBR1 "/description", "b too");
	commit_ok(a);
	ck_assert_int_eq(nb_candidate_rebase(b, base_b, false, &err), 0);
	sbuf_reset(&rec);
	commit_ok(b);
	ck_assert_int_eq(rec_pos(NBR2), -1);
	ck_assert_int_ge(rec_pos("apply modify " NBR1 "/description\n"), 0);
	lyd_free_all(base_a);
	lyd_free_all(base_b);
	nb_candidate_free(a);
	nb_candidate_free(b);
}
END_TEST

START_TEST(t_merge_undo_keeps_later_changes)
{
	struct lyd_node *before_tree, *after_tree, *merged;
	struct nb_candidate *c;
	struct nb_error err;

	running_base();
	lyd_dup_siblings(nb_running(), NULL, LYD_DUP_RECURSIVE | LYD_DUP_WITH_FLAGS, &before_tree);
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "internal");
	commit_ok(c);
	lyd_dup_siblings(nb_running(), NULL, LYD_DUP_RECURSIVE | LYD_DUP_WITH_FLAGS, &after_tree);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/router-id", "192.0.2.3");
	commit_ok(c);
	/* Undo the first commit (after -> before) on top of the second. */
	ck_assert_int_eq(nb_merge_onto_running(after_tree, before_tree, &merged, &err), 0);
	ck_assert_ptr_null(yang_dnode_get(merged, NBR2));
	ck_assert_str_eq(yang_dnode_get_string(merged, "/skua-bgp:bgp/router-id"), "192.0.2.3");
	ck_assert_str_eq(yang_dnode_get_string(merged, NBR1 "/description"), "transit");
	lyd_free_all(merged);
	lyd_free_all(before_tree);
	lyd_free_all(after_tree);
	nb_candidate_free(c);
}
END_TEST

/* ---- history ------------------------------------------------------------------------ */

START_TEST(t_history)
{
	struct nb_candidate *c;
	struct lyd_node *t;
	struct nb_error err;
	char value[16];
	bool empty;

	ck_assert_int_eq(nb_history_count(), 0);
	ck_assert_uint_eq(nb_history_last_id(), 0);
	running_base(); /* #1 */
	c = nb_candidate_new();
	nb_candidate_set_origin(c, NB_SRC_RELOAD, "lbl", "a comment");
	commit_ok(c); /* nothing changed: not recorded */
	ck_assert_int_eq(nb_history_count(), 1);
	for (int i = 0; i < NB_HISTORY_MAX + 5; i++) {
		snprintf(value, sizeof(value), "d%d", i);
		edit_ok(c, NB_OP_MODIFY, NBR1 "/description", value);
		nb_candidate_set_origin(c, NB_SRC_RELOAD, "lbl", "a comment");
		commit_ok(c);
	}
	ck_assert_int_eq(nb_history_count(), NB_HISTORY_MAX);
	ck_assert_uint_eq(nb_history_last_id(), NB_HISTORY_MAX + 6);
	ck_assert_uint_eq(nb_history_get(0)->id, 7);
	ck_assert_int_eq(nb_history_get(NB_HISTORY_MAX - 1)->source, NB_SRC_RELOAD);
	ck_assert_str_eq(nb_history_get(NB_HISTORY_MAX - 1)->label, "lbl");
	ck_assert_str_eq(nb_history_get(NB_HISTORY_MAX - 1)->comment, "a comment");
	ck_assert_uint_eq(nb_history_get(NB_HISTORY_MAX - 1)->changes, 1);
	ck_assert_ptr_null(nb_history_get(NB_HISTORY_MAX));

	/* Each entry keeps the configuration it produced. */
	t = nb_history_config(10, &empty, &err);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(yang_dnode_get_string(t, NBR1 "/description"), "d8");
	lyd_free_all(t);
	ck_assert_ptr_null(nb_history_config(6, &empty, &err));
	ck_assert(!empty);
	ck_assert_str_eq(err.msg, "Transaction 6 does not exist");

	/* An empty configuration is a state too. */
	edit_ok(c, NB_OP_DESTROY, "/skua-bgp:bgp", NULL);
	commit_ok(c);
	ck_assert_ptr_null(nb_history_config(nb_history_last_id(), &empty, &err));
	ck_assert(empty);
	nb_candidate_free(c);
}
END_TEST

/* ---- canonical trees ---------------------------------------------------------------- */

START_TEST(t_explicit_default_is_default)
{
	struct nb_candidate *c;
	char *json;

	running_base();
	c = nb_candidate_new();
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/keepalive", "60");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/timers/hold-time", "180");
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/default-ipv4-unicast", "true");
	sbuf_reset(&rec);
	commit_ok(c);
	/* Nothing changed: the values are the defaults, and stay default nodes. */
	ck_assert_str_eq(recorded(), "");
	ck_assert(yang_dnode_is_default(
		yang_dnode_get(nb_running(), "/skua-bgp:bgp/timers/keepalive")));
	lyd_print_mem(&json, nb_running(), LYD_JSON, LYD_PRINT_WITHSIBLINGS);
	ck_assert_ptr_null(strstr(json, "keepalive"));
	ck_assert_ptr_null(strstr(json, "default-ipv4-unicast"));
	free(json);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_lists_in_stable_order)
{
	struct nb_candidate *c = nb_candidate_new();
	char *json1, *json2;

	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/local-as", "65001");
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "internal");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/neighbor-remote-as/remote-as-type", "internal");
	commit_ok(c);
	lyd_print_mem(&json1, nb_running(), LYD_JSON, LYD_PRINT_WITHSIBLINGS);
	ck_assert(strstr(json1, "10.0.0.1") < strstr(json1, "10.0.0.2"));
	nb_candidate_free(c);
	/* Created in the other order: the same JSON. */
	c = nb_candidate_new_empty();
	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/local-as", "65001");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/neighbor-remote-as/remote-as-type", "internal");
	edit_ok(c, NB_OP_MODIFY, NBR2 "/neighbor-remote-as/remote-as-type", "internal");
	commit_ok(c);
	lyd_print_mem(&json2, nb_running(), LYD_JSON, LYD_PRINT_WITHSIBLINGS);
	ck_assert_str_eq(json1, json2);
	free(json1);
	free(json2);
	nb_candidate_free(c);
}
END_TEST

START_TEST(t_mandatory_names_the_entry)
{
	struct nb_candidate *c = nb_candidate_new();
	struct nb_error err;

	edit_ok(c, NB_OP_CREATE, "/skua-bgp:bgp", NULL);
	edit_ok(c, NB_OP_MODIFY, "/skua-bgp:bgp/local-as", "65001");
	edit_ok(c, NB_OP_MODIFY, NBR1 "/neighbor-remote-as/remote-as-type", "internal");
	edit_ok(c, NB_OP_MODIFY, NBR2 "/description", "no remote-as");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(nb_candidate_validate(c, &err), -1);
	ck_assert_str_eq(err.msg, "Specify remote-as or peer-group commands first");
	/* libyang names only the schema node; the entry lacking it is found. */
	ck_assert_str_eq(err.xpath, NBR2);
	nb_candidate_free(c);
}
END_TEST

/* ---- a command refused half-way on a shared candidate (a file load) ------------------ */

static const char *leaf_value(struct nb_candidate *c, const char *xpath)
{
	const struct lyd_node *t = nb_candidate_tree(c);
	struct lyd_node *n = NULL;

	if (!t || lyd_find_path(t, xpath, 0, &n) != LY_SUCCESS)
		return NULL;
	return lyd_get_value(n);
}

static bool exists(struct nb_candidate *c, const char *xpath)
{
	const struct lyd_node *t = nb_candidate_tree(c);
	struct lyd_node *n = NULL;

	return t && lyd_find_path(t, xpath, 0, &n) == LY_SUCCESS;
}

/* One command: every edit queued, then the last one (a bad local-as) refused. */
static int command_failing_last(struct vty *vty, const char *const (*edits)[3], int n)
{
	for (int i = 0; i < n; i++)
		nb_cli_enqueue_change(vty, edits[i][0],
				      !strcmp(edits[i][1], "destroy")  ? NB_OP_DESTROY
				      : !strcmp(edits[i][1], "create") ? NB_OP_CREATE
								       : NB_OP_MODIFY,
				      edits[i][2]);
	nb_cli_enqueue_change(vty, "/skua-bgp:bgp/local-as", NB_OP_MODIFY, "not-a-number");
	return nb_cli_apply_changes(vty, NULL);
}

START_TEST(t_refused_command_leaves_nothing)
{
	struct nb_candidate *c = nb_candidate_new_empty();
	struct vty *vty = vty_new(-1);
	/* Before the command: NBR1 with a description, local-as 65001. */
	const char *const before[][3] = {
		{ "/skua-bgp:bgp", "create", NULL },
		{ "/skua-bgp:bgp/local-as", "modify", "65001" },
		{ NBR1 "/neighbor-remote-as/remote-as-type", "modify", "internal" },
		{ NBR1 "/description", "modify", "kept" },
	};
	/* The command: removes NBR1 and makes it again differently, changes a leaf, creates
	 * NBR2, then fails. */
	const char *const cmd[][3] = {
		{ NBR1, "destroy", NULL },
		{ NBR1, "create", NULL },
		{ NBR1 "/description", "modify", "half-made" },
		{ NBR2 "/description", "modify", "new" },
	};

	vty->candidate = c;
	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++)
		nb_cli_enqueue_change(vty, before[i][0],
				      !strcmp(before[i][1], "create") ? NB_OP_CREATE : NB_OP_MODIFY,
				      before[i][2]);
	ck_assert_int_eq(nb_cli_apply_changes(vty, NULL), CMD_SUCCESS);

	ck_assert_int_ne(command_failing_last(vty, cmd, 4), CMD_SUCCESS);
	/* Nothing of the command: NBR1 as it was (description and remote-as back), no NBR2,
	 * local-as unchanged. */
	ck_assert_ptr_nonnull(leaf_value(c, NBR1 "/description"));
	ck_assert_str_eq(leaf_value(c, NBR1 "/description"), "kept");
	ck_assert_str_eq(leaf_value(c, NBR1 "/neighbor-remote-as/remote-as-type"), "internal");
	ck_assert(!exists(c, NBR2));
	ck_assert_str_eq(leaf_value(c, "/skua-bgp:bgp/local-as"), "65001");
	ck_assert_int_eq(nb_candidate_validate(c, &(struct nb_error){ 0 }), 0);

	/* A leaf changed then refused: the old value back. */
	{
		const char *const leaf[][3] = { { NBR1 "/description", "modify", "changed" } };

		ck_assert_int_ne(command_failing_last(vty, leaf, 1), CMD_SUCCESS);
		ck_assert_str_eq(leaf_value(c, NBR1 "/description"), "kept");
	}
	/* An entry removed while another stands after it: libyang refuses to be told a place
	 * for entries of a list it orders itself, so the undo must not ask; NBR1 comes back whole
	 * and the saved copy is not leaked (the ASan build checks that). */
	{
		const char *const gone[][3] = { { NBR1, "destroy", NULL } };

		nb_cli_enqueue_change(vty, NBR3 "/neighbor-remote-as/remote-as-type", NB_OP_MODIFY,
				      "external");
		ck_assert_int_eq(nb_cli_apply_changes(vty, NULL), CMD_SUCCESS);
		ck_assert_int_ne(command_failing_last(vty, gone, 1), CMD_SUCCESS);
		ck_assert_ptr_nonnull(leaf_value(c, NBR1 "/description"));
		ck_assert_str_eq(leaf_value(c, NBR1 "/description"), "kept");
		ck_assert(exists(c, NBR3));
		ck_assert_int_eq(nb_candidate_validate(c, &(struct nb_error){ 0 }), 0);
	}
	vty->candidate = NULL;
	vty_free(vty);
	nb_candidate_free(c);
}
END_TEST

/* ---- printed diffs ------------------------------------------------------------------ */

START_TEST(t_text_diff)
{
	struct sbuf out;

	sbuf_init(&out);
	nb_text_diff(&out,
		     "hostname a\n!\nrouter bgp 1\n neighbor x remote-as 2\n neighbor y "
		     "remote-as 3\n !\n address-family ipv6 unicast\n  network n1\n "
		     "exit-address-family\nexit\n!\n",
		     "hostname a\n!\nrouter bgp 1\n neighbor x remote-as 2\n neighbor y "
		     "remote-as 4\n !\n address-family ipv6 unicast\n  network n1\n  network "
		     "n2\n exit-address-family\nexit\n!\n");
	ck_assert_str_eq(out.buf, "  router bgp 1\n"
				  "-  neighbor y remote-as 3\n"
				  "+  neighbor y remote-as 4\n"
				  "   address-family ipv6 unicast\n"
				  "+   network n2\n");
	sbuf_reset(&out);
	nb_text_diff(&out, "same\n", "same\n");
	ck_assert_uint_eq(out.len, 0);
	nb_text_diff(&out, "", "a\n b\n");
	ck_assert_str_eq(out.buf, "+ a\n+  b\n");
	sbuf_reset(&out);
	nb_text_diff(&out, "a\n b\n", "");
	ck_assert_str_eq(out.buf, "- a\n-  b\n");
	sbuf_free(&out);
}
END_TEST

static Suite *northbound_suite(void)
{
	Suite *s = suite_create("northbound");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, t_commit_creates_running);
	tcase_add_test(tc, t_edit_value_errors);
	tcase_add_test(tc, t_must_ttl_security_multihop);
	tcase_add_test(tc, t_mandatory_remote_as);
	tcase_add_test(tc, t_must_keepalive_hold_and_when);
	tcase_add_test(tc, t_diff_order);
	tcase_add_test(tc, t_modify_and_defaults);
	tcase_add_test(tc, t_validate_callback_refuses);
	tcase_add_test(tc, t_prepare_failure_aborts_all);
	tcase_add_test(tc, t_stale_candidate);
	tcase_add_test(tc, t_coverage_reports_unhandled_leaves);
	tcase_add_test(tc, t_path_helpers);
	tcase_add_test(tc, t_ipv6_keys_are_canonical);
	tcase_add_test(tc, t_rebase_disjoint);
	tcase_add_test(tc, t_rebase_conflicts);
	tcase_add_test(tc, t_rebase_same_change);
	tcase_add_test(tc, t_merge_undo_keeps_later_changes);
	tcase_add_test(tc, t_history);
	tcase_add_test(tc, t_explicit_default_is_default);
	tcase_add_test(tc, t_lists_in_stable_order);
	tcase_add_test(tc, t_mandatory_names_the_entry);
	tcase_add_test(tc, t_refused_command_leaves_nothing);
	tcase_add_test(tc, t_text_diff);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(northbound_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
