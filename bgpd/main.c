/* SPDX-License-Identifier: ISC */
/*
 * bgpd's main(): options, start-up in a fixed order, signals, and a clean shutdown that tells
 * every peer (Cease / Administrative Shutdown) before the process goes.
 *
 *   bgpd [-f FILE] [--vty-socket PATH] [-d] [-i PIDFILE] [-p PORT] [-l ADDR]... [-C]
 *
 * Start-up order: logging, the event loop, the northbound and the configuration model, the
 * commands, the kernel probe (TCP-MD5, GTSM options, socket filters), the configuration file
 * (one commit: a bad file stops bgpd before it talks to anyone, and so does a password or
 * ttl-security the kernel cannot enforce), the BGP listeners, the vty socket, then the loop.
 */
#include "lib/compat.h"

#include <limits.h>

#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bgpd/config/bgp_config.h"
#include "bgpd/core/bgp_log.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_file.h"
#include "lib/northbound.h"
#include "lib/sbuf.h"
#include "lib/vty.h"

#define BGPD_DEFAULT_CONFIG "/etc/skua/bgpd.conf"
#define BGPD_MAX_LISTEN 16

struct bgpd_options {
	const char *config;
	bool config_given;
	const char *vty_socket;
	const char *pidfile;
	bool daemon;
	bool check;
	uint16_t port;
	const char *listen[BGPD_MAX_LISTEN];
	int nlisten;
	bool no_fib;
};

static struct event_base *main_base;
static int pidfile_fd = -1;
static const char *pidfile_path;

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bgpd [OPTION...]\n"
		"  -f, --config_file FILE   configuration file (default " BGPD_DEFAULT_CONFIG ")\n"
		"      --vty-socket PATH    vty socket for vtysh (default " VTY_DEFAULT_SOCKET ")\n"
		"  -d, --daemon             run in the background\n"
		"  -i, --pid_file FILE      write the process id to FILE\n"
		"  -p, --bgp_port PORT      listen for BGP on PORT (default 179)\n"
		"  -l, --listenon ADDR      listen on ADDR only (repeatable; default all)\n"
		"  -n, --no-fib             install no routes in the kernel and track no next "
		"hops\n"
		"                           (also --no_kernel, as FRR)\n"
		"      --log-dir DIR        a log file set from a vty must be in DIR "
		"(default " SKUA_LOGDIR ")\n"
		"  -C, --dryrun             check the configuration file and exit (0 valid, 1 "
		"not)\n"
		"  -h, --help               this text\n"
		"  -v, --version            print the version\n");
}

/*
 * `-d` changes to / before the configuration is loaded, so relative paths given on the command
 * line are made absolute first. Returns path itself when it is already absolute or the working
 * directory cannot be read; the result lives in one of a few static slots (one per option).
 */
static const char *absolute_path(const char *path, int slot)
{
	static char buf[3][PATH_MAX];
	char cwd[PATH_MAX];

	if (!path || path[0] == '/' || slot < 0 || slot >= 3 || !getcwd(cwd, sizeof(cwd)))
		return path;
	if ((size_t)snprintf(buf[slot], sizeof(buf[slot]), "%s/%s", cwd, path) >= sizeof(buf[slot]))
		return path;
	return buf[slot];
}

