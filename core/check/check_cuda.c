/*
 * check_cuda.c: the layers of `cuenv check`, run inside cuenv-probe. This
 * is the only file that loads CUDA: every library is loaded (plat_dl.h:
 * dlopen, LoadLibraryExW on Windows) by the name an application would
 * use, so the loader picks the file it would pick for the application,
 * and that file is what the report names (plat_dl_path). Types and values
 * come from cuda_abi.h; no CUDA header is needed to build.
 *
 * Steps run in this order, which is not quite the report's: CUPTI is
 * loaded and its activity tracing enabled right after the driver, before
 * the runtime creates its context and the kernel is launched (the order
 * NVIDIA's CUPTI samples use), and its records are collected last.
 */
#include "check/check.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvidia/cuda_abi.h"
#include "artifact/elf.h"
#include "nvidia/nvlib.h"
#include "plat/plat_dl.h"
#include "plat/plat_fs.h"
#include "plat/plat_sys.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- the test kernel ----------------------------------------------------- */

/*
 * c[i] = a[i] + b[i] for i < n. PTX ISA 6.0 for sm_50, so that every
 * driver since CUDA 9.0 can JIT-compile it for whatever GPU it runs
 * (checked with ptxas of CUDA 13.0 for sm_75 to sm_120).
 */
/* clang-format off */
const char check_vadd_ptx[] =
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	"\n"
	".visible .entry cuenv_vadd(\n"
	"\t.param .u64 cuenv_vadd_a,\n"
	"\t.param .u64 cuenv_vadd_b,\n"
	"\t.param .u64 cuenv_vadd_c,\n"
	"\t.param .u32 cuenv_vadd_n\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<6>;\n"
	"\t.reg .f32 %f<4>;\n"
	"\t.reg .b64 %rd<11>;\n"
	"\n"
	"\tld.param.u64 %rd1, [cuenv_vadd_a];\n"
	"\tld.param.u64 %rd2, [cuenv_vadd_b];\n"
	"\tld.param.u64 %rd3, [cuenv_vadd_c];\n"
	"\tld.param.u32 %r1, [cuenv_vadd_n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r5, %r1;\n"
	"\t@%p1 bra DONE;\n"
	"\tcvta.to.global.u64 %rd4, %rd1;\n"
	"\tcvta.to.global.u64 %rd5, %rd2;\n"
	"\tcvta.to.global.u64 %rd6, %rd3;\n"
	"\tmul.wide.u32 %rd7, %r5, 4;\n"
	"\tadd.s64 %rd8, %rd4, %rd7;\n"
	"\tadd.s64 %rd9, %rd5, %rd7;\n"
	"\tadd.s64 %rd10, %rd6, %rd7;\n"
	"\tld.global.f32 %f1, [%rd8];\n"
	"\tld.global.f32 %f2, [%rd9];\n"
	"\tadd.rn.f32 %f3, %f1, %f2;\n"
	"\tst.global.f32 [%rd10], %f3;\n"
	"DONE:\n"
	"\tret;\n"
	"}\n";
/* clang-format on */

/* The number of elements of array a. */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define VADD_NAME "cuenv_vadd"
#define VADD_N 4096
#define VADD_BLOCK 256

/* ---- the probe's state --------------------------------------------------- */

struct driver_fns {
	cuenv_cuInit_fn cuInit;
	cuenv_cuDriverGetVersion_fn cuDriverGetVersion;
	cuenv_cuGetErrorName_fn cuGetErrorName;
	cuenv_cuDeviceGet_fn cuDeviceGet;
	cuenv_cuDeviceGetName_fn cuDeviceGetName;
	cuenv_cuDevicePrimaryCtxRetain_fn cuDevicePrimaryCtxRetain;
	cuenv_cuDevicePrimaryCtxRelease_fn cuDevicePrimaryCtxRelease;
	cuenv_cuCtxSetCurrent_fn cuCtxSetCurrent;
	cuenv_cuCtxSynchronize_fn cuCtxSynchronize;
	cuenv_cuModuleLoadData_fn cuModuleLoadData;
	cuenv_cuModuleGetFunction_fn cuModuleGetFunction;
	cuenv_cuModuleUnload_fn cuModuleUnload;
	cuenv_cuMemAlloc_fn cuMemAlloc;
	cuenv_cuMemFree_fn cuMemFree;
	cuenv_cuMemcpyHtoD_fn cuMemcpyHtoD;
	cuenv_cuMemcpyDtoH_fn cuMemcpyDtoH;
	cuenv_cuLaunchKernel_fn cuLaunchKernel;
};

struct runtime_fns {
	cuenv_cudaRuntimeGetVersion_fn cudaRuntimeGetVersion;
	cuenv_cudaGetDeviceCount_fn cudaGetDeviceCount;
	cuenv_cudaDeviceGetAttribute_fn cudaDeviceGetAttribute;
	cuenv_cudaSetDevice_fn cudaSetDevice;
	cuenv_cudaFree_fn cudaFree;
	cuenv_cudaMalloc_fn cudaMalloc;
	cuenv_cudaMemcpy_fn cudaMemcpy;
	cuenv_cudaDeviceSynchronize_fn cudaDeviceSynchronize;
	cuenv_cudaGetErrorName_fn cudaGetErrorName;
};

struct cudnn_fns {
	cuenv_cudnnGetVersion_fn cudnnGetVersion;
	cuenv_cudnnGetCudartVersion_fn cudnnGetCudartVersion;
	cuenv_cudnnGetErrorString_fn cudnnGetErrorString;
	cuenv_cudnnCreate_fn cudnnCreate;
	cuenv_cudnnDestroy_fn cudnnDestroy;
	cuenv_cudnnCreateDesc_fn cudnnCreateTensorDescriptor;
	cuenv_cudnnCreateDesc_fn cudnnCreateFilterDescriptor;
	cuenv_cudnnCreateDesc_fn cudnnCreateConvolutionDescriptor;
	cuenv_cudnnDestroyDesc_fn cudnnDestroyTensorDescriptor;
	cuenv_cudnnDestroyDesc_fn cudnnDestroyFilterDescriptor;
	cuenv_cudnnDestroyDesc_fn cudnnDestroyConvolutionDescriptor;
	cuenv_cudnnSetTensor4dDescriptor_fn cudnnSetTensor4dDescriptor;
	cuenv_cudnnSetFilter4dDescriptor_fn cudnnSetFilter4dDescriptor;
	cuenv_cudnnSetConvolution2dDescriptor_fn cudnnSetConvolution2dDescriptor;
	cuenv_cudnnGetConvolution2dForwardOutputDim_fn
		cudnnGetConvolution2dForwardOutputDim;
	cuenv_cudnnGetConvolutionForwardWorkspaceSize_fn
		cudnnGetConvolutionForwardWorkspaceSize;
	cuenv_cudnnConvolutionForward_fn cudnnConvolutionForward;
};

struct cupti_fns {
	cuenv_cuptiGetVersion_fn cuptiGetVersion;
	cuenv_cuptiGetResultString_fn cuptiGetResultString;
	cuenv_cuptiGetTimestamp_fn cuptiGetTimestamp;
	cuenv_cuptiActivityRegisterCallbacks_fn cuptiActivityRegisterCallbacks;
	cuenv_cuptiActivityEnable_fn cuptiActivityEnable;
	cuenv_cuptiActivityDisable_fn cuptiActivityDisable;
	cuenv_cuptiActivityFlushAll_fn cuptiActivityFlushAll;
	cuenv_cuptiActivityGetNextRecord_fn cuptiActivityGetNextRecord;
};

