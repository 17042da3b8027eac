#include "check/check_plan.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/plat_path.h"
#include "store/detect.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "plat/plat_sys.h"
#include "check/check.h"
#include "base/version.h"
#include "base/xalloc.h"

void check_plan_release(struct check_plan *pl)
{
	FREE_EACH(pl->runtime, pl->cudnn, pl->cupti);
	STRV_RELEASE_EACH(&pl->argv, &pl->own);
}

static void add_dirs(struct strv *to, const struct strv *from)
{
	for (size_t i = 0; i < from->n; i++)
		if (strv_find(to, from->v[i]) < 0)
			strv_push(to, from->v[i]);
}

/*
 * Windows: the DLL of lib in dirs (cudart64_110.dll; CUPTI's are named
 * after years, cupti64_2020.3.1.dll, so only a folder can tell), heap
 * string, or NULL. Not a family member: cudnn64_8.dll, not
 * cudnn_ops_infer64_8.dll.
 */
static char *dll_in(const struct strv *dirs, const struct nvlib *lib)
{
	size_t n = strlen(lib->dll);
	struct buf p = BUF_INIT;
	char *found = NULL;

	for (size_t i = 0; i < dirs->n && !found; i++) {
		struct plat_dir *d = plat_opendir(dirs->v[i]);
		const char *ent;
		unsigned long majors;
		struct plat_stat st;

		while (d && !found && (ent = plat_readdir(d))) {
			if (strncasecmp(ent, lib->dll, n) ||
			    nvlib_match_dll(ent, &majors) != lib)
				continue;
			buf_reset(&p);
			buf_path(&p, dirs->v[i], ent);
			if (!plat_stat(p.data, &st) && st.type == PLAT_F_REG)
				found = xstrdup(ent);
		}
		if (d)
			plat_closedir(d);
	}
	buf_release(&p);
	return found;
}

/*
 * Windows: the DLL of lib in dirs, else the DLL name NVIDIA gives that
 * release; CUPTI, whose DLL names no release, falls back to
 * cupti64_<major><minor>.dll so that it is still named.
 */
static char *dll_of(const struct strv *dirs, const struct nvlib *lib,
		    const char *version)
{
	struct buf b = BUF_INIT, mm = BUF_INIT;
	char *s;

	s = dll_in(dirs, lib);
	if (s)
		return s;
	if (!nvlib_dll_name(lib, version, &b)) {
		version_major_minor(version, &mm);
		buf_reset(&b);
		buf_adds(&b, lib->dll);
		for (const char *c = mm.data; *c; c++)
			if (*c != '.')
				buf_add(&b, c, 1);
		buf_adds(&b, ".dll");
	}
	s = xstrdup(b.data);
	buf_release(&b);
	buf_release(&mm);
	return s;
}

/* The soname of lib in dirs, or the one version's release gives it; on
 * Windows the DLL (dll_of). */
static char *soname_of(const struct strv *dirs, enum nvlib_id id,
		       const char *version)
{
	const struct nvlib *lib = nvlib_get(id);
	char *s;

	if (plat_sys_lib_naming() == PLAT_LIB_DLL)
		return dll_of(dirs, lib, version);
	s = check_find_soname(dirs, lib->so);
	if (!s)
		s = detect_soname(lib->stem, version);
	return s;
}

static void arg2(struct strv *argv, const char *opt, const char *value)
{
	if (!value)
		return;
	strv_push(argv, opt);
	strv_push(argv, value);
}

void check_plan_make(const struct active *act, const char *probe, int device,
		     const struct driver_req *req, struct check_plan *pl)
{
	const struct store_version *cu = act->cuda;
	struct strv dirs = STRV_INIT;
	struct buf dev = BUF_INIT;

	strv_push(&pl->argv, probe);
	arg2(&pl->argv, "--cuda", cu->version);
	if (act->cudnn)
		arg2(&pl->argv, "--cudnn", act->cudnn->version);
	if (act->cupti)
		arg2(&pl->argv, "--cupti", act->cupti->version);
	buf_printf(&dev, "%d", device);
	arg2(&pl->argv, "--device", dev.data);
	if (req) {
		arg2(&pl->argv, "--driver-need", req->release);
		arg2(&pl->argv, "--driver-compat", req->compat);
	}

	pl->runtime = soname_of(&cu->lib, NVLIB_CUDART, cu->version);
	if (act->cupti) {
		add_dirs(&dirs, &act->cupti->cupti);
		add_dirs(&dirs, &act->cupti->lib);
		pl->cupti = soname_of(&dirs, NVLIB_CUPTI,
				      act->cupti->cupti_version
					      ? act->cupti->cupti_version
					      : act->cupti->version);
	} else {
		add_dirs(&dirs, &cu->cupti);
		add_dirs(&dirs, &cu->lib);
		pl->cupti = soname_of(&dirs, NVLIB_CUPTI,
				      cu->cupti_version ? cu->cupti_version
							: cu->version);
	}
	/* cuDNN when selected, or when the toolkit carries one (wheels) */
	if (act->cudnn)
		pl->cudnn = soname_of(&act->cudnn->lib, NVLIB_CUDNN,
				      act->cudnn->version);
	else if (plat_sys_lib_naming() == PLAT_LIB_SONAME)
		pl->cudnn =
			check_find_soname(&cu->lib, nvlib_get(NVLIB_CUDNN)->so);
	else
		pl->cudnn = dll_in(&cu->lib, nvlib_get(NVLIB_CUDNN));
	arg2(&pl->argv, "--runtime", pl->runtime);
	arg2(&pl->argv, "--cupti-lib", pl->cupti);
	arg2(&pl->argv, "--cudnn-lib", pl->cudnn);

	if (act->cudnn)
		add_dirs(&pl->own, &act->cudnn->lib);
	add_dirs(&pl->own, &cu->lib);
	add_dirs(&pl->own, &cu->cupti);
	if (act->cupti) {
		add_dirs(&pl->own, &act->cupti->cupti);
		add_dirs(&pl->own, &act->cupti->lib);
	}
	for (size_t i = 0; i < pl->own.n; i++)
		arg2(&pl->argv, "--own", pl->own.v[i]);

	strv_release(&dirs);
	buf_release(&dev);
}

