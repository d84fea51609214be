/* rec.c - a recursion (argv[1] deep, argv[2] times) down to a loop, for the DWARF
 * unwinding tests (t7100, t7101) and bench/run-dwarf.sh: built without frame pointers */
#include <stdio.h>
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i;
	return s;
}
__attribute__((noinline)) unsigned long rec(int depth, unsigned long n)
{
	unsigned long r;
	if (!depth)
		return leaf(n);
	r = rec(depth - 1, n) + 1;
	sink = r;
	return r;
}
int main(int argc, char **argv)
{
	for (int i = 0; i < atoi(argv[2]); i++)
		sink += rec(atoi(argv[1]), 100000);
	printf("%lu\n", sink);
	return 0;
}
