/* SPDX-License-Identifier: ISC */
/*
 * Loading rtr_tls.so (bgpd/rtr/rtr_tls.h says why TLS is a module).
 *
 * Where from: a program of the build tree (bgpd run from build/, the unit tests) loads the
 * module built beside it, so that a tree under test never picks up an installed module of
 * another build; any other program loads it from the installed module directory. Both paths
 * are fixed when skua is built: nothing from the environment or the configuration chooses
 * the code bgpd runs. The module stays loaded for the life of the process (contexts and
 * connections point into it).
 */
#include "lib/compat.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bgpd/rtr/rtr_private.h"
#include "bgpd/rtr/rtr_tls.h"

#ifndef SKUA_MODULE_DIR
#define SKUA_MODULE_DIR "/usr/lib/skua"
#endif
#ifndef SKUA_BUILD_DIR
#define SKUA_BUILD_DIR ""
#endif
/* Where libtool leaves the built module, under the build tree. */
#define BUILD_MODULE_SUBDIR "/bgpd/.libs"

static const struct rtr_tls_ops *loaded;

static bool running_from_build_tree(void)
{
	char exe[PATH_MAX];
	size_t n = strlen(SKUA_BUILD_DIR);
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n == 0 || len <= 0)
		return false;
	exe[len] = '\0';
	return strncmp(exe, SKUA_BUILD_DIR, n) == 0 && exe[n] == '/';
}

const struct rtr_tls_ops *rtr_tls(char *err, size_t errlen)
{
	char path[PATH_MAX];
	const struct rtr_tls_ops *ops;
	void *handle;

	if (loaded)
		return loaded;
	if (running_from_build_tree())
		snprintf(path, sizeof(path), "%s%s/%s", SKUA_BUILD_DIR, BUILD_MODULE_SUBDIR,
			 RTR_TLS_MODULE);
	else
		snprintf(path, sizeof(path), "%s/%s", SKUA_MODULE_DIR, RTR_TLS_MODULE);
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(err, errlen,
			 "TLS needs the module %s, which cannot be loaded: %s (is skua "
			 "fully installed?)",
			 path, dlerror());
		return NULL;
	}
	ops = dlsym(handle, RTR_TLS_SYMBOL);
	/* The interface number first: only a table of this layout has a version to read. */
	if (!ops || ops->abi != RTR_TLS_ABI || ops->cfg_size != sizeof(struct rtr_cache_cfg) ||
	    strcmp(ops->version, PACKAGE_VERSION) != 0) {
		snprintf(err, errlen,
			 "the TLS module %s is not of this bgpd (%s %s): reinstall skua", path,
			 PACKAGE_NAME, PACKAGE_VERSION);
		dlclose(handle);
		return NULL;
	}
	loaded = ops;
	return loaded;
}
