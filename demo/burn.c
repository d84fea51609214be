/* SPDX-License-Identifier: GPL-2.0 */
/*
 * burn.c - the demo workload for `make demo`: a CPU-bound program whose time
 * splits over a few named functions that call each other, so that a profile
 * with call chains (perf record -g) has something to show.
 *
 *	main -> burn_outer_delta -> burn_middle_gamma -> burn_leaf_alpha (~2/3)
 *	                                              -> burn_leaf_beta  (~1/3)
 *
 * Built with frame pointers and without inlining (see demo/meson.build) so
 * that frame-pointer call chains resolve to these names.
 * Usage: burn [ROUNDS]   (default 1000, about half a second)
 */
#include <stdio.h>
#include <stdlib.h>

/* the result goes here so that the compiler cannot drop the work */
static volatile unsigned long sink;

__attribute__((noinline)) unsigned long burn_leaf_alpha(unsigned long n);
__attribute__((noinline)) unsigned long burn_leaf_beta(unsigned long n);
__attribute__((noinline)) unsigned long burn_middle_gamma(unsigned long n);
__attribute__((noinline)) unsigned long burn_outer_delta(unsigned long rounds);

/* a linear congruential generator: multiply-heavy */
unsigned long burn_leaf_alpha(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < 200000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* xorshift: shift-heavy, half the iterations of alpha */
unsigned long burn_leaf_beta(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < 100000; i++)
		x ^= (x << 13) ^ (x >> 7) ^ (x << 17) ^ i;
	return x;
}

unsigned long burn_middle_gamma(unsigned long n)
{
	return burn_leaf_alpha(n) + burn_leaf_beta(n + 1);
}

unsigned long burn_outer_delta(unsigned long rounds)
{
	unsigned long acc = 0;

	for (unsigned long r = 0; r < rounds; r++)
		acc += burn_middle_gamma(r);
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;

	sink = burn_outer_delta(rounds);
	printf("burn: %lu\n", (unsigned long)sink);
	return 0;
}
