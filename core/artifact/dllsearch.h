/*
 * dllsearch.h: which copy of a DLL Windows' loader takes for a process,
 * and what that means for a cuenv selection (issue 13).
 *
 * The model is Microsoft's "Dynamic-link library search order" for
 * desktop applications, with SafeDllSearchMode on (the default):
 *
 *   1. the folder the application was loaded from
 *   2. the system folder (%SystemRoot%\System32)
 *   3. the 16-bit system folder (%SystemRoot%\System)
 *   4. the Windows folder (%SystemRoot%)
 *   5. the current folder
 *   6. the folders of PATH, in order
 *
 * KnownDLLs (a system list checked first) hold no CUDA DLL and are left
 * out. Python 3.8 and later load an extension module's dependent DLLs
 * with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (Python's "What's New In Python
 * 3.8", os.add_dll_directory): the module's own folder, the application
 * folder, the folders given to os.add_dll_directory, System32; neither
 * PATH nor the current folder. A DLL that the framework itself loads by
 * name with LoadLibrary (TensorFlow's dso_loader: cudart64_110.dll,
 * cudnn64_8.dll, cupti64_*.dll) follows the standard order.
 *
 * Pure: the caller says which files exist (exists), so the model runs
 * and is tested on any system. Paths use Windows' syntax (core/plat_path)
 * and names compare case-insensitively, as on NTFS.
 */
#ifndef CUENV_DLLSEARCH_H
#define CUENV_DLLSEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

enum dll_mode {
	DLL_STANDARD, /* LoadLibrary by name: the order above */
	DLL_PYTHON38, /* an extension module's dependency, Python 3.8+ */
};

/* Where a folder comes from in the search. */
enum dll_where {
	DLL_MODULE_DIR, /* DLL_PYTHON38: the extension module's folder */
	DLL_APP_DIR,
	DLL_ADDED_DIR, /* os.add_dll_directory */
	DLL_SYSTEM32,
	DLL_SYSTEM16,
	DLL_WINDOWS,
	DLL_CWD,
	DLL_PATH,
};

struct dll_process {
	enum dll_mode mode;
	const char *app_dir;	  /* the program's folder (python.exe's) */
	const char *system_root;  /* %SystemRoot%: C:\Windows */
	const char *cwd;	  /* the current folder, or NULL */
	const char *path;	  /* PATH, ';'-separated, or NULL */
	const char *module_dir;	  /* DLL_PYTHON38: the .pyd's folder */
	const struct strv *added; /* DLL_PYTHON38: add_dll_directory, or NULL */
};

/* Does folder dir hold a file named name (case-insensitively)? */
typedef bool (*dll_exists_fn)(void *ctx, const char *dir, const char *name);

struct dll_hit {
	char *dir; /* the folder, as the search names it */
	enum dll_where where;
};

struct dll_search {
	struct dll_hit *v; /* every folder holding the name, in search order */
	size_t n;	   /* v[0] is the copy loaded; 0: error 126 */
	struct strv order; /* every folder searched, in order */
};

void dll_search_init(struct dll_search *s);
void dll_search_release(struct dll_search *s);

/* The folders p searches for name, those that hold it into s. */
void dll_search(const struct dll_process *p, const char *name,
		dll_exists_fn exists, void *ctx, struct dll_search *s);

/* ---- a selection's DLLs ---------------------------------------------------- */

enum dll_verdict {
	DLL_OK,	      /* the selection's copy is the one loaded */
	DLL_MISSING,  /* no copy anywhere: LoadLibrary fails with error 126 */
	DLL_SHADOWED, /* another copy is found first */
	DLL_NOT_SEARCHED, /* the selection's folder is not searched at all */
};

struct dll_finding {
	enum dll_verdict verdict;
	char *name;    /* cudart64_110.dll */
	char *loaded;  /* the copy loaded (dir\name), or NULL */
	char *message; /* one line, in plain words */
	char *fix;     /* a command or a line to paste, or NULL */
};

/*
 * What the loader does for name in process p, where the selection's copy
 * is in folder want_dir: loaded from there, missing (error 126),
 * shadowed by an earlier copy (which, and why it comes first), or not
 * searched (the selection's folder is only on PATH and Python 3.8+ does
 * not search PATH for an extension module's DLLs). f is filled; the fix
 * is runnable as printed (a del command for a stray copy where the
 * folder is not the system's, the os.add_dll_directory line, or `cuenv
 * exec`).
 */
void dll_check(const struct dll_process *p, const char *name,
	       const char *want_dir, dll_exists_fn exists, void *ctx,
	       struct dll_finding *f);

void dll_finding_release(struct dll_finding *f);

#endif
