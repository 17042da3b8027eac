/*
 * cuda_abi.h: the few CUDA driver, runtime, cuDNN and CUPTI types, values
 * and signatures that `cuenv check` calls through dlopen/dlsym.
 *
 * cuenv builds on machines without a CUDA toolkit and never links CUDA,
 * so it declares what it uses itself, from NVIDIA's documented ABI. Every
 * value here was read from the real headers (cuda.h, driver_types.h,
 * cudnn_graph.h, cudnn_ops.h, cudnn_cnn.h, cupti_result.h,
 * cupti_activity.h of CUDA 13.0), and two tests hold them to NVIDIA's:
 * test_check_cuda compares them with the headers when a toolkit is present
 * at build time, and tests/realworld/abi.py (make realworld) compiles them
 * against the headers of NVIDIA's CUDA 11, 12 and 13 wheels (runtime,
 * CUPTI, cuDNN 8 and 9) and checks the names looked up below against the
 * wheels' libraries. The fake libraries of the tests
 * (tests/unit/fakes/cuda/) implement these same signatures.
 *
 * Symbol names: the driver API renamed several entry points with _v2 when
 * CUdeviceptr became 64-bit (cuda.h maps cuMemAlloc to cuMemAlloc_v2 and
 * so on); a program built with cuda.h calls the _v2 symbols, so cuenv
 * looks those up, and falls back to the old name only where a driver
 * older than CUDA 11 lacks the new one (cuDevicePrimaryCtxRelease).
 *
 * Enumerations are passed as int: C enumerations are int-sized in the
 * x86-64 and aarch64 ABIs that CUDA supports.
 */
#ifndef CUENV_CUDA_ABI_H
#define CUENV_CUDA_ABI_H

#include <stddef.h>
#include <stdint.h>

/* ---- driver API (libcuda.so.1) ------------------------------------------- */

enum {
	CUENV_CUDA_SUCCESS = 0,
	CUENV_CUDA_ERROR_INVALID_VALUE = 1,
	CUENV_CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUENV_CUDA_ERROR_NOT_INITIALIZED = 3,
	CUENV_CUDA_ERROR_STUB_LIBRARY = 34,
	CUENV_CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUENV_CUDA_ERROR_NO_DEVICE = 100,
	CUENV_CUDA_ERROR_INVALID_DEVICE = 101,
	CUENV_CUDA_ERROR_INVALID_IMAGE = 200,
	CUENV_CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUENV_CUDA_ERROR_INVALID_PTX = 218,
	CUENV_CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUENV_CUDA_ERROR_NOT_FOUND = 500,
	CUENV_CUDA_ERROR_LAUNCH_FAILED = 719,
	CUENV_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	CUENV_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUENV_CUDA_ERROR_UNKNOWN = 999,
};

typedef int cuenv_CUresult;
typedef int cuenv_CUdevice;
typedef unsigned long long cuenv_CUdeviceptr; /* CUdeviceptr_v2 */
typedef struct cuenv_CUctx_st *cuenv_CUcontext;
typedef struct cuenv_CUmod_st *cuenv_CUmodule;
typedef struct cuenv_CUfunc_st *cuenv_CUfunction;
typedef struct cuenv_CUstream_st *cuenv_CUstream;

typedef cuenv_CUresult (*cuenv_cuInit_fn)(unsigned flags);
typedef cuenv_CUresult (*cuenv_cuDriverGetVersion_fn)(int *version);
typedef cuenv_CUresult (*cuenv_cuGetErrorName_fn)(cuenv_CUresult e,
						  const char **name);
typedef cuenv_CUresult (*cuenv_cuDeviceGet_fn)(cuenv_CUdevice *dev,
					       int ordinal);
typedef cuenv_CUresult (*cuenv_cuDeviceGetName_fn)(char *name, int len,
						   cuenv_CUdevice dev);
typedef cuenv_CUresult (*cuenv_cuDevicePrimaryCtxRetain_fn)(
	cuenv_CUcontext *ctx, cuenv_CUdevice dev);
typedef cuenv_CUresult (*cuenv_cuDevicePrimaryCtxRelease_fn)(cuenv_CUdevice dev);
typedef cuenv_CUresult (*cuenv_cuCtxSetCurrent_fn)(cuenv_CUcontext ctx);
typedef cuenv_CUresult (*cuenv_cuCtxSynchronize_fn)(void);
typedef cuenv_CUresult (*cuenv_cuModuleLoadData_fn)(cuenv_CUmodule *mod,
						    const void *image);
