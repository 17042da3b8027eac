/*
 * pypi.h: a package index's simple API (as https://pypi.org/simple serves
 * it, or a proxy): the files of a project, and the wheel of an NVIDIA
 * component for this machine (install --source pypi, update, needs).
 */
#ifndef CUENV_PYPI_H
#define CUENV_PYPI_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"
#include "net/fetch.h"

/* A file of a project on a package index. */
struct index_file {
	char *name;    /* "torch-2.1.2-cp39-cp39-manylinux1_x86_64.whl" */
	char *url;     /* absolute */
	char *sha256;  /* the index's, 64 hex digits */
	uint64_t size; /* 0: the index did not say (PEP 503 HTML), or
			  gave no size (-1, a string, over 1 TiB) */
	/*
	 * Its core metadata as a file of its own at url + ".metadata" (PEP
	 * 658 and 714: JSON "core-metadata" or "data-dist-info-metadata",
	 * HTML data-core-metadata or data-dist-info-metadata): false when
	 * the index does not serve one; metadata_sha256 the index's sha256
	 * of it (64 hex digits), or NULL when it gave none ("true").
	 */
	bool metadata;
	char *metadata_sha256;
};

/*
 * The files of project on the package index at index (a simple API root
 * such as https://pypi.org/simple): its page (PEP 691 JSON, or PEP 503
 * HTML as proxies serve) fetched with fetch's options, its URL into
 * page (over file://, the folder's index.html: a cuenv mirror's pages),
 * the files with a sha256 and not yanked into *v and *n (free them
 * with pypi_index_files_free). Returns CUENV_OK or CUENV_E_FETCH.
 * Network I/O.
 */
int pypi_index_files(const char *index, const char *project,
		     const struct fetch_opts *fetch, struct buf *page,
		     struct index_file **v, size_t *n, struct cuenv_err *err);
void pypi_index_files_free(struct index_file *v, size_t n);

/*
 * The files of a project page already fetched (body: PEP 691 JSON, else
 * PEP 503 HTML) into *v and *n, their URLs as the page gives them. Pure,
 * and linear in the page's length, whatever it holds.
 */
void pypi_index_parse(const struct buf *body, struct index_file **v, size_t *n);

/*
 * NVIDIA's wheel project for a redist component of a CUDA major version
 * ("nvidia-cuda-runtime-cu12" for cuda_cudart and 12), or NULL when it
 * has none. A heap string.
 */
char *pypi_wheel_project(const char *comp, unsigned major, enum kit_kind k);

/*
 * How a wheel's version stands to the catalogue's version of its
 * component: 0 when it is that version, N + 1 for its post-release N
 * (NVIDIA republishes a wheel as "12.4.127.post1" with the same files
 * for packaging fixes: it is the release the catalogue names), -1 for
 * any other version. Pure.
 */
long pypi_release_post(const char *wheel_version, const char *version);

/*
 * Is the wheel file name for platform (catalog_platforms)? Its name must
 * end in ".whl" and name linux and the platform's processor: x86_64 for
 * linux-x86_64, aarch64 for linux-sbsa (NVIDIA's manylinux aarch64
 * wheels are its server builds), ppc64le. No wheel is for linux-aarch64
 * (a Jetson: L4T's CUDA is not on the index) nor for windows-x86_64.
 * Pure.
 */
int pypi_wheel_fits(const char *name, const char *platform);

/*
 * Is file (a wheel's file name) a distribution of project? Both are
 * compared in PEP 503's normal form (case folded, each run of '-', '_'
 * and '.' one separator): nvidia_cuda_runtime_cu12-12.4.127-... is of
 * nvidia-cuda-runtime-cu12, evil_project-... is not. Pure.
 */
int pypi_wheel_is_of(const char *file, const char *project);
/*
 * Is url on the package index at index: the same scheme, host and port
 * (https://pypi.org's files: https://files.pythonhosted.org)? Pure.
 */
int pypi_url_on_index(const char *url, const char *index);
/*
 * The trust rule for a wheel pinned outside the index's own page (a
 * lockfile's, a mirror's): its file name (url's last segment) is a wheel
 * of project (pypi_wheel_is_of) at version or a post-release of it
 * (pypi_release_post), for platform (pypi_wheel_fits), and url is on
 * index (pypi_url_on_index; NULL: not checked, a mirror's copy). Returns
 * CUENV_OK, or CUENV_E_INTEGRITY saying which does not hold. Pure.
 */
int pypi_pin_check(const char *url, const char *index, const char *project,
		   const char *version, const char *platform,
		   struct cuenv_err *err);
/* Does the index carry NVIDIA's wheels for platform ("linux-sbsa": yes;
 * "linux-aarch64", Jetson, and "windows-x86_64": no)? */
bool pypi_platform_has_wheels(const char *platform);

/*
 * Find the wheel of project at version on the index that fits platform
 * (pypi_wheel_fits; NULL: this machine's) and describe it as the part of
 * comp in *out (heap strings; the index's sha256 is the one checked):
 * version itself, or its newest post-release (pypi_release_post) when
 * the index has one. Returns CUENV_OK, or CUENV_E_FETCH naming the
 * versions found. Network I/O.
 */
int pypi_wheel_part(const char *index, const char *project, const char *comp,
		    const char *version, const char *platform,
		    const struct fetch_opts *fetch, struct part *out,
		    struct cuenv_err *err);

#endif