static int parse_options(int argc, char **argv, struct bgpd_options *o)
{
	static const struct option longopts[] = {
		{ "config_file", required_argument, NULL, 'f' },
		{ "vty-socket", required_argument, NULL, 'S' },
		{ "vty_socket", required_argument, NULL, 'S' },
		{ "daemon", no_argument, NULL, 'd' },
		{ "pid_file", required_argument, NULL, 'i' },
		{ "bgp_port", required_argument, NULL, 'p' },
		{ "listenon", required_argument, NULL, 'l' },
		{ "dryrun", no_argument, NULL, 'C' },
		{ "no-fib", no_argument, NULL, 'n' },
		{ "no_kernel", no_argument, NULL, 'n' },
		{ "log-dir", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->config = BGPD_DEFAULT_CONFIG;
	o->vty_socket = VTY_DEFAULT_SOCKET;
	o->port = BGP_PORT;
	while ((c = getopt_long(argc, argv, "f:di:p:l:nChv", longopts, NULL)) != -1) {
		char *end;
		long v;

		switch (c) {
		case 'f':
			o->config = absolute_path(optarg, 0);
			o->config_given = true;
			break;
		case 'S':
			o->vty_socket = absolute_path(optarg, 1);
			break;
		case 'd':
			o->daemon = true;
			break;
		case 'L':
			log_file_set_dir(optarg);
			break;
		case 'i':
			o->pidfile = absolute_path(optarg, 2);
			break;
		case 'p':
			v = strtol(optarg, &end, 10);
			if (*end || v < 0 || v > 65535) {
				fprintf(stderr, "bgpd: -p %s: not a port number (0-65535)\n",
					optarg);
				return -1;
			}
			o->port = (uint16_t)v;
			break;
		case 'l':
			if (o->nlisten == BGPD_MAX_LISTEN) {
				fprintf(stderr, "bgpd: at most %d -l addresses\n", BGPD_MAX_LISTEN);
				return -1;
			}
			o->listen[o->nlisten++] = optarg;
			break;
		case 'C':
			o->check = true;
			break;
		case 'n':
			o->no_fib = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'v':
			printf("bgpd (skua) %s\n", PACKAGE_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bgpd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -1;
	}
	return 0;
}

/* "FILE:LINE: reason" lines from the northbound, each printed as "bgpd: FILE:LINE: reason". */
static void print_errors(const struct sbuf *errors)
{
	const char *p = errors->buf, *nl;

	if (!p)
		return;
	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		fprintf(stderr, "bgpd: %.*s\n", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

/* Returns 0, or -1 after printing why. A missing default file is an empty configuration. */
static int config_run(const struct bgpd_options *o, bool check_only)
{
	struct sbuf errors;
	int r;

	if (!o->config_given && access(o->config, F_OK) != 0) {
		if (!check_only)
			log_warn("no configuration file %s, starting with an empty "
				 "configuration",
				 o->config);
		return 0;
	}
	sbuf_init(&errors);
	r = check_only ? nb_config_check_file(o->config, &errors)
		       : nb_config_load_file(o->config, &errors);
	if (r < 0) {
		if (errors.len)
			print_errors(&errors);
		else
			fprintf(stderr, "bgpd: %s: configuration refused\n", o->config);
	}
	sbuf_free(&errors);
	return r < 0 ? -1 : 0;
}

/* A configured password or ttl-security the kernel cannot enforce stops bgpd at start-up. */
static bool security_refused(const struct bgpd_options *o)
{
	struct sbuf why;
	bool refused;

	sbuf_init(&why);
	refused = bgp_security_check_all(bgp_get(), &why) < 0;
	if (refused) {
		print_errors(&why);
		fprintf(stderr, "bgpd: %s: configuration refused: the kernel cannot enforce it\n",
			o->config);
	}
	sbuf_free(&why);
	return refused;
}

static int pidfile_write(const char *path)
{
	char buf[32];
	int fd, n;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "bgpd: cannot open pid file %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "bgpd: pid file %s is locked: another bgpd is running\n", path);
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || write(fd, buf, (size_t)n) != n) {
		fprintf(stderr, "bgpd: cannot write pid file %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	pidfile_fd = fd; /* kept open: the lock says we are alive */
	pidfile_path = path;
	return 0;
}

static void pidfile_remove(void)
{
	if (pidfile_fd < 0)
		return;
	unlink(pidfile_path);
	close(pidfile_fd);
	pidfile_fd = -1;
}

static void sigterm_cb(int sig, short what, void *arg)
{
	log_notice("%s received, telling the peers and exiting",
		   sig == SIGINT ? "SIGINT" : "SIGTERM");
	bgp_shutdown_all(bgp_get());
	event_loop_exit(main_base);
}

static void sighup_cb(int sig, short what, void *arg)
{
	log_notice("SIGHUP received, reopening the log file");
	log_reopen();
	nb_config_sighup(); /* reload the configuration file: only what changed is applied */
}

int main(int argc, char **argv)
{
	struct bgpd_options o;
	struct ev *sig_term, *sig_int, *sig_hup;
	int i, r;

	if (parse_options(argc, argv, &o) < 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);

	log_init("bgpd");
	if (!o.daemon && !o.check)
		log_set_target(LOG_TARGET_STDOUT, LOG_LVL_INFO, NULL);

	cmd_init();
	nb_init();
	/* The startup file: what SIGHUP reloads and `write memory` writes. */
	nb_config_set_startup(o.config);
	bgp_config_init(); /* models, config commands, show running-config */
	bgp_show_init();   /* show, clear and debug commands */

	/* What the kernel can enforce, before any configuration asks for it (fail closed); also
	 * for -C, so that a check refuses what a real start would refuse. */
	bgp_security_probe();

	if (o.check) {
		r = config_run(&o, true);
		nb_terminate();
		cmd_terminate();
		return r < 0 ? 1 : 0;
	}
	if (o.daemon) {
		/* Check first, so that errors reach the terminal before we detach. */
		if (config_run(&o, true) < 0)
			return 1;
		if (daemon(0, 0) < 0) {
			fprintf(stderr, "bgpd: cannot go to the background: %s\n", strerror(errno));
			return 1;
		}
		log_set_target(LOG_TARGET_SYSLOG, LOG_LVL_NOTICE, NULL);
	}
	if (o.pidfile && pidfile_write(o.pidfile) < 0)
		return 1;

	main_base = event_loop_new();
	if (!main_base) {
		pidfile_remove();
		return 1;
	}
	bgp_config_set_event_base(main_base);
	bgp_fib_start(main_base, !o.no_fib); /* before the configuration creates the instance */

	if (config_run(&o, false) < 0 || security_refused(&o)) {
		pidfile_remove();
		return 1;
	}

	if (o.nlisten == 0) {
		bgp_network_listen(main_base, NULL, o.port);
	} else {
		for (i = 0; i < o.nlisten; i++)
			bgp_network_listen(main_base, o.listen[i], o.port);
	}
	if (vty_server_start(main_base, o.vty_socket) < 0) {
		fprintf(stderr, "bgpd: cannot open the vty socket %s (see the log); exiting\n",
			o.vty_socket);
		bgp_network_stop();
		pidfile_remove();
		return 1;
	}

	sig_term = event_signal_new(main_base, SIGTERM, sigterm_cb, NULL);
	sig_int = event_signal_new(main_base, SIGINT, sigterm_cb, NULL);
	sig_hup = event_signal_new(main_base, SIGHUP, sighup_cb, NULL);
	event_add(sig_term);
	event_add(sig_int);
	event_add(sig_hup);

	log_notice("bgpd (skua %s) started, vty socket %s", PACKAGE_VERSION, o.vty_socket);
	r = event_loop_run(main_base);

	vty_server_stop();
	bgp_network_stop();
	bgp_fib_stop(); /* the kernel's routes go (or stay: bgp fib retain) in one step */
	bgp_delete(bgp_get());
	event_free(sig_term);
	event_free(sig_int);
	event_free(sig_hup);
	nb_terminate();
	cmd_terminate();
	event_loop_free(main_base);
	log_notice("bgpd exiting");
	pidfile_remove();
	log_close();
	return r < 0 ? 1 : 0;
}
