/*
 * pyload.h: what a Python environment's frameworks load, predicted with
 * the loader model (loader.h) and judged, without importing anything.
 *
 * A framework from the package index (torch with its nvidia-*-cuNN
 * wheels) works because each library finds the right copy of the next:
 * torch's own libraries carry DT_RPATH into site-packages/nvidia/NAME/lib,
 * which comes before LD_LIBRARY_PATH; NVIDIA's wheel libraries carry
 * DT_RUNPATH ($ORIGIN, $ORIGIN/../../nvjitlink/lib), which comes after it.
 * So what the wheels load in turn (nvJitLink under cuSPARSE, cuDNN's
 * sub-libraries under its front library) is taken from LD_LIBRARY_PATH
 * first: a cuenv selection or a foreign folder there replaces it.
 *
 * pyload_find() finds the frameworks of some site-packages folders by
 * their files alone (a torch built for CUDA 11 or 12:
 * torch/lib/libtorch_cuda.so; TensorFlow:
 * tensorflow/libtensorflow_framework.so.2; JAX's CUDA plugin:
 * jax_plugins/xla_cudaNN/xla_cuda_plugin.so);
 * pyload_predict() loads, in the model, what `import torch` loads (the
 * interpreter, torch's libtorch_global_deps.so, its _C extension and
 * their DT_NEEDED closure) and the names the libraries dlopen (cuDNN 9's
 * front library asks for libcudnn_graph.so.M.m.p, then .M.m, then .M, at
 * its first call; the other sub-libraries when a model runs);
 * pyload_judge() says what in a prediction breaks the framework:
 *
 *	PYLOAD_MISSING  a name that cannot be loaded
 *	PYLOAD_SYMBOL   a symbol version no loaded copy defines
 *	PYLOAD_MIXED    cuDNN's front library from one folder, a sub-library
 *	                from another
 *	PYLOAD_OLDER    a library the environment's wheels provide, loaded
 *	                from elsewhere in an older version
 *	PYLOAD_MAJOR    a CUDA library of another CUDA major than the
 *	                framework's build (its objects' DT_NEEDED CUDA
 *	                sonames, else its wheels' -cuNN names): by its
 *	                soname (libnvJitLink.so.13), its wheel's name, or
 *	                the CUDA runtime beside it (a toolkit's lib64)
 *	PYLOAD_IMPORT   (observed) the import itself failed
 *
 * A copy from elsewhere that is not older, and libraries the framework
 * never loads, are no issue. Reads the files it resolves and the wheels'
 * RECORD files; runs nothing, writes nothing.
 */
#ifndef CUENV_PYLOAD_H
#define CUENV_PYLOAD_H

#include <stdbool.h>

#include "base/buf.h"
#include "artifact/loader.h"

/*
 * A framework found in site-packages, built to load CUDA. What it loads
 * is modelled by one rule for every framework: its extension modules
 * (entries) and their DT_NEEDED closure, then the CUDA libraries it
 * dlopens by name (dlnames), each asked for by the framework's object
 * that calls dlopen (dlopener: TensorFlow's libtensorflow_framework.so.2,
 * JAX's xla_cuda_plugin.so), with that object's own search path: its
 * DT_RUNPATH alone, so TensorFlow 2.16, whose framework library's
 * RUNPATH names only nvidia/cuda_runtime/lib, finds the other wheels
 * through LD_LIBRARY_PATH or the cache or not at all. The names are
 * those of the NVIDIA wheels in site-packages (nvlib.h's NVLIB_FRAMEWORK
 * libraries, each wheel's front library: libcublas.so.12,
 * libcudnn.so.8): a framework that requires a wheel loads it. The first
 * at_import of them are loaded by the import itself (TensorFlow's CUDA
 * runtime, which its import asks for the number of devices); the rest
 * when the framework computes.
 */
struct pyload_fw {
	char *name;	      /* "torch", "onnxruntime": what is imported */
	const char *calls;    /* its own preload, for pyobs_run(), or NULL */
	char *site;	      /* the site-packages folder it is in */
	struct strv entries;  /* the objects its import dlopens, in order */
	char *dlopener;	      /* the object whose calls dlopen CUDA by name,
				or NULL (torch: DT_NEEDED only) */
	struct strv dlnames;  /* the sonames it dlopens, in order */
	size_t at_import;     /* how many of dlnames its import loads */
	unsigned long stated; /* the CUDA majors its own file says its
				 build has (Paddle's version file), or 0 */
	bool by_strings;      /* found by its files, not a kind: its objects
				dlopen the CUDA sonames their bytes name
				(ctranslate2's libcublas.so.12) */
};

struct pyload_fws {
	struct pyload_fw *v;
	size_t n;
};

void pyload_fws_release(struct pyload_fws *f);

/*
 * Append the frameworks of each folder of sites, once each, to out: the
 * kinds above by their files, then any other package (a folder of site
 * with an importable name) whose ELF files, up to PYLOAD_SCAN_DEPTH
 * folders down, have a DT_NEEDED entry naming a CUDA library
 * (onnxruntime's providers, cupy's extension modules, ctranslate2's
 * library): those files are its entries, dlopened when it computes.
 */
