/*
 * plat_owner_win.c: plat_owner.h on Windows: the owner SID and the DACL
 * of GetNamedSecurityInfoW (what each means: plat_owner.h).
 */
#include "plat/plat_owner.h"

#include <errno.h>
#include <stdlib.h>
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include "base/xalloc.h"

/* An arbitrary id for this process's user: not 0, not PLAT_UID_OTHER. */
#define SELF_ID 1000ul

plat_uid plat_owner_self(void)
{
	return SELF_ID;
}

/* This process's user SID (malloc'd), or NULL. */
static PSID token_user(void)
{
	HANDLE tok;
	DWORD n = 0;
	TOKEN_USER *tu;
	PSID sid = NULL;

	if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok))
		return NULL;
	GetTokenInformation(tok, TokenUser, NULL, 0, &n);
	if (n) {
		tu = xmalloc(n);
		if (GetTokenInformation(tok, TokenUser, tu, n, &n)) {
			DWORD len = GetLengthSid(tu->User.Sid);

			sid = xmalloc(len);
			CopySid(len, sid, tu->User.Sid);
		}
		free(tu);
	}
	CloseHandle(tok);
	return sid;
}

static int is_system(PSID sid)
{
	static const char trusted_installer[] =
		"S-1-5-80-956008885-3418522649-1831038044-1853292631-"
		"2271478464";
	PSID ti = NULL;
	int yes = IsWellKnownSid(sid, WinLocalSystemSid) ||
		  IsWellKnownSid(sid, WinBuiltinAdministratorsSid);

	if (!yes && ConvertStringSidToSidA(trusted_installer, &ti)) {
		yes = EqualSid(sid, ti);
		LocalFree(ti);
	}
	return yes;
}

static int trusted(PSID sid, PSID me)
{
	return (me && EqualSid(sid, me)) || is_system(sid) ||
	       IsWellKnownSid(sid, WinCreatorOwnerSid);
}

static int others_write(PACL dacl, PSID me)
{
	const ACCESS_MASK write = FILE_WRITE_DATA | FILE_APPEND_DATA |
				  FILE_WRITE_EA | FILE_WRITE_ATTRIBUTES |
				  FILE_DELETE_CHILD | DELETE | WRITE_DAC |
				  WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;

	if (!dacl)
		return 1; /* a NULL DACL: full access to everyone */
	for (DWORD i = 0; i < dacl->AceCount; i++) {
		ACE_HEADER *h;
		ACCESS_ALLOWED_ACE *a;

		if (!GetAce(dacl, i, (void **)&h))
			continue;
		if (h->AceType != ACCESS_ALLOWED_ACE_TYPE ||
		    (h->AceFlags & INHERIT_ONLY_ACE))
			continue;
		a = (ACCESS_ALLOWED_ACE *)h;
		if ((a->Mask & write) && !trusted(&a->SidStart, me))
			return 1;
	}
	return 0;
}

int plat_owner_get(const char *path, struct plat_owner *o)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
				    NULL, 0);
	PSECURITY_DESCRIPTOR sd = NULL;
	PSID owner = NULL, me;
	PACL dacl = NULL;
	wchar_t *w;
	DWORD e;

	if (n <= 0) {
		errno = EINVAL;
		return -1;
	}
	w = xmalloc((size_t)n * sizeof(*w));
	MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
	if (GetFileAttributesW(w) == INVALID_FILE_ATTRIBUTES) {
		e = GetLastError();
		free(w);
		errno = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND
				? ENOENT
				: EACCES;
		return -1;
	}
	e = GetNamedSecurityInfoW(w, SE_FILE_OBJECT,
				  OWNER_SECURITY_INFORMATION |
					  DACL_SECURITY_INFORMATION,
				  &owner, NULL, &dacl, NULL, &sd);
	free(w);
	if (e != ERROR_SUCCESS) {
		errno = EACCES;
		return -1;
	}
	me = token_user();
	o->uid = owner && me && EqualSid(owner, me) ? SELF_ID
		 : owner && is_system(owner)	    ? PLAT_UID_SYSTEM
						    : PLAT_UID_OTHER;
	o->others_write = others_write(dacl, me);
	o->perm = o->others_write ? 0777 : 0755;
	o->sticky = 0;
	o->link = 0;
	free(me);
	LocalFree(sd);
	return 0;
}

int plat_owner_lget(const char *path, struct plat_owner *o)
{
	return plat_owner_get(path, o);
}