typedef cuenv_CUresult (*cuenv_cuModuleGetFunction_fn)(cuenv_CUfunction *f,
						       cuenv_CUmodule mod,
						       const char *name);
typedef cuenv_CUresult (*cuenv_cuModuleUnload_fn)(cuenv_CUmodule mod);
typedef cuenv_CUresult (*cuenv_cuMemAlloc_fn)(cuenv_CUdeviceptr *p,
					      size_t bytes);
typedef cuenv_CUresult (*cuenv_cuMemFree_fn)(cuenv_CUdeviceptr p);
typedef cuenv_CUresult (*cuenv_cuMemcpyHtoD_fn)(cuenv_CUdeviceptr dst,
						const void *src, size_t bytes);
typedef cuenv_CUresult (*cuenv_cuMemcpyDtoH_fn)(void *dst,
						cuenv_CUdeviceptr src,
						size_t bytes);
typedef cuenv_CUresult (*cuenv_cuLaunchKernel_fn)(
	cuenv_CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
	unsigned by, unsigned bz, unsigned shared_bytes, cuenv_CUstream stream,
	void **params, void **extra);

/* ---- runtime API (libcudart.so.N) ---------------------------------------- */

enum {
	CUENV_CUDART_SUCCESS = 0,
	CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER = 35,
	CUENV_CUDART_ERROR_NO_DEVICE = 100,
	CUENV_CUDART_ERROR_INVALID_DEVICE = 101,
	/* enum cudaDeviceAttr */
	CUENV_CUDART_ATTR_CC_MAJOR = 75,
	CUENV_CUDART_ATTR_CC_MINOR = 76,
	/* enum cudaMemcpyKind */
	CUENV_CUDART_MEMCPY_H2D = 1,
	CUENV_CUDART_MEMCPY_D2H = 2,
};

typedef int (*cuenv_cudaRuntimeGetVersion_fn)(int *version);
typedef int (*cuenv_cudaGetDeviceCount_fn)(int *count);
typedef int (*cuenv_cudaDeviceGetAttribute_fn)(int *value, int attr,
					       int device);
typedef int (*cuenv_cudaSetDevice_fn)(int device);
typedef int (*cuenv_cudaFree_fn)(void *p);
typedef int (*cuenv_cudaMalloc_fn)(void **p, size_t bytes);
typedef int (*cuenv_cudaMemcpy_fn)(void *dst, const void *src, size_t bytes,
				   int kind);
typedef int (*cuenv_cudaDeviceSynchronize_fn)(void);
typedef const char *(*cuenv_cudaGetErrorName_fn)(int e);

/* ---- cuDNN (libcudnn.so.N) ----------------------------------------------- */

enum {
	CUENV_CUDNN_STATUS_SUCCESS = 0,
	CUENV_CUDNN_TENSOR_NCHW = 0,		/* cudnnTensorFormat_t */
	CUENV_CUDNN_DATA_FLOAT = 0,		/* cudnnDataType_t */
	CUENV_CUDNN_CROSS_CORRELATION = 1,	/* cudnnConvolutionMode_t */
	CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM = 0, /* cudnnConvolutionFwdAlgo_t */
};

typedef void *cuenv_cudnnHandle;
typedef void *cuenv_cudnnTensorDesc;
typedef void *cuenv_cudnnFilterDesc;
typedef void *cuenv_cudnnConvDesc;

typedef size_t (*cuenv_cudnnGetVersion_fn)(void);
typedef size_t (*cuenv_cudnnGetCudartVersion_fn)(void);
typedef const char *(*cuenv_cudnnGetErrorString_fn)(int status);
typedef int (*cuenv_cudnnCreate_fn)(cuenv_cudnnHandle *h);
typedef int (*cuenv_cudnnDestroy_fn)(cuenv_cudnnHandle h);
typedef int (*cuenv_cudnnCreateDesc_fn)(void **desc);
typedef int (*cuenv_cudnnDestroyDesc_fn)(void *desc);
typedef int (*cuenv_cudnnSetTensor4dDescriptor_fn)(cuenv_cudnnTensorDesc d,
						   int format, int type, int n,
						   int c, int h, int w);
typedef int (*cuenv_cudnnSetFilter4dDescriptor_fn)(cuenv_cudnnFilterDesc d,
						   int type, int format, int k,
						   int c, int h, int w);
typedef int (*cuenv_cudnnSetConvolution2dDescriptor_fn)(
	cuenv_cudnnConvDesc d, int pad_h, int pad_w, int u, int v,
	int dilation_h, int dilation_w, int mode, int compute_type);
