/*
 * needs.h: which CUDA libraries a framework's ELF files ask for, and
 * which installed selection or catalogue release gives them (`cuenv
 * needs`).
 *
 * The files say it two ways: DT_NEEDED entries (libtorch_cuda.so needs
 * libcudart.so.12) and names spelled out for dlopen (TensorFlow's
 * "libcupti.so.11.2"); core/elf reads both. Each CUDA soname asked for is
 * one want. A want is satisfied by an installed selection when one of
 * its library folders holds a file of that name, and by a catalogue
 * release when the release gives that library that soname
 * (elf_cuda_soname_version). What the frameworks a Python imports report
 * (built with CUDA 11.8, cuDNN 8.7) narrows the choice further.
 *
 * Two kinds of want are never asked of cuenv: one that a file under the
 * scanned paths provides itself (its DT_SONAME), and NCCL, which cuenv
 * does not install. Both are still reported.
 *
 * Only DT_NEEDED makes a soname required. A name found in a file's bytes
 * is one the file may dlopen: frameworks name many alternatives (cuDNN's
 * frontend tries libnvrtc.so.12 and libnvrtc.so.13, whichever is there),
 * so such a want is preferred when choosing, never needed for
 * "satisfied".
 *
 * Above both, in trust, is what a framework's own files say it was built
 * with (struct needs_report): TensorFlow's build_info.py, torch's
 * version.py, the nvidia-* pins in a wheel's METADATA (Requires-Dist:
 * nvidia-cudnn-cu12==8.9.2.26 is cuDNN at least 8.9.2.26), cupy's
 * package name (cupy-cuda12x). Real TensorFlow names no CUDA soname at
 * all (its loader builds the names at run time), so without these a real
 * wheel asks for nothing. Each report is a minimum: the same major, at
 * least that version.
 *
 * The steps, in order (cmd/needs.c runs them and prints the result):
 *
 *	struct needs_scan s;
 *	needs_scan_init(&s);
 *	for each PATH: needs_scan_path(&s, path, err)   (warnings in s)
 *	needs_scan_finish(&s);                          (sort, providers)
 *	needs_describe(&s, &cat);                       ("CUDA 11.x")
 *	if (needs_asked(&s, py)) {
 *		needs_installed_load(&in, root, err);
 *		needs_match_installed(&s, py, active, &in);
 *		if (!in.pick.cuda)
 *			needs_find_offer(&cat, &s, py, &offer);
 *	}
 *
 * Nothing here prints: what a scan skips goes into its warnings, for the
 * caller to show.
 *
 * The scanning (init to finish, and Python's report) is needs_scan.c; the
 * matching (needs_asked onwards: installed selections, the verdict, the
 * catalogue's offer) is needs_match.c.
 */
#ifndef CUENV_NEEDS_H
#define CUENV_NEEDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "artifact/elf.h"
#include "base/err.h"
#include "artifact/pe.h"
#include "store/store.h"

/* ---- what the files ask for ---------------------------------------------- */

struct needs_want {
	char *soname; /* "libcudart.so.11.0" */
	char *dll;    /* the Windows DLL name it was asked for by
				  ("cudart64_110.dll"), or NULL */
	enum nvlib_id lib;
	const char *version;   /* into soname: "11.0" */
	struct strv needed_by; /* files whose DT_NEEDED name it */
	struct strv loaded_by; /* files that dlopen it by that name, no
				  other soname of the library beside it: a
				  requirement of their GPU path */
	struct strv named_by;  /* files that name it among alternatives
				  (libnvrtc.so.12 and .13), NVIDIA's own
				  libraries, or name the profiler (CUPTI):
				  they may load it */
	char *provided_by;     /* a file scanned whose soname it is, or NULL */
	char *found;	       /* the file in the installed pick, or NULL */
	char *elsewhere;       /* one cuenv does not install: where ld.so
				  finds it for the file that links it
				  (needs_outside), or NULL */
	char *range;	       /* "CUDA 11.x": set by needs_describe */
	bool alternative;      /* only builds of a needs_alt require it */
};

