/* SPDX-License-Identifier: ISC */
/*
 * Show commands every skua daemon has, in FRR's layout with a JSON variant each:
 *   show memory [json]    the C library's allocator statistics (mallinfo2) and our per-type
 *                         counters (lib/memory.h), the types that hold memory right now
 *   show logging [json]   the log targets with their levels and file, then the recent
 *                         messages kept in memory (lib/log.h ring)
 * plus `terminal length (0-512)` / `terminal no length`, accepted and ignored: vtysh never
 * pages (FRR scripts begin with `terminal length 0` out of habit).
 */
#include "lib/compat.h"

#include <inttypes.h>
#include <malloc.h>

#include "lib/command_private.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/vty.h"

/* The name the daemon runs under ("bgpd"), for the headings FRR prints. */
const char *cmd_daemon_name(void)
{
	const char *name = program_invocation_short_name;

	/* libtool's uninstalled wrappers run the program as "lt-NAME". */
	if (strncmp(name, "lt-", 3) == 0 && name[3])
		name += 3;
	return name;
}

/* FRR's human sizes: "123 bytes", "45 KiB", "6 MiB", "7 GiB" (rounded down). */
static const char *size_str(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes", bytes);
		return buf;
	}
	bytes /= 1024;
	while (bytes >= 1024 * 10 && u + 1 < array_size(units)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
	return buf;
}

/* ---- show memory ------------------------------------------------------------------------- */

struct heap_stat {
	const char *label; /* FRR's wording */
	const char *key;   /* JSON */
	uint64_t value;
	bool bytes;
};

/* mallinfo2() (glibc 2.33+): the allocator's own view, fragmentation and free space
 * included, which our per-type counters cannot see. Returns the number of entries. */
static size_t heap_stats(struct heap_stat *st)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();
	const struct heap_stat v[] = {
		{ "Total heap allocated", "totalHeapAllocated", mi.arena, true },
		{ "Holding block headers", "holdingBlockHeaders", mi.hblkhd, true },
		{ "Used small blocks", "usedSmallBlocks", mi.usmblks, true },
		{ "Used ordinary blocks", "usedOrdinaryBlocks", mi.uordblks, true },
		{ "Free small blocks", "freeSmallBlocks", mi.fsmblks, true },
		{ "Free ordinary blocks", "freeOrdinaryBlocks", mi.fordblks, true },
		{ "Ordinary blocks", "ordinaryBlocks", mi.ordblks, false },
		{ "Small blocks", "smallBlocks", mi.smblks, false },
		{ "Holding blocks", "holdingBlocks", mi.hblks, false },
	};

	memcpy(st, v, sizeof(v));
	return array_size(v);
#else
	(void)st;
	return 0;
#endif
}

#define HEAP_STATS_MAX 9

struct mem_show {
	struct vty *vty;
	struct json_writer *jw; /* NULL: text */
	uint64_t types, count, bytes;
};

static void mem_type_cb(const struct mtype *mt, void *arg)
{
	struct mem_show *ms = arg;
	uint64_t count = __atomic_load_n(&mt->allocated, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&mt->bytes, __ATOMIC_RELAXED);
	uint64_t total = __atomic_load_n(&mt->total, __ATOMIC_RELAXED);

	if (!count)
		return;
	ms->types++;
	ms->count += count;
	ms->bytes += bytes;
	if (ms->jw) {
		json_object_open(ms->jw, NULL);
		json_string(ms->jw, "name", mt->name);
		json_uint(ms->jw, "current", count);
		json_uint(ms->jw, "bytes", bytes);
		json_uint(ms->jw, "total", total);
		json_object_close(ms->jw);
		return;
	}
	vty_out(ms->vty, "%-30s: %8" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", mt->name, count,
		bytes, total);
}

static void show_memory_text(struct vty *vty)
{
	struct heap_stat st[HEAP_STATS_MAX];
	struct mem_show ms = { .vty = vty };
	size_t n = heap_stats(st);
	char buf[32];

	vty_out(vty, "Memory statistics for %s:\n", cmd_daemon_name());
	vty_out(vty, "System allocator statistics:\n");
	if (!n)
		vty_out(vty, "  (not available from this C library)\n");
	for (size_t i = 0; i < n; i++) {
		char label[32];

		snprintf(label, sizeof(label), "%s:", st[i].label);
		if (st[i].bytes)
			vty_out(vty, "  %-22s %s\n", label,
				size_str(st[i].value, buf, sizeof(buf)));
		else
			vty_out(vty, "  %-22s %" PRIu64 "\n", label, st[i].value);
	}
	vty_out(vty, "(see system documentation for 'mallinfo' for meaning)\n");
	vty_out(vty, "--- qmem %s ---\n", cmd_daemon_name());
	vty_out(vty, "%-30s: %8s %10s %10s\n", "Type", "Current#", "Bytes", "Total#");
	mem_walk(mem_type_cb, &ms);
	vty_out(vty, "Total: %" PRIu64 " allocations, %s, in %" PRIu64 " types in use\n", ms.count,
		size_str(ms.bytes, buf, sizeof(buf)), ms.types);
}

