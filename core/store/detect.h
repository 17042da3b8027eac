/*
 * detect.h: recognise a CUDA toolkit or cuDNN build that is already on the
 * machine, from its files alone (nothing is run or loaded).
 *
 * Layouts understood: a classic toolkit prefix (/usr/local/cuda-11.8 with
 * bin/ lib64/ include/ extras/CUPTI/ targets/<arch>/), NVIDIA's redist
 * archives unpacked (bin/ lib/ include/), the merged wheel layout (lib/,
 * include/, dist-info/), a site-packages/nvidia folder of NVIDIA's wheels
 * (cuda_runtime/ cuda_cupti/ cudnn/ cu13/ ...), and cuDNN tarballs.
 *
 * Versions come, most precise first, from version.json, version.txt, wheel
 * dist-info folders, the version macros in the headers, and the file names
 * of the shared libraries. cuDNN's CUDA major comes from the wheel's name
 * (nvidia-cudnn-cu12), the CUDA libraries its own libraries load, or the
 * folder name NVIDIA's archives carry (..._cuda12-archive).
 */
#ifndef CUENV_DETECT_H
#define CUENV_DETECT_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/err.h"
#include "store/store.h"

/*
 * Examine the toolkit at path and fill cuda (a registered install whose
 * prefix is path's real path). When a cuDNN lives inside it too, fill
 * cudnn as well and set *has_cudnn. version, when not NULL, overrides the
 * detected version. Returns CUENV_OK, CUENV_E_STORE (unreadable path; a
 * version.json there that cannot be read, such as a FIFO or one over
 * 1 MiB, unless version is given: then it is a warning in cuda's) or
 * CUENV_E_MANIFEST (not a toolkit, or no version found).
 */
int detect_cuda(const char *path, const char *version,
		struct store_version *cuda, struct store_version *cudnn,
		bool *has_cudnn, struct cuenv_err *err);

/*
 * Examine the cuDNN at path. cuda_major, when not 0, says which CUDA major
 * it was built for and wins over detection. Same codes as detect_cuda.
 */
int detect_cudnn(const char *path, const char *version, unsigned cuda_major,
		 struct store_version *cudnn, struct cuenv_err *err);

/*
 * Fill in's bin, lib, include and cupti folders from what is under prefix
 * (the layouts listed above), each folder once even when reached twice
 * through links.
 */
void detect_layout(const char *prefix, struct store_version *in);

/*
 * The soname NVIDIA gives library lib ("cudart", "cupti", "cublas",
 * "cublasLt", "cudnn") in release version (a CUDA version; for cudnn a
 * cuDNN version): libcudart.so.12 for 12.x, libcudart.so.11.0 for every
 * 11.x, libcudart.so.10.2 before; libcupti.so.11.2 before 12;
 * libcudnn.so.<major>. A heap string, or NULL for an unknown lib or a
 * bad version.
 */
char *detect_soname(const char *lib, const char *version);

/*
 * The CUDA major named by a CUDA library soname inside the file at path
 * ("libcublasLt.so.12", "libcudart.so.11.0", "libnvrtc.so.13"), or 0.
 */
unsigned detect_cuda_major_in_file(const char *path);

/*
 * The CUDA major cuDNN's own libraries name (libcublasLt.so.N inside
 * them), looking into the smallest first: at most most of them, none
 * bigger than max_size (0: any size). The file that names it goes into
 * file, when not NULL. 0 when none does.
 */
unsigned detect_cudnn_libs_major(const struct store_version *cudnn, size_t most,
				 off_t max_size, struct buf *file);

/* ---- how activation exposes an install ---------------------------------- */

/*
 * The folders the dynamic loader searches without being told, for this
 * machine's architecture (/lib, /usr/lib, /lib64, /usr/lib64 and the
 * multiarch /lib/<triplet>, /usr/lib/<triplet>), appended to out as real
 * paths (those that exist).
 */
void detect_loader_defaults(struct strv *out);

/*
 * Decide how activation exposes in (a registered install), given
 * loader_dirs: the real paths of every folder the loader searches already
 * (detect_loader_defaults(), ld.so.conf's, the folders of ld.so.cache's
 * entries). Fills:
 *  - in->searched: its lib folders among loader_dirs that are the
 *    loader's own (/usr/lib/x86_64-linux-gnu) or belong to a system
 *    toolkit (prefix /usr: Debian's nvidia-cuda-toolkit), which activation
 *    never puts on LD_LIBRARY_PATH (they would shadow the whole system);
 *    for a system toolkit its bin and include folders too (/usr/bin is on
 *    PATH already). Another toolkit's folder that ld.so.cache lists stays
 *    on LD_LIBRARY_PATH: off it, the cache may resolve its sonames to
 *    another copy listed first;
 *  - in->linked and in->links: a lib folder of a conda prefix (it has
 *    conda-meta/) or one holding the C++ runtime (libstdc++.so.N) is shared
 *    with other software: activation uses a folder of links to its CUDA
 *    libraries (nvlib.h) instead, made in the store at registration.
 * Reads the folders; writes nothing.
 */
void detect_activation(struct store_version *in,
		       const struct strv *loader_dirs);

/* ---- NVIDIA's wheels of several CUDA majors in one site-packages ---- */

/*
 * pip installs nvidia-cuda-cupti-cu11 and -cu12 into the same
 * nvidia/cuda_cupti/lib: the files both RECORDs list (libnvperf_host.so,
 * the headers) are overwritten by whichever came last, beside the other's
 * libcupti.so.N.
 */
struct wheel_mix {
	unsigned long majors; /* bit M for each nvidia_*_cuM dist-info */
	struct strv wheels;   /* their dist-info folder names, sorted */
	struct strv shared;   /* paths two RECORDs claim ("nvidia/cuda_cupti/
				  lib/libnvperf_host.so"), shared libraries
				  only, in RECORD order */
	struct strv owners;   /* for each of shared: "A and B" (dist-info
				  names), the one whose size the file has
				  now first, when known */
};

void wheel_mix_release(struct wheel_mix *m);

/*
 * Read the RECORD of every NVIDIA dist-info in site (a site-packages
 * folder) into m (zeroed by the caller). Returns true when the wheels
 * there are built for more than one CUDA major. Reads files only.
 */
bool detect_wheel_mix(const char *site, struct wheel_mix *m);

/* The number of CUDA majors in mask (nvlib_majors(), wheel_mix.majors). */
unsigned detect_count_majors(unsigned long mask);

/*
 * The toolkit folders the environment names, for `cuenv add --discover`:
 * the values of CUDA_PATH_V<major>_<minor> (NVIDIA's Windows installer
 * sets one per toolkit, CUDA_PATH_V11_2), in version order, then
 * CUDA_PATH and CUDA_HOME; each folder once, empty values skipped. The
 * variable each came from goes into names (same index). Pure.
 */
void detect_env_candidates(char *const *envp, struct strv *dirs,
			   struct strv *names);

#endif
