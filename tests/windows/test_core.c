/*
 * tests/windows/test_core.c: core modules cross-built for Windows
 * (make windows-core: libcuenv-core.a), checked under wine
 * (make test-windows-core). Plain C: cmocka is not cross-built. The
 * path cases are the ones tests/unit/plat/test_plat_path.c runs on Linux
 * (tests/unit/plat/plat_path_cases.h); here plat_path_native() must be the
 * Windows rules. Expected values are written by hand (see each check).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <shellapi.h>

#include "../../core/base/buf.h"
#include "../../core/base/err.h"
#include "../../core/nvidia/nvlib.h"
#include "../../core/plat/plat_cmdline.h"
#include "../../core/plat/plat_dl.h"
#include "../../core/plat/plat_sys.h"
#include "../../core/plat/plat_proc.h"
#include "../../core/plat/plat_path.h"
#include "../../core/plat/shell.h"
#include "../../core/base/version.h"
#include "../../core/base/xalloc.h"
#include "../unit/plat/plat_path_cases.h"

#define N(a) (sizeof(a) / sizeof *(a))

static int failed, checked;

static void check(int ok, const char *what, const char *got, const char *want)
{
	checked++;
	if (ok)
		return;
	failed++;
	printf("FAIL %s: got [%s], want [%s]\n", what, got ? got : "(null)",
	       want ? want : "(null)");
}

static void check_str(const char *what, const char *got, const char *want)
{
	check(got && want ? !strcmp(got, want) : got == want, what, got, want);
}

static void plat_path_checks(void)
{
	char b[64];

	check(plat_path_native() == &plat_path_windows, "native rules",
	      plat_path_native() == &plat_path_posix ? "posix" : "?",
	      "windows");
	for (size_t i = 0; i < N(kind_cases); i++) {
		size_t n;
		enum plat_path_kind k =
			plat_path_kind(kind_cases[i].r, kind_cases[i].path, &n);

		snprintf(b, sizeof b, "%d/%u/%d", (int)k, (unsigned)n,
			 plat_path_is_abs(kind_cases[i].r, kind_cases[i].path));
		{
			char w[64];

			snprintf(w, sizeof w, "%d/%u/%d",
				 (int)kind_cases[i].kind,
				 (unsigned)kind_cases[i].root_len,
				 kind_cases[i].abs);
			check_str(kind_cases[i].path, b, w);
		}
	}
	for (size_t i = 0; i < N(join_cases); i++) {
		char *s = plat_path_join(join_cases[i].r, join_cases[i].a,
					 join_cases[i].b);

		check_str(join_cases[i].a, s, join_cases[i].want);
		free(s);
	}
	for (size_t i = 0; i < N(normalize_cases); i++) {
		char *s = plat_path_normalize(normalize_cases[i].r,
					      normalize_cases[i].path);

		check_str(normalize_cases[i].path, s, normalize_cases[i].want);
		free(s);
	}
	for (size_t i = 0; i < N(parent_cases); i++) {
		char *s = plat_path_parent(parent_cases[i].r,
					   parent_cases[i].path);

		check_str(parent_cases[i].path, s, parent_cases[i].want);
		free(s);
	}
	for (size_t i = 0; i < N(equal_cases); i++)
		check(plat_path_equal(equal_cases[i].r, equal_cases[i].a,
				      equal_cases[i].b) == equal_cases[i].equal,
		      equal_cases[i].a, equal_cases[i].b,
		      equal_cases[i].equal ? "equal" : "different");
}

static void shell_checks(void)
{
	struct buf out = BUF_INIT;

	/* set /?: SET "variable=string" */
	check(!shell_cmd_export("CUDA_PATH",
				"C:\\Program Files\\NVIDIA GPU Computing "
				"Toolkit\\CUDA\\v11.2",
				&out),
	      "cmd export", "-1", "0");
	shell_cmd_export("P", "a&b|c 100% ^x (y) \"q\"", &out);
	shell_cmd_export("GONE", NULL, &out);
	check_str("cmd lines", out.data,
		  "\"CUDA_PATH=C:\\Program Files\\NVIDIA GPU Computing "
		  "Toolkit\\CUDA\\v11.2\"\n"
		  "\"P=a&b|c 100% ^x (y) \"q\"\"\n"
		  "\"GONE=\"\n");
	check(shell_cmd_export("X", "bang!", &out) == -1, "cmd refuses !", "0",
	      "-1");
	buf_reset(&out);
	/* about_Quoting_Rules: '' in a single-quoted string is one '; past
	 * ASCII, a double-quoted string of $([char]0x...) (ASCII only) */
	shell_pwsh_export("CUDA_PATH", "C:\\it's", &out);
	shell_pwsh_export("CUDNN_PATH", "C:\\it's \xe2\x80\x99", &out);
	shell_pwsh_export("GONE", NULL, &out);
	check_str("powershell lines", out.data,
		  "$env:CUDA_PATH = 'C:\\it''s'\n"
		  "$env:CUDNN_PATH = \"C:\\it's $([char]0x2019)\"\n"
		  "Remove-Item Env:GONE -ErrorAction SilentlyContinue\n");
	buf_reset(&out);
	shell_export(SHELL_SH, "X", "it's", &out);
	check_str("sh export", out.data, "export X='it'\\''s';\n");
	buf_release(&out);
}