static void show_memory_json(struct vty *vty)
{
	struct heap_stat st[HEAP_STATS_MAX];
	size_t n = heap_stats(st);
	struct json_writer jw;
	struct mem_show ms = { .vty = vty, .jw = &jw };

	json_init(&jw, &vty->out, true);
	json_object_open(&jw, NULL);
	json_string(&jw, "daemon", cmd_daemon_name());
	json_object_open(&jw, "systemAllocator");
	for (size_t i = 0; i < n; i++)
		json_uint(&jw, st[i].key, st[i].value);
	json_object_close(&jw);
	json_array_open(&jw, "types");
	mem_walk(mem_type_cb, &ms);
	json_array_close(&jw);
	json_uint(&jw, "totalCurrent", ms.count);
	json_uint(&jw, "totalBytes", ms.bytes);
	json_object_close(&jw);
	json_end(&jw);
}

DEFCMD(show_memory, "show memory [json]", SHOW_STR "Memory statistics\n" JSON_STR)
{
	if (cmd_has(args, "json"))
		show_memory_json(vty);
	else
		show_memory_text(vty);
	return CMD_SUCCESS;
}

/* ---- show logging ------------------------------------------------------------------------ */

static const char *const target_label[LOG_TARGET_MAX] = {
	[LOG_TARGET_STDOUT] = "Stdout",
	[LOG_TARGET_FILE] = "File",
	[LOG_TARGET_SYSLOG] = "Syslog",
};
static const char *const target_key[LOG_TARGET_MAX] = {
	[LOG_TARGET_STDOUT] = "stdout",
	[LOG_TARGET_FILE] = "file",
	[LOG_TARGET_SYSLOG] = "syslog",
};
/* FRR's order. */
static const enum log_target target_order[] = { LOG_TARGET_SYSLOG, LOG_TARGET_STDOUT,
						LOG_TARGET_FILE };

struct ring_show {
	struct vty *vty;
	struct json_writer *jw;
	unsigned lines;
};

static void ring_cb(const char *line, void *arg)
{
	struct ring_show *rs = arg;

	rs->lines++;
	if (rs->jw)
		json_string(rs->jw, NULL, line);
	else
		vty_out(rs->vty, "%s\n", line);
}

static void show_logging_text(struct vty *vty)
{
	struct ring_show rs = { .vty = vty };

	vty_out(vty, "Logging configuration for %s:\n", cmd_daemon_name());
	for (size_t i = 0; i < array_size(target_order); i++) {
		enum log_target t = target_order[i];
		int level = log_target_level(t);
		const char *name = log_level_name(level);

		vty_out(vty, "%s logging: ", target_label[t]);
		if (level == LOG_LVL_DISABLED || !name) {
			vty_out(vty, "disabled\n");
			continue;
		}
		vty_out(vty, "level %s", name);
		if (t == LOG_TARGET_FILE && log_target_filename())
			vty_out(vty, ", filename %s", log_target_filename());
		if (t == LOG_TARGET_SYSLOG)
			vty_out(vty, ", facility daemon");
		vty_out(vty, "\n");
	}
	vty_out(vty, "Record priority: disabled\n");
	vty_out(vty, "Timestamp precision: %d\n", log_timestamp_precision());
	vty_out(vty, "\nRecent log messages (oldest first):\n");
	log_ring_walk(ring_cb, &rs);
	if (!rs.lines)
		vty_out(vty, "(none)\n");
}

static void show_logging_json(struct vty *vty)
{
	struct json_writer jw;
	struct ring_show rs = { .vty = vty, .jw = &jw };

	json_init(&jw, &vty->out, true);
	json_object_open(&jw, NULL);
	json_string(&jw, "daemon", cmd_daemon_name());
	for (size_t i = 0; i < array_size(target_order); i++) {
		enum log_target t = target_order[i];
		int level = log_target_level(t);
		const char *name = log_level_name(level);
		bool on = level != LOG_LVL_DISABLED && name;

		json_object_open(&jw, target_key[t]);
		json_bool(&jw, "enabled", on);
		if (on)
			json_string(&jw, "level", name);
		if (on && t == LOG_TARGET_FILE)
			json_string(&jw, "filename", log_target_filename());
		if (on && t == LOG_TARGET_SYSLOG)
			json_string(&jw, "facility", "daemon");
		json_object_close(&jw);
	}
	json_bool(&jw, "recordPriority", false);
	json_int(&jw, "timestampPrecision", log_timestamp_precision());
	json_array_open(&jw, "recentMessages");
	log_ring_walk(ring_cb, &rs);
	json_array_close(&jw);
	json_object_close(&jw);
	json_end(&jw);
}

DEFCMD(show_logging, "show logging [json]",
       SHOW_STR "Show current logging configuration\n" JSON_STR)
{
	if (cmd_has(args, "json"))
		show_logging_json(vty);
	else
		show_logging_text(vty);
	return CMD_SUCCESS;
}

/* ---- terminal ---------------------------------------------------------------------------- */

DEFCMD(terminal_length, "terminal length (0-512)",
       "Set terminal line parameters\n"
       "Set number of lines on a screen (accepted; vtysh does not page)\n"
       "Number of lines on screen (0 for no pausing)\n")
{
	return CMD_SUCCESS;
}

DEFCMD(terminal_no_length, "terminal no length",
       "Set terminal line parameters\n"
       "Negate a command or set its defaults\n"
       "Set number of lines on a screen (accepted; vtysh does not page)\n")
{
	return CMD_SUCCESS;
}

void cmd_show_init(void)
{
	/* VIEW commands are installed into ENABLE too (cmd_install). */
	cmd_install(VIEW_NODE, &show_memory_cmd);
	cmd_install(VIEW_NODE, &show_logging_cmd);
	cmd_install(VIEW_NODE, &terminal_length_cmd);
	cmd_install(VIEW_NODE, &terminal_no_length_cmd);
}
