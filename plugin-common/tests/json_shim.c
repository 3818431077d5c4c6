// SPDX-License-Identifier: GPL-2.0
/*
 * json_shim.c: LD_PRELOAD into tc or ip with $STRIPE_SHIM_JSON set, their
 * JSON writer is opened before main() and closed at exit, so that "tc -s
 * -j monitor file" and "ip -s -d -j monitor file" (which never open it
 * themselves) print JSON: an array of the qdiscs read.  ip's monitor puts
 * a link's keys in no object of its own: STRIPE_SHIM_JSON=object opens
 * one, for a file of one link.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static void *sym(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

__attribute__((constructor)) static void json_open(void)
{
	const char *mode = getenv("STRIPE_SHIM_JSON");
	void (*open_obj)(const char *) = sym("open_json_object");
	void (*new_obj)(int) = sym("new_json_obj");

	if (!mode || !new_obj)
		return;
	new_obj(1);
	if (strcmp(mode, "object") == 0 && open_obj)
		open_obj(NULL);
}

__attribute__((destructor)) static void json_close(void)
{
	const char *mode = getenv("STRIPE_SHIM_JSON");
	void (*close_obj)(void) = sym("close_json_object");
	void (*delete_obj)(void) = sym("delete_json_obj");

	if (!mode || !delete_obj)
		return;
	if (strcmp(mode, "object") == 0 && close_obj)
		close_obj();
	delete_obj();
}
