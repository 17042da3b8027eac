/*
 * catalog.h: what can be installed, and from where.
 *
 * The catalogue is a folder (manifests/ in the source tree, installed to
 * $(PREFIX)/share/cuenv/manifests, refreshed into $CUENV_ROOT/manifests by
 * `cuenv update`) holding:
 *
 *	cuda/redistrib_<ver>.json    NVIDIA's CUDA redist manifests, verbatim
 *	cudnn/redistrib_<ver>.json   NVIDIA's cuDNN redist manifests, verbatim
 *	cuda-runfiles.tsv            runfile installers: version, platform,
 *	                             url, sha256 (for releases before 11.4)
 *	cudnn-tarballs.tsv           cuDNN tarballs: version, CUDA major or
 *	                             range, platform, url, sha256
 *
 * A release is one installable thing: a CUDA version from one source
 * (its redist components, or one runfile), or a cuDNN build for one CUDA
 * major. Every archive carries the sha256 it must have. A bad file is an
 * error naming it, never a crash; the JSON is read with jansson.
 */
#ifndef CUENV_CATALOG_H
#define CUENV_CATALOG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/kit.h"

enum source_kind {
	SRC_REDIST,  /* NVIDIA's redist archives (a JSON manifest) */
	SRC_RUNFILE, /* a CUDA .run installer (makeself) */
	SRC_TARBALL, /* a cuDNN tarball from the table */
	SRC_PYPI,    /* NVIDIA's wheels on a Python package index */
};

#define NVIDIA_BASE "https://developer.download.nvidia.com"

/* One file to fetch. */
struct part {
	char *name;    /* component ("cuda_cudart"), or "runfile", "cudnn" */
	char *version; /* the component's own version */
	char *url;     /* absolute, on NVIDIA's host */
	char *sha256;  /* 64 lowercase hex digits */
	uint64_t size; /* bytes; 0 when the catalogue does not say */
	/*
	 * What the package index's wheel of this component holds, where
	 * pypi.tsv says it is less than the component ("bin/ptxas": the
	 * nvcc wheels of CUDA 12); NULL when the whole. Borrowed from the
	 * catalogue.
	 */
	const char *index_holds;
};

struct release {
	enum kit_kind kind;
	enum source_kind source;
	char *version;	     /* "12.4.1", cuDNN "9.1.0.70" */
	unsigned cuda_major; /* CUDA: its major; cuDNN: built for */
	char *origin;	     /* the catalogue file it came from */
	struct part *parts;
	size_t nparts;
	/* The package index has it (pypi.tsv lists it, or there is no
	 * pypi.tsv to ask): --source pypi can install it. */
	bool on_index;
};

/* One line of pypi.tsv: what the package index holds. */
struct index_row {
	char *release;	 /* a CUDA version or prefix ("12.4.1", "12") */
	char *component; /* "*": the release is on the index */
	char *holds;	 /* what its wheel holds ("bin/ptxas"), or "*" */
};

struct catalog {
	struct release **v;
	size_t n;
	struct index_row *index; /* pypi.tsv's lines */
	size_t nindex;
	char *platform; /* what catalog_load read it for: what a lock, an
			   update's check and an install act for */
};

void catalog_release(struct catalog *cat);

/* "linux-x86_64", "linux-sbsa" or "linux-ppc64le" for this machine. */
const char *catalog_platform(void);
/* The platform cat was loaded for (CUENV_PLATFORM's), else this
 * machine's. */
const char *catalog_platform_of(const struct catalog *cat);

/* The platforms NVIDIA's redistrib manifests name, NULL-terminated. */
extern const char *const catalog_platforms[];

/* Is p one of catalog_platforms? */
bool catalog_platform_known(const char *p);

/*
 * The processor of platform p as glibc and uname(2) name it: "aarch64"
 * for both ARM platforms (linux-sbsa, a server; linux-aarch64, a Jetson),
 * "ppc64le", else "x86_64". Pure.
 */
const char *catalog_platform_machine(const char *p);

