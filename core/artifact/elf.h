/*
 * elf.h: what an ELF file asks the dynamic loader for, and the CUDA
 * libraries it names.
 *
 * A framework reaches CUDA two ways: through DT_NEEDED entries, which the
 * loader resolves at start-up (libtorch_cuda.so needs libcudart.so.12),
 * and through dlopen() of a name spelled out in its read-only data
 * (TensorFlow dlopens "libcupti.so.11.2"). elf_parse() returns both: the
 * DT_NEEDED entries and DT_SONAME from the dynamic section, and every
 * CUDA library soname found anywhere in the file's bytes.
 *
 * The file is untrusted input: 32- and 64-bit, little- and big-endian
 * files are read field by field, and every offset, size and count is
 * checked against the file's size before it is used, so a truncated or
 * corrupt file is an error, never a read out of bounds. Nothing is
 * loaded or run.
 *
 * CUDA library sonames are "lib<name>.so.<digits>(.<digits>)*" for the
 * names in nvlib.h's table ("libcudart.so.11.0", "libcublasLt.so.12",
 * "libnccl.so.2"); cuDNN's sub-libraries ("libcudnn_ops.so.9") count as
 * cuDNN. elf_cuda_soname_version() says which soname a CUDA release gives
 * each toolkit library, which is how `cuenv needs` maps a soname back to
 * the releases that provide it.
 */
#ifndef CUENV_ELF_H
#define CUENV_ELF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "nvidia/nvlib.h"

/* ---- ELF files ----------------------------------------------------------- */

struct elf_info {
	unsigned bits; /* 32 or 64 */
	bool big_endian;
	unsigned machine;	/* e_machine: EM_X86_64 62, EM_AARCH64 183 */
	char *soname;		/* DT_SONAME, or NULL */
	char *rpath;		/* DT_RPATH as written ("$ORIGIN/../lib"), or
				   NULL */
	char *runpath;		/* DT_RUNPATH, or NULL */
	bool nodeflib;		/* DF_1_NODEFLIB: no cache, no defaults */
	struct strv needed;	/* DT_NEEDED entries, in file order */
	struct strv cuda_named; /* CUDA sonames in the bytes, each once, in
				   the order found; the file's own soname
				   left out */
	struct strv cuda_stems; /* elf_stream only: CUDA library names
				   without a version ("libcudnn_ops.so"),
				   each once */
	bool cudart_static;	/* the bytes carry the static CUDA
				   runtime's data: it is linked in */
};

void elf_info_init(struct elf_info *e);
void elf_info_release(struct elf_info *e);

/* Does data start with the ELF magic? */
bool elf_has_magic(const void *data, size_t len);

/*
 * Read the ELF image data (len bytes; name is used in messages) into out,
 * which must be initialised and empty. The dynamic section is found
 * through PT_DYNAMIC (its string table through the PT_LOAD segment that
 * maps DT_STRTAB), or, in a file without one, through the SHT_DYNAMIC
 * section and its linked string table. A file without a dynamic section
 * (a static executable, an object file) has no soname and no needed
 * entries, which is not an error.
 *
 * Returns CUENV_OK; CUENV_NO when data is not ELF at all (no magic); or
 * CUENV_E_MANIFEST for an ELF file that is truncated or corrupt, with a
 * message naming name and what is wrong. On failure out may hold part of
 * what was read: release it either way.
 */
int elf_parse(const void *data, size_t len, const char *name,
	      struct elf_info *out, struct cuenv_err *err);

/*
 * elf_parse() without the scan of the bytes for CUDA sonames (cuda_named
 * stays empty): the headers and the dynamic section only, which is all
 * the loader reads, and touches only their pages of a mapped file.
 */
int elf_parse_dynamic(const void *data, size_t len, const char *name,
		      struct elf_info *out, struct cuenv_err *err);

/*
 * elf_parse() the file at path, mapped read-only (the file is never
 * written, and it must be a regular file). Returns elf_parse()'s codes,
 * or CUENV_E_STORE when the file cannot be opened or mapped.
 */
int elf_read_file(const char *path, struct elf_info *out,
		  struct cuenv_err *err);

/*
 * Append to out each CUDA library soname found in data that out does not
 * hold yet: one pass over the bytes, looking for ".so." and then checking
 * the name before it and the version after it. A match must stand alone:
 * "libcudart.so.12" in "/usr/lib/libcudart.so.12" counts, the same bytes
 * inside "xlibcudart.so.12" or "libcudart.so.12a" do not.
 */
void elf_scan_cuda_sonames(const void *data, size_t len, struct strv *out);

/* ---- an ELF file read as a stream ---------------------------------------- */

/*
 * What `cuenv needs` asks of a file it cannot hold in memory (a zip member
 * inflated as it streams, a 2 GB library read in chunks): its bytes are
 * fed in order, once, and only a bounded window is kept: the first 64 KiB
 * (the header), the program headers and the dynamic segment (each at most
 * 1 MiB), the CUDA sonames found so far with their offsets, and a few
 * bytes of overlap between chunks. At the end, each DT_NEEDED and
 * DT_SONAME offset into the string table is matched against the offsets
 * where a CUDA soname was found, so the string table need not be kept,
 * whether it lies before or after the dynamic segment. Hence, unlike
 * elf_parse(): needed holds only the CUDA sonames among DT_NEEDED, soname
 * only a CUDA soname (both also as auditwheel renames a bundled copy:
 * "libcudnn-74a4c495.so.9.1.0"), rpath and runpath stay NULL, and a file without
 * PT_DYNAMIC has no needed entries. cuda_stems gets the CUDA library names
 * written without a version ("libcudnn_ops.so"), which a loader completes
 * at run time. Peak memory does not grow with the file.
 *
 *	struct elf_stream *st = elf_stream_new("lib/x.so");
 *	while (more bytes)
 *		rc = elf_stream_feed(st, p, n, err);   (CUENV_NO: not ELF)
 *	rc = elf_stream_finish(st, &info, err);
 *	elf_stream_free(st);
 */
