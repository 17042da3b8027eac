/*
 * nvlib.h: the one table of NVIDIA's libraries.
 *
 * Every question of the form "is this file a CUDA library, which one, and
 * which release ships it" is answered here and nowhere else: doctor's
 * scan of the loader path, `exec --isolate`, detect's soname rules, the
 * ELF reader behind `cuenv needs`, and check's expectations all consult
 * the same array. Each entry says:
 *
 *  - its stem, the <stem> in lib<stem>.so ("cudart", "cublasLt"); a few
 *    are families ("cudnn" covers libcudnn_ops, "npp" libnppc, libnppif..);
 *  - the soname each CUDA release gives it, as rules by release (cuFFT is
 *    libcufft.so.10 from 10.1 to 11.8, .11 in 12, .12 in 13); cuDNN and
 *    NCCL follow their own versions (libcudnn.so.<cuDNN major>);
 *  - its Windows DLL name (cudart64_110.dll, nvrtc64_112_0.dll,
 *    cudnn64_8.dll; CUPTI's are year-named: cupti64_2022.3.0.dll);
 *  - the component that ships it (NVIDIA's redistrib key and version.json
 *    key, "cuda_cudart", "libcublas", "cudnn"), the pip wheel's project
 *    name without its -cuNN suffix and its folder in site-packages/nvidia
 *    ("cuda_runtime"), and where its version is written (a header macro).
 *
 * CUPTI's files are named after years (libcupti.so.2024.3.2) while its
 * soname follows CUDA (libcupti.so.12): a year never names a release, so
 * lookups by file name report no major for them.
 *
 * The table is data (from NVIDIA's release contents, redistrib manifests
 * and wheels); nothing here touches the filesystem.
 *
 * For `cuenv needs`: nvlib_match_file() turns any name a binary may carry
 * ("libcudart.so.11.0", "libcudnn_ops.so.9", "cudart64_110.dll" through
 * nvlib_match_dll()) into an entry and the version text after ".so.";
 * nvlib_majors() then gives every CUDA major whose releases provide that
 * soname (cuFFT's .10 is both 10 and 11), and nvlib_soname_version() the
 * soname a given release has, to compare with what is installed.
 */
#ifndef CUENV_NVLIB_H
#define CUENV_NVLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

enum nvlib_id {
	NVLIB_CUDART,
	NVLIB_CUPTI,
	NVLIB_CUBLAS,
	NVLIB_CUBLASLT,
	NVLIB_CUFFT,
	NVLIB_CURAND,
	NVLIB_CUSOLVER,
	NVLIB_CUSPARSE,
	NVLIB_NVRTC,
	NVLIB_NVJITLINK,
	NVLIB_CUDNN, /* not part of the toolkit: follows cuDNN's version */
	NVLIB_NCCL,  /* neither: follows NCCL's; cuenv does not install it */
	NVLIB_CUFFTW,
	NVLIB_CUSOLVERMG,
	NVLIB_NVBLAS,
	NVLIB_NPP,
	NVLIB_NVJPEG,
	NVLIB_NVTOOLSEXT,
	NVLIB_NVPERF_HOST,
	NVLIB_NVPERF_TARGET,
	NVLIB_CUSPARSELT, /* its own version: libcusparseLt.so.0 (0.6, 0.7) */
	NVLIB_CUFILE,	  /* GPUDirect Storage: libcufile.so.0 since 11.4 */
	NVLIB_NVRTC_BUILTINS, /* libnvrtc-builtins.so.11.1: NVRTC loads the
				 one of its own release */
	/* outside the toolkit, each its own version, on the index as wheels
	 * (the build sweep found them dropped): cupy links cuTENSOR,
	 * onnxruntime's and torch-tensorrt's providers TensorRT, libcudf
	 * nvCOMP, torch >= 2.9 NVSHMEM */
	NVLIB_CUTENSOR,	    /* libcutensor.so.2, libcutensorMg.so.2 */
	NVLIB_NVINFER,	    /* TensorRT: libnvinfer.so.10, _plugin, _lean */
	NVLIB_NVONNXPARSER, /* TensorRT's ONNX parser: libnvonnxparser.so.10 */
	NVLIB_NVCOMP,	    /* libnvcomp.so.5 */
	NVLIB_NVSHMEM,	    /* libnvshmem_host.so.3 */
	NVLIB_COUNT
};

/* struct nvlib.flags */
#define NVLIB_FAMILY 0x1      /* stem plus "_name" or letters: libcudnn_ops */
#define NVLIB_OWN_VERSION 0x2 /* soname follows its own version (cuDNN) */
#define NVLIB_YEAR_FILES 0x4  /* file names carry years (CUPTI) */
#define NVLIB_FRAMEWORK                                                        \
	0x8 /* loaded by name by the frameworks: what                          \
	       `needs` reads in binaries */
