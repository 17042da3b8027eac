#include "artifact/fwmsg.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/version.h"
#include "base/xalloc.h"

/* The version at p ("8.6.0"), or NULL when what is there is none
 * (version_is_valid: "000...000" from a mangled log is not). */
static char *version_at(const char *p)
{
	size_t n = 0;
	char *v;

	while (p[n] == ' ')
		p++;
	while (isdigit((unsigned char)p[n]) || p[n] == '.')
		n++;
	while (n && p[n - 1] == '.')
		n--;
	if (!n)
		return NULL;
	v = xstrndup(p, n);
	if (!version_is_valid(v)) {
		free(v);
		return NULL;
	}
	return v;
}

/*
 * A cuDNN version as PyTorch prints it: a tuple "(9, 26, 0)", or, before
 * 1.8, the CUDNN_VERSION number (8005 is 8.0.5, 90100 is 9.1.0).
 */
static char *torch_version_at(const char *p)
{
	struct buf b = BUF_INIT;

	while (*p == ' ')
		p++;
	if (*p == '(') {
		for (p++; *p && *p != ')'; p++) {
			if (isdigit((unsigned char)*p))
				buf_addc(&b, *p);
			else if (*p == ',')
				buf_addc(&b, '.');
			else if (*p != ' ')
				break;
		}
		if (*p != ')' || !b.len || !version_is_valid(b.data)) {
			buf_release(&b);
			return NULL;
		}
		return buf_detach(&b);
	}
	if (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (v >= 10000)
			buf_printf(&b, "%lu.%lu.%lu", v / 10000,
				   (v % 10000) / 100, v % 100);
		else if (v >= 1000)
			buf_printf(&b, "%lu.%lu.%lu", v / 1000,
				   (v % 1000) / 100, v % 100);
		/* a huge number (strtoul's ULONG_MAX) is no version */
		if (b.len && version_is_valid(b.data))
			return buf_detach(&b);
	}
	buf_release(&b);
	return NULL;
}

void fwmsg_cudnn_mismatches(const char *line, char **pending_min,
			    fwmsg_found_fn *found, void *arg)
{
	const char *p, *q;

	/* TensorFlow's (and XLA's) stream_executor/cuda/cuda_dnn.cc; JAX
	 * builds them as external/org_tensorflow, later external/xla,
	 * TensorFlow 2.14 on as external/local_xla */
	p = strstr(line, "Loaded runtime CuDNN library:");
	if (p) {
		/* without a source path (absl's "E0607 ... cuda_dnn.cc:522]",
		 * TensorFlow 2.18 and jaxlib 0.4.36 on, or the bare
		 * sentence): TensorFlow or JAX, as the rest of the text says */
		const char *fw = "xla";

		if (strstr(line, "external/xla/"))
			fw = "jax";
		else if (strstr(line, "tensorflow/") ||
			 strstr(line, "local_xla/"))
			fw = "tensorflow";
		q = strstr(p, "compiled with:");
		found(arg, line, fw,
		      q ? version_at(q + strlen("compiled with:")) : NULL,
		      version_at(p + strlen("Loaded runtime CuDNN "
					    "library:")));
	}
	/* PyTorch's torch/backends/cudnn/__init__.py */
	p = strstr(line, "PyTorch was compiled");
	if (p) {
		const char *a = strstr(p, "against"), *rv = NULL;

		if (a && (q = strstr(a, "runtime version")))
			rv = q + strlen("runtime version");
		else if (a && (q = strstr(a + 7, "linked against")))
			rv = q + strlen("linked against");
		if (rv)
			found(arg, line, "torch",
			      torch_version_at(a + strlen("against")),
			      torch_version_at(rv));
	}
	/* JAX's jaxlib/cuda versions check: "Found cuDNN version 8600, but
	 * JAX was built against version 8906" */
	p = strstr(line, "Found cuDNN version");
	if (p && (q = strstr(p, "built against version")))
		found(arg, line, "jax",
		      torch_version_at(q + strlen("built against "
						  "version")),
		      torch_version_at(p + strlen("Found cuDNN "
						  "version")));
	/* and, from 0.4.31, over several lines: "Outdated cuDNN installation
	 * found." ... "Minimum supported: 9100" ... "Installed version: 8907" */
	p = strstr(line, "Minimum supported:");
	if (p) {
		free(*pending_min);
		*pending_min =
			torch_version_at(p + strlen("Minimum supported:"));
	}
	p = strstr(line, "Installed version:");
	if (p && *pending_min) {
		char *min = *pending_min;

		*pending_min = NULL;
		found(arg, line, "jax", min,
		      torch_version_at(p + strlen("Installed version:")));
	}
	/* Paddle's gpu_resources.cc: "The installed Paddle is compiled with
	 * CUDNN 8.4, but CUDNN version in your machine is 8.3" */
	p = strstr(line, "Paddle is compiled with CUDNN");
	if (p && (q = strstr(p, "CUDNN version in your machine is")))
		found(arg, line, "paddle",
		      version_at(p + strlen("Paddle is compiled with "
					    "CUDNN")),
		      version_at(q + strlen("CUDNN version in your "
					    "machine is")));
}

struct first_built {
	char *built;
};

static void keep_first(void *arg, const char *line, const char *framework,
		       char *built, char *loaded)
{
	struct first_built *fb = arg;

	(void)line;
	(void)framework;
	if (!fb->built && built && loaded) {
		fb->built = built;
		built = NULL;
	}
	free(built);
	free(loaded);
}

char *fwmsg_cudnn_built(const char *text)
{
	struct first_built fb = { NULL };
	char *pending_min = NULL;
	const char *p = text;

	while (*p && !fb.built) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);

		for (char *q = line; *q; q++)
			if (*q == '\r')
				*q = ' ';
		fwmsg_cudnn_mismatches(line, &pending_min, keep_first, &fb);
		free(line);
		p += n;
		if (*p)
			p++;
	}
	free(pending_min);
	return fb.built;
}
