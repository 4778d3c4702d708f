/* SPDX-License-Identifier: ISC */
/*
 * Statements another implementation (FRR) has and this program does not: a line the engine
 * cannot match is looked up here before "% Unknown command", so an operator migrating a
 * configuration reads "not supported by skua: WHAT (see DOC)" and knows the line is not a
 * typo, while a typo still gets "% Unknown command" and its caret. The tables are the
 * daemon's (bgpd/config/bgp_cli_unsupported.c); the engine only matches them.
 */
#include "lib/compat.h"

#include "lib/command_private.h"
#include "lib/vty.h"

#define UNSUPPORTED_TABLES_MAX 8

static struct {
	const struct cmd_unsupported *v;
	size_t n;
} tables[UNSUPPORTED_TABLES_MAX];

int cmd_unsupported_register(const struct cmd_unsupported *table, size_t n)
{
	for (size_t i = 0; i < array_size(tables); i++) {
		if (tables[i].v == table || !tables[i].v) {
			tables[i].v = table;
			tables[i].n = n;
			return 0;
		}
	}
	return -1;
}

/* Do the line's words (after an optional leading "no") begin with the entry's, "*" matching
 * any one word? */
static bool entry_matches(const struct cmd_unsupported *e, const struct cmd_words *words)
{
	int w = words->n > 0 && strcmp(words->w[0], "no") == 0 ? 1 : 0;
	const char *p = e->words;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (w >= words->n)
			return false;
		if (!(n == 1 && *p == '*') &&
		    (strlen(words->w[w]) != n || strncmp(words->w[w], p, n) != 0))
			return false;
		w++;
		p += n;
		p += strspn(p, " ");
	}
	return true;
}

const struct cmd_unsupported *cmd_unsupported_find(enum node_type node,
						   const struct cmd_words *words, bool walk_up)
{
	for (;;) {
		const struct cmd_node *cn = cmd_node_get(node), *parent;

		for (size_t t = 0; t < array_size(tables) && tables[t].v; t++)
			for (size_t i = 0; i < tables[t].n; i++)
				if (tables[t].v[i].node == node &&
				    entry_matches(&tables[t].v[i], words))
					return &tables[t].v[i];
		/* The nodes the walk-up tried, as in cmd_execute(). */
		if (!walk_up || !cn || !cn->config)
			return NULL;
		parent = cmd_node_get(cn->parent);
		if (!parent || !parent->config || parent->node == node)
			return NULL;
		node = parent->node;
	}
}