#define PYLOAD_SCAN_DEPTH 4
#define PYLOAD_SCAN_FILES 4096 /* files looked at in one package, at most */
void pyload_find(const struct strv *sites, struct pyload_fws *out);

/* Which of a prediction's objects are the framework's. */
struct pyload_span {
	size_t first;	  /* the first object past the interpreter's own */
	size_t predicted; /* from here on: the model's (before it: mapped
			     in a real process, pyload_observed) */
	size_t on_use;	  /* from here on: loaded when the framework computes,
			  not at import (== l->nobj without on_use) */
};

/*
 * Predict, in l (loader_init'ed with the environment to judge), what
 * python (the interpreter, or NULL) loads when it imports fw: the
 * interpreter and its libraries, fw's entries and their DT_NEEDED
 * closure, then what the libraries dlopen at their first call (cuDNN's
 * graph library) and, with on_use, when the framework computes (cuDNN's
 * other sub-libraries); then the symbol-version checks.
 */
void pyload_predict(struct loader *l, const char *python,
		    const struct pyload_fw *fw, bool on_use,
		    struct pyload_span *span);

/*
 * The same from what a real import mapped (obs, pyobs.h: its files taken
 * as loaded objects, loader_adopt): then what fw would load when it
 * computes, predicted from that state (its entries not mapped yet, the
 * names its dlopener asks for, cuDNN's sub-libraries), an already mapped
 * soname reused as ld.so does; then the symbol-version checks of what
 * was predicted. span->predicted says where the model's part starts.
 */
struct pyobs;
void pyload_observed(struct loader *l, const struct pyobs *obs,
		     const struct pyload_fw *fw, struct pyload_span *span);

enum pyload_kind {
	PYLOAD_IMPORT, /* the observed import failed */
	PYLOAD_MAJOR,  /* a CUDA library of another major than fw's build */
	PYLOAD_MISSING,
	PYLOAD_SYMBOL,
	PYLOAD_MIXED,
	PYLOAD_OLDER,
};

struct pyload_issue {
	enum pyload_kind kind;
	char *name;   /* the soname (or missing name) */
	char *path;   /* the file loaded for it, or NULL (missing) */
	char *source; /* loader_source_name() of path, or NULL */
	char *want;   /* the copy that would do: the wheel's file, the front
			 library's folder, or NULL */
	char *detail; /* "libnvJitLink.so.12 12.0.140 is older than
			 12.9.86", the symbol, the reason */
};

struct pyload_issues {
	struct pyload_issue *v;
	size_t n;
	/*
	 * The driver's library (NVLIB_DRIVER_SO ".1") was asked for and not
	 * found: not an issue of the environment (the driver is the
	 * machine's; a login node or build container has none), but the
	 * GPU path beyond it cannot be judged.
	 */
	bool driver_missing;
	/*
	 * What the model leaves out and cannot judge here, a line each: an
	 * add-on's module (cupy's cuDNN module, where no wheel gives cuDNN
	 * and nothing asks for it), a plugin for another product whose
	 * library is not here (onnxruntime's TensorRT provider). Said, not
	 * guessed: whether they load is decided where the add-on is.
	 */
	struct strv unseen;
};

void pyload_issues_release(struct pyload_issues *is);

/*
 * Judge the prediction in l (span's objects) against the wheels
 * of fw's site-packages; append what breaks to out.
 */
void pyload_judge(const struct loader *l, const struct pyload_span *span,
		  const struct pyload_fw *fw, struct pyload_issues *out);

/* The same after pyload_observed, the import's failure first. */
void pyload_judge_observed(const struct loader *l,
			   const struct pyload_span *span,
			   const struct pyobs *obs, const struct pyload_fw *fw,
			   struct pyload_issues *out);

/*
 * The CUDA majors fw is built for, as a bit mask (bit M: CUDA M), from
 * the CUDA sonames its own objects among l's (those in fw->site outside
 * nvidia/) need, else from its site's NVIDIA wheels' -cuNN names; 0 when
 * neither says.
 */
unsigned long pyload_fw_majors(const struct loader *l,
			       const struct pyload_fw *fw);

/*
 * The version of the library file path, into out: from its real file
 * name when that carries a full version (libnvJitLink.so.12.0.140), else
 * from the RECORD of the wheel that installed it (its dist-info's
 * version: nvidia_nvjitlink_cu12-12.9.86). False when neither says.
 */
bool pyload_file_version(const char *path, struct buf *out);

/*
 * The exact requirement ("nvidia-cufft-cu12==11.3.0.4") by which the
 * packages of site (their dist-info METADATA's Requires-Dist) pin the
 * NVIDIA wheel that provides soname, into out (reset). False when none
 * pins it exactly, or two pin different versions.
 */
bool pyload_wheel_pin(const char *site, const char *soname, struct buf *out);

#endif