/*
 * Builds of one library for several CUDA releases in one folder, the
 * same name but for a CUDA tag (bitsandbytes 0.45.5's
 * libbitsandbytes_cuda117.so ... _cuda128.so): the package loads one of
 * them, the one for the CUDA in use, so they are one requirement that
 * any member meets with every library it needs.
 */
struct needs_alt {
	char *pattern;	   /* "x.whl/bitsandbytes/libbitsandbytes_cuda*.so" */
	struct strv files; /* its members, sorted */
	char *met;	   /* the newest member the pick gives, or NULL */
};

/*
 * What one file of a framework's own says it was built with. cuda and
 * cudnn are minimums of their major ("11.2": any 11.x from 11.2 on), or
 * NULL when the file does not say.
 */
struct needs_report {
	char *framework; /* "tensorflow", "torch", "cupy-cuda12x", ... */
	char *version;	 /* the framework's version, or NULL */
	char *source;	 /* the file it was read from */
	char *cuda;
	char *cudnn;
	struct strv dlls;  /* Windows DLLs it loads by name (build_info.py) */
	struct strv notes; /* where the file contradicts NVIDIA's table */
};

/*
 * A load no file fixes the version of: a Python module's ctypes call
 * (nvidia-cudnn-frontend 1.8.0's cudnn/__init__.py loads
 * "libcudnn.so.*[0-9]", else "libcudnn.so"), a binary's unversioned
 * soname (its _compiled_module names "libcudart.so"): what it takes is
 * what the machine has at run time.
 */
struct needs_unseen {
	char *who;  /* the file */
	char *name; /* "libcudnn.so" */
	enum nvlib_id lib;
	bool ctypes; /* from Python, not a binary */
};

struct needs_scan {
	struct needs_want *v; /* by library, then soname, once finished */
	size_t n;
	struct needs_report *rep; /* in the order read */
	size_t nrep;
	struct needs_alt *alt; /* set by needs_scan_finish */
	size_t nalt;
	struct needs_unseen *unseen; /* in the order met */
	size_t nunseen;
	size_t files;	      /* ELF and PE files read */
	size_t pe_files;      /* of which PE (Windows) */
	struct strv provides; /* soname, path, soname, path, ... */
	struct strv warnings; /* "skipped: ...": what was passed over */
	struct strv unread;   /* the files, members and folders of them
				 that could not be read (corrupt,
				 unreadable, too large, not a file): each
				 has its warning, and the answer leaves it
				 out, so it cannot be "satisfied" */
	struct strv outside;  /* linked sonames cuenv does not install that
				 ld.so does not find here (needs_outside):
				 never "satisfied" */
};

void needs_scan_init(struct needs_scan *s);
void needs_scan_release(struct needs_scan *s);

/*
 * Record what the ELF file at path (already read into e) asks for: each
 * CUDA soname among its DT_NEEDED entries (needed_by gets path); each one
 * named in its bytes but not needed: loaded_by when it is the only
 * soname of its library the file names, the file is no CUDA library
 * itself and the library is not the profiler (CUPTI), else named_by; other names are ignored. A CUDA library soname
 * of its own is recorded as provided, a bundled copy's too (auditwheel's
 * libcudnn-74a4c495.so.9.1.0 provides libcudnn.so.9); the names without a
 * version such a copy completes at run time (cuda_stems: cuDNN's front
 * library loads libcudnn_ops.so.9.1.0, .9) are loaded_by it at its major,
 * and its version is a report: cuDNN at least 9.1.0, said by that file.
 * Counts the file in s->files.
 */
void needs_scan_add(struct needs_scan *s, const char *path,
		    const struct elf_info *e);

