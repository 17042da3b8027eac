/*
 * wheel_local.h: `cuenv needs WHEEL`: a .whl file on disk read in place
 * (nothing unpacked to disk), the way core/wheel reads one on an index.
 *
 * The same tree, in the same order, as the wheel unpacked into a folder
 * or read on an index (needs_scan_tree): metadata members as text, ELF
 * members streamed as they inflate (memory bounded whatever their size),
 * PE members in memory up to 32 MiB. Part of the wheel module, tested by
 * tests/unit/test_wheel.c.
 */
#ifndef CUENV_WHEEL_LOCAL_H
#define CUENV_WHEEL_LOCAL_H

#include "err.h"
#include "needs.h"

/*
 * A metadata member (needs_metadata_name), on disk or on an index, and
 * the index's metadata file (PEP 658), at most this large: the largest
 * real one is tens of KiB.
 */
#define WHEEL_METADATA_MAX (8u << 20)

/*
 * Scan the wheel at path into s, its members named "PATH/MEMBER". A
 * member that cannot be read, or is not a valid ELF or PE file of its
 * kind, goes into s->warnings; only the zip itself can fail:
 * CUENV_E_STORE (cannot open or read), CUENV_E_UNPACK (not a zip, a
 * corrupt central directory). Its members are read on up to threads
 * threads (0: one per core; the answer is the same for any number).
 */
int wheel_local_scan(struct needs_scan *s, const char *path, unsigned threads,
		     struct cuenv_err *err);

#endif
