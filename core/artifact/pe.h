/*
 * pe.h: the DLLs a Windows PE/COFF file (.dll, .pyd, .exe) imports, and
 * the CUDA DLL names in its bytes.
 *
 * The Windows counterpart of elf.h for `cuenv needs`: the import table
 * (data directory 1) and the delay-load import table (data directory 13)
 * name the DLLs the loader binds, as DT_NEEDED does on Linux; a DLL
 * loaded with LoadLibrary is only a string in the file. pe_parse()
 * returns both, and the name in the export directory (the DLL's own name,
 * as DT_SONAME).
 *
 * The file is untrusted input: every offset, RVA, size and count is
 * checked against the file's size and its section table before use; a
 * truncated or corrupt file is an error, never a read out of bounds.
 * Nothing is loaded or run.
 */
#ifndef CUENV_PE_H
#define CUENV_PE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

struct pe_info {
	unsigned bits;		/* 32 (PE32) or 64 (PE32+) */
	unsigned machine;	/* COFF machine: 0x8664 x86-64, ... */
	char *name;		/* the export directory's name, or NULL */
	struct strv imports;	/* import table DLL names, in file order */
	struct strv delay;	/* delay-load import DLL names */
	struct strv cuda_named; /* CUDA DLL names in the bytes (ASCII or
				   UTF-16LE), each once, in the order
				   found; the file's own name left out */
};

void pe_info_init(struct pe_info *p);
void pe_info_release(struct pe_info *p);

/* Does data start with "MZ" (a DOS header, which every PE file has)? */
bool pe_has_magic(const void *data, size_t len);

/*
 * Read the PE image data (len bytes; name is used in messages) into out,
 * which must be initialised and empty. Returns CUENV_OK; CUENV_NO when
 * data does not start with "MZ"; CUENV_E_MANIFEST for a file that is
 * truncated or corrupt (no "PE\0\0" signature where e_lfanew points, an
 * RVA no section maps, a name that does not end), with a message naming
 * name and what is wrong. On failure out may hold part of what was read:
 * release it either way.
 */
int pe_parse(const void *data, size_t len, const char *name,
	     struct pe_info *out, struct cuenv_err *err);

/*
 * Append to out each CUDA DLL name (one nvlib_dll_soname() maps to a
 * release) found in data that out does not hold yet, in
 * ASCII or UTF-16LE, case as found. A match must stand alone: the bytes
 * before it are not a name character.
 */
void pe_scan_cuda_dlls(const void *data, size_t len, struct strv *out);

#endif
