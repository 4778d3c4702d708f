/* SPDX-License-Identifier: ISC */
/*
 * Configuration commands on top of the northbound: queued edits, per-command commits, node
 * contexts, and `show running-config` printed from the running tree by per-node printers.
 */
#include "lib/compat.h"

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/northbound_journal.h"
#include "lib/vty.h"
#include "lib/yang.h"

DEFINE_MTYPE(NB_CLI, "Northbound CLI edits");

struct nb_cli_pending {
	char xpath[VTY_XPATH_LEN];
	enum nb_operation op;
	char *value;
};

/*
 * The edits of the command being executed. Commands run one at a time (one event loop), so a
 * single queue serves every vty; it remembers whose it is so that a stray leftover of one vty
 * never leaks into another's command.
 */
static struct {
	const struct vty *owner;
	struct nb_cli_pending v[NB_CLI_MAX_CHANGES];
	int n;
} pending;

static nb_cli_edit_observer edit_observer;
static void *edit_observer_arg;

void nb_cli_set_edit_observer(nb_cli_edit_observer cb, void *arg)
{
	edit_observer = cb;
	edit_observer_arg = arg;
}

static void pending_reset(void)
{
	for (int i = 0; i < pending.n; i++)
		XFREE(MTYPE_NB_CLI, pending.v[i].value);
	pending.n = 0;
	pending.owner = NULL;
}

void nb_cli_enqueue_change(struct vty *vty, const char *xpath, enum nb_operation op,
			   const char *value)
{
	struct nb_cli_pending *p;

	if (pending.owner != vty)
		pending_reset();
	pending.owner = vty;
	if (pending.n == NB_CLI_MAX_CHANGES) {
		fprintf(stderr, "skua: a command queued more than %d edits (a bug): %s\n",
			NB_CLI_MAX_CHANGES, xpath);
		abort();
	}
	p = &pending.v[pending.n++];
	snprintf(p->xpath, sizeof(p->xpath), "%s", xpath);
	p->op = op;
	p->value = value ? XSTRDUP(MTYPE_NB_CLI, value) : NULL;
}

void nb_cli_discard_changes(struct vty *vty)
{
	if (pending.owner == vty)
		pending_reset();
}

/* "./x" and "x" are relative to base; "/m:x" is absolute. */
static void full_xpath(const char *base, const char *xpath, char *buf, size_t size)
{
	if (xpath[0] == '/')
		snprintf(buf, size, "%s", xpath);
	else if (xpath[0] == '.' && xpath[1] == '/')
		snprintf(buf, size, "%s%s", base, xpath + 1);
	else
		snprintf(buf, size, "%s/%s", base, xpath);
}

int nb_cli_apply_changes(struct vty *vty, const char *xpath_base_fmt, ...)
{
	char base[VTY_XPATH_LEN] = "", xpath[VTY_XPATH_LEN * 2];
	struct nb_journal journal = { 0 };
	struct nb_candidate *c;
	struct nb_error err;
	int ret = CMD_SUCCESS;
	bool private, shared;

	if (pending.owner != vty || pending.n == 0) {
		nb_cli_discard_changes(vty);
		return CMD_SUCCESS;
	}
	if (xpath_base_fmt) {
		va_list ap;

		va_start(ap, xpath_base_fmt);
		vsnprintf(base, sizeof(base), xpath_base_fmt, ap);
		va_end(ap);
	} else if (vty->xpath_index > 0 && vty->xpath_index <= VTY_XPATH_DEPTH) {
		snprintf(base, sizeof(base), "%s", vty->xpath[vty->xpath_index - 1]);
	}

	memset(&err, 0, sizeof(err));
	/* A private session's candidate lives on after the command: edit a copy and keep it
	 * only when every edit of the command went in. */
	private = vty->candidate && nb_cli_session_private(vty);
	shared = vty->candidate && !private;
	if (private)
		c = nb_candidate_copy(vty->candidate);
	else
		c = vty->candidate ? vty->candidate : nb_candidate_new();
	for (int i = 0; i < pending.n; i++) {
		full_xpath(base, pending.v[i].xpath, xpath, sizeof(xpath));
		/* A candidate shared by many commands (a file load) is edited in place: a command
		 * refused half-way takes back its own first edits, so the lines after it (still
		 * read, to report every bad one) see no half-made entry. */
		if ((shared ? nb_candidate_edit_journaled(c, pending.v[i].op, xpath,
							  pending.v[i].value, &journal, &err)
			    : nb_candidate_edit(c, pending.v[i].op, xpath, pending.v[i].value,
						&err)) < 0) {
			ret = CMD_WARNING_CONFIG_FAILED;
			break;
		}
		if (edit_observer)
			edit_observer(xpath, edit_observer_arg);
	}
	if (shared && ret != CMD_SUCCESS)
		nb_journal_undo(c, &journal);
	nb_journal_clear(&journal);
	/* Outside a file load every command is its own commit (FRR's classic mode). */
	if (ret == CMD_SUCCESS && !vty->candidate && nb_candidate_commit(c, &err) < 0)
		ret = CMD_WARNING_CONFIG_FAILED;
	if (ret != CMD_SUCCESS)
		vty_out(vty, "%% %s\n", err.msg);
	if (private && ret == CMD_SUCCESS) {
		nb_candidate_free(vty->candidate);
		vty->candidate = c;
	} else if (private || !vty->candidate) {
		nb_candidate_free(c);
	}
	pending_reset();
	return ret;
}

void nb_cli_enter_node(struct vty *vty, enum node_type node, const char *xpath)
{
	cmd_enter_node(vty, node);
	if (vty->xpath_index > 0 && vty->xpath_index <= VTY_XPATH_DEPTH)
		snprintf(vty->xpath[vty->xpath_index - 1], VTY_XPATH_LEN, "%s", xpath);
}

