/*
 * real-work.c - the workload of bench/record-real.sh: a multi-threaded
 * program whose samples spread over the executable, two shared libraries
 * built beside it (libreal-hash.so, libreal-sort.so), libm, libc and the
 * kernel (a little of each thread's time is spent in system calls).
 *
 * Built at run time by record-real.sh with gcc -O2 -g -fno-omit-frame-pointer,
 * so that perf record -g (frame pointers) sees deep chains in the program and
 * its libraries. One file builds all three objects: -DREAL_HASH makes the
 * hash library, -DREAL_SORT the sort library, neither the program.
 *
 * usage: real-work THREADS MILLISECONDS
 *
 * MILLISECONDS is CPU time, all threads together (CLOCK_PROCESS_CPUTIME_ID), so
 * that a recording at a given frequency has about the same number of samples
 * however loaded the machine is.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t real_hash(const void *p, size_t n, uint64_t seed);
void real_sort(uint32_t *v, size_t n);

#if defined(REAL_HASH)
__attribute__((noinline)) static uint64_t mix(uint64_t h, uint64_t k)
{
	k *= 0x87c37b91114253d5ull;
	k = (k << 31) | (k >> 33);
	h ^= k * 0x4cf5ad432745937full;
	return (h << 27 | h >> 37) * 5 + 0x52dce729;
}

__attribute__((noinline)) uint64_t real_hash(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *c = p;
	uint64_t h = seed, k;

	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&k, c, 8);
		h = mix(h, k);
	}
	while (n--)
		h = mix(h, *c++);
	return h;
}
#elif defined(REAL_SORT)
__attribute__((noinline)) static void sift(uint32_t *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		uint32_t t;

		if (c >= n)
			return;
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[i] >= v[c])
			return;
		t = v[i], v[i] = v[c], v[c] = t;
		i = c;
	}
}

__attribute__((noinline)) static void heapsort32(uint32_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (size_t e = n; e-- > 1;) {
		uint32_t t = v[0];

		v[0] = v[e], v[e] = t;
		sift(v, 0, e);
	}
}

__attribute__((noinline)) void real_sort(uint32_t *v, size_t n)
{
	heapsort32(v, n);
}
#else
static volatile double fsink;
static volatile uint64_t isink;
static double deadline;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void do_hash(unsigned char *buf, size_t n, int t)
{
	isink += real_hash(buf, n, (uint64_t)t);
}

__attribute__((noinline)) static void do_sort(uint32_t *v, size_t n, unsigned *seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)rand_r(seed);
	real_sort(v, n);
}

__attribute__((noinline)) static void do_math(int n)
{
	double s = 0;

	for (int i = 1; i < n; i++)
		s += sin(i * 0.001) * sqrt((double)i) + log((double)i);
	fsink += s;
}

__attribute__((noinline)) static void do_copy(unsigned char *dst, const unsigned char *src,
					      size_t n)
{
	memcpy(dst, src, n);
	memset(dst, (int)isink & 0xff, n / 2);
}

__attribute__((noinline)) static void do_sys(int n)
{
	for (int i = 0; i < n; i++)
		isink += (uint64_t)getppid();
}

__attribute__((noinline)) static void step(unsigned char *a, unsigned char *b, uint32_t *v,
					   int t, unsigned *seed)
{
	switch (rand_r(seed) % 5) {
	case 0: do_hash(a, 1 << 16, t); break;
	case 1: do_sort(v, 4096, seed); break;
	case 2: do_math(20000); break;
	case 3: do_copy(b, a, 1 << 16); break;
	default: do_sys(300); break;
	}
}

static void *worker(void *arg)
{
	int t = (int)(intptr_t)arg;
	unsigned seed = (unsigned)t * 7919u + 1;
	unsigned char *a = malloc(1 << 16), *b = malloc(1 << 16);
	uint32_t *v = malloc(4096 * sizeof(*v));

	if (!a || !b || !v)
		abort();
	for (int i = 0; i < 1 << 16; i++)
		a[i] = (unsigned char)(i * 31 + t);
	while (now() < deadline)
		for (int i = 0; i < 16; i++)
			step(a, b, v, t, &seed);
	free(a);
	free(b);
	free(v);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t th[64];

	if (n < 1 || n > 64 || argc < 3) {
		fprintf(stderr, "usage: real-work THREADS CPU-MILLISECONDS\n");
		return 2;
	}
	deadline = now() + atoi(argv[2]) / 1000.0;
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("%lu\n", (unsigned long)isink);
	return 0;
}
#endif
