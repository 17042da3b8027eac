/*
 * libcudnn.c: a fake cuDNN (libcudnn.so.N) whose legacy convolution runs
 * on the CPU, on the host memory the fake runtime hands out. See fake.h.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fake.h"

#ifndef FAKE_DEFAULT_VERSION
#define FAKE_DEFAULT_VERSION 90100
#endif
#ifndef FAKE_DEFAULT_CUDART
#define FAKE_DEFAULT_CUDART 12020
#endif

#define BAD_PARAM 3 /* CUDNN_STATUS_BAD_PARAM (cuDNN 8) */

struct tensor {
	int n, c, h, w;
};

struct conv {
	int pad_h, pad_w, u, v, dil_h, dil_w, mode;
};

FAKE_EXPORT size_t cudnnGetVersion(void)
{
	return (size_t)fake_env("FAKE_CUDNN_VERSION", FAKE_DEFAULT_VERSION);
}

FAKE_EXPORT size_t cudnnGetCudartVersion(void)
{
	return (size_t)fake_env("FAKE_CUDNN_CUDART_VERSION",
				FAKE_DEFAULT_CUDART);
}

FAKE_EXPORT const char *cudnnGetErrorString(int st)
{
	return st == 0		 ? "CUDNN_STATUS_SUCCESS"
	       : st == BAD_PARAM ? "CUDNN_STATUS_BAD_PARAM"
				 : "CUDNN_STATUS_INTERNAL_ERROR";
}

FAKE_EXPORT int cudnnCreate(void **h)
{
	*h = malloc(16);
	return *h ? 0 : 4;
}

FAKE_EXPORT int cudnnDestroy(void *h)
{
	free(h);
	return 0;
}

static int create(void **d, size_t size)
{
	*d = calloc(1, size);
	return *d ? 0 : 4;
}

FAKE_EXPORT int cudnnCreateTensorDescriptor(void **d)
{
	return create(d, sizeof(struct tensor));
}

FAKE_EXPORT int cudnnCreateFilterDescriptor(void **d)
{
	return create(d, sizeof(struct tensor));
}

FAKE_EXPORT int cudnnCreateConvolutionDescriptor(void **d)
{
	return create(d, sizeof(struct conv));
}

FAKE_EXPORT int cudnnDestroyTensorDescriptor(void *d)
{
	free(d);
	return 0;
}

FAKE_EXPORT int cudnnDestroyFilterDescriptor(void *d)
{
	free(d);
	return 0;
}

FAKE_EXPORT int cudnnDestroyConvolutionDescriptor(void *d)
{
	free(d);
	return 0;
}

static int set4d(struct tensor *t, int format, int type, int n, int c, int h,
		 int w)
{
	if (format != CUENV_CUDNN_TENSOR_NCHW ||
	    type != CUENV_CUDNN_DATA_FLOAT || n < 1 || c < 1 || h < 1 || w < 1)
		return BAD_PARAM;
	*t = (struct tensor){n, c, h, w};
	return 0;
}

FAKE_EXPORT int cudnnSetTensor4dDescriptor(void *d, int format, int type, int n,
					   int c, int h, int w)
{
	return set4d(d, format, type, n, c, h, w);
}

/* Note the order: data type first, then format (as in cudnn_ops.h). */
FAKE_EXPORT int cudnnSetFilter4dDescriptor(void *d, int type, int format, int k,
					   int c, int h, int w)
{
	return set4d(d, format, type, k, c, h, w);
}

FAKE_EXPORT int cudnnSetConvolution2dDescriptor(void *d, int pad_h, int pad_w,
						int u, int v, int dil_h,
						int dil_w, int mode, int type)
{
	if (type != CUENV_CUDNN_DATA_FLOAT || u < 1 || v < 1 || dil_h < 1 ||
	    dil_w < 1 || (mode != 0 && mode != 1))
		return BAD_PARAM;
	*(struct conv *)d =
	    (struct conv){pad_h, pad_w, u, v, dil_h, dil_w, mode};
	return 0;
}

static void out_dim(const struct conv *cv, const struct tensor *x,
		    const struct tensor *w, struct tensor *y)
{
	y->n = x->n;
	y->c = w->n;
	y->h =
	    (x->h + 2 * cv->pad_h - ((w->h - 1) * cv->dil_h + 1)) / cv->u + 1;
	y->w =
	    (x->w + 2 * cv->pad_w - ((w->w - 1) * cv->dil_w + 1)) / cv->v + 1;
}

FAKE_EXPORT int cudnnGetConvolution2dForwardOutputDim(void *conv, void *in,
						      void *filter, int *n,
						      int *c, int *h, int *w)
{
	struct tensor y;

	out_dim(conv, in, filter, &y);
	*n = y.n;
	*c = y.c;
	*h = y.h;
	*w = y.w;
	return 0;
}

FAKE_EXPORT int cudnnGetConvolutionForwardWorkspaceSize(void *h, void *x,
							void *w, void *conv,
							void *y, int algo,
							size_t *bytes)
{
	(void)h;
	(void)x;
	(void)w;
	(void)conv;
	(void)y;
	if (algo != CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM)
		return BAD_PARAM;
	*bytes = 64;
	return 0;
}

FAKE_EXPORT int cudnnConvolutionForward(void *h, const void *alpha, void *xd,
					const void *x, void *wd, const void *w,
					void *convd, int algo, void *ws,
					size_t ws_bytes, const void *beta,
					void *yd, void *y)
{
	const struct tensor *xt = xd, *wt = wd, *yt = yd;
	const struct conv *cv = convd;
	const float *xf = x, *wf = w;
	float *yf = y, a = *(const float *)alpha, b = *(const float *)beta;
	struct tensor want;

	if (!h || algo != CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM ||
	    (ws_bytes && !ws))
		return BAD_PARAM;
	out_dim(cv, xt, wt, &want);
	if (memcmp(&want, yt, sizeof(want)) || xt->c != 1 || wt->c != 1 ||
	    xt->n != 1 || wt->n != 1)
		return BAD_PARAM; /* the fake does one channel */
	if (fake_env("FAKE_CUDNN_CRASH", 0))
		abort();
	while (fake_env("FAKE_CUDNN_HANG", 0))
		pause();
	for (int i = 0; i < yt->h; i++)
		for (int j = 0; j < yt->w; j++) {
			float s = 0;

			for (int u = 0; u < wt->h; u++)
				for (int v = 0; v < wt->w; v++) {
					int r = i * cv->u - cv->pad_h +
						u * cv->dil_h;
					int c = j * cv->v - cv->pad_w +
						v * cv->dil_w;
					int fu = cv->mode ? u : wt->h - 1 - u;
					int fv = cv->mode ? v : wt->w - 1 - v;

					if (r < 0 || c < 0 || r >= xt->h ||
					    c >= xt->w)
						continue;
					s += xf[r * xt->w + c] *
					     wf[fu * wt->w + fv];
				}
			yf[i * yt->w + j] = a * s + b * yf[i * yt->w + j];
		}
	if (fake_env("FAKE_CUDNN_WRONG", 0) && yt->h * yt->w > 4)
		yf[4] += 1.0f;
	return 0;
}
