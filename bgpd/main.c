/* SPDX-License-Identifier: ISC */
/*
 * bgpd's main(): options, start-up in a fixed order, signals, and a clean shutdown that tells
 * every peer (Cease / Administrative Shutdown) before the process goes.
 *
 *   bgpd [-f FILE] [--vty-socket PATH] [-d] [-i PIDFILE] [-u USER] [-g GROUP] [-p PORT]
 *        [-l ADDR]... [-n] [-C]
 *
 * Start-up order, so that a second bgpd, a bad file or a missing user stops before anything
 * is touched, and so that bgpd holds root only as long as it must:
 *   1. logging, the commands and the configuration model, the kernel probe (TCP-MD5, GTSM
 *      options, socket filters); -C checks the file here and exits;
 *   2. the user to become, the run directory, the pid file lock (a second bgpd with the same
 *      pid file stops here);
 *   3. is the BGP port free? (a second bgpd in the same network namespace stops here: it has
 *      not read the kernel's routes, dialled a peer or opened a log file); the netlink
 *      channel (bgp_fib_start) and the vty socket: the things that need root;
 *   4. root is dropped for the run user, keeping CAP_NET_BIND_SERVICE and CAP_NET_ADMIN
 *      (doc/service.md says which work needs which); with -d, bgpd forks now, and the parent
 *      exits once the child is running (0) or has failed (1);
 *   5. the configuration file, as the run user (one commit: a bad file stops bgpd before it
 *      talks to anyone, and so does a password or ttl-security the kernel cannot enforce);
 *      then the BGP listeners, with every configured TCP-MD5 key and GTSM rule installed
 *      before listen() (binding port 179 is what CAP_NET_BIND_SERVICE is kept for); the loop.
 */
#include "lib/compat.h"

#include <limits.h>

#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bgpd/config/bgp_config.h"
#include "bgpd/core/bgp_log.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_file.h"
#include "lib/mem_trim.h"
#include "lib/northbound.h"
#include "lib/pidfile.h"
#include "lib/privs.h"
#include "lib/sbuf.h"
#include "lib/vty.h"

#define BGPD_DEFAULT_CONFIG "/etc/skua/bgpd.conf"
#define BGPD_DEFAULT_PIDFILE "/run/skua/bgpd.pid"
#define BGPD_DEFAULT_USER "skua"
#define BGPD_MAX_LISTEN 16
#define BGPD_ERR_MAX 512

struct bgpd_options {
	const char *config;
	bool config_given;
	const char *vty_socket;
	const char *pidfile;
	const char *user;
	const char *group;
	bool user_given;
	bool daemon;
	bool check;
	uint16_t port;
	const char *listen[BGPD_MAX_LISTEN];
	int nlisten;
	bool no_fib;
};

/*
 * What bgpd needs after it dropped root (doc/service.md): binding port 179 (the listeners are
 * opened after the configuration, and a GTSM listener group the kernel broke is reopened at run
 * time), and CAP_NET_ADMIN: routes over netlink, and attaching or replacing a listener's GTSM
 * socket filter (SO_ATTACH_FILTER answers EPERM without it). TCP-MD5 keys, IP_MINTTL, IP_TTL
 * and active connects need none.
 */
static const cap_value_t bgpd_caps[] = { CAP_NET_BIND_SERVICE, CAP_NET_ADMIN };