struct probe {
	const struct check_probe *p;
	struct check_report *r;
	void *h_driver, *h_runtime, *h_cudnn, *h_cupti;
	struct driver_fns cu;
	struct runtime_fns rt;
	struct cudnn_fns dnn;
	struct cupti_fns pti;
	struct buf missing_kernel_fns; /* driver symbols the kernel needs */
	int driver_ok;		       /* the driver layer passed */
	int device_ok;		       /* the runtime's device checks passed */
	int runtime_version;	       /* cudaRuntimeGetVersion, or 0 */
	int launched;		       /* the kernel ran to completion */
	cuenv_CUdevice dev;
	int ctx_retained;
	int tracing;		/* CUPTI activity enabled */
	int cupti_layout_known; /* its kernel records can be read */
	uint64_t t0, t1;	/* CUPTI time around the launch */
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void stage(struct probe *pr, const char *step)
{
	if (pr->p->stage)
		pr->p->stage(pr->p->stage_arg, step);
}

/*
 * The layer fails: lib, the file the loader picked, lacks the symbols in
 * missing; not_what, where given, is what that makes it not ("cuDNN").
 */
static void lacks(struct check_layer *l, const char *lib, const char *not_what,
		  const char *missing)
{
	const char *file = l->file ? l->file : "?";

	if (not_what)
		check_set(l, CHECK_FAIL, "%s (%s) is not %s: it lacks %s", lib,
			  file, not_what, missing);
	else
		check_set(l, CHECK_FAIL, "%s (%s) lacks %s", lib, file,
			  missing);
}

/*
 * Load soname as an application would and record in l what was asked
 * and which file the loader picked. On failure returns NULL with the
 * loader's message in why.
 */
static void *load(struct check_layer *l, const char *soname, struct buf *why)
{
	struct buf file = BUF_INIT;
	void *h;

	check_setstr(&l->soname, soname);
	h = plat_dl_open(soname, why);
	if (h && !plat_dl_path(h, &file) && file.len)
		check_setstr(&l->file, file.data);
	buf_release(&file);
	return h;
}

/* plat_dl_sym, noting a missing name in missing ("a, b"). */
static void *sym(void *h, const char *name, struct buf *missing)
{
	void *f = plat_dl_sym(h, name);

	if (!f && missing) {
		buf_adds(missing, missing->len ? ", " : "");
		buf_adds(missing, name);
	}
	return f;
}

#define SYM(h, fns, name, missing)                                             \
	((fns).name = (cuenv_##name##_fn)sym((h), #name, (missing)))

/* Is folder dir (followed through links) one of ldpath's entries? */
static int dir_on_path(const char *dir, const char *ldpath)
{
	char *want = plat_realpath(dir);
	struct strv parts = STRV_INIT;
	int on = 0;

	if (want && ldpath) {
		strv_split(&parts, ldpath, ':');
		for (size_t i = 0; i < parts.n && !on; i++) {
			char *r =
				*parts.v[i] ? plat_realpath(parts.v[i]) : NULL;

			on = r && !strcmp(r, want);
			free(r);
		}
	}
	free(want);
	strv_release(&parts);
	return on;
}

/*
 * Windows: the loader takes a DLL from the application's folder, System32
 * and the Windows folder before PATH, where cuenv puts the selection; a
 * copy there (or one a program loaded first) is found before it.
 */
static void windows_origin_fix(const char *file, const char *provided,
			       struct buf *fix)
{
	if (provided)
		buf_printf(fix,
			   "remove or rename %s: Windows' loader searches the "
			   "application's folder and System32 before PATH, "
			   "where cuenv puts the selection",
			   file);
}

/*
 * A library the loader took from outside the selection fails its layer
 * (a failure found earlier stays, and this becomes a warning): it is the
 * "incompatible libcupti picked up from another CUDA directory" case.
 */
static void judge_origin(struct probe *pr, struct check_layer *l,
			 const char *fix_install)
{
	char *provided = NULL, *dir = NULL, *slash;
	struct buf msg = BUF_INIT, fix = BUF_INIT;
	int on_path;

	if (!pr->p->own.n || !l->file || !l->soname)
		return;
	if (check_file_is_own(l->file, l->soname, &pr->p->own, &provided)) {
		free(provided);
		return;
	}
	l->foreign = true;
	if (provided) {
		check_detail(l, "expected", "%s", provided);
		buf_printf(&msg,
			   "%s was loaded from %s, not from the selection's %s:"
			   " a foreign copy shadows it",
			   l->soname, l->file, provided);
	} else {
		buf_printf(&msg,
			   "the selection (cuda %s) has no %s, and the loader "
			   "found a foreign copy: %s",
			   pr->p->cuda, l->soname, l->file);
	}
	dir = xstrdup(l->file);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	on_path = slash && dir_on_path(dir, pr->p->ld_library_path);
	if (plat_sys_lib_naming() == PLAT_LIB_DLL)
		windows_origin_fix(l->file, provided, &fix);
	else if (on_path)
		buf_printf(&fix,
			   "take %s off LD_LIBRARY_PATH, or let cuenv strip "
			   "foreign CUDA folders: cuenv local %s --isolate",
			   dir, pr->p->cuda);
	else if (provided)
		buf_printf(&fix,
			   "%s comes from LD_PRELOAD, a library's RUNPATH or "
			   "the loader cache (ldconfig -p): remove it there",
			   l->file);
	if (!provided)
		buf_printf(&fix, "%s%s",
			   fix.len ? "; and give the selection "
				     "its own: "
				   : "",
			   fix_install);
	if (l->status == CHECK_FAIL) {
		check_warn(l, "%s", msg.data);
	} else {
		check_set(l, CHECK_FAIL, "%s", msg.data);
		check_fix(l, "%s", fix.data);
	}
	free(provided);
	free(dir);
	buf_release(&msg);
	buf_release(&fix);
}

/* ---- driver -------------------------------------------------------------- */

/* Names of the CUresults cuenv declares, for drivers (and NVIDIA's stub)
 * whose cuGetErrorName does not answer. */
/*
 * An error code as the report shows it, appended to out: "NAME (code)"
 * where the library names it, else "<unnamed> code".
 */
static const char *error_text(struct buf *out, const char *name, int code,
			      const char *unnamed)
{
	if (name)
		buf_printf(out, "%s (%d)", name, code);
	else
		buf_printf(out, "%s %d", unnamed, code);
	return out->data;
}

static const char *cu_error_name(cuenv_CUresult rc)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
		{ CUENV_CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE" },
		{ CUENV_CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY" },
		{ CUENV_CUDA_ERROR_NOT_INITIALIZED,
		  "CUDA_ERROR_NOT_INITIALIZED" },
		{ CUENV_CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY" },
		{ CUENV_CUDA_ERROR_DEVICE_UNAVAILABLE,
		  "CUDA_ERROR_DEVICE_UNAVAILABLE" },
		{ CUENV_CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE" },
		{ CUENV_CUDA_ERROR_INVALID_DEVICE,
		  "CUDA_ERROR_INVALID_DEVICE" },
		{ CUENV_CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE" },
		{ CUENV_CUDA_ERROR_NO_BINARY_FOR_GPU,
		  "CUDA_ERROR_NO_BINARY_FOR_GPU" },
		{ CUENV_CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX" },
		{ CUENV_CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
		  "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" },
		{ CUENV_CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND" },
		{ CUENV_CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED" },
		{ CUENV_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
		  "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH" },
		{ CUENV_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
		  "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE" },
		{ CUENV_CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (names[i].code == rc)
			return names[i].name;
	return NULL;
}

static void cu_error(struct probe *pr, cuenv_CUresult rc, struct buf *out)
{
	const char *name = NULL;

	if (pr->cu.cuGetErrorName &&
	    pr->cu.cuGetErrorName(rc, &name) != CUENV_CUDA_SUCCESS)
		name = NULL;
	if (!name)
		name = cu_error_name(rc);
	error_text(out, name, (int)rc, "CUDA driver error");
}

static void driver_install_fix(struct probe *pr, struct check_layer *l)
{
	if (pr->p->driver_need)
		check_fix(l,
			  "install an NVIDIA driver >= %s (the minimum for "
			  "CUDA %s), then check that nvidia-smi works",
			  pr->p->driver_need, pr->p->cuda);
	else
		check_fix(l,
			  "install an NVIDIA driver for CUDA %s, then check "
			  "that nvidia-smi works",
			  pr->p->cuda);
}

static void driver_symbols(struct probe *pr, struct buf *missing)
{
	void *h = pr->h_driver;
	struct buf *mk = &pr->missing_kernel_fns;

	SYM(h, pr->cu, cuInit, missing);
	SYM(h, pr->cu, cuDriverGetVersion, missing);
	SYM(h, pr->cu, cuGetErrorName, NULL);
	SYM(h, pr->cu, cuDeviceGet, mk);
	SYM(h, pr->cu, cuDeviceGetName, mk);
	SYM(h, pr->cu, cuDevicePrimaryCtxRetain, mk);
	SYM(h, pr->cu, cuCtxSetCurrent, mk);
	SYM(h, pr->cu, cuCtxSynchronize, mk);
	SYM(h, pr->cu, cuModuleLoadData, mk);
	SYM(h, pr->cu, cuModuleGetFunction, mk);
	SYM(h, pr->cu, cuModuleUnload, mk);
	SYM(h, pr->cu, cuLaunchKernel, mk);
	/* cuda.h maps these names to their _v2 symbols */
	pr->cu.cuDevicePrimaryCtxRelease = (cuenv_cuDevicePrimaryCtxRelease_fn)
		plat_dl_sym(h, "cuDevicePrimaryCtxRelease_v2");
	if (!pr->cu.cuDevicePrimaryCtxRelease)
		pr->cu.cuDevicePrimaryCtxRelease =
			(cuenv_cuDevicePrimaryCtxRelease_fn)
				sym(h, "cuDevicePrimaryCtxRelease", mk);
	pr->cu.cuMemAlloc = (cuenv_cuMemAlloc_fn)sym(h, "cuMemAlloc_v2", mk);
	pr->cu.cuMemFree = (cuenv_cuMemFree_fn)sym(h, "cuMemFree_v2", mk);
	pr->cu.cuMemcpyHtoD =
		(cuenv_cuMemcpyHtoD_fn)sym(h, "cuMemcpyHtoD_v2", mk);
	pr->cu.cuMemcpyDtoH =
		(cuenv_cuMemcpyDtoH_fn)sym(h, "cuMemcpyDtoH_v2", mk);
}

/* cuInit's failures that say something precise about the set-up. */
static void driver_init_failed(struct probe *pr, struct check_layer *l,
			       cuenv_CUresult rc, const char *module)
{
	struct buf e = BUF_INIT;
	char *dir = xstrdup(l->file ? l->file : plat_sys_cuda_driver()), *slash;

	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	cu_error(pr, rc, &e);
	switch (rc) {
	case CUENV_CUDA_ERROR_STUB_LIBRARY:
		check_set(l, CHECK_FAIL,
			  "the loader picked NVIDIA's stub libcuda.so.1 (%s), "
			  "which exists only to link against: %s",
			  l->file ? l->file : "?", e.data);
		check_fix(l,
			  "take %s off LD_LIBRARY_PATH (the driver's own "
			  "libcuda.so.1 must come first)",
			  dir);
		break;
	case CUENV_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
		check_set(l, CHECK_FAIL,
			  "libcuda.so.1 (%s) and the kernel module (%s) come "
			  "from different drivers: %s",
			  l->file ? l->file : "?", module ? module : "unknown",
			  e.data);
		check_fix(l, "reboot after a driver update, or take a foreign "
			     "libcuda.so.1 off LD_LIBRARY_PATH");
		break;
	case CUENV_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
		check_set(l, CHECK_FAIL,
			  "libcuda.so.1 (%s) is NVIDIA's forward-compatibility "
			  "package, which this GPU does not support: %s",
			  l->file ? l->file : "?", e.data);
		check_fix(l,
			  "take %s off LD_LIBRARY_PATH and install an NVIDIA"
			  " driver >= %s",
			  dir,
			  pr->p->driver_need ? pr->p->driver_need
					     : "the toolkit's");
		break;
	default:
		check_set(l, CHECK_FAIL, "cuInit failed: %s", e.data);
		check_fix(l, "check that nvidia-smi works; the kernel log "
			     "(dmesg) shows the driver's own errors");
		break;
	}
	free(dir);
	buf_release(&e);
}

static void step_driver(struct probe *pr, struct check_layer *l)
{
	const struct check_probe *p = pr->p;
	struct buf module = BUF_INIT, source = BUF_INIT, why = BUF_INIT,
		   missing = BUF_INIT, cv = BUF_INIT;
	const char *mod = NULL;
	cuenv_CUresult rc;
	int v = 0;

	/* the kernel module first: loading libcuda may load it */
	if (p->driver_module && *p->driver_module) {
		mod = p->driver_module;
		buf_adds(&source, "CUENV_DRIVER_VERSION");
	} else if (check_module_version(p->module_root ? p->module_root : "",
					&module, &source)) {
		mod = module.data;
	}
	if (mod) {
		check_setstr(&l->version, mod);
		check_detail(l, "module", "%s", mod);
		check_detail(l, "module_source", "%s", source.data);
	}
	if (p->driver_need)
		check_detail(l, "required", "%s", p->driver_need);
	if (p->driver_compat)
		check_detail(l, "compat_min", "%s", p->driver_compat);

	pr->h_driver = load(l, p->driver_lib, &why);
	if (!pr->h_driver) {
		if (mod) {
			check_set(l, CHECK_FAIL,
				  "the NVIDIA kernel module %s is loaded, but "
				  "its user-space library libcuda.so.1 cannot "
				  "be: %s",
				  mod, why.data);
			check_fix(l,
				  "install the user-space libraries of "
				  "driver %s (the package that holds "
				  "libcuda.so.1)",
				  mod);
		} else {
			check_set(l, CHECK_FAIL,
				  "no NVIDIA driver: %s cannot be loaded (%s)",
				  p->driver_lib, why.data);
			driver_install_fix(pr, l);
		}
		goto out;
	}
	driver_symbols(pr, &missing);
	if (missing.len) {
		lacks(l, p->driver_lib, "a CUDA driver", missing.data);
		driver_install_fix(pr, l);
		goto out;
	}
	rc = pr->cu.cuInit(0);
	if (rc != CUENV_CUDA_SUCCESS && rc != CUENV_CUDA_ERROR_NO_DEVICE) {
		driver_init_failed(pr, l, rc, mod);
		goto out;
	}
	if (rc == CUENV_CUDA_ERROR_NO_DEVICE)
		check_detail(l, "devices", "0");
	if (pr->cu.cuDriverGetVersion(&v) != CUENV_CUDA_SUCCESS)
		v = 0;
	if (v) {
		check_cuda_version(v, &cv);
		check_detail(l, "cuda", "%s", cv.data);
		if (!l->version)
			check_setstr(&l->version, cv.data);
	}
	check_judge_driver(l, p->cuda, mod, v, p->driver_need,
			   p->driver_compat);
	pr->driver_ok = l->status == CHECK_PASS;
out:
	BUF_RELEASE_EACH(&module, &source, &why, &missing, &cv);
}

/* ---- runtime ------------------------------------------------------------- */

static const char *rt_error(struct probe *pr, int e, struct buf *out)
{
	const char *name =
		pr->rt.cudaGetErrorName ? pr->rt.cudaGetErrorName(e) : NULL;

	buf_reset(out);
	return error_text(out, name, e, "CUDA runtime error");
}

/* The message for a library the loader could not load at all. */
static void load_failed(struct probe *pr, struct check_layer *l,
			const char *soname, const char *why,
			const char *fix_install)
{
	char *provided = NULL;

	check_file_is_own(NULL, soname, &pr->p->own, &provided);
	if (provided) {
		check_set(l, CHECK_FAIL,
			  "could not load dynamic library '%s': the selection's "
			  "%s is there but does not load: %s",
			  soname, provided, why);
		check_fix(l,
			  "%s (a library it needs is missing, or the file "
			  "is damaged)",
			  fix_install);
	} else {
		check_set(l, CHECK_FAIL,
			  "could not load dynamic library '%s': the selection "
			  "(cuda %s) does not provide it (%s)",
			  soname, pr->p->cuda, why);
		check_fix(l, "%s", fix_install);
	}
	free(provided);
}

static void runtime_symbols(struct probe *pr, struct buf *missing)
{
	void *h = pr->h_runtime;

	SYM(h, pr->rt, cudaRuntimeGetVersion, missing);
	SYM(h, pr->rt, cudaGetDeviceCount, missing);
	SYM(h, pr->rt, cudaDeviceGetAttribute, missing);
	SYM(h, pr->rt, cudaSetDevice, missing);
	SYM(h, pr->rt, cudaFree, missing);
	SYM(h, pr->rt, cudaMalloc, missing);
	SYM(h, pr->rt, cudaMemcpy, missing);
	SYM(h, pr->rt, cudaDeviceSynchronize, missing);
	SYM(h, pr->rt, cudaGetErrorName, NULL);
}

/* The device checks; returns with l set. */
static void runtime_devices(struct probe *pr, struct check_layer *l,
			    const char *version)
{
	const struct check_probe *p = pr->p;
	struct buf e = BUF_INIT, vis = BUF_INIT;
	int n = 0, e1, major = 0, minor = 0;
	char name[256] = "";

	if (p->visible_devices)
		buf_printf(&vis, " (CUDA_VISIBLE_DEVICES is '%s')",
			   p->visible_devices);
	e1 = pr->rt.cudaGetDeviceCount(&n);
	if (e1 == CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER) {
		check_set(l, CHECK_FAIL,
			  "the driver is too old for this CUDA runtime (%s): "
			  "%s",
			  version, rt_error(pr, e1, &e));
		check_fix(l, "install an NVIDIA driver >= %s",
			  p->driver_need ? p->driver_need
					 : "the one this CUDA needs");
		goto out;
	}
	if (e1 == CUENV_CUDART_ERROR_NO_DEVICE ||
	    (e1 == CUENV_CUDART_SUCCESS && n <= 0)) {
		check_detail(l, "devices", "0");
		check_set(l, CHECK_FAIL,
			  "no CUDA device: cudaGetDeviceCount "
			  "says %s%s",
			  e1 ? rt_error(pr, e1, &e) : "0 devices", vis.data);
		check_fix(l,
			  "check that nvidia-smi lists a GPU%s; in a "
			  "container, start it with the GPUs passed in "
			  "(docker run --gpus all)",
			  p->visible_devices ? " and CUDA_VISIBLE_DEVICES"
					     : "");
		goto out;
	}
	if (e1) {
		check_set(l, CHECK_FAIL, "cudaGetDeviceCount failed: %s",
			  rt_error(pr, e1, &e));
		check_fix(l, "check that nvidia-smi works; the kernel log "
			     "(dmesg) shows the driver's own errors");
		goto out;
	}
	check_detail(l, "devices", "%d", n);
	if (p->device < 0 || p->device >= n) {
		check_set(l, CHECK_FAIL,
			  "there is no device %d: %d device%s "
			  "visible%s",
			  p->device, n, n == 1 ? " is" : "s are", vis.data);
		if (n == 1)
			check_fix(l, "cuenv check --device 0 (the only one)");
		else
			check_fix(l,
				  "cuenv check --device N, with N from 0 to %d",
				  n - 1);
		goto out;
	}
	pr->rt.cudaDeviceGetAttribute(&major, CUENV_CUDART_ATTR_CC_MAJOR,
				      p->device);
	pr->rt.cudaDeviceGetAttribute(&minor, CUENV_CUDART_ATTR_CC_MINOR,
				      p->device);
	if (pr->cu.cuDeviceGet && pr->cu.cuDeviceGetName &&
	    !pr->cu.cuDeviceGet(&pr->dev, p->device) &&
	    pr->cu.cuDeviceGetName(name, (int)sizeof(name) - 1, pr->dev))
		name[0] = '\0';
	name[sizeof(name) - 1] = '\0';
	check_detail(l, "device", "%d", p->device);
	if (name[0])
		check_detail(l, "name", "%s", name);
	check_detail(l, "compute", "%d.%d", major, minor);
	e1 = pr->rt.cudaSetDevice(p->device);
	if (!e1)
		e1 = pr->rt.cudaFree(NULL); /* creates the primary context */
	if (e1) {
		check_set(l, CHECK_FAIL,
			  "cannot create a context on device %d: %s", p->device,
			  rt_error(pr, e1, &e));
		check_fix(l, "check nvidia-smi: the GPU may be in exclusive-"
			     "process mode and busy, or out of memory");
		goto out;
	}
	check_set(l, CHECK_PASS,
		  "CUDA runtime %s; device %d: %s, compute capability %d.%d "
		  "(%d device%s)",
		  version, p->device, name[0] ? name : "unnamed", major, minor,
		  n, n == 1 ? "" : "s");
	pr->device_ok = 1;
out:
	buf_release(&e);
	buf_release(&vis);
}

/*
 * The release the runtime file says it is, from the file itself: its real
 * name when that carries the release (libcudart.so.11.8.89 is 11.8; the
 * wheel's libcudart.so.11.0 is only the soname), else the install's
 * receipt (the selection). *src says which. 0 when the file's name says
 * another CUDA major than the selection (out: that major), -1 when its
 * DT_SONAME is not the release's (out: that soname): the wrong file.
 */
static int runtime_file_version(const struct probe *pr, const char *file,
				struct buf *out, const char **src)
{
	const struct nvlib *rt = nvlib_get(NVLIB_CUDART);
	char *real = file ? plat_realpath(file) : NULL;
	const char *base = real ? strrchr(real, '/') : NULL, *v = NULL;
	struct buf sov = BUF_INIT;
	unsigned major;
	int ok = 1;

	buf_reset(out);
	base = base ? base + 1 : real;
	if (base && nvlib_match_file(base, &v) == rt && *v) {
		major = nvlib_major(rt, v);
		if (major && major != version_major(pr->p->cuda)) {
			buf_printf(out, "%u", major);
			ok = 0;
		} else if (major &&
			   nvlib_soname_version(rt, pr->p->cuda, &sov) &&
			   strcmp(sov.data, v) && strchr(v, '.')) {
			version_major_minor(v, out);
			*src = "its file name";
		}
	}
	if (ok && !out->len) {
		version_major_minor(pr->p->cuda, out);
		*src = "the install's receipt";
	}
	/* The soname the file carries must be the release's own. */
	if (ok && real && nvlib_soname_version(rt, pr->p->cuda, &sov)) {
		struct elf_info e;
		struct cuenv_err err = CUENV_ERR_INIT;
		char *want = nvlib_soname(rt, pr->p->cuda);

		elf_info_init(&e);
		if (!elf_read_file(real, &e, &err) && e.soname && want &&
		    strcmp(e.soname, want)) {
			buf_reset(out);
			buf_adds(out, e.soname);
			ok = -1;
		}
		elf_info_release(&e);
		err_release(&err);
		free(want);
	}
	free(real);
	buf_release(&sov);
	return ok;
}

/*
 * cudaRuntimeGetVersion failed. CUDA 11's runtime answers
 * cudaErrorInsufficientDriver (35) when no driver can be loaded, which
 * says nothing about the runtime: with the driver layer failed the layer
 * is skipped, its version read from the file or the receipt. Only a
 * runtime that fails with a working driver is blamed.
 */
static void runtime_without_version(struct probe *pr, struct check_layer *l,
				    int e1, const char *fix)
{
	const struct check_probe *p = pr->p;
	struct buf e = BUF_INIT, ver = BUF_INIT;
	const char *src = NULL;
	int ok;

	if (!pr->driver_ok) {
		ok = runtime_file_version(pr, l->file, &ver, &src);
		if (ok <= 0) { /* another release's name, or soname */
			check_set(l, CHECK_FAIL,
				  ok ? "%s has the soname %s, not CUDA %s's: "
				       "the file is damaged or from another "
				       "release"
				     : "%s is CUDA %s by its name, not the "
				       "selected CUDA %s",
				  l->file, ver.data, p->cuda);
			check_fix(l, "%s", fix);
			goto out;
		}
		check_setstr(&l->version, ver.data);
		check_set(l, CHECK_SKIP,
			  "skipped: no driver; CUDA runtime %s (read from "
			  "%s) loaded, and it tells its version only through "
			  "a driver (cudaRuntimeGetVersion: %s)",
			  ver.data, src, rt_error(pr, e1, &e));
		goto out;
	}
	if (e1 == CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER) {
		check_set(l, CHECK_FAIL,
			  "the driver is too old for this CUDA runtime: "
			  "cudaRuntimeGetVersion says %s",
			  rt_error(pr, e1, &e));
		check_fix(l, "install an NVIDIA driver >= %s",
			  p->driver_need ? p->driver_need
					 : "the one this CUDA needs");
		goto out;
	}
	check_set(l, CHECK_FAIL, "cudaRuntimeGetVersion gave no version%s%s",
		  e1 ? ": " : "", e1 ? rt_error(pr, e1, &e) : "");
	check_fix(l, "%s", fix);
out:
	buf_release(&e);
	buf_release(&ver);
}

static void step_runtime(struct probe *pr, struct check_layer *l)
{
	const struct check_probe *p = pr->p;
	struct buf why = BUF_INIT, missing = BUF_INIT, ver = BUF_INIT,
		   mm = BUF_INIT, fix = BUF_INIT;
	int v = 0, e1;

	version_major_minor(p->cuda, &mm);
	buf_printf(&fix, "install the toolkit again: cuenv install %s",
		   p->cuda);
	pr->h_runtime = load(l, p->runtime_lib, &why);
	if (!pr->h_runtime) {
		load_failed(pr, l, p->runtime_lib, why.data, fix.data);
		goto out;
	}
	runtime_symbols(pr, &missing);
	if (missing.len) {
		lacks(l, p->runtime_lib, "a CUDA runtime", missing.data);
		check_fix(l, "%s", fix.data);
		goto out;
	}
	e1 = pr->rt.cudaRuntimeGetVersion(&v);
	if (e1 || v <= 0) {
		runtime_without_version(pr, l, e1, fix.data);
		goto origin;
	}
	pr->runtime_version = v;
	check_cuda_version(v, &ver);
	check_setstr(&l->version, ver.data);
	if ((unsigned long)(v / 1000) != version_major(p->cuda)) {
		check_set(l, CHECK_FAIL,
			  "%s is CUDA %s, not the selected CUDA %s", l->file,
			  ver.data, p->cuda);
		check_fix(l, "%s", fix.data);
	} else if (strcmp(ver.data, mm.data)) {
		check_warn(l, "%s says CUDA %s, the selection is %s",
			   l->file ? l->file : p->runtime_lib, ver.data,
			   p->cuda);
	}
	if (l->status == CHECK_FAIL)
		goto origin;
	if (!pr->driver_ok) {
		check_set(l, CHECK_SKIP,
			  "CUDA runtime %s loaded; its device checks need the "
			  "driver layer, which failed",
			  ver.data);
		goto origin;
	}
	runtime_devices(pr, l, ver.data);
origin:
	judge_origin(pr, l, fix.data);
out:
	BUF_RELEASE_EACH(&why, &missing, &ver, &mm, &fix);
}

/* ---- CUPTI, first half: before the kernel -------------------------------- */

/*
 * CUPTI hands activity buffers to callbacks that take no user pointer, so
 * what they find goes here: the one piece of mutable static state in
 * core, written only by the callbacks of this process's single probe run.
 */
static struct {
	pthread_mutex_t lock;
	cuenv_cuptiActivityGetNextRecord_fn next;
	int layout_known;
	unsigned records;    /* every record seen */
	unsigned kernels;    /* kernel records */
	unsigned ours;	     /* ... of cuenv_vadd */
	uint64_t start, end; /* of the first of ours */
} trace = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, 0, 0, 0 };

#define TRACE_BUFFER (1u << 20)

/*
 * CUPTI wants its activity buffers aligned to 8 bytes. malloc's memory is
 * aligned for any object (max_align_t), so malloc gives that on every
 * system, and free releases it (msvcrt has no aligned_alloc, and its
 * _aligned_malloc needs _aligned_free).
 */
_Static_assert(_Alignof(max_align_t) >= 8, "malloc aligns to 8 bytes");

static void trace_request(uint8_t **buffer, size_t *size, size_t *max)
{
	*buffer = malloc(TRACE_BUFFER);
	*size = *buffer ? TRACE_BUFFER : 0;
	*max = 0; /* as many records as fit */
}

static void trace_complete(cuenv_CUcontext ctx, uint32_t stream,
			   uint8_t *buffer, size_t size, size_t valid)
{
	void *rec = NULL;

	(void)ctx;
	(void)stream;
	(void)size;
	pthread_mutex_lock(&trace.lock);
	while (trace.next && valid &&
	       trace.next(buffer, valid, &rec) == CUENV_CUPTI_SUCCESS) {
		const unsigned char *b = rec;
		uint32_t kind;
		uint64_t start, end;
		const char *name;

		trace.records++;
		memcpy(&kind, b, sizeof(kind));
		if (kind != CUENV_CUPTI_KIND_CONCURRENT_KERNEL &&
		    kind != CUENV_CUPTI_KIND_KERNEL)
			continue;
		trace.kernels++;
		if (!trace.layout_known)
			continue;
		memcpy(&start, b + CUENV_CUPTI_KERNEL_START, sizeof(start));
		memcpy(&end, b + CUENV_CUPTI_KERNEL_END, sizeof(end));
		memcpy(&name, b + CUENV_CUPTI_KERNEL_NAME, sizeof(name));
		if (!name || !strstr(name, VADD_NAME))
			continue;
		if (!trace.ours++) {
			trace.start = start;
			trace.end = end;
		}
	}
	pthread_mutex_unlock(&trace.lock);
	free(buffer);
}

static const char *pti_error(struct probe *pr, int e, struct buf *out)
{
	const char *s = NULL;

	buf_reset(out);
	if (pr->pti.cuptiGetResultString)
		pr->pti.cuptiGetResultString(e, &s);
	return error_text(out, s, e, "CUPTI error");
}

/* "CUPTI API 22" (to CUDA 12) or "CUPTI 13.0.1" (from CUDA 13), for text. */
static void cupti_name(const char *version, struct buf *out)
{
	buf_reset(out);
	if (!version)
		buf_adds(out, "CUPTI");
	else if (strchr(version, '.'))
		buf_printf(out, "CUPTI %s", version);
	else
		buf_printf(out, "CUPTI API %s", version);
}

/* The release whose CUPTI p->cupti_lib is: "11.2" for libcupti.so.11.2. */
static void cupti_release(const struct check_probe *p, struct buf *out)
{
	const char *v = strstr(p->cupti_lib, ".so.");
	struct buf mm = BUF_INIT;

	version_major_minor(p->cupti ? p->cupti : p->cuda, &mm);
	/* libcupti.so.11.2 names its release; libcupti.so.12 only a major,
	 * which the selection's release completes when it is the same */
	if (v && (strchr(v + 4, '.') ||
		  strtoul(v + 4, NULL, 10) != version_major(mm.data)))
		buf_adds(out, v + 4);
	else
		buf_adds(out, mm.data);
	buf_release(&mm);
}

static void step_cupti_begin(struct probe *pr, struct check_layer *l)
{
	const struct check_probe *p = pr->p;
	struct buf why = BUF_INIT, missing = BUF_INIT, fix = BUF_INIT,
		   rel = BUF_INIT, mm = BUF_INIT, e = BUF_INIT, ver = BUF_INIT;
	uint32_t api = 0;
	int rc;

	cupti_release(p, &rel);
	version_major_minor(p->cuda, &mm);
	buf_printf(&fix,
		   "cuenv install %s --cupti %s, then select it: cuenv "
		   "local %s --cupti %s",
		   mm.data, rel.data, mm.data, rel.data);
	pr->h_cupti = load(l, p->cupti_lib, &why);
	if (!pr->h_cupti) {
		load_failed(pr, l, p->cupti_lib, why.data, fix.data);
		goto out;
	}
	SYM(pr->h_cupti, pr->pti, cuptiGetVersion, &missing);
	SYM(pr->h_cupti, pr->pti, cuptiGetResultString, NULL);
	SYM(pr->h_cupti, pr->pti, cuptiGetTimestamp, &missing);
	SYM(pr->h_cupti, pr->pti, cuptiActivityRegisterCallbacks, &missing);
	SYM(pr->h_cupti, pr->pti, cuptiActivityEnable, &missing);
	SYM(pr->h_cupti, pr->pti, cuptiActivityDisable, &missing);
	SYM(pr->h_cupti, pr->pti, cuptiActivityFlushAll, &missing);
	SYM(pr->h_cupti, pr->pti, cuptiActivityGetNextRecord, &missing);
	if (missing.len) {
		lacks(l, p->cupti_lib, NULL, missing.data);
		check_fix(l, "%s", fix.data);
		goto out;
	}
	rc = pr->pti.cuptiGetVersion(&api);
	if (rc) {
		check_set(l, CHECK_FAIL, "cuptiGetVersion failed: %s",
			  pti_error(pr, rc, &e));
		check_fix(l, "%s", fix.data);
		goto out;
	}
	check_cupti_version(api, &ver);
	check_setstr(&l->version, ver.data);
	check_detail(l, "api", "%u", api);
	pr->cupti_layout_known = api >= CUENV_CUPTI_KERNEL_MIN_API;
	if (!pr->driver_ok || pr->missing_kernel_fns.len)
		goto out; /* no kernel will run to be traced */
	trace.next = pr->pti.cuptiActivityGetNextRecord;
	trace.layout_known = pr->cupti_layout_known;
	rc = pr->pti.cuptiActivityRegisterCallbacks(trace_request,
						    trace_complete);
	if (!rc)
		rc = pr->pti.cuptiActivityEnable(
			CUENV_CUPTI_KIND_CONCURRENT_KERNEL);
	if (rc) {
		struct buf nm = BUF_INIT;

		cupti_name(ver.data, &nm);
		check_set(l, CHECK_FAIL, "%s cannot trace kernels: %s", nm.data,
			  pti_error(pr, rc, &e));
		buf_release(&nm);
		check_fix(l,
			  "use the CUPTI of the selected release (%s), not "
			  "one from another CUDA: %s",
			  mm.data, fix.data);
		goto out;
	}
	pr->tracing = 1;
out:
	BUF_RELEASE_EACH(&why, &missing, &fix, &rel, &mm, &e, &ver);
}

/* ---- kernel -------------------------------------------------------------- */

/*
 * Why a layer that needs the device cannot run: the driver or the runtime
 * layer, and whether it failed or was skipped.
 */
static const char *blocker(const struct probe *pr)
{
	return pr->driver_ok ? "runtime" : "driver";
}

static const char *blocker_state(const struct probe *pr)
{
	return pr->r->layer[pr->driver_ok ? CHECK_RUNTIME : CHECK_DRIVER]
				       .status == CHECK_FAIL
		       ? "failed"
		       : "was skipped";
}

/* The vector add: what it holds, released by kernel_release. */
struct vadd {
	struct probe *pr;
	struct check_layer *l;
	cuenv_CUmodule mod;
	cuenv_CUfunction fn;
	cuenv_CUdeviceptr dev[3]; /* a, b, c on the device */
	float *host[3];		  /* a, b, c on the host */
	size_t bytes;
	unsigned n;
	const char *what; /* the driver call that failed */
	cuenv_CUresult rc;
};

enum vadd_next { VADD_GO, VADD_FAILED, VADD_DONE };

/* Whether the kernel can run; if not, the layer says why. */
static bool kernel_ready(struct probe *pr, struct check_layer *l)
{
	const struct check_probe *p = pr->p;

	if (!pr->driver_ok || !pr->device_ok) {
		check_set(l, CHECK_SKIP, "not run: the %s layer %s",
			  blocker(pr), blocker_state(pr));
		return false;
	}
	if (pr->missing_kernel_fns.len) {
		check_set(l, CHECK_FAIL, "libcuda.so.1 lacks %s",
			  pr->missing_kernel_fns.data);
		check_fix(l, "install an NVIDIA driver >= %s",
			  p->driver_need ? p->driver_need : "this CUDA's");
		return false;
	}
	check_setstr(&l->version, "PTX 6.0");
	check_detail(l, "kernel", "%s", VADD_NAME);
	check_detail(l, "elements", "%u", VADD_N);
	check_detail(l, "source", "PTX, compiled by the driver");
	return true;
}

/* The device's primary context, current on this thread. */
static enum vadd_next vadd_context(struct vadd *k)
{
	struct probe *pr = k->pr;
	struct driver_fns *cu = &pr->cu;
	cuenv_CUcontext ctx = NULL;

	k->what = "cuDeviceGet";
	k->rc = cu->cuDeviceGet(&pr->dev, pr->p->device);
	if (!k->rc) {
		k->what = "cuDevicePrimaryCtxRetain";
		k->rc = cu->cuDevicePrimaryCtxRetain(&ctx, pr->dev);
		pr->ctx_retained = !k->rc;
	}
	if (!k->rc) {
		k->what = "cuCtxSetCurrent";
		k->rc = cu->cuCtxSetCurrent(ctx);
	}
	return k->rc ? VADD_FAILED : VADD_GO;
}

/* The PTX, compiled by the driver, and the kernel in it. */
static enum vadd_next vadd_module(struct vadd *k)
{
	struct probe *pr = k->pr;
	const struct check_probe *p = pr->p;
	struct buf e = BUF_INIT;

	k->rc = pr->cu.cuModuleLoadData(&k->mod, check_vadd_ptx);
	if (k->rc) {
		cu_error(pr, k->rc, &e);
		check_set(k->l, CHECK_FAIL,
			  "the driver cannot compile the test kernel's PTX "
			  "(ISA 6.0) for device %d: %s",
			  p->device, e.data);
		check_fix(k->l, "install an NVIDIA driver >= %s",
			  p->driver_need ? p->driver_need : "this CUDA's");
		buf_release(&e);
		return VADD_DONE;
	}
	k->what = "cuModuleGetFunction";
	k->rc = pr->cu.cuModuleGetFunction(&k->fn, k->mod, VADD_NAME);
	return VADD_GO; /* vadd_upload reports a failure */
}

/* The three vectors, filled on the host and copied to the device. */
static enum vadd_next vadd_upload(struct vadd *k)
{
	struct driver_fns *cu = &k->pr->cu;
	float *a, *b, *c;

	for (int v = 0; v < 3; v++)
		k->host[v] = xmalloc(k->bytes);
	a = k->host[0];
	b = k->host[1];
	c = k->host[2];
	for (unsigned i = 0; i < k->n; i++) {
		a[i] = (float)i;
		b[i] = (float)(k->n - i) * 0.5f;
		c[i] = -1.0f;
	}
	if (!k->rc)
		k->what = "cuMemAlloc";
	for (int v = 0; v < 3 && !k->rc; v++)
		k->rc = cu->cuMemAlloc(&k->dev[v], k->bytes);
	if (!k->rc)
		k->what = "cuMemcpyHtoD";
	for (int v = 0; v < 3 && !k->rc; v++)
		k->rc = cu->cuMemcpyHtoD(k->dev[v], k->host[v], k->bytes);
	return k->rc ? VADD_FAILED : VADD_GO;
}

/* The launch, timed by CUPTI where it traces, and c copied back. */
static enum vadd_next vadd_launch(struct vadd *k)
{
	struct probe *pr = k->pr;
	struct driver_fns *cu = &pr->cu;
	void *params[4] = { &k->dev[0], &k->dev[1], &k->dev[2], &k->n };

	if (pr->tracing)
		pr->pti.cuptiGetTimestamp(&pr->t0);
	k->what = "cuLaunchKernel";
	k->rc = cu->cuLaunchKernel(k->fn, (k->n + VADD_BLOCK - 1) / VADD_BLOCK,
				   1, 1, VADD_BLOCK, 1, 1, 0, NULL, params,
				   NULL);
	if (!k->rc) {
		k->what = "cuCtxSynchronize";
		k->rc = cu->cuCtxSynchronize();
	}
	if (pr->tracing)
		pr->pti.cuptiGetTimestamp(&pr->t1);
	if (k->rc)
		return VADD_FAILED;
	pr->launched = 1;
	k->what = "cuMemcpyDtoH";
	k->rc = cu->cuMemcpyDtoH(k->host[2], k->dev[2], k->bytes);
	return k->rc ? VADD_FAILED : VADD_GO;
}

/* c = a + b, checked on the host. */
static enum vadd_next vadd_check(struct vadd *k)
{
	const float *a = k->host[0], *b = k->host[1], *c = k->host[2];
	unsigned wrong = 0, first = 0;

	for (unsigned i = 0; i < k->n; i++) {
		if (c[i] == a[i] + b[i])
			continue;
		if (!wrong++)
			first = i;
	}
	if (wrong) {
		check_set(k->l, CHECK_FAIL,
			  "the kernel ran but its result is wrong: c[%u] = %g, "
			  "expected %g (%u of %u elements wrong)",
			  first, (double)c[first],
			  (double)(a[first] + b[first]), wrong, k->n);
		check_fix(k->l,
			  "the GPU computes wrong results: look for Xid "
			  "errors in dmesg and ECC errors in nvidia-smi -q, "
			  "then reset the GPU (nvidia-smi -r) or reboot");
		return VADD_DONE;
	}
	check_set(k->l, CHECK_PASS,
		  "vector add of %u floats: PTX compiled by the driver, run on "
		  "device %d, result checked on the host",
		  k->n, k->pr->p->device);
	return VADD_DONE;
}

static void vadd_release(struct vadd *k)
{
	for (int v = 2; v >= 0; v--)
		if (k->dev[v])
			k->pr->cu.cuMemFree(k->dev[v]);
	if (k->mod)
		k->pr->cu.cuModuleUnload(k->mod);
	for (int v = 0; v < 3; v++)
		free(k->host[v]);
}

static void step_kernel(struct probe *pr, struct check_layer *l)
{
	static enum vadd_next (*const steps[])(struct vadd *) = {
		vadd_context, vadd_module, vadd_upload, vadd_launch, vadd_check,
	};
	struct vadd k = { .pr = pr,
			  .l = l,
			  .bytes = VADD_N * sizeof(float),
			  .n = VADD_N,
			  .what = "" };
	enum vadd_next next = VADD_GO;

	if (kernel_ready(pr, k.l))
		for (size_t i = 0; next == VADD_GO && i < COUNT(steps); i++)
			next = steps[i](&k);
	if (next == VADD_FAILED) {
		struct buf e = BUF_INIT;

		cu_error(pr, k.rc, &e);
		check_set(k.l, CHECK_FAIL, "%s failed: %s", k.what, e.data);
		check_fix(k.l,
			  "check that nvidia-smi works; the kernel log (dmesg) "
			  "shows the driver's own errors (Xid)");
		buf_release(&e);
	}
	vadd_release(&k);
}

/* ---- cuDNN --------------------------------------------------------------- */

static void cudnn_symbols(struct probe *pr, struct buf *missing)
{
	void *h = pr->h_cudnn;
	struct cudnn_fns *f = &pr->dnn;

	SYM(h, *f, cudnnGetVersion, missing);
	SYM(h, *f, cudnnGetCudartVersion, missing);
	SYM(h, *f, cudnnGetErrorString, NULL);
	SYM(h, *f, cudnnCreate, missing);
	SYM(h, *f, cudnnDestroy, missing);
	f->cudnnCreateTensorDescriptor =
		(cuenv_cudnnCreateDesc_fn)sym(h, "cudnnCreateTensorDescriptor",
					      missing);
	f->cudnnCreateFilterDescriptor =
		(cuenv_cudnnCreateDesc_fn)sym(h, "cudnnCreateFilterDescriptor",
					      missing);
	f->cudnnCreateConvolutionDescriptor = (cuenv_cudnnCreateDesc_fn)
		sym(h, "cudnnCreateConvolutionDescriptor", missing);
	f->cudnnDestroyTensorDescriptor =
		(cuenv_cudnnDestroyDesc_fn)sym(h,
					       "cudnnDestroyTensorDescriptor",
					       missing);
	f->cudnnDestroyFilterDescriptor =
		(cuenv_cudnnDestroyDesc_fn)sym(h,
					       "cudnnDestroyFilterDescriptor",
					       missing);
	f->cudnnDestroyConvolutionDescriptor = (cuenv_cudnnDestroyDesc_fn)
		sym(h, "cudnnDestroyConvolutionDescriptor", missing);
	SYM(h, *f, cudnnSetTensor4dDescriptor, missing);
	SYM(h, *f, cudnnSetFilter4dDescriptor, missing);
	SYM(h, *f, cudnnSetConvolution2dDescriptor, missing);
	SYM(h, *f, cudnnGetConvolution2dForwardOutputDim, missing);
	SYM(h, *f, cudnnGetConvolutionForwardWorkspaceSize, missing);
	SYM(h, *f, cudnnConvolutionForward, missing);
}

static const char *dnn_error(struct probe *pr, int st, struct buf *out)
{
	const char *s = pr->dnn.cudnnGetErrorString
				? pr->dnn.cudnnGetErrorString(st)
				: NULL;

	buf_reset(out);
	return error_text(out, s, st, "cuDNN status");
}

/*
 * 1x1x5x5 input, 1x1x3x3 filter, no padding, stride 1, cross-correlation
 * (what frameworks call convolution): a 1x1x3x3 output. Small integers,
 * so that the result is exact even where cuDNN computes in TF32.
 */
#define CONV_IN 5
#define CONV_K 3
#define CONV_OUT (CONV_IN - CONV_K + 1)

static void conv_reference(const float *x, const float *w, float *y)
{
	for (int i = 0; i < CONV_OUT; i++)
		for (int j = 0; j < CONV_OUT; j++) {
			float s = 0;

			for (int u = 0; u < CONV_K; u++)
				for (int v = 0; v < CONV_K; v++)
					s += x[(i + u) * CONV_IN + j + v] *
					     w[u * CONV_K + v];
			y[i * CONV_OUT + j] = s;
		}
}

/* The convolution: what it holds, released by conv_release. */
struct conv {
	struct probe *pr;
	struct check_layer *l;
	const char *ver, *built;
	cuenv_cudnnHandle h;
	void *xd, *yd, *wd, *cd; /* descriptors */
	void *dx, *dw, *dy, *ws; /* device memory */
	size_t ws_bytes;
	float x[CONV_IN * CONV_IN], w[CONV_K * CONV_K];
	float y[CONV_OUT * CONV_OUT], ref[CONV_OUT * CONV_OUT];
	const char *what; /* the cuDNN call that failed */
	int st;		  /* its status */
	int rt_e;	  /* or the runtime's error */
};

enum conv_next { CONV_GO, CONV_DNN_FAILED, CONV_RT_FAILED, CONV_DONE };

static enum conv_next conv_dnn(const struct conv *c)
{
	return c->st ? CONV_DNN_FAILED : CONV_GO;
}

/* The handle and the four descriptors. */
static enum conv_next conv_create(struct conv *c)
{
	struct cudnn_fns *f = &c->pr->dnn;

	c->what = "cudnnCreate";
	c->st = f->cudnnCreate(&c->h);
	if (!c->st) {
		c->what = "cudnnCreate*Descriptor";
		c->st = f->cudnnCreateTensorDescriptor(&c->xd);
	}
	if (!c->st)
		c->st = f->cudnnCreateTensorDescriptor(&c->yd);
	if (!c->st)
		c->st = f->cudnnCreateFilterDescriptor(&c->wd);
	if (!c->st)
		c->st = f->cudnnCreateConvolutionDescriptor(&c->cd);
	return conv_dnn(c);
}

/* The input, filter and convolution described; the output shape checked. */
static enum conv_next conv_describe(struct conv *c)
{
	struct cudnn_fns *f = &c->pr->dnn;
	int on = 0, oc = 0, oh = 0, ow = 0;

	c->what = "cudnnSet*Descriptor";
	c->st = f->cudnnSetTensor4dDescriptor(c->xd, CUENV_CUDNN_TENSOR_NCHW,
					      CUENV_CUDNN_DATA_FLOAT, 1, 1,
					      CONV_IN, CONV_IN);
	if (!c->st)
		c->st = f->cudnnSetFilter4dDescriptor(c->wd,
						      CUENV_CUDNN_DATA_FLOAT,
						      CUENV_CUDNN_TENSOR_NCHW,
						      1, 1, CONV_K, CONV_K);
	if (!c->st)
		c->st = f->cudnnSetConvolution2dDescriptor(
			c->cd, 0, 0, 1, 1, 1, 1, CUENV_CUDNN_CROSS_CORRELATION,
			CUENV_CUDNN_DATA_FLOAT);
	if (!c->st) {
		c->what = "cudnnGetConvolution2dForwardOutputDim";
		c->st = f->cudnnGetConvolution2dForwardOutputDim(c->cd, c->xd,
								 c->wd, &on,
								 &oc, &oh, &ow);
	}
	if (!c->st &&
	    (on != 1 || oc != 1 || oh != CONV_OUT || ow != CONV_OUT)) {
		check_set(c->l, CHECK_FAIL,
			  "cuDNN %s computes a %dx%dx%dx%d output for a "
			  "1x1x%dx%d input and a 1x1x%dx%d filter, not "
			  "1x1x%dx%d",
			  c->ver, on, oc, oh, ow, CONV_IN, CONV_IN, CONV_K,
			  CONV_K, CONV_OUT, CONV_OUT);
		return CONV_DONE;
	}
	return conv_dnn(c);
}

/* The output described and the workspace it needs asked for. */
static enum conv_next conv_workspace(struct conv *c)
{
	struct cudnn_fns *f = &c->pr->dnn;

	c->st = f->cudnnSetTensor4dDescriptor(c->yd, CUENV_CUDNN_TENSOR_NCHW,
					      CUENV_CUDNN_DATA_FLOAT, 1, 1,
					      CONV_OUT, CONV_OUT);
	if (!c->st) {
		c->what = "cudnnGetConvolutionForwardWorkspaceSize";
		c->st = f->cudnnGetConvolutionForwardWorkspaceSize(
			c->h, c->xd, c->wd, c->cd, c->yd,
			CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM, &c->ws_bytes);
	}
	return conv_dnn(c);
}

/* Device memory for x, w, y and the workspace; x, w and y copied there. */
static enum conv_next conv_upload(struct conv *c)
{
	struct runtime_fns *rt = &c->pr->rt;
	const struct {
		void **dev;
		const void *host;
		size_t bytes;
	} arrays[] = {
		{ &c->dx, c->x, sizeof(c->x) },
		{ &c->dw, c->w, sizeof(c->w) },
		{ &c->dy, c->y, sizeof(c->y) },
	};
	const size_t n = COUNT(arrays);

	for (size_t i = 0; i < n && !c->rt_e; i++)
		c->rt_e = rt->cudaMalloc(arrays[i].dev, arrays[i].bytes);
	if (!c->rt_e && c->ws_bytes)
		c->rt_e = rt->cudaMalloc(&c->ws, c->ws_bytes);
	for (size_t i = 0; i < n && !c->rt_e; i++)
		c->rt_e = rt->cudaMemcpy(*arrays[i].dev, arrays[i].host,
					 arrays[i].bytes,
					 CUENV_CUDART_MEMCPY_H2D);
	return c->rt_e ? CONV_RT_FAILED : CONV_GO;
}

/* The convolution on the GPU, and y copied back. */
static enum conv_next conv_forward(struct conv *c)
{
	struct runtime_fns *rt = &c->pr->rt;
	float alpha = 1.0f, beta = 0.0f;

	c->what = "cudnnConvolutionForward";
	c->st = c->pr->dnn.cudnnConvolutionForward(
		c->h, &alpha, c->xd, c->dx, c->wd, c->dw, c->cd,
		CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM, c->ws, c->ws_bytes, &beta,
		c->yd, c->dy);
	if (c->st)
		return CONV_DNN_FAILED;
	c->rt_e = rt->cudaDeviceSynchronize();
	if (!c->rt_e)
		c->rt_e = rt->cudaMemcpy(c->y, c->dy, sizeof(c->y),
					 CUENV_CUDART_MEMCPY_D2H);
	return c->rt_e ? CONV_RT_FAILED : CONV_GO;
}

/* y against the CPU's reference. */
static enum conv_next conv_check(struct conv *c)
{
	struct check_layer *l = c->l;

	for (int i = 0; i < CONV_OUT * CONV_OUT; i++) {
		float d = c->y[i] - c->ref[i];

		if (d >= -1e-3f && d <= 1e-3f)
			continue;
		check_set(l, CHECK_FAIL,
			  "cuDNN %s's convolution is wrong: y[%d] = %g, "
			  "the CPU reference says %g",
			  c->ver, i, (double)c->y[i], (double)c->ref[i]);
		check_fix(l,
			  "install it again (cuenv uninstall --force cudnn %s, "
			  "then cuenv install %s --cudnn %s); if it "
			  "stays wrong, the GPU computes wrong results "
			  "(Xid errors in dmesg, ECC in nvidia-smi -q)",
			  c->ver, c->pr->p->cuda, c->ver);
		return CONV_DONE;
	}
	check_detail(l, "convolution", "1x1x%dx%d * 1x1x%dx%d -> 1x1x%dx%d",
		     CONV_IN, CONV_IN, CONV_K, CONV_K, CONV_OUT, CONV_OUT);
	check_set(l, CHECK_PASS,
		  "cuDNN %s (built for CUDA %s): a 1x1x%dx%d by 1x1x%dx%d "
		  "convolution matches the CPU reference",
		  c->ver, c->built, CONV_IN, CONV_IN, CONV_K, CONV_K);
	return CONV_DONE;
}

/* What the convolution holds, released in this order where it is held. */
static void conv_release(struct conv *c)
{
	struct cudnn_fns *f = &c->pr->dnn;
	cuenv_cudaFree_fn rt_free = c->pr->rt.cudaFree;
	const struct {
		void *held;
		int (*release)(void *);
	} table[] = {
		{ c->dx, rt_free },
		{ c->dw, rt_free },
		{ c->dy, rt_free },
		{ c->ws, rt_free },
		{ c->cd, f->cudnnDestroyConvolutionDescriptor },
		{ c->wd, f->cudnnDestroyFilterDescriptor },
		{ c->yd, f->cudnnDestroyTensorDescriptor },
		{ c->xd, f->cudnnDestroyTensorDescriptor },
		{ c->h, f->cudnnDestroy },
	};

	for (size_t i = 0; i < COUNT(table); i++)
		if (table[i].held)
			table[i].release(table[i].held);
}

/* The convolution on the GPU; returns with l set. */
static void cudnn_conv(struct probe *pr, struct check_layer *l, const char *ver,
		       const char *built)
{
	static enum conv_next (*const steps[])(struct conv *) = {
		conv_create, conv_describe, conv_workspace,
		conv_upload, conv_forward,  conv_check,
	};
	struct conv conv = { .pr = pr, .l = l, .ver = ver, .built = built };
	struct conv *c = &conv;
	enum conv_next next = CONV_GO;
	struct buf e = BUF_INIT;

	for (int i = 0; i < CONV_IN * CONV_IN; i++)
		c->x[i] = (float)(i * 7 % 11) - 5.0f;
	for (int i = 0; i < CONV_K * CONV_K; i++)
		c->w[i] = (float)(i % 4) - 1.5f;
	for (int i = 0; i < CONV_OUT * CONV_OUT; i++)
		c->y[i] = -999.0f;
	conv_reference(c->x, c->w, c->ref);
	for (size_t i = 0; next == CONV_GO && i < COUNT(steps); i++)
		next = steps[i](c);
	if (next == CONV_RT_FAILED)
		check_set(l, CHECK_FAIL,
			  "the CUDA runtime failed under cuDNN: %s",
			  rt_error(pr, c->rt_e, &e));
	if (next == CONV_DNN_FAILED) {
		check_set(l, CHECK_FAIL, "%s failed: %s", c->what,
			  dnn_error(pr, c->st, &e));
		check_fix(l,
			  "use the cuDNN built for this CUDA: cuenv install %s "
			  "--cudnn %s",
			  pr->p->cuda, ver);
	}
	conv_release(c);
	buf_release(&e);
}

static void step_cudnn(struct probe *pr, struct check_layer *l)
{
	const struct check_probe *p = pr->p;
	struct buf why = BUF_INIT, missing = BUF_INIT, ver = BUF_INIT,
		   built = BUF_INIT, fix = BUF_INIT, mm = BUF_INIT;
	size_t v, cv;
	unsigned long want_major;

	if (!p->cudnn_lib) {
		l->asked = false;
		check_set(l, CHECK_SKIP, "no cuDNN selected");
		goto out;
	}
	version_major_minor(p->cuda, &mm);
	if (p->cudnn)
		buf_printf(&fix,
			   "install it again: cuenv install %s --cudnn %s",
			   mm.data, p->cudnn);
	else
		buf_printf(&fix, "select a cuDNN: cuenv install %s --cudnn 9",
			   mm.data);
	pr->h_cudnn = load(l, p->cudnn_lib, &why);
	if (!pr->h_cudnn) {
		load_failed(pr, l, p->cudnn_lib, why.data, fix.data);
		goto out;
	}
	cudnn_symbols(pr, &missing);
	if (!pr->dnn.cudnnGetVersion || !pr->dnn.cudnnGetCudartVersion) {
		lacks(l, p->cudnn_lib, "cuDNN", missing.data);
		check_fix(l, "%s", fix.data);
		goto out;
	}
	v = pr->dnn.cudnnGetVersion();
	cv = pr->dnn.cudnnGetCudartVersion();
	check_cudnn_version(v, &ver);
	check_cuda_version((int)cv, &built);
	check_setstr(&l->version, ver.data);
	check_detail(l, "cuda", "%s", built.data);
	if (p->cudnn && strncmp(p->cudnn, ver.data, ver.len))
		check_warn(l, "%s says cuDNN %s, the selection is %s",
			   l->file ? l->file : p->cudnn_lib, ver.data,
			   p->cudnn);
	want_major = pr->runtime_version
			     ? (unsigned long)pr->runtime_version / 1000
			     : version_major(p->cuda);
	if (cv / 1000 != want_major) {
		struct buf rt = BUF_INIT;

		if (pr->runtime_version)
			check_cuda_version(pr->runtime_version, &rt);
		else
			buf_printf(&rt, "%lu (the selection's)", want_major);
		check_set(
			l, CHECK_FAIL,
			"cuDNN %s was built for CUDA %zu (cudnnGetCudartVersion"
			" %zu), but the CUDA runtime is %s",
			ver.data, cv / 1000, cv, rt.data);
		buf_release(&rt);
		check_fix(l,
			  "use a cuDNN %zu built for CUDA %lu: cuenv install %s "
			  "--cudnn %zu",
			  v >= 90000 ? v / 10000 : v / 1000, want_major,
			  mm.data, v >= 90000 ? v / 10000 : v / 1000);
		goto origin;
	}
	if (missing.len) {
		lacks(l, p->cudnn_lib, NULL, missing.data);
		check_fix(l, "%s", fix.data);
		goto origin;
	}
	if (!pr->driver_ok || !pr->device_ok) {
		check_set(l, CHECK_SKIP,
			  "cuDNN %s (built for CUDA %s) loaded; the "
			  "convolution needs the %s layer, which %s",
			  ver.data, built.data, blocker(pr), blocker_state(pr));
		goto origin;
	}
	cudnn_conv(pr, l, ver.data, built.data);
origin:
	judge_origin(pr, l, fix.data);
out:
	BUF_RELEASE_EACH(&why, &missing, &ver, &built, &fix, &mm);
}

/* ---- CUPTI, second half: the trace --------------------------------------- */

/* What the trace recorded, read under the lock. */
struct trace_seen {
	unsigned ours, kernels, records;
	uint64_t start, end;
};

/* The fix for a trace that failed. */
static void cupti_trace_fix(struct probe *pr, struct check_layer *l,
			    struct buf *fix)
{
	struct buf rel = BUF_INIT, mm = BUF_INIT;

	cupti_release(pr->p, &rel);
	version_major_minor(pr->p->cuda, &mm);
	if (pr->p->cupti)
		buf_printf(fix,
			   "use the selected CUDA's own CUPTI: cuenv "
			   "local %s (without --cupti)",
			   mm.data);
	else
		buf_printf(fix,
			   "CUPTI %s needs a driver for CUDA %s or "
			   "newer: install an NVIDIA driver >= %s",
			   l->version ? l->version : "", rel.data,
			   pr->p->driver_need ? pr->p->driver_need
					      : "the one this CUDA needs");
	buf_release(&rel);
	buf_release(&mm);
}

/* The verdict on the records of a trace that was flushed (rc). */
static void cupti_judge_trace(struct probe *pr, struct check_layer *l, int rc,
			      const struct trace_seen *s, const char *fix)
{
	uint64_t slack = 50000000ull; /* 50 ms, in ns */
	struct buf e = BUF_INIT;

	if (rc) {
		check_set(l, CHECK_FAIL, "cuptiActivityFlushAll failed: %s",
			  pti_error(pr, rc, &e));
		check_fix(l, "%s", fix);
	} else if (!pr->cupti_layout_known) {
		check_set(l, CHECK_FAIL,
			  "CUPTI API version %s is older than CUDA 9: cuenv "
			  "cannot read its kernel records",
			  l->version ? l->version : "?");
		check_fix(l, "select CUDA 10.1 or newer");
	} else if (!s->ours) {
		check_set(l, CHECK_FAIL,
			  "CUPTI's activity trace did not record the test "
			  "kernel (%u records, %u of them kernels): a "
			  "profiler would see nothing",
			  s->records, s->kernels);
		check_fix(l, "%s", fix);
	} else if (!s->start || s->start >= s->end ||
		   s->end - s->start > 5000000000ull ||
		   s->start + slack < pr->t0 || s->end > pr->t1 + slack) {
		check_set(l, CHECK_FAIL,
			  "CUPTI recorded the test kernel with impossible "
			  "timestamps: start %llu, end %llu ns, but it ran "
			  "between %llu and %llu",
			  (unsigned long long)s->start,
			  (unsigned long long)s->end,
			  (unsigned long long)pr->t0,
			  (unsigned long long)pr->t1);
		check_fix(l, "%s", fix);
	} else {
		check_detail(l, "kernel_ns", "%llu",
			     (unsigned long long)(s->end - s->start));
		cupti_name(l->version, &e);
		check_set(l, CHECK_PASS,
			  "%s traced %s: %.1f us, within the launch", e.data,
			  VADD_NAME, (double)(s->end - s->start) / 1e3);
	}
	buf_release(&e);
}

/* Tracing stopped, its records counted and judged. */
static void cupti_collect(struct probe *pr, struct check_layer *l)
{
	struct trace_seen seen;
	struct buf fix = BUF_INIT;
	int rc;

	rc = pr->pti.cuptiActivityFlushAll(CUENV_CUPTI_FLUSH_FORCED);
	pr->pti.cuptiActivityDisable(CUENV_CUPTI_KIND_CONCURRENT_KERNEL);
	pthread_mutex_lock(&trace.lock);
	seen.ours = trace.ours;
	seen.kernels = trace.kernels;
	seen.records = trace.records;
	seen.start = trace.start;
	seen.end = trace.end;
	pthread_mutex_unlock(&trace.lock);
	check_detail(l, "records", "%u", seen.records);
	check_detail(l, "kernel_records", "%u", seen.kernels);
	cupti_trace_fix(pr, l, &fix);
	cupti_judge_trace(pr, l, rc, &seen, fix.data);
	buf_release(&fix);
}

/* Where the loaded CUPTI came from, judged with its install command. */
static void cupti_origin(struct probe *pr, struct check_layer *l)
{
	struct buf install = BUF_INIT, rel = BUF_INIT, mm = BUF_INIT;

	cupti_release(pr->p, &rel);
	version_major_minor(pr->p->cuda, &mm);
	buf_printf(&install,
		   "cuenv install %s --cupti %s, then select "
		   "it: cuenv local %s --cupti %s",
		   mm.data, rel.data, mm.data, rel.data);
	judge_origin(pr, l, install.data);
	buf_release(&install);
	buf_release(&rel);
	buf_release(&mm);
}

static void step_cupti_end(struct probe *pr, struct check_layer *l)
{

	if (l->status == CHECK_FAIL || !pr->h_cupti) {
		/* nothing to trace */
	} else if (!pr->tracing || !pr->launched) {
		struct buf nm = BUF_INIT;

		cupti_name(l->version, &nm);
		check_set(l, CHECK_SKIP,
			  "%s loaded; the trace needs the kernel layer, "
			  "which %s",
			  nm.data,
			  pr->r->layer[CHECK_KERNEL].status == CHECK_FAIL
				  ? "failed"
				  : "did not run");
		buf_release(&nm);
	} else {
		cupti_collect(pr, l);
	}
	if (pr->h_cupti)
		cupti_origin(pr, l);
}

/* ---- all of it ----------------------------------------------------------- */

/*
 * The steps in the order they run (see the top of this file), each with
 * the stage it announces and the layer it sets and is timed on.
 */
static const struct step {
	const char *stage;
	enum check_layer_id layer;
	void (*run)(struct probe *pr, struct check_layer *l);
} probe_steps[] = {
	{ "driver", CHECK_DRIVER, step_driver },
	{ "cupti", CHECK_CUPTI, step_cupti_begin },
	{ "runtime", CHECK_RUNTIME, step_runtime },
	{ "kernel", CHECK_KERNEL, step_kernel },
	{ "cudnn", CHECK_CUDNN, step_cudnn },
	{ "cupti-trace", CHECK_CUPTI, step_cupti_end },
};

void check_probe_run(const struct check_probe *p, struct check_report *r)
{
	struct probe pr = { 0 };

	pr.p = p;
	pr.r = r;
	check_setstr(&r->cuda, p->cuda);
	check_setstr(&r->cudnn, p->cudnn);
	check_setstr(&r->cupti, p->cupti);
	r->device = p->device;
	for (size_t i = 0; i < COUNT(probe_steps); i++) {
		const struct step *s = &probe_steps[i];
		struct check_layer *l = &r->layer[s->layer];
		double t = now_ms();

		stage(&pr, s->stage);
		s->run(&pr, l);
		l->ms += now_ms() - t;
	}
	check_report_finish(r);
	stage(&pr, "done");

	if (pr.ctx_retained && pr.cu.cuDevicePrimaryCtxRelease)
		pr.cu.cuDevicePrimaryCtxRelease(pr.dev);
	if (p->unload) {
		/* the libraries on top first, the driver last */
		void *const loaded[] = { pr.h_cupti, pr.h_cudnn, pr.h_runtime,
					 pr.h_driver };

		for (size_t i = 0; i < COUNT(loaded); i++)
			if (loaded[i])
				plat_dl_close(loaded[i]);
	}
	pthread_mutex_lock(&trace.lock);
	trace.next = NULL;
	trace.layout_known = 0;
	trace.records = trace.kernels = trace.ours = 0;
	trace.start = trace.end = 0;
	pthread_mutex_unlock(&trace.lock);
	buf_release(&pr.missing_kernel_fns);
}