typedef int (*cuenv_cudnnGetConvolution2dForwardOutputDim_fn)(
	cuenv_cudnnConvDesc conv, cuenv_cudnnTensorDesc in,
	cuenv_cudnnFilterDesc filter, int *n, int *c, int *h, int *w);
typedef int (*cuenv_cudnnGetConvolutionForwardWorkspaceSize_fn)(
	cuenv_cudnnHandle h, cuenv_cudnnTensorDesc x, cuenv_cudnnFilterDesc w,
	cuenv_cudnnConvDesc conv, cuenv_cudnnTensorDesc y, int algo,
	size_t *bytes);
typedef int (*cuenv_cudnnConvolutionForward_fn)(
	cuenv_cudnnHandle h, const void *alpha, cuenv_cudnnTensorDesc xd,
	const void *x, cuenv_cudnnFilterDesc wd, const void *w,
	cuenv_cudnnConvDesc conv, int algo, void *workspace,
	size_t workspace_bytes, const void *beta, cuenv_cudnnTensorDesc yd,
	void *y);

/* ---- CUPTI (libcupti.so.N) ----------------------------------------------- */

enum {
	CUENV_CUPTI_SUCCESS = 0,
	CUENV_CUPTI_ERROR_MAX_LIMIT_REACHED = 12, /* no more records */
	CUENV_CUPTI_KIND_KERNEL = 3,		  /* CUpti_ActivityKind */
	CUENV_CUPTI_KIND_RUNTIME = 5,
	CUENV_CUPTI_KIND_CONCURRENT_KERNEL = 10,
	CUENV_CUPTI_FLUSH_FORCED = 1, /* CUPTI_ACTIVITY_FLAG_FLUSH_FORCED */
};

/*
 * Where the fields cuenv reads sit in a kernel activity record. Every
 * record CUPTI has produced for CONCURRENT_KERNEL since CUDA 9.0
 * (CUpti_ActivityKernel4 to CUpti_ActivityKernel10, and the later ones,
 * which only append fields) starts with the same members: kind, the cache
 * and shared memory configuration, registersPerThread, the two partitioned
 * global cache settings, then start, end and completed (ns), ...,
 * correlationId, gridId, name. Records differ only in their size, which
 * cuptiActivityGetNextRecord knows. CUpti_ActivityKernel3 already has
 * this prefix (NVIDIA's headers of CUDA 11 to 13 agree); only
 * CUpti_ActivityKernel2, without the partitioned global cache settings,
 * placed start at 8.
 */
#define CUENV_CUPTI_KERNEL_START 16
#define CUENV_CUPTI_KERNEL_END 24
#define CUENV_CUPTI_KERNEL_CORRELATION 92
#define CUENV_CUPTI_KERNEL_NAME 104
#define CUENV_CUPTI_KERNEL_PREFIX 112 /* bytes read: up to name */
/*
 * A CUPTI API version from which the kernel records have that layout for
 * sure: CUDA 9.0's CUPTI (API 10) produces CUpti_ActivityKernel4. Older
 * ones produced CUpti_ActivityKernel3 (same prefix) or 2 (start at 8);
 * cuenv does not tell those apart and does not trust either.
 */
#define CUENV_CUPTI_KERNEL_MIN_API 10

typedef void (*cuenv_cupti_request_fn)(uint8_t **buffer, size_t *size,
				       size_t *max_records);
typedef void (*cuenv_cupti_complete_fn)(cuenv_CUcontext ctx, uint32_t stream_id,
					uint8_t *buffer, size_t size,
					size_t valid_size);

typedef int (*cuenv_cuptiGetVersion_fn)(uint32_t *version);
typedef int (*cuenv_cuptiGetResultString_fn)(int result, const char **str);
typedef int (*cuenv_cuptiGetTimestamp_fn)(uint64_t *ns);
typedef int (*cuenv_cuptiActivityRegisterCallbacks_fn)(
	cuenv_cupti_request_fn request, cuenv_cupti_complete_fn complete);
typedef int (*cuenv_cuptiActivityEnable_fn)(int kind);
typedef int (*cuenv_cuptiActivityDisable_fn)(int kind);
typedef int (*cuenv_cuptiActivityFlushAll_fn)(uint32_t flag);
typedef int (*cuenv_cuptiActivityGetNextRecord_fn)(uint8_t *buffer,
						   size_t valid_size,
						   void **record);

#endif