/*
 * Load every file of the catalogue folder dir for platform. A file that
 * cannot be read or parsed fails the load (CUENV_E_MANIFEST naming it);
 * a missing folder or table is just empty.
 */
int catalog_load(struct catalog *cat, const char *dir, const char *platform,
		 struct cuenv_err *err);

/*
 * Parse one NVIDIA redist manifest (name for messages). Older manifests
 * carry no release_label/release_product: then product and label (from
 * the folder and file name, redistrib_<label>.json) are used, or the
 * file is refused when they are NULL. A release_label other than label
 * (when label is given) is refused, and so is a component key that
 * catalog_name_ok does not take, or a cuDNN variant other than cuda<N>:
 * CUENV_E_MANIFEST naming the file and the value.
 */
int catalog_parse_redist(struct catalog *cat, const char *name,
			 const char *json, size_t len, const char *platform,
			 const char *product, const char *label,
			 struct cuenv_err *err);
/* Parse cuda-runfiles.tsv or cudnn-tarballs.tsv (by kind). */
int catalog_parse_table(struct catalog *cat, enum kit_kind kind,
			const char *name, const char *text, size_t len,
			const char *platform, struct cuenv_err *err);

/*
 * Parse pypi.tsv (name for messages): what NVIDIA's wheels on the
 * package index hold, per CUDA release ("*": the release is there) and
 * per component (what its wheel holds when that is less than the redist
 * component), each line with how it was checked. Into cat->index, and
 * the releases of cat marked (on_index, index_holds); catalog_load marks
 * again after loading every file.
 */
int catalog_parse_index(struct catalog *cat, const char *name, const char *text,
			size_t len, struct cuenv_err *err);

/*
 * The newest release of kind matching spec (a version or prefix), from
 * source (or any source when source < 0, preferring redist), for cuDNN
 * among builds for cuda_major (0: any). NULL when none.
 */
const struct release *catalog_find(const struct catalog *cat,
				   enum kit_kind kind, const char *spec,
				   unsigned cuda_major, int source);

/* What one install fetches: borrowed pointers into a catalogue. */
struct catalog_choice {
	const struct release *cuda;
	const struct release *cudnn; /* NULL when none was asked for */
	const struct release *cupti; /* NULL when none was asked for */
};

/*
 * The releases `cuenv install` fetches (and `cuenv lock` pins) for CUDA
 * cuda, cuDNN cudnn (NULL: none) built for that CUDA's major, and CUPTI
 * from CUDA release cupti (NULL: none), each the newest matching its spec
 * (catalog_find). source (< 0: any) narrows CUDA and CUPTI to that
 * source, and a cuDNN only to SRC_PYPI, whose wheels exist for both.
 * Returns CUENV_OK with out filled, or CUENV_E_UNKNOWN naming the first
 * one cat lacks, with a hint pointing at list-remote and update; for
 * SRC_PYPI, the CUDA releases the index has and the command that
 * installs the nearest of the same major.
 * `install --for` asks it of each framework build before choosing one.
 */
int catalog_resolve(const struct catalog *cat, const char *cuda,
		    const char *cudnn, const char *cupti, int source,
		    struct catalog_choice *out, struct cuenv_err *err);

/* The longest component name catalog_name_ok takes. */
#define CATALOG_NAME_MAX 64

/*
 * Is s a component's name as NVIDIA's manifests write them ("cuda_cudart",
 * "libcublas"): a letter or digit, then letters, digits, '.', '_' or '-',
 * at most CATALOG_NAME_MAX bytes? No '/', no "../" start, no space or
 * newline: a name is a folder in a mirror and a word in its index.
 */
bool catalog_name_ok(const char *s);

/* The part named name, or NULL. */
const struct part *release_part(const struct release *rel, const char *name);

/* Free p's strings (not p). */
void part_release(struct part *p);

/*
 * The CUDA releases of cat that the package index has (on_index), as
 * "11.8.0, 12.4.1, ..." onto out, in version order, once each.
 */
void catalog_index_releases(const struct catalog *cat, struct buf *out);

const char *source_name(enum source_kind s);
int source_parse(const char *s, enum source_kind *out);

#endif
