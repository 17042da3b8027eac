/*
 * loader.h: what glibc's dynamic loader would load, predicted without
 * loading anything.
 *
 * A Python environment with NVIDIA's wheels works because each library
 * finds the right copy of the next: torch's libtorch_cuda.so carries
 * DT_RPATH into the venv's nvidia/NAME/lib, the wheels' own libraries carry
 * DT_RUNPATH ($ORIGIN, $ORIGIN/../../nvjitlink/lib). glibc treats the two
 * differently, and that difference is what a cuenv selection on
 * LD_LIBRARY_PATH can break (issue 21). For a name that an object asks
 * for, through DT_NEEDED or dlopen(), ld.so (elf/dl-load.c,
 * _dl_map_object) takes the first of:
 *
 *   1. a name with a '/': that path;
 *   2. an object already loaded under that name or with that DT_SONAME;
 *   3. only when the asking object has no DT_RUNPATH: the DT_RPATH of the
 *      asking object, then of the object that loaded it, and so on up the
 *      chain, then of the program itself (each object's DT_RPATH counts
 *      only if that object has no DT_RUNPATH);
 *   4. LD_LIBRARY_PATH (':' or ';' separated; an empty entry is the
 *      working directory);
 *   5. the asking object's DT_RUNPATH, and no one else's;
 *   6. unless the asking object has DF_1_NODEFLIB: the ld.so cache;
 *   7. and the loader's default folders.
 *
 * $ORIGIN (the folder of the object whose path list it is), $LIB and
 * $PLATFORM are expanded in each list. A file found by search that is an
 * ELF object of another class or machine is skipped and the search goes
 * on; one that is not ELF at all stops it ("invalid ELF header"); one
 * that is the same file as an object already loaded is that object.
 * DT_NEEDED entries are loaded breadth first, each asked for by the
 * object that needs it.
 *
 * Then the two symbol-version checks (elf.h's elf_symvers): a version a
 * DT_VERNEED entry names that the library of that name does not define
 * fails the load ("version `X' not found (required by Y)"); an undefined
 * symbol with a version that no loaded object defines with that version
 * fails binding ("undefined symbol: S, version V"; Python dlopens
 * extension modules with RTLD_NOW, so at import).
 *
 * Not modelled: LD_PRELOAD, the glibc-hwcaps/ subfolders, secure
 * (setuid) mode, and dlopen namespaces (dlmopen): none is how CUDA
 * reaches a framework. Reads the files it resolves (mapped, headers and
 * tables only), and lists each folder it searches once (a file that
 * appears in it later is not seen by the same model); writes nothing.
 */
#ifndef CUENV_LOADER_H
#define CUENV_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "artifact/elf.h"
#include "base/err.h"
#include "artifact/ldcache.h"
#include "plat/plat_fs.h"

/* Where the loader found an object: the step of the order above. */
enum loader_source {
	LOADER_GIVEN,	     /* a path: the program, a name with '/' */
	LOADER_LOADED,	     /* already loaded under that name */
	LOADER_RPATH,	     /* a DT_RPATH (loading chain, or program) */
	LOADER_LIBRARY_PATH, /* LD_LIBRARY_PATH */
	LOADER_RUNPATH,	     /* the asking object's DT_RUNPATH */
	LOADER_CACHE,	     /* the ld.so cache */
	LOADER_DEFAULT,	     /* the loader's default folders */
	LOADER_MAPPED,	     /* observed: mapped in a real process */
};

/* "RPATH", "LD_LIBRARY_PATH", "ld.so.cache", ...: for messages. */
const char *loader_source_name(enum loader_source s);

/* What the loader is given; borrowed for the life of the model. */
struct loader_env {
	const char *library_path;    /* LD_LIBRARY_PATH, or NULL */
	const struct ldcache *cache; /* the ld.so cache, or NULL */
	const struct strv *defaults; /* default folders in order, or NULL */
	const char *platform;	     /* $PLATFORM ("x86_64"), or NULL */
	const char *lib;	     /* $LIB ("lib/x86_64-linux-gnu") */
};

#define LOADER_NONE SIZE_MAX /* no object: the program's own request */

struct loader_obj {
	char *path; /* the file, as found ($ORIGIN's base) */
	enum loader_source source;
	size_t loader;	     /* the object whose request loaded it */
	struct strv names;   /* names it was asked for, and its soname */
	struct elf_info elf; /* soname, needed, rpath, runpath */
	struct elf_symvers vers;
	struct plat_file_id id;
};

/* A name that could not be loaded, and why. */
struct loader_miss {
	char *name;
	size_t by; /* the asking object, or LOADER_NONE */
	char *why; /* "not found", "invalid ELF header", ... */
};