/*
 * Record that who (a file, or "the message" for `cuenv explain`) needs
 * the CUDA soname (DT_NEEDED-like: required). False, nothing recorded,
 * when soname is not a CUDA library of nvlib's table.
 */
bool needs_scan_want(struct needs_scan *s, const char *soname, const char *who);

/*
 * Add a report: framework (version NULL) says, in source, that it was
 * built with CUDA cuda and cuDNN cudnn (either may be NULL): minimums of
 * their major, as the metadata's.
 */
void needs_scan_report(struct needs_scan *s, const char *framework,
		       const char *source, const char *cuda, const char *cudnn);

/* Append sep, then what's minimum v: "CUDA 11.2+" (at least 11.2, same
 * major) or "CUDA 12.x" (a bare major). */
void needs_minimum_text(struct buf *out, const char *what, const char *v,
			const char *sep);

/*
 * The same for a Windows PE file: each DLL its import or delay-load
 * table names that nvlib_dll_soname() maps to a CUDA library counts as
 * needed (cudart64_110.dll is libcudart.so.11.0: CUDA 11), each CUDA DLL
 * named only in its bytes as named; its export name, when a CUDA DLL, as
 * provided. Counts the file in s->files.
 */
void needs_scan_add_pe(struct needs_scan *s, const char *path,
		       const struct pe_info *p);

/* ---- one reader over any tree (core/needs/needs_tree.c) ------------------------ */

/*
 * A wheel on the index, a wheel file, an unpacked folder and an installed
 * site-packages are the same tree of files read through different byte
 * sources (range requests, a file, a folder). needs_scan_tree reads any of
 * them the same way: the members needs_member_kind names, in the same
 * order (by name, a folder's entries before a sibling that sorts after
 * the folder's name), metadata as text, binaries as a stream of chunks
 * (elf_stream: memory bounded whatever their size). So `needs NAME==V`,
 * `needs WHEEL` and `needs FOLDER` cannot disagree.
 */

/*
 * The next bytes of a member into *p (borrowed until the next call):
 * their count, 0 at its end, -1 on failure (err).
 */
typedef ssize_t needs_read_fn(void *ctx, const void **p, struct cuenv_err *err);

struct needs_member {
	const char *name; /* in the tree, '/'-separated: "torch/lib/x.so" */
	uint64_t size;	  /* as the tree says, 0 when unknown */
	needs_read_fn *read;
	void *ctx;
};

typedef int needs_visit_fn(void *arg, const struct needs_member *m,
			   struct cuenv_err *err);

/*
 * A tree: each() calls visit for each regular member, in name order (see
 * needs_member_cmp), and returns what visit returned when not CUENV_OK,
 * else CUENV_OK or its own failure. A member visit does not read costs
 * nothing. shown names the tree in reports ("dist/x.whl": its members are
 * "dist/x.whl/MEMBER").
 */
struct needs_tree {
	const char *shown;
	int (*each)(void *ctx, needs_visit_fn *visit, void *arg,
		    struct cuenv_err *err);
	void *ctx;
};

enum needs_member_kind {
	NEEDS_MEMBER_SKIP,
	NEEDS_MEMBER_METADATA, /* needs_metadata_name */
	NEEDS_MEMBER_BINARY,   /* "x.so", "x.so.12", .dll, .pyd, .exe */
};

/*
 * strcmp, but '/' before every other byte: the order in which a walk of
 * folders, each in name order, meets paths. For qsort over char *.
 */
int needs_member_cmp(const void *a, const void *b);

/*
 * Read the tree t into s: metadata members as text (at most 4 MiB),
 * binary members streamed (needs_scan_stream). A member that cannot be
 * read or is corrupt is a line in s->warnings naming it and its name in
 * s->unread, never a failure; returns CUENV_OK or the tree's own failure.
 */
int needs_scan_tree(struct needs_scan *s, const struct needs_tree *t,
		    struct cuenv_err *err);