#define NVLIB_MATH                                                             \
	0x10 /* a math library frameworks load beside the                      \
		runtime and cuBLAS (TensorFlow at start) */
#define NVLIB_ZERO_MAJOR 0x20 /* its own versions start at 0 (cuSPARSELt) */

/* How a soname's version turns into the DLL's suffix. */
enum nvlib_dll_style {
	NVLIB_DLL_NONE,	   /* no Windows DLL known */
	NVLIB_DLL_DOTLESS, /* "11.0" -> cudart64_110.dll, "12" -> _12 */
	NVLIB_DLL_NVRTC,   /* "11.2" -> nvrtc64_112_0.dll, "12" -> _120_0 */
	NVLIB_DLL_YEAR,	   /* cupti64_2022.3.0.dll: no release in it */
};

/* One soname rule: from release since_major.since_minor on (until the
 * next rule), the soname's version is the release's "M.m", its "M", the
 * fixed text, or there is no such library. */
enum nvlib_how { NVLIB_NONE, NVLIB_MINOR, NVLIB_MAJOR, NVLIB_FIXED };

struct nvlib_rule {
	unsigned since_major, since_minor;
	enum nvlib_how how;
	const char *fixed;
};

struct nvlib {
	enum nvlib_id id;
	const char *stem;      /* "cudart": lib<stem>.so */
	const char *prefix;    /* "libcudart": lib<stem>, how the names of
				  its files (a family's too) start */
	const char *so;	       /* "libcudart.so": lib<stem>.so, its link
				  name and the start of its sonames */
	unsigned flags;	       /* NVLIB_* above */
	const char *component; /* "cuda_cudart": redistrib and version.json */
	const char *wheel;     /* "nvidia-cuda-runtime" (then -cuNN) */
	const char *wheel_dir; /* its folder in site-packages/nvidia */
	const char *dll;       /* "cudart64_": the DLL name before its suffix */
	enum nvlib_dll_style dll_style;
	const char *version_header; /* where its version is written, or NULL */
	const char *version_macro;
	const struct nvlib_rule *rules; /* ends with since_major 0 after the
					   first; NULL for NVLIB_OWN_VERSION */
	const char *product; /* NVLIB_OWN_VERSION: whose versions its soname
				follows ("cuDNN", "TensorRT"); NULL for the
				toolkit's */
};

/* Whose releases a library's sonames follow: CUDA's (the toolkit's
 * libraries), cuDNN's, or another product's (NCCL, cuSPARSELt, TensorRT:
 * their own versions, which cuenv neither installs nor selects). */
enum nvlib_kit { NVLIB_KIT_CUDA, NVLIB_KIT_CUDNN, NVLIB_KIT_OTHER };

enum nvlib_kit nvlib_kit(const struct nvlib *lib);

/* The name of that product, as users know it: "CUDA", "cuDNN", "NCCL". */
const char *nvlib_product(const struct nvlib *lib);

/* The entry for id; BUG() on an id out of range. */
const struct nvlib *nvlib_get(enum nvlib_id id);

/* The entry whose stem is stem ("cudart", "cublasLt"), or NULL. */
const struct nvlib *nvlib_by_stem(const char *stem);

/*
 * Which library is the file or soname name? Accepts "libcudart.so",
 * "libcudart.so.12", "libcudart.so.11.8.89", "libcudnn_ops.so.9",
 * "libnppif.so.12", "libcupti.so.2024.3.2". On a match *version (when not
 * NULL) points into name after ".so." ("" for a bare ".so"). NULL for
 * anything else: static archives, stubs' libcuda (the driver's), names
 * with trailing junk.
 */
const struct nvlib *nvlib_match_file(const char *name, const char **version);

/*
 * Is name lib's soname or a file named after one, lib->so then a dot
 * ("libcudnn.so.9", "libcudnn.so.9.1.0" for cuDNN; not libcudnn_ops)?
 * The text after that dot ("9", "9.1.0"), or NULL.
 */
const char *nvlib_so_version(const struct nvlib *lib, const char *name);

/* Is name a shared library in the table (nvlib_match_file() != NULL)? */
bool nvlib_is_cuda_file(const char *name);

/*
 * The version in the soname that CUDA release cuda ("11.8", "12.4.1")
 * gives lib, into out (reset first): "11.0" for cudart in every 11.x,
 * "12" for 12.x, "10" for cuFFT from 10.1 to 11.8. For NVLIB_OWN_VERSION
 * entries cuda is the library's own version (cuDNN "9.1.0" -> "9"). False
 * when that release has no such library or cuda is not a version.
 */
bool nvlib_soname_version(const struct nvlib *lib, const char *cuda,
			  struct buf *out);