struct elf_stream;

/* A stream for the file name (copied; used in messages). */
struct elf_stream *elf_stream_new(const char *name);
void elf_stream_free(struct elf_stream *st);

/*
 * Feed the next len bytes. Returns CUENV_OK; CUENV_NO once the first
 * bytes show it is not ELF (feed no more); CUENV_E_MANIFEST for a header
 * that is corrupt, naming the file.
 */
int elf_stream_feed(struct elf_stream *st, const void *data, size_t len,
		    struct cuenv_err *err);

/*
 * After the last byte: fill out (initialised, empty) as described above.
 * Returns CUENV_OK; CUENV_NO when it was not ELF (or shorter than its
 * magic); CUENV_E_MANIFEST when truncated or corrupt (program headers or
 * the dynamic segment past the end, a name outside the string table).
 */
int elf_stream_finish(struct elf_stream *st, struct elf_info *out,
		      struct cuenv_err *err);

/* ---- symbol versions --------------------------------------------------- */

/*
 * What a file asks of the libraries it links by symbol version, and what
 * it defines, for the loader's two checks (loader.h): at load, each
 * version a DT_VERNEED entry names must be defined by the library of that
 * name ("version `libcudnn.so.9' not found"); at binding, each undefined
 * versioned symbol must be defined there with that version ("undefined
 * symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12").
 */
struct elf_verref {
	char *file;    /* vn_file: "libnvJitLink.so.12" */
	char *version; /* vna_name: "libnvJitLink.so.12" */
	bool weak;     /* VER_FLG_WEAK: a missing version is no error */
};

struct elf_symref {
	char *name;    /* "__nvJitLinkAddData_12_1" */
	char *version; /* its version, from verref of the same index */
	char *file;    /* the library that version is needed from */
};

struct elf_symvers {
	bool have_verdef;	      /* the file defines versions */
	bool symbols_known;	      /* its symbol table could be counted */
	struct strv defined_versions; /* vda_name of each verdef, not the
					 file's own (VER_FLG_BASE) */
	struct strv defined;	      /* "name@version" (or "name" where
				       unversioned) of each global or weak
				       definition, sorted */
	struct elf_verref *refs;      /* DT_VERNEED's versions */
	size_t nrefs;
	struct elf_symref *undef; /* strong undefined symbols that carry a
				       version */
	size_t nundef;
};

void elf_symvers_init(struct elf_symvers *v);
void elf_symvers_release(struct elf_symvers *v);

/*
 * Read the dynamic symbol table, DT_VERSYM, DT_VERDEF and DT_VERNEED of
 * the ELF image data into out (initialised, empty). The number of symbols
 * is taken from the SHT_DYNSYM section at DT_SYMTAB's address, else from
 * DT_HASH, else from walking DT_GNU_HASH; when none gives it,
 * symbols_known is false and only the version lists are read. Every
 * offset and count is checked as elf_parse() checks them, and the
 * version entries walked, over every DT_VERDEF and DT_VERNEED record
 * (records may share a chain), are at most what the file has room for
 * (16 bytes each) and 65,535: the work is bounded by the file's size,
 * and each symbol's version is found in constant time. Returns its codes
 * (CUENV_NO: not ELF; CUENV_E_MANIFEST: corrupt, naming what).
 */
int elf_parse_symvers(const void *data, size_t len, const char *name,
		      struct elf_symvers *out, struct cuenv_err *err);

/* Does v define symbol sym with version version (NULL: unversioned)? */
bool elf_symvers_defines(const struct elf_symvers *v, const char *sym,
			 const char *version);

/* ---- CUDA sonames -------------------------------------------------------- */

/*
 * The libraries are nvlib.h's table; the scan below finds the entries
 * frameworks load by name (NVLIB_FRAMEWORK).
 */

/* "cudart", "cublasLt", "cudnn", ...: the <name> in lib<name>.so. */
const char *elf_cuda_lib_name(enum nvlib_id lib);

/*
 * Is name a CUDA library soname? On true, *lib says which library and
 * *version points into name at the version after ".so." ("11.0" in
 * "libcudart.so.11.0").
 */
bool elf_cuda_soname(const char *name, enum nvlib_id *lib,
		     const char **version);

/*
 * The same for any library of nvlib's table, those frameworks do not
 * load by name too (cuFile's libcufile.so.0, cuSPARSELt's
 * libcusparseLt.so.0, NVTX's libnvToolsExt.so.1): what a DT_NEEDED
 * entry may name.
 */
bool elf_nvidia_soname(const char *name, enum nvlib_id *lib,
		       const char **version);

/*
 * The version in the soname that CUDA release cuda ("11.2.2", "12.4")
 * gives the toolkit library lib, into out (reset first): cudart "11.0"
 * for every 11.x and "12" for 12.x, CUPTI "11.2" for 11.2 only, NVRTC
 * "11.2" for 11.2 to 11.8, cuFFT "11" for 12.x, and so on (from NVIDIA's
 * release contents, in nvlib.h's table). False when that release has no
 * such library (nvJitLink before 12.0), for cuDNN and NCCL, and for a
 * cuda that is not a version.
 */
bool elf_cuda_soname_version(enum nvlib_id lib, const char *cuda,
			     struct buf *out);

#endif