/*
 * needs_scan_tree's visit of one member in two steps, for a tree whose
 * members can be read at once on several threads: needs_read_member
 * reads it (touching nothing shared; NULL for a member needs_member_kind
 * skips), and needs_read_add, called in the tree's order, adds what was
 * found, or the warning that says why not (and the member's name in
 * s->unread), to s and frees it.
 */
struct needs_read;
struct needs_read *needs_read_member(const char *shown,
				     const struct needs_member *m);
void needs_read_add(struct needs_scan *s, struct needs_read *r);

/*
 * Scan path: an ELF or PE file, or every regular ELF file under a folder, in
 * name order, symbolic links not followed, no deeper than 64 folders.
 * Inside a folder a file that is not ELF is passed over quietly; a
 * corrupt one, an unreadable file or folder, one with a binary's or
 * metadata's name that is not a file (a FIFO), and a folder nested too
 * deep are passed over with a line in s->warnings and their path in
 * s->unread. Returns CUENV_OK;
 * CUENV_E_STORE when path cannot be read (stat); for a file named as
 * path, CUENV_E_USAGE when it is not ELF, CUENV_E_MANIFEST when it is
 * corrupt, CUENV_E_STORE when it cannot be opened; CUENV_E_USAGE when it
 * is neither a file nor a folder. Reads the filesystem only.
 */
int needs_scan_path(struct needs_scan *s, const char *path,
		    struct cuenv_err *err);

/*
 * After the last needs_scan_path: sort the wants (by library, then
 * soname) and mark each that a scanned file provides (provided_by).
 */
void needs_scan_finish(struct needs_scan *s);

/*
 * The newest member of a whose every required want ok() accepts (a want
 * of a member: in its needed_by or loaded_by, managed), or NULL.
 */
const char *needs_alt_met(const struct needs_scan *s, const struct needs_alt *a,
			  bool (*ok)(const struct needs_want *w, void *ctx),
			  void *ctx);

/*
 * The loads of s->unseen that nothing else answers, each a line into
 * out ("cudnn/__init__.py loads libcudnn.so with ctypes"): none of the
 * files links or names a soname of that library, and no report or
 * framework states a minimum of its family (cuDNN; CUDA for the rest).
 * Returns their count: when not 0, what the GPU path loads is unknown
 * (never "satisfied"), and importing it decides.
 */
struct needs_python;
size_t needs_unknown(const struct needs_scan *s, const struct needs_python *py,
		     struct strv *out);

/*
 * Did --python find no framework, with nothing else read (no PATH, no
 * --import)? Then nothing here says what is needed: nothing is asked
 * (exit 0), and --json's "satisfied" is false.
 */
bool needs_python_empty(const struct needs_scan *s,
			const struct needs_python *py);

/*
 * The libraries a file links (DT_NEEDED) that cuenv does not install
 * (NCCL, cuFile, cuSPARSELt) and the pick does not give (no w->found:
 * call it after needs_installed_here):
 * each looked for as ld.so finds it for the first file that links it
 * (that file's DT_RPATH or DT_RUNPATH, envp's LD_LIBRARY_PATH, the ld.so
 * cache (CUENV_LD_SO_CACHE, else /etc/ld.so.cache), the default folders:
 * torch's RPATH into the venv's nvidia/cusparselt/lib).
 * Found: w->elsewhere. Not: its soname onto s->outside, and the answer
 * is not "satisfied" (torch does not import without it). Returns how
 * many are not found. A file inside a wheel (NAME==VERSION) has no
 * RPATH to follow here: the rest of the order still counts.
 */
size_t needs_outside(struct needs_scan *s, char *const *envp);

/*
 * Is w another product's library (TensorRT, cuTENSOR, NCCL) that only
 * that product's plugins need: each file that links it is a Python
 * extension module or a provider or plugin library named for the product
 * (onnxruntime's libonnxruntime_providers_tensorrt.so, cupy's
 * cupy_backends/cuda/libs/cutensor.cpython-311-x86_64-linux-gnu.so)? The
 * framework loads such a file only when the product is asked for: w is
 * listed, not required.
 */
