/*
 * startup_checks.h: what cmd/ decided and core now decides (issue 12),
 * where Windows differs, under wine: cuenv's root from the environment
 * (%LOCALAPPDATA%\cuenv by default, a drive's root kept, ';' refused),
 * the working directory (getcwd's: a Windows PWD is never taken), the
 * hint of `cuenv use` without a shell integration (PowerShell and cmd),
 * and cuenv's helper programs, which are NAME.exe. Included by
 * test_core.c after fs_checks.h (uses check, check_str, check_int,
 * put_text). Expected values are written by hand.
 */
#include "../../core/select/hook.h"
#include "../../core/nvidia/manifests.h"
#include "../../core/select/startup.h"

static void startup_root_checks(void)
{
	char *local[] = { "HOME=C:\\users\\u",
			  "LOCALAPPDATA=C:\\users\\u\\AppData\\Local", NULL };
	char *home[] = { "HOME=C:\\users\\u", "CUENV_ROOT=", NULL };
	char *set[] = { "CUENV_ROOT=D:\\cuenv\\\\", NULL };
	char *drive[] = { "CUENV_ROOT=D:\\", NULL };
	char *relative[] = { "CUENV_ROOT=cuenv", NULL };
	char *split[] = { "CUENV_ROOT=D:\\a;b", NULL };
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf root = BUF_INIT;

	check_int("root from LOCALAPPDATA", startup_root(local, &root, &err),
		  CUENV_OK);
	check_str("  is LOCALAPPDATA\\cuenv", root.data,
		  "C:\\users\\u\\AppData\\Local\\cuenv");
	buf_reset(&root);
	/* HOME is not where Windows programs keep data */
	check_int("root without LOCALAPPDATA", startup_root(home, &root, &err),
		  CUENV_E_USAGE);
	check_str("  says which variable", err.msg.data,
		  "neither CUENV_ROOT nor LOCALAPPDATA is set");
	err_release(&err);
	buf_reset(&root);
	check_int("root from CUENV_ROOT", startup_root(set, &root, &err),
		  CUENV_OK);
	check_str("  without its final separators", root.data, "D:\\cuenv");
	buf_reset(&root);
	/* a drive's root is the system's (issue 20): refused */
	check_int("root D:\\", startup_root(drive, &root, &err),
		  CUENV_E_USAGE);
	check_str("  refused", err.msg.data,
		  "CUENV_ROOT 'D:\\' is a folder the system shares: "
		  "cuenv's root must be a folder of its own");
	err_release(&err);
	buf_reset(&root);
	check_int("relative root", startup_root(relative, &root, &err),
		  CUENV_E_USAGE);
	check_str("  refused", err.msg.data,
		  "CUENV_ROOT must be an absolute path, not 'cuenv'");
	err_release(&err);
	buf_reset(&root);
	check_int("root with ';'", startup_root(split, &root, &err),
		  CUENV_E_USAGE);
	check(strstr(err.msg.data, "holds a ';'") != NULL, "  names the ';'",
	      err.msg.data, "... holds a ';' ...");
	err_release(&err);
	buf_release(&root);
}

static void startup_cwd_checks(void)
{
	char *want = plat_getcwd(), *got;
	int gone = 1;

	/* a PWD is a POSIX shell's: on Windows the folder is getcwd's */
	got = startup_cwd("C:\\windows", &gone);
	check_str("startup_cwd is getcwd's", got, want);
	check_int("  not gone", gone, 0);
	free(got);
	got = startup_cwd(NULL, &gone);
	check_str("startup_cwd without PWD", got, want);
	free(got);
	free(want);
}

static void use_hint_checks(void)
{
	struct hook_use u = { .shell = NULL, .nargs = 1, .spec = "11.2" };
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	enum shell sh;

	check_int("use without integration",
		  hook_use_start(&u, &before, &sh, &start, &err),
		  CUENV_E_USAGE);
	check_str("  hints at PowerShell and cmd", err.hint.data,
		  "PowerShell: cuenv init pwsh | Out-String | "
		  "Invoke-Expression; cmd: its doskey macro (cuenv init "
		  "--help); or use: cuenv exec");
	err_release(&err);
	u.shell = "pwsh";
	check_int("use in PowerShell",
		  hook_use_start(&u, &before, &sh, &start, &err), CUENV_OK);
	check_str("  selects 11.2", envmap_get(&start, "CUENV_VERSION"),
		  "11.2");
	envmap_release(&start);
}

static void helper_checks(void)
{
	wchar_t wtmp[MAX_PATH + 1];
	char tmp[4 * MAX_PATH];
	struct buf root = BUF_INIT, exe = BUF_INIT, tried = BUF_INIT,
		   want = BUF_INIT;
	char *none[] = { NULL }, *found;

	if (!GetTempPathW(MAX_PATH + 1, wtmp) ||
	    !WideCharToMultiByte(CP_UTF8, 0, wtmp, -1, tmp, sizeof tmp, NULL,
				 NULL)) {
		check(0, "GetTempPathW", "failed", "a folder");
		return;
	}
	buf_printf(&root, "%scuenv helper %lu-%llu", tmp,
		   (unsigned long)GetCurrentProcessId(),
		   (unsigned long long)GetTickCount64());
	buf_printf(&exe, "%s\\bin", root.data);
	check_int("mkdir helper root", plat_mkdir(root.data, 0755), 0);
	check_int("mkdir bin", plat_mkdir(exe.data, 0755), 0);
	buf_adds(&exe, "\\cuenv.exe");
	/* neither beside it nor installed: both .exe paths named */
	found = manifests_helper(none, exe.data, "cuenv-net", &tried);
	check(found == NULL, "no cuenv-net.exe", found, "(null)");
	buf_printf(&want,
		   "%s\\bin\\cuenv-net.exe, "
		   "%s\\bin\\..\\libexec\\cuenv\\cuenv-net.exe",
		   root.data, root.data);
	check_str("  looked for", tried.data, want.data);
	free(found);
	buf_reset(&want);
	buf_printf(&want, "%s\\bin\\cuenv-net.exe", root.data);
	check_int("put cuenv-net.exe", put_text(want.data, "MZ"), 0);
	buf_reset(&tried);
	found = manifests_helper(none, exe.data, "cuenv-net", &tried);
	check_str("cuenv-net.exe beside cuenv.exe", found, want.data);
	free(found);
	plat_unlink(want.data);
	buf_reset(&want);
	buf_printf(&want, "%s\\bin", root.data);
	plat_rmdir(want.data);
	plat_rmdir(root.data);
	buf_release(&root);
	buf_release(&exe);
	buf_release(&tried);
	buf_release(&want);
}

static void startup_checks(void)
{
	startup_root_checks();
	startup_cwd_checks();
	use_hint_checks();
	helper_checks();
}