/* ---- when the probe dies ------------------------------------------------- */

int check_step_layer(const char *step)
{
	static const struct {
		const char *step;
		int layer;
	} steps[] = {
		{ "driver", CHECK_DRIVER }, { "runtime", CHECK_RUNTIME },
		{ "cupti", CHECK_CUPTI },   { "kernel", CHECK_KERNEL },
		{ "cudnn", CHECK_CUDNN },   { "cupti-trace", CHECK_CUPTI },
	};

	for (size_t i = 0; i < sizeof(steps) / sizeof(*steps); i++)
		if (!strcmp(step, steps[i].step))
			return steps[i].layer;
	return -1;
}

/* What to do when the library of layer crashed the probe. */
static void crash_fix(const struct active *act, int layer,
		      struct check_layer *l)
{
	const char *cuda = act->cuda->version;

	switch (layer) {
	case CHECK_DRIVER:
		check_fix(l,
			  "the NVIDIA driver crashed: check nvidia-smi and "
			  "the kernel log (dmesg), and reinstall the driver");
		break;
	case CHECK_CUDNN:
		check_fix(l, "install cuDNN again: cuenv install %s --cudnn %s",
			  cuda, act->cudnn ? act->cudnn->version : "9");
		break;
	case CHECK_CUPTI:
		check_fix(l, "install CUPTI again: cuenv install %s --cupti %s",
			  cuda, act->cupti ? act->cupti->version : cuda);
		break;
	default:
		check_fix(l,
			  "install the toolkit again (cuenv install %s), and "
			  "check nvidia-smi and the kernel log (dmesg)",
			  cuda);
		break;
	}
}

void check_plan_blame(const struct check_plan *pl, const struct active *act,
		      int layer, const char *step, const char *why,
		      const char *tail, struct check_report *r)
{
	check_setstr(&r->cuda, act->cuda->version);
	check_setstr(&r->cudnn, act->cudnn ? act->cudnn->version : NULL);
	check_setstr(&r->cupti, act->cupti ? act->cupti->version : NULL);
	check_setstr(&r->layer[CHECK_DRIVER].soname, plat_sys_cuda_driver());
	check_setstr(&r->layer[CHECK_RUNTIME].soname, pl->runtime);
	check_setstr(&r->layer[CHECK_CUDNN].soname, pl->cudnn);
	check_setstr(&r->layer[CHECK_CUPTI].soname, pl->cupti);
	r->layer[CHECK_CUDNN].asked = pl->cudnn != NULL;
	for (int i = 0; i < CHECK_LAYERS; i++)
		if (i != layer)
			check_set(&r->layer[i], CHECK_SKIP,
				  "not known: cuenv-probe %s during the %s "
				  "layer",
				  why, check_layer_name(layer));
	check_set(&r->layer[layer], CHECK_FAIL,
		  "cuenv-probe %s in its %s step: the library that layer "
		  "loads crashed or hung%s%s",
		  why, step, *tail ? ": " : "", tail);
	crash_fix(act, layer, &r->layer[layer]);
}

/* ---- --compile ----------------------------------------------------------- */