static void version_checks(void)
{
	struct buf out = BUF_INIT;
	const struct nvlib *lib;
	unsigned long majors = 0;

	check(version_cmp_str("11.2", "11.10") < 0, "11.2 < 11.10", ">=", "<");
	check(version_matches_str("11.2.2", "11.2"), "11.2.2 matches 11.2",
	      "no", "yes");
	check(!version_is_valid("11.x"), "11.x invalid", "valid", "invalid");
	version_major_minor("12.4.1", &out);
	check_str("major.minor of 12.4.1", out.data, "12.4");
	/* NVIDIA's DLL names: TF 2.10 on Windows asks for cudart64_110.dll
	 * (CUDA 11.x) and cudnn64_8.dll (cuDNN 8) */
	buf_reset(&out);
	check(nvlib_dll_name(nvlib_get(NVLIB_CUDART), "11.2", &out),
	      "cudart dll name for 11.2", "false", "true");
	check_str("cudart dll for 11.2", out.data, "cudart64_110.dll");
	lib = nvlib_match_dll("CUDART64_110.DLL", &majors);
	check(lib == nvlib_get(NVLIB_CUDART) && majors == (1ul << 11),
	      "CUDART64_110.DLL is cudart of CUDA 11", "?", "cudart, 11");
	buf_reset(&out);
	check(nvlib_dll_soname("cudnn64_8.dll", &out), "cudnn64_8.dll soname",
	      "false", "true");
	check_str("cudnn64_8.dll soname", out.data, "libcudnn.so.8");
	buf_release(&out);
}

static void err_checks(void)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	check(cuenv_fail(&err, 2, "env: %s holds %zu bad bytes", "PATH",
			 (size_t)3) == 2,
	      "cuenv_fail returns its code", "?", "2");
	check_str("err message (%zu through mingw's printf)", err.msg.data,
		  "env: PATH holds 3 bad bytes");
	err_release(&err);
}

/*
 * The loader as TensorFlow meets it: a missing cudart64_110.dll is error
 * 126 (ERROR_MOD_NOT_FOUND), named; a DLL that is there gives its
 * exports and the file Windows picked.
 */
