/*
 * wheel_local.h: `cuenv needs WHEEL`: a .whl file on disk read in place
 * (nothing unpacked to disk), the way core/wheel reads one on an index.
 *
 * Metadata first (build_info.py, version.py, METADATA: what
 * needs_metadata_name names); only when that says nothing of CUDA, the
 * ELF and PE members (.so, .dll, .pyd, .exe), each parsed in memory.
 * Part of the wheel module, tested by tests/unit/test_wheel.c.
 */
#ifndef CUENV_WHEEL_LOCAL_H
#define CUENV_WHEEL_LOCAL_H

#include "err.h"
#include "needs.h"

/* A wheel's members are metadata or ELF/PE files, at most this large. */
#define WHEEL_LOCAL_MEMBER_MAX (1u << 30)
/*
 * A metadata member (needs_metadata_name), on disk or on an index, and
 * the index's metadata file (PEP 658), at most this large: the largest
 * real one is tens of KiB.
 */
#define WHEEL_METADATA_MAX (8u << 20)

/*
 * Scan the wheel at path into s, its members named "PATH/MEMBER". A
 * member that is not a valid ELF or PE file of its kind goes into
 * s->warnings; only the zip itself can fail: CUENV_E_STORE (cannot
 * open), CUENV_E_UNPACK (not a zip, corrupt, a member too large: a
 * metadata member over WHEEL_METADATA_MAX, a binary over
 * WHEEL_LOCAL_MEMBER_MAX).
 */
int wheel_local_scan(struct needs_scan *s, const char *path,
		     struct cuenv_err *err);

#endif