bool needs_want_plugin(const struct needs_want *w);

/* Is w asked of cuenv: not provided under the scanned paths, not NCCL? */
bool needs_want_managed(const struct needs_want *w);

/*
 * Is w required: managed, and in some file's DT_NEEDED, or loaded by a
 * file that names no other soname of its library (loaded_by), one not
 * of a needs_alt? A want only named among alternatives, or by NVIDIA's
 * own libraries, is one a file may load; one that only builds of a
 * needs_alt require is asked through it (needs_alt_met).
 */
bool needs_want_required(const struct needs_want *w);

/*
 * Is name (a path, or a zip member's name) a file whose text
 * needs_read_metadata reads: .../tensorflow/python/platform/build_info.py,
 * .../torch/version.py, a package's own .../PKG/version/__init__.py,
 * .../NAME.dist-info/METADATA, a wheel's core metadata served beside it
 * (PEP 658: .../WHEEL.whl.metadata), or a .py or .json at the top of a
 * tree (at most one folder deep: xformers/cpp_lib.json)?
 */
bool needs_metadata_name(const char *name);

/*
 * Read the text (len bytes, not NUL-terminated) of the metadata file
 * name (see needs_metadata_name) and add what it says into s's reports:
 *   build_info.py  cuda_version, cudnn_version ("64_112" on Windows is
 *                  11.2), cudart_dll_name, cudnn_dll_name; a DLL name
 *                  that no release ships (TensorFlow 2.10's
 *                  cudart64_112.dll) is replaced by the name NVIDIA's
 *                  table gives for that release (cudart64_110.dll) and
 *                  the contradiction kept in the report's notes
 *   version.py     cuda ('12.1'; None: a build without CUDA)
 *   PKG/version/__init__.py  cuda_version, cudnn_version (Paddle's
 *                  '11.8', '8.6.0'; 'False' in a CPU build), reported
 *                  as PKG's, with its full_version
 *   METADATA       Name, Version, and the Requires-Dist pins of NVIDIA's
 *                  wheels: nvidia-cudnn-cuNN (cuDNN at least the pin),
 *                  nvidia-cuda-runtime/-cupti/-nvrtc-cuNN (CUDA at least
 *                  the pin's major.minor), any other nvidia-*-cuNN (CUDA
 *                  NN); pins behind an extra (tensorflow[and-cuda]) count
 *                  to major.minor only. A '-' word of the name cuNN or
 *                  cudaNN(x) says CUDA NN, cuNNN and cudaNNN NN.N
 *                  (cupy-cuda12x, spconv-cu120). NVIDIA's own wheels and
 *                  files that say nothing of CUDA add no report.
 *   any other .py, .json: the first constant naming CUDA and the first
 *                  naming cuDNN with a version (cuda_version = '12.1',
 *                  "cuda": 1201, CUDA_VERSION = 12010, CUDNN_VERSION =
 *                  8600), else a version's +cuNNN label, reported as
 *                  the package of the folder holding it
 * Returns true when a report was added. Reads nothing but text.
 */
bool needs_read_metadata(struct needs_scan *s, const char *name,
			 const char *text, size_t len);

/*
 * The framework whose version a package shares and whose releases its
 * GPU support comes with ("jax" for jax-cuda12-plugin, jax-cuda12-pjrt,
 * jaxlib), or NULL. Such a plugin's own metadata often pins nothing; its
 * parent's row of frameworks.tsv says what that release needs.
 */
const char *needs_plugin_parent(const char *package);

