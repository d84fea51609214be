/* dl.c - the vdso (clock_gettime), ld.so (dlopen/dlclose of argv[1]) and calls into
 * argv[1] opened late; argv[2..4], the three loops' counts, are optional.
 * For t7101 and bench/run-dwarf.sh */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) void vdso_loop(int n)
{
	struct timespec ts;
	for (int i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sink += ts.tv_nsec;
	}
}
__attribute__((noinline)) void ldso_loop(const char *lib, int n)
{
	for (int i = 0; i < n; i++) {
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			exit(1);
		dlclose(h);
	}
}
__attribute__((noinline)) void late(const char *lib, int n)
{
	void *h = dlopen(lib, RTLD_NOW);
	unsigned long (*work)(unsigned long);
	if (!h)
		exit(1);
	work = (unsigned long (*)(unsigned long))dlsym(h, "plug_work");
	for (int i = 0; i < n; i++)
		sink += work(200000);
}
int main(int argc, char **argv)
{
	vdso_loop(argc > 2 ? atoi(argv[2]) : 3000000);
	ldso_loop(argv[1], argc > 3 ? atoi(argv[3]) : 2000);
	late(argv[1], argc > 4 ? atoi(argv[4]) : 1000);
	printf("%lu\n", sink);
	return 0;
}