/* clang-format off */
const char check_compile_src[] =
	"// cuenv check --compile: built by the selection's own nvcc\n"
	"#include <cstdio>\n"
	"#include <cstdlib>\n"
	"#include <cuda_runtime.h>\n"
	"\n"
	"__global__ void cuenv_scale(const float *x, float *y, int n)\n"
	"{\n"
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tif (i < n)\n"
	"\t\ty[i] = 2.0f * x[i] + 1.0f;\n"
	"}\n"
	"\n"
	"static int fail(const char *what, cudaError_t e)\n"
	"{\n"
	"\tprintf(\"%s: %s\\n\", what, cudaGetErrorString(e));\n"
	"\treturn 1;\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tconst int n = 1000;\n"
	"\tint dev = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;\n"
	"\tint rt = 0;\n"
	"\tstatic float x[n], y[n];\n"
	"\tfloat *dx, *dy;\n"
	"\tcudaError_t e;\n"
	"\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\tx[i] = (float)i;\n"
	"\tif ((e = cudaSetDevice(dev)) != cudaSuccess)\n"
	"\t\treturn fail(\"cudaSetDevice\", e);\n"
	"\tif ((e = cudaMalloc(&dx, sizeof x)) != cudaSuccess ||\n"
	"\t    (e = cudaMalloc(&dy, sizeof y)) != cudaSuccess)\n"
	"\t\treturn fail(\"cudaMalloc\", e);\n"
	"\tif ((e = cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice)) !=\n"
	"\t    cudaSuccess)\n"
	"\t\treturn fail(\"cudaMemcpy\", e);\n"
	"\tcuenv_scale<<<(n + 127) / 128, 128>>>(dx, dy, n);\n"
	"\tif ((e = cudaGetLastError()) != cudaSuccess)\n"
	"\t\treturn fail(\"launch\", e);\n"
	"\tif ((e = cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost)) !=\n"
	"\t    cudaSuccess)\n"
	"\t\treturn fail(\"cudaMemcpy\", e);\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\tif (y[i] != 2.0f * x[i] + 1.0f) {\n"
	"\t\t\tprintf(\"wrong: y[%d] = %g\\n\", i, y[i]);\n"
	"\t\t\treturn 1;\n"
	"\t\t}\n"
	"\tcudaRuntimeGetVersion(&rt);\n"
	"\tprintf(\"cuenv-check-compiled: %d elements, runtime %d\\n\", n, rt);\n"
	"\treturn 0;\n"
	"}\n";
/* clang-format on */


#define COMPILED_OK "cuenv-check-compiled: 1000 elements"

bool check_compile_output_ok(const char *out)
{
	return strstr(out, COMPILED_OK) != NULL;
}

void check_compile_no_nvcc(struct check_layer *l,
			   const struct store_version *cuda)
{
	check_set(l, CHECK_FAIL,
		  "--compile: the selection (cuda %s) "
		  "has no nvcc",
		  cuda->version);
	/* install refuses a version installed without
	 * components asked for now: it goes first. */
	if (cuda->registered)
		check_fix(l,
			  "register a whole toolkit instead: cuenv "
			  "remove %s, then cuenv add cuda PATH",
			  cuda->version);
	else if (store_version_part_from_wheel(cuda, "cuda_nvcc"))
		/* a reinstall from the index brings no nvcc either */
		check_fix(l,
			  "its cuda_nvcc came from the package index, whose "
			  "wheel of %s holds no nvcc: compile with a toolkit "
			  "that has one (cuenv add cuda PATH registers one "
			  "of another release)",
			  cuda->version);
	else
		check_fix(l,
			  "install the whole toolkit, not "
			  "--runtime-only: cuenv uninstall --force cuda %s && "
			  "cuenv install %s",
			  cuda->version, cuda->version);
}

void check_compile_not_built(struct check_layer *l, const char *nvcc,
			     bool timed_out, const char *tail)
{
	check_set(l, CHECK_FAIL,
		  "%s could not build a small CUDA program (%s): %s", nvcc,
		  timed_out ? "timed out" : "it exited with an error", tail);
	check_fix(l, "nvcc needs a host compiler it supports (g++) and "
		     "the selection's headers and libraries: see "
		     "cuenv exec -- nvcc --version");
}

bool check_compile_built(struct check_report *r, const char *nvcc)
{
	struct check_layer *l = &r->layer[CHECK_KERNEL];
	bool gpu = r->layer[CHECK_DRIVER].status == CHECK_PASS &&
		   r->layer[CHECK_RUNTIME].status == CHECK_PASS;

	check_detail(l, "compile", "ok");
	if (!gpu && l->status == CHECK_SKIP)
		check_set(l, CHECK_SKIP,
			  "%s built the test program; running it "
			  "needs the driver and runtime layers",
			  nvcc);
	return gpu;
}

void check_compile_run_failed(struct check_layer *l, int status,
			      const char *tail)
{
	check_set(l, CHECK_FAIL,
		  "the program nvcc built did not run right (status "
		  "%d): %s",
		  status, tail);
	check_fix(l, "the toolkit's runtime and the driver disagree: "
		     "run cuenv check without --compile to see which");
}

void check_compile_ran(struct check_layer *l, const char *nvcc)
{
	check_detail(l, "compiled_run", "ok");
	if (l->status == CHECK_PASS) {
		char *m = l->message;

		l->message = NULL;
		check_set(l, CHECK_PASS,
			  "%s; and a program built by %s ran "
			  "right",
			  m ? m : "", nvcc);
		free(m);
	}
}