/*
 * For each report in s of a plugin of parent (needs_plugin_parent) with
 * a version: the row of rows (parent's rows of frameworks.tsv, from
 * compat_frameworks) of the same version, and of the report's CUDA major
 * when it states one, becomes a report of its own: framework parent,
 * source "frameworks.tsv: jax 0.4.25 (the parent of jax-cuda12-plugin
 * 0.4.25)", the minimums the row's notes state ("compatible with CUDA
 * >=12.1 and cuDNN >=9.1"), else the versions it was built with. Where
 * the plugin's own minimum differs, both reports get a note saying so;
 * where several rows fit (no major to choose by), the plugin's report
 * gets a note and no row is chosen. Reads nothing.
 */
struct framework_builds;
void needs_parent_rows(struct needs_scan *s, const char *parent,
		       const struct framework_builds *rows);

/*
 * Set each want's range, from the CUDA releases in cat: "CUDA 11.x",
 * "CUDA 11.2", "CUDA 11.2-11.8, 12.x" (by minor; a major all of whose
 * minors give the soname is "M.x"), "cuDNN 8.x", "NCCL (cuenv does not
 * install it)", or "no CUDA release in the catalogue".
 */
void needs_describe(struct needs_scan *s, const struct catalog *cat);

/* ---- what Python's frameworks report ------------------------------------- */

/*
 * A Python program that imports each framework and writes one JSON
 * object to its fd 3 (stdout and stderr are the frameworks' own, and may
 * be noise): {"python": "3.11.4", "frameworks": {"torch": {"version":
 * "2.1.0", "cuda": "12.1", "cudnn": "8.9.2"}, "jax": {"absent":
 * "ModuleNotFoundError: ..."}, ...}}. Run it with `PYTHON -c`;
 * needs_python_parse reads what it writes.
 */
extern const char needs_python_script[];

#define NEEDS_FRAMEWORKS 3
/* "tensorflow", "torch", "jax": the order of needs_python.fw. */
extern const char *const needs_framework_names[NEEDS_FRAMEWORKS];

struct needs_framework {
	char *version; /* NULL: absent */
	char *cuda;    /* a valid version, or NULL (a build without CUDA) */
	char *cudnn;
	char *absent;  /* why it did not import */
	char *problem; /* what it said went wrong (torch: "cuDNN version
			  incompatibility: ... compiled against (9, 26, 0)
			  but found runtime version (9, 19, 0)"), or NULL */
};

/* A framework needs_python_find found by its files (needs_ask.h). */
struct needs_found {
	char *name;	     /* "torch", "onnxruntime": what is imported */
	struct strv folders; /* the folders of its site it has files in */
};

struct needs_python {
	const char *exe;   /* borrowed; NULL: no framework was imported */
	char *finder;	   /* the interpreter whose sys.path was read, or
			    NULL: not read */
	struct strv sites; /* its sys.path's folders */
	struct needs_found *found; /* the frameworks in them */
	size_t nfound;
	char *version;
	struct needs_framework fw[NEEDS_FRAMEWORKS];
};

/* Empty, for the interpreter exe (NULL: not asked). */
void needs_python_init(struct needs_python *py, const char *exe);
void needs_python_release(struct needs_python *py);

/*
 * Read the text (len bytes) needs_python_script wrote into py. A
 * framework the text reports replaces what py held for it; one it leaves
 * out keeps its absent reason. A version that is not one ("None") reads
 * as NULL. Returns 0, or -1 when the text is not a JSON object (py is
 * then unchanged).
 */
int needs_python_parse(struct needs_python *py, const char *text, size_t len);

/*
 * Is anything asked of cuenv: a managed want, a report, or a framework
 * built with CUDA or cuDNN? py may be NULL.
 */
bool needs_asked(const struct needs_scan *s, const struct needs_python *py);

/*
 * The newest CUDA (cudnn: cuDNN) version that any framework reports, in
 * s's build metadata or py's answers (either may be NULL), or NULL. The
 * string is borrowed from s or py.
 */
const char *needs_newest_report(const struct needs_scan *s,
				const struct needs_python *py, int cudnn);