const struct lyd_node *nb_cli_config_tree(const struct vty *vty)
{
	return vty->candidate ? nb_candidate_tree(vty->candidate) : nb_running();
}

static const struct lyd_node *cli_vget(const struct vty *vty, const char *fmt, va_list ap)
{
	const struct lyd_node *tree = nb_cli_config_tree(vty);
	struct lyd_node *n = NULL;
	char xpath[VTY_XPATH_LEN];

	if (!tree)
		return NULL;
	vsnprintf(xpath, sizeof(xpath), fmt, ap);
	if (lyd_find_path(tree, xpath, 0, &n) != LY_SUCCESS)
		n = NULL;
	ly_err_clean(yang_ctx(), NULL);
	return n;
}

const struct lyd_node *nb_cli_get(const struct vty *vty, const char *fmt, ...)
{
	const struct lyd_node *n;
	va_list ap;

	va_start(ap, fmt);
	n = cli_vget(vty, fmt, ap);
	va_end(ap);
	return n;
}

bool nb_cli_exists(const struct vty *vty, const char *fmt, ...)
{
	const struct lyd_node *n;
	va_list ap;

	va_start(ap, fmt);
	n = cli_vget(vty, fmt, ap);
	va_end(ap);
	return n != NULL;
}

/* ---- show running-config ------------------------------------------------------------- */

static void show_node(struct sbuf *out, const struct lyd_node *n);

/* qsort has no context argument; sorting finishes before the recursion that could nest. */
static int (*show_cmp_fn)(const struct lyd_node *a, const struct lyd_node *b);

static int show_cmp(const void *a, const void *b)
{
	return show_cmp_fn(*(const struct lyd_node *const *)a, *(const struct lyd_node *const *)b);
}

static void show_siblings(struct sbuf *out, const struct lyd_node *first)
{
	const struct lyd_node *n = first;

	while (n) {
		const struct nb_node_info *ni = nb_node_info_of(n->schema);
		const struct lyd_node *m;
		const struct lyd_node **v;
		size_t cnt = 0, i = 0;

		if (!(n->schema->nodetype & LYS_LIST) || !ni || !ni->cbs.cli_cmp) {
			show_node(out, n);
			n = n->next;
			continue;
		}
		/* Entries of one list are adjacent siblings: print the run sorted. */
		for (m = n; m && m->schema == n->schema; m = m->next)
			cnt++;
		v = XCALLOC(MTYPE_NB_CLI, cnt * sizeof(*v));
		for (m = n; m && m->schema == n->schema; m = m->next)
			v[i++] = m;
		show_cmp_fn = ni->cbs.cli_cmp;
		qsort(v, cnt, sizeof(*v), show_cmp);
		for (i = 0; i < cnt; i++)
			show_node(out, v[i]);
		XFREE(MTYPE_NB_CLI, v);
		n = m;
	}
}

static void show_node(struct sbuf *out, const struct lyd_node *n)
{
	const struct nb_node_info *ni = nb_node_info_of(n->schema);

	/* What validation filled in is not configuration (FRR's show_defaults = false). */
	if (n->flags & LYD_DEFAULT)
		return;
	if (ni && ni->cbs.cli_show)
		ni->cbs.cli_show(out, n);
	show_siblings(out, lyd_child(n));
	if (ni && ni->cbs.cli_show_end)
		ni->cbs.cli_show_end(out, n);
}

void nb_cli_show_config_body(struct sbuf *out, const struct lyd_node *tree)
{
	for (int i = 0; i < nb_module_count(); i++) {
		const struct lys_module *mod = nb_module_get(i);

		for (const struct lyd_node *n = tree; n; n = n->next) {
			size_t before = out->len;

			if (n->schema->module != mod)
				continue;
			show_node(out, n);
			/* FRR closes every top-level block that printed something with "!". */
			if (out->len > before)
				sbuf_puts(out, "!\n");
		}
	}
}

void nb_cli_show_config(struct sbuf *out, const struct lyd_node *tree)
{
	sbuf_puts(out, "Building configuration...\n\nCurrent configuration:\n!\n");
	nb_cli_show_config_body(out, tree);
	sbuf_puts(out, "end\n");
}

DEFCMD(show_running_config, "show running-config",
       "Show running system information\n"
       "Current operating configuration\n")
{
	nb_cli_show_config(&vty->out, nb_running());
	return CMD_SUCCESS;
}

DEFCMD(show_running_config_json, "show running-config json",
       "Show running system information\n"
       "Current operating configuration\n"
       "The configuration data tree as JSON (RFC 7951)\n")
{
	char *s = NULL;

	if (!nb_running()) {
		vty_out(vty, "{\n}\n");
		return CMD_SUCCESS;
	}
	if (lyd_print_mem(&s, nb_running(), LYD_JSON, LYD_PRINT_WITHSIBLINGS) != LY_SUCCESS) {
		vty_out(vty, "%% Cannot print the configuration as JSON\n");
		ly_err_clean(yang_ctx(), NULL);
		return CMD_WARNING;
	}
	vty_out(vty, "%s", s ? s : "{\n}\n");
	free(s);
	return CMD_SUCCESS;
}

DEFCMD(write_terminal, "write terminal",
       "Write running configuration to memory, network, or terminal\n"
       "Write to terminal\n")
{
	nb_cli_show_config(&vty->out, nb_running());
	return CMD_SUCCESS;
}

void nb_cli_init(void)
{
	cmd_install(ENABLE_NODE, &show_running_config_cmd);
	cmd_install(ENABLE_NODE, &show_running_config_json_cmd);
	cmd_install(ENABLE_NODE, &write_terminal_cmd);
	nb_txn_cli_init();
	nb_config_save_cli_init();
}