static struct event_base *main_base;
static struct rpki_db *rpki_store;
static struct pidfile pidfile = { .fd = -1 };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bgpd [OPTION...]\n"
		"  -f, --config_file FILE   configuration file (default " BGPD_DEFAULT_CONFIG ")\n"
		"      --vty-socket PATH    vty socket for vtysh (default " VTY_DEFAULT_SOCKET ")\n"
		"  -d, --daemon             run in the background\n"
		"  -i, --pid_file FILE      pid file, locked while bgpd runs "
		"(default " BGPD_DEFAULT_PIDFILE ")\n"
		"  -u, --user USER          run as USER after start-up (default " BGPD_DEFAULT_USER
		")\n"
		"  -g, --group GROUP        run with group GROUP (default: USER's group)\n"
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
		{ "user", required_argument, NULL, 'u' },
		{ "group", required_argument, NULL, 'g' },
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
	o->pidfile = BGPD_DEFAULT_PIDFILE;
	o->user = BGPD_DEFAULT_USER;
	o->port = BGP_PORT;
	while ((c = getopt_long(argc, argv, "f:di:u:g:p:l:nChv", longopts, NULL)) != -1) {
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
		case 'u':
			o->user = optarg;
			o->user_given = true;
			break;
		case 'g':
			o->group = optarg;
			o->user_given = true;
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

/* A directory or a device given as the configuration is a mistake, not an empty file. */
static int config_is_file(const struct bgpd_options *o)
{
	struct stat st;

	if (stat(o->config, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "bgpd: %s: not a regular file (a directory?): give the file (-f)\n",
			o->config);
		return -1;
	}
	return 0;
}

/* Returns 0, or -1 after printing why. A missing default file is an empty configuration. */
static int config_run(const struct bgpd_options *o, bool check_only)
{
	struct sbuf errors;
	int r;

	if (config_is_file(o) < 0)
		return -1;
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

/* The directories of the pid file and the vty socket (/run/skua), when missing. */
static int rundirs_ensure(const struct bgpd_options *o, const struct privs *pv)
{
	const char *paths[] = { o->pidfile, o->vty_socket };
	char copy[PATH_MAX], *dir;
	size_t i;
	int r;

	for (i = 0; i < array_size(paths); i++) {
		if (snprintf(copy, sizeof(copy), "%s", paths[i]) >= (int)sizeof(copy))
			continue;
		dir = dirname(copy);
		r = rundir_ensure(dir, 0755, pv->drop ? pv->uid : (uid_t)-1,
				  pv->drop ? pv->gid : (gid_t)-1);
		if (r < 0) {
			fprintf(stderr, "bgpd: cannot create the run directory %s: %s\n", dir,
				strerror(-r));
			return -1;
		}
	}
	return 0;
}

/*
 * With -d: syslog when a syslog daemon listens, else bgpd.log in the log directory, else
 * stderr kept open. Called as the run user, so the file can be reopened on SIGHUP. Returns
 * true when stderr must stay open, and in why the line that says where the log went when it
 * is not syslog.
 */
static bool daemon_log_target(char *why, size_t len)
{
	char file[PATH_MAX];

	why[0] = '\0';
	snprintf(file, sizeof(file), "%s/bgpd.log", log_file_dir());
	if (log_syslog_reachable()) {
		log_set_target(LOG_TARGET_SYSLOG, LOG_LVL_NOTICE, NULL);
		return false;
	}
	if (log_set_target(LOG_TARGET_FILE, LOG_LVL_NOTICE, file) == 0) {
		snprintf(why, len, "no syslog daemon listens on /dev/log: logging to %s", file);
		return false;
	}
	snprintf(why, len,
		 "no syslog daemon listens on /dev/log and %s cannot be opened (%s): logging to "
		 "stderr",
		 file, strerror(errno));
	return true;
}

/*
 * -d: fork, and let the parent exit only once the child is ready (daemon_ready()): with 0
 * when it runs, 1 when start-up failed. So a service manager (systemd Type=forking) that reads
 * the pid file when the parent exits finds the child's pid in it, and whoever started bgpd
 * learns whether it runs; start-up errors still reach the terminal, whose descriptors the
 * child keeps until it is ready.
 */
static struct {
	int ready_fd; /* the child's end of the pipe to the waiting parent; -1: not detached */
	bool keep_stderr;
} detach = { .ready_fd = -1 };

static int daemonize(void)
{
	char why[PATH_MAX + 256], status;
	int p[2];
	pid_t pid;

	detach.keep_stderr = daemon_log_target(why, sizeof(why));
	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		fprintf(stderr, "bgpd: cannot go to the background: %s\n", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		close(p[1]);
		/* EOF (the child died before it was ready) counts as a failure. */
		_exit(read(p[0], &status, 1) == 1 && status == 0 ? 0 : 1);
	}
	close(p[0]);
	detach.ready_fd = p[1];
	if (setsid() < 0 || chdir("/") < 0 || event_loop_after_fork(main_base) < 0 ||
	    pidfile_rewrite(&pidfile) < 0) {
		fprintf(stderr, "bgpd: cannot finish going to the background: %s\n",
			strerror(errno));
		return -1;
	}
	if (why[0])
		log_warn("%s", why);
	return 0;
}

/* Tell the waiting parent how start-up ended, and let go of the terminal. */
static void daemon_ready(bool ok)
{
	char status = ok ? 0 : 1;
	int null;

	if (detach.ready_fd < 0)
		return;
	if (ok) {
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			if (!detach.keep_stderr) {
				log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
				dup2(null, STDERR_FILENO);
			}
			close(null);
		}
	}
	if (write(detach.ready_fd, &status, 1) != 1)
		log_warn("cannot tell the starting process that bgpd is ready: %s",
			 strerror(errno));
	close(detach.ready_fd);
	detach.ready_fd = -1;
}

static int drop_privileges(const struct privs *pv)
{
	char err[BGPD_ERR_MAX], caps[128];

	if (privs_drop(pv, bgpd_caps, (int)array_size(bgpd_caps), err, sizeof(err)) < 0) {
		fprintf(stderr, "bgpd: %s\n", err);
		return -1;
	}
	if (pv->drop)
		log_notice("running as user %s (uid %u), group %s (gid %u), capabilities %s",
			   pv->user, (unsigned)pv->uid, pv->group, (unsigned)pv->gid,
			   privs_caps_text(caps, sizeof(caps)));
	else
		log_notice("running as uid %u without dropping privileges (not started as root)",
			   (unsigned)geteuid());
	return 0;
}

static void listen_failed(const char *addr, uint16_t port, int r)
{
	fprintf(stderr,
		"bgpd: cannot listen for BGP on %s port %u: %s: is another BGP speaker running "
		"in this network namespace%s? exiting\n",
		addr ? addr : "every address", port, strerror(-r),
		addr ? ", or is the address not configured here" : "");
}

/* Before anything is touched: a second bgpd in this namespace stops here. */
static int ports_free(const struct bgpd_options *o)
{
	int i, r;

	for (i = 0; i < MAX(o->nlisten, 1); i++) {
		r = bgp_network_port_free(o->nlisten ? o->listen[i] : NULL, o->port);
		if (r < 0) {
			listen_failed(o->nlisten ? o->listen[i] : NULL, o->port, r);
			return -1;
		}
	}
	return 0;
}

static int listen_all(const struct bgpd_options *o)
{
	int i, r;

	for (i = 0; i < MAX(o->nlisten, 1); i++) {
		r = bgp_network_listen(main_base, o->nlisten ? o->listen[i] : NULL, o->port);
		if (r < 0) {
			listen_failed(o->nlisten ? o->listen[i] : NULL, o->port, r);
			return -1;
		}
	}
	return 0;
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

/* Undo what start-up opened, when it stops before the loop. */
/* What `match rpki` and `match aspa` read: the daemon's RPKI store (bgpd/rpki). */
static enum rpki_state rov_state(const struct prefix *p, const struct bgp_aspath *aspath)
{
	return rpki_validate(rpki_store, p, aspath);
}

static enum aspa_state aspa_state(const struct bgp_aspath *aspath, uint32_t peer_as,
				  enum aspa_dir dir)
{
	return rpki_aspa_verify(rpki_store, aspath, peer_as, dir);
}

static const struct rmap_validator rpki_validator = { rov_state, aspa_state };

/* The store exists before the configuration: the instance's RIB watches it from its creation,
 * and the `rpki` node's caches are handed to the client (rtr_init()) as they are applied. */
static void rpki_start(void)
{
	rpki_store = rpki_db_new();
	rpki_db_set_default(rpki_store);
	route_map_set_validator(&rpki_validator);
}

static void rpki_stop(void)
{
	route_map_set_validator(NULL);
	rpki_db_set_default(NULL);
	rpki_db_free(rpki_store);
	rpki_store = NULL;
}

static int startup_failed(void)
{
	daemon_ready(false);
	vty_server_stop();
	bgp_network_stop();
	pidfile_release(&pidfile);
	if (main_base)
		event_loop_free(main_base);
	return 1;
}

int main(int argc, char **argv)
{
	struct bgpd_options o;
	struct ev *sig_term, *sig_int, *sig_hup;
	char err[BGPD_ERR_MAX];
	struct privs pv;
	int r;

	if (parse_options(argc, argv, &o) < 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);

	log_init("bgpd");
	if (!o.check)
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
	/* With -d, errors in the file must reach the terminal before we detach. */
	if (config_is_file(&o) < 0 || (o.daemon && config_run(&o, true) < 0))
		return 1;

	if (privs_resolve(&pv, o.user, o.group, o.user_given, err, sizeof(err)) < 0) {
		fprintf(stderr, "bgpd: %s\n", err);
		return 1;
	}
	if (rundirs_ensure(&o, &pv) < 0)
		return 1;
	if (pidfile_acquire(&pidfile, o.pidfile, err, sizeof(err)) < 0) {
		fprintf(stderr, "bgpd: %s\n", err);
		return 1;
	}

	main_base = event_loop_new();
	if (!main_base || ports_free(&o) < 0)
		return startup_failed();
	bgp_config_set_event_base(main_base);
	bgp_fib_start(main_base, !o.no_fib); /* before the configuration creates the instance */
	rpki_start();
	if (vty_server_start(main_base, o.vty_socket) < 0) {
		fprintf(stderr, "bgpd: cannot open the vty socket %s (see the log); exiting\n",
			o.vty_socket);
		return startup_failed();
	}

	if (drop_privileges(&pv) < 0 || (o.daemon && daemonize() < 0))
		return startup_failed();
	/* After the fork: the client's DNS resolver lives on this process's loop. */
	rtr_init(main_base, rpki_store);

	/* The listeners last: the configured keys and GTSM rules are on them before listen(). */
	if (config_run(&o, false) < 0 || security_refused(&o) || listen_all(&o) < 0)
		return startup_failed();

	sig_term = event_signal_new(main_base, SIGTERM, sigterm_cb, NULL);
	sig_int = event_signal_new(main_base, SIGINT, sigterm_cb, NULL);
	sig_hup = event_signal_new(main_base, SIGHUP, sighup_cb, NULL);
	event_add(sig_term);
	event_add(sig_int);
	event_add(sig_hup);

	log_notice("bgpd (skua %s) started, vty socket %s, pid file %s", PACKAGE_VERSION,
		   o.vty_socket, o.pidfile);
	daemon_ready(true);
	mem_trim_start(main_base); /* what bursts free goes back to the system */
	r = event_loop_run(main_base);
	mem_trim_stop();

	vty_server_stop();
	bgp_network_stop();
	bgp_fib_stop(); /* the kernel's routes go (or stay: bgp fib retain) in one step */
	rtr_fini();
	bgp_delete(bgp_get());
	rpki_stop();
	event_free(sig_term);
	event_free(sig_int);
	event_free(sig_hup);
	nb_terminate();
	cmd_terminate();
	event_loop_free(main_base);
	log_notice("bgpd exiting");
	pidfile_release(&pidfile);
	log_close();
	return r < 0 ? 1 : 0;
}