/* ---- installed selections ------------------------------------------------ */

struct needs_combo {
	const struct store_version *cuda, *cudnn,
		*cupti; /* cudnn, cupti: or NULL */
};

/* Append "cuda 11.2.2 + cudnn 8.1.1 (cuda11) + cupti 11.2.2" to out. */
void needs_combo_describe(const struct needs_combo *c, struct buf *out);

struct needs_installed {
	struct store_version_list cudas, cudnns, cuptis; /* oldest first */
	struct strv warnings;	 /* receipts skipped while listing */
	struct needs_combo pick; /* pick.cuda NULL: nothing satisfies */
	bool active;		 /* pick is the active selection */
	struct strv report;	 /* "cuda 12.4.1: lacks x, y" per toolkit */
};

void needs_installed_init(struct needs_installed *in);
void needs_installed_release(struct needs_installed *in);

/*
 * List the CUDA, cuDNN and CUPTI versions of the store at root into in
 * (initialised); what the listing skipped goes into in->warnings, even on
 * failure. Returns CUENV_OK or CUENV_E_STORE. Reads the store only.
 */
int needs_installed_load(struct needs_installed *in, const char *root,
			 struct cuenv_err *err);

/*
 * Find among in's lists a selection that gives every managed want of s
 * and suits every framework in py (NULL: none asked; same major, at
 * least the version it was built with): active (the selection in force,
 * or NULL) when it does, else the newest CUDA, with the newest cuDNN for
 * its major and the fewest extras. The pick goes into in->pick (cuda
 * NULL when none), and the files it gives into the wants' found; for
 * each toolkit, newest first, the best it can do goes into in->report.
 * Reads (stat) the installs' library folders.
 */
void needs_match_installed(struct needs_scan *s, const struct needs_python *py,
			   const struct needs_combo *active,
			   struct needs_installed *in);

/*
 * For `needs` and `explain`: list the store at root into in
 * (needs_installed_load) and match s and py (may be NULL) against it,
 * the selection in force in cwd under envp (activation_compute; none
 * when it fails) first: needs_match_installed. What to warn about goes
 * onto warnings: "skipped an incomplete version: NAME" for each version
 * the listing skipped, then the activation's warnings. Returns CUENV_OK
 * or CUENV_E_STORE (nothing matched then).
 */
int needs_installed_here(const char *root, const char *cwd, char *const *envp,
			 struct needs_scan *s, const struct needs_python *py,
			 struct needs_installed *in, struct strv *warnings,
			 struct cuenv_err *err);

/* ---- the catalogue ------------------------------------------------------- */

struct needs_offer {
	const struct release *cuda, *cudnn, *cupti; /* into the catalogue */
	char *line;	/* "cuenv install 11.2 --cudnn 8", or NULL */
	struct buf why; /* when nothing fits: the reason */
};

void needs_offer_init(struct needs_offer *o);
void needs_offer_release(struct needs_offer *o);

/*
 * The releases of cat that give every managed want of s and suit py's
 * frameworks (py may be NULL), into o (initialised): the newest CUDA
 * release (the very version the newest framework report names, when
 * one does), with its own CUPTI or else CUPTI of another release, and
 * the newest cuDNN built for its major that gives the cuDNN soname asked
 * for. o->line is the `cuenv install` line that gets them, with the
 * shortest versions the catalogue resolves to the same releases. When
 * nothing fits, o->line stays NULL and o->why says why.
 */
void needs_find_offer(const struct catalog *cat, const struct needs_scan *s,
		      const struct needs_python *py, struct needs_offer *o);

/* ---- the report as JSON (core/needs/needs_json.c) ------------------------------ */

/* A wheel read from a package index by range requests, for the report. */
struct needs_fetched {
	char *wheel, *index;
	uint64_t size, bytes; /* the wheel's size, the bytes fetched */
	unsigned requests;
	bool metadata;	 /* its PEP 658 metadata file was read */
	const char *why; /* why this wheel: borrowed in, copied by
			    needs_fetches_add; or NULL */
};