/* A symbol-version check that fails. */
struct loader_problem {
	size_t user;	 /* the object that asks */
	size_t provider; /* the object of that name, or LOADER_NONE */
	char *version;	 /* "libnvJitLink.so.12" */
	char *symbol;	 /* "__nvJitLinkAddData_12_1", NULL: the version
			    itself is missing */
};

/*
 * A folder searched, listed once: ld.so tries open() in every folder of
 * a path list for every name, and 4,000 names against 600 RUNPATH
 * folders were 2.4 million stat calls; a name a listed folder lacks is
 * not looked for there.
 */
enum loader_dir_state {
	LOADER_DIR_LISTED,   /* its names are known */
	LOADER_DIR_ABSENT,   /* no such folder: nothing is found in it */
	LOADER_DIR_UNLISTED, /* it cannot be read (x without r): each name
				is tried, as ld.so does */
};

struct loader_dir {
	char *path; /* as searched ("" is the working folder) */
	enum loader_dir_state state;
	struct strv names; /* when listed: its names, sorted */
};

struct loader {
	struct loader_env env;
	struct strv library_path; /* env.library_path, split */
	unsigned machine, bits;	  /* of the first object: others must match */
	size_t program;		  /* the program's object, or LOADER_NONE */
	struct loader_obj *obj;
	size_t nobj;
	struct loader_miss *miss;
	size_t nmiss;
	struct loader_problem *prob;
	size_t nprob;
	struct loader_dir *dirs; /* sorted by path */
	size_t ndirs;
};

void loader_init(struct loader *l, const struct loader_env *env);
void loader_release(struct loader *l);

/*
 * Load the program at path (the executable whose DT_RPATH applies to
 * every search whose chain has no DT_RUNPATH: conda's python has
 * $ORIGIN/../lib) and what it needs, as the loader does at start. Must be
 * the first load, if any. Returns CUENV_OK (what could not be found is in
 * l->miss), or CUENV_E_STORE / CUENV_E_MANIFEST when path itself cannot
 * be read as ELF.
 */
int loader_program(struct loader *l, const char *path, struct cuenv_err *err);

/*
 * dlopen(name) called from object by (LOADER_NONE: from the program), and
 * everything that needs, breadth first. *idx is the object name resolved
 * to. Returns CUENV_OK, or CUENV_NO when name itself cannot be loaded (its
 * reason is the last entry of l->miss). A dependency that cannot be
 * loaded is recorded in l->miss without failing the call (ld.so would fail
 * the whole dlopen: l->nmiss > 0 says whether it did).
 */
int loader_dlopen(struct loader *l, size_t by, const char *name, size_t *idx);

/*
 * Take the file at path as an object a real process has mapped (pyobs.h:
 * what /proc/self/maps showed), under its path and soname, its DT_NEEDED
 * entries not resolved (the real loader did: they are mapped too);
 * program: it is the program (its DT_RPATH ends every chain). What the
 * model loads later reuses it as ld.so reuses a loaded object. False, and
 * nothing kept, for a file that is not an ELF object of the first one's
 * class and machine (a locale archive, a font).
 */
bool loader_adopt(struct loader *l, const char *path, bool program);

/*
 * Forget the misses from l->miss[from] on: a dlopen() whose caller tries
 * another name when one fails (cuDNN's libcudnn_graph.so.9.1.0, then
 * .9.1, then .9) leaves no trace of the names not found.
 */
void loader_forget_misses(struct loader *l, size_t from);

/*
 * The loader's default folders in its order, from the text `ld.so
 * --help` prints (glibc 2.33 on: "  /lib/x86_64-linux-gnu (system search
 * path)" lines), appended to out. False when the text names none.
 */
bool loader_defaults_parse(const char *help, struct strv *out);

/*
 * The default folders as glibc derives them where ld.so cannot say:
 * Debian's multiarch /lib/TRIPLET and /usr/lib/TRIPLET (for the machine
 * machine, "x86_64"), else /lib64 and /usr/lib64, then /lib and /usr/lib;
 * only folders that exist. Appended to out.
 */
void loader_defaults_guess(const char *machine, struct strv *out);

/*
 * Run the symbol-version checks over every object loaded, filling
 * l->prob (emptied first).
 */
void loader_check_versions(struct loader *l);

/* The object loaded under name (a soname or a name asked for), or NULL. */
const struct loader_obj *loader_find(const struct loader *l, const char *name);

/*
 * Expand $ORIGIN, ${ORIGIN}, $LIB and $PLATFORM in one entry of a path
 * list into out, origin being the folder of the object whose list it is.
 * False (out unspecified) when the entry names a token that has no value
 * here: ld.so drops such an entry.
 */
bool loader_expand(const struct loader_env *env, const char *origin,
		   const char *entry, struct buf *out);

#endif
