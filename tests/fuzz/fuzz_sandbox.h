/* SPDX-License-Identifier: ISC */
/* The fuzz targets' sandbox (tests/fuzz/fuzz_sandbox.c): what must not leave the process. */
#ifndef SKUA_FUZZ_SANDBOX_H
#define SKUA_FUZZ_SANDBOX_H

/* A private temporary directory (created on first use) for every file a target writes. */
const char *fuzz_sandbox_dir(void);

#endif /* SKUA_FUZZ_SANDBOX_H */