struct needs_fetches {
	struct needs_fetched *v;
	size_t n;
};

/* Append wheel (copied), index (copied) and f's figures to fs. */
void needs_fetches_add(struct needs_fetches *fs, const char *wheel,
		       const char *index, const struct needs_fetched *f);
void needs_fetches_release(struct needs_fetches *fs);

/* ---- the command line (core/needs/needs_args.c) --------------------------------- */

/* What an argument of `cuenv needs` names. */
enum needs_arg {
	NEEDS_ARG_PATH,	       /* an ELF or PE file, or a folder */
	NEEDS_ARG_WHEEL,       /* a .whl file, read by cuenv-net */
	NEEDS_ARG_REQUIREMENT, /* NAME==VERSION or NAME on the package index */
};

/*
 * arg's kind: a name ending in .whl is a wheel; NAME==VERSION (no '/')
 * or a bare NAME (needs_is_name: tensorflow, its newest release, as
 * `install --for tensorflow` takes) is a requirement unless a file of
 * that name exists; anything else a path. Looks at the file system.
 */
enum needs_arg needs_arg_kind(const char *arg);

/* Is arg a package's name alone: letters, digits, '-' and '_', no dot? */
int needs_is_name(const char *arg);

/*
 * Does this command line (argv[0] the command's name; options and "--"
 * skipped) name a wheel or a requirement, so that cuenv-net runs it?
 */
int needs_args_want_net(int argc, char **argv);

struct fetch_opts;

/*
 * How a wheel or a requirement is read into s, fetching with fetch's
 * settings, with what was fetched added to fs (cuenv-net's
 * wheel_needs_scan, core/needs/wheel.h).
 */
typedef int needs_net_scan_fn(struct needs_scan *s, const char *arg,
			      const char *index, const char *platform,
			      const char *py, const struct fetch_opts *fetch,
			      struct needs_fetches *fs, struct cuenv_err *err);

struct needs_args {
	char **v; /* PATH|WHEEL|NAME==VERSION... */
	int n;
	int python;	      /* --python: then there may be no argument */
	const char *index;    /* --index, or NULL: CUENV_PYPI_INDEX, else
				 https://pypi.org/simple */
	const char *platform; /* --platform, or NULL: this machine's */
	const char *py;	      /* the interpreter's wheel tag ("cp311"), or
				 NULL: any */
	char *const *envp;
	needs_net_scan_fn *net; /* NULL: this binary is not cuenv-net */
	/* the user's fetch settings (cmd_fetch_env), for net */
	const struct fetch_opts *fetch;
};

/*
 * Scan each of a's arguments into s in order (needs_scan_path, or a->net
 * for a wheel or requirement), then needs_scan_finish. Warnings collect
 * in s->warnings. Returns CUENV_OK, CUENV_E_USAGE when there is no
 * argument and no --python, CUENV_E_BUG for a wheel or requirement
 * without a->net, or the first failing scan's code.
 */
int needs_scan_args(struct needs_scan *s, const struct needs_args *a,
		    struct needs_fetches *fs, struct cuenv_err *err);

struct json_t;

/*
 * `cuenv needs --json`'s object: the wheels fetched (when any), the files
 * read, the sonames asked for and by whom, the frameworks' own reports,
 * the libraries the files provide, the Python frameworks (when py->exe),
 * whether an installed selection satisfies everything (never when a file
 * could not be read: s->unread, listed as "unread"), which one, and what
 * the catalogue offers otherwise (or why nothing). A new reference.
 */
struct json_t *needs_json(const struct needs_scan *s,
			  const struct needs_python *py,
			  const struct needs_installed *in,
			  const struct needs_offer *o,
			  const struct needs_fetches *fs, bool satisfied);

#endif