/* The whole soname ("libcudart.so.11.0"), a heap string, or NULL. */
char *nvlib_soname(const struct nvlib *lib, const char *cuda);

/*
 * The CUDA majors whose releases give lib the soname version sover
 * ("10" for cuFFT: 10 and 11), as a bit mask (bit M for major M). A full
 * file version ("11.8.89" for cudart, "12.0.0.61" for cuFFT) counts when
 * it starts with a release's soname version. For NVLIB_OWN_VERSION
 * entries the bit is the library's own major. 0 when none (a CUPTI year).
 */
unsigned long nvlib_majors(const struct nvlib *lib, const char *sover);

/* The one CUDA major in nvlib_majors(), or 0 when none or several. */
unsigned nvlib_major(const struct nvlib *lib, const char *sover);

/*
 * The Windows DLL name release cuda gives lib ("cudart64_110.dll" for
 * 11.8, "cudnn64_8.dll" for cuDNN 8.9), into out. False where none is
 * known, and for CUPTI (named after its own year version).
 */
bool nvlib_dll_name(const struct nvlib *lib, const char *cuda, struct buf *out);

/*
 * Which library is the Windows DLL name (case-insensitive, "cudart64_110.dll",
 * "cupti64_2022.3.0.dll", "cudnn64_8.dll")? *majors gets the CUDA majors
 * that ship it (own major for cuDNN; 0 for CUPTI's years). NULL if none.
 */
const struct nvlib *nvlib_match_dll(const char *name, unsigned long *majors);

/*
 * The CUDA releases whose toolkit gives lib the soname version sover, in
 * words for people, into out (reset first): "11.2" (libcupti.so.11.2),
 * "11.x" (libcudart.so.11.0: every 11 release), "10.1-11.8" (cuFFT's
 * .10), "12.x, 13.x". For NVLIB_OWN_VERSION entries "8.x" (cuDNN 8).
 * False, out empty, when no release gives it (libcudart.so.99).
 */
bool nvlib_describe_releases(const struct nvlib *lib, const char *sover,
			     struct buf *out);

/*
 * The Linux soname of the library and release the Windows DLL name stands
 * for, into out (reset first): "cudart64_110.dll" -> "libcudart.so.11.0",
 * "nvrtc64_112_0.dll" -> "libnvrtc.so.11.2", "cudnn64_8.dll" ->
 * "libcudnn.so.8", and a family member "cudnn_ops64_9.dll" ->
 * "libcudnn_ops.so.9". False for names that are none of these and for
 * CUPTI's year-named DLLs, which name no release.
 */
bool nvlib_dll_soname(const char *name, struct buf *out);

/*
 * The CUDA release ("11.8", "13.0") a CUPTI_API_VERSION value from
 * cupti_version.h stands for, into out: 18 is 11.8, 22 is 12.4, and from
 * 13.0 on the value is xxyyzz (130001 is 13.0). False for an unknown value.
 */
bool nvlib_cupti_api_release(long api, struct buf *out);

/* ---- lists of NVIDIA's names that are not one library ------------------- */

/*
 * The driver's user-space library, which is not in the table (the driver
 * is the system's: cuenv neither installs nor selects it): its name on
 * Linux (the soname is NVLIB_DRIVER_SO ".1") and its DLL on Windows. The
 * platform layer, below core/nvidia, names it again to load it
 * (plat_sys_cuda_driver).
 */
#define NVLIB_DRIVER_SO "libcuda.so"
#define NVLIB_DRIVER_DLL "nvcuda.dll"
/* Its stem as the table's are written (libcudart's "cudart"): reports
 * name the driver's library by it. */
#define NVLIB_DRIVER_STEM "cuda"

/*
 * The components of a CUDA release `cuenv install` takes (NULL-ended
 * redistrib names): by default what a framework and a build need
 * (runtime, CUPTI, compiler, headers, math libraries); with --runtime the
 * shared libraries an application loads. Components a release lacks are
 * skipped.
 */
extern const char *const nvlib_cuda_default_components[];

/*
 * Does `cuenv install` put lib in a selection: cuDNN, or a library of a
 * default component? NCCL, cuFile, cuSPARSELt, nvJPEG, NPP: no.
 */
bool nvlib_cuenv_installs(const struct nvlib *lib);
extern const char *const nvlib_cuda_runtime_components[];

/*
 * The sub-libraries (stems, NULL-ended) cuDNN's front library loads by
 * itself: cuDNN 9's graph library at the first call and the rest later, on
 * use; cuDNN 8's when a model runs.
 */
extern const char *const nvlib_cudnn9_first[];
extern const char *const nvlib_cudnn9_later[];
extern const char *const nvlib_cudnn8_later[];

#endif