static void dl_checks(void)
{
	struct buf why = BUF_INIT, file = BUF_INIT;
	void *h = plat_dl_open("cudart64_110.dll", &why);

	check(h == NULL, "cudart64_110.dll is not there", "loaded", "NULL");
	check_str("missing DLL's message", why.data,
		  "cudart64_110.dll: the specified module could not be found "
		  "(error 126)");
	buf_reset(&why);
	h = plat_dl_open("kernel32.dll", &why);
	check(h != NULL, "kernel32.dll loads", why.data, "a handle");
	if (h) {
		check(plat_dl_sym(h, "GetTickCount") != NULL,
		      "kernel32.dll exports GetTickCount", "NULL",
		      "an address");
		check(plat_dl_sym(h, "cuInit") == NULL,
		      "kernel32.dll has no cuInit", "an address", "NULL");
		check(!plat_dl_path(h, &file) && file.len > 12 &&
			      plat_path_equal(plat_path_native(),
					      file.data + file.len - 12,
					      "kernel32.dll"),
		      "kernel32.dll's file", file.data, "...\\kernel32.dll");
		plat_dl_close(h);
	}
	check(plat_sys_lib_naming() == PLAT_LIB_DLL, "libraries go by DLL name",
	      "sonames", "DLL names");
	check_str("the CUDA driver's DLL", plat_sys_cuda_driver(),
		  "nvcuda.dll");
	buf_release(&why);
	buf_release(&file);
}

/*
 * CommandLineToArgvW, Windows' own splitter, gives back what
 * plat_cmdline_quote wrote (the unit test checks our splitter against
 * Microsoft's examples; this checks our quoting against Windows).
 */
static void cmdline_checks(void)
{
	static const char *const argv[] = { "C:\\Program Files\\p.exe",
					    "",
					    "a b",
					    "\\",
					    "end\\",
					    "\"",
					    "x\\\\\"y z\\",
					    "%PATH% ^&|<>",
					    NULL };
	struct buf line = BUF_INIT;
	wchar_t w[1024];
	wchar_t **got;
	int n = 0;

	check(plat_cmdline_quote(&line, argv) == 0, "quote argv", "-1", "0");
	MultiByteToWideChar(CP_UTF8, 0, line.data, -1, w, 1024);
	got = CommandLineToArgvW(w, &n);
	check(got && n == 8, "CommandLineToArgvW's count", line.data, "8");
	for (int i = 0; got && i < n && i < 8; i++) {
		char a[512];

		WideCharToMultiByte(CP_UTF8, 0, got[i], -1, a, sizeof a, NULL,
				    NULL);
		check_str("CommandLineToArgvW's argument", a, argv[i]);
	}
	LocalFree(got);
	buf_release(&line);
}

/*
 * plat_exec: cmd.exe found on the child's PATH (not ours), its exit code
 * back, and the child's environment as given: the batch line exits 7 only
 * when CUENV_T is set, and Path (any case) reached it.
 */
static void exec_checks(void)
{
	char sys[MAX_PATH];
	struct buf path = BUF_INIT;
	char *argv3[] = { "cmd", "/c", "exit 3", NULL };
	char *argvt[] = { "cmd", "/c", "if \"%CUENV_T%\"==\"a b\" exit 7",
			  NULL };
	char *argvx[] = { "no-such-program-here", NULL };
	char *env[4] = { NULL };
	int rc;

	GetSystemDirectoryA(sys, sizeof sys);
	buf_printf(&path, "Path=%s", sys);
	env[0] = path.data;
	rc = plat_exec(argv3, env);
	check(rc == 3, "cmd /c exit 3 gives 3", rc == 3 ? "3" : "other", "3");
	env[1] = "CUENV_T=a b";
	rc = plat_exec(argvt, env);
	check(rc == 7, "the child sees CUENV_T", rc == 7 ? "7" : "other", "7");
	rc = plat_exec(argvx, env);
	check(rc == -1 && errno == ENOENT, "a missing program is ENOENT",
	      rc == -1 ? "-1" : "ran", "-1, ENOENT");
	env[0] = "X=1";
	env[1] = NULL;
	rc = plat_exec(argv3, env);
	check(rc == -1, "cmd is not found without a PATH", "ran", "-1");
	buf_release(&path);
}

#include "fs_checks.h"
#include "install_checks.h"
#include "detect_checks.h"
#include "proc_checks.h"
#include "startup_checks.h"

int main(void)
{
	exec_checks();
	dl_checks();
	cmdline_checks();
	plat_path_checks();
	shell_checks();
	version_checks();
	err_checks();
	fs_checks();
	install_checks();
	detect_checks();
	proc_checks();
	cwd_checks();
	startup_checks();
	printf("test_core: %d checks, %d failed\n", checked, failed);
	return failed != 0;
}
