/* spin-prog.c - a program that spends its time in spin_in_prog() and in
 * spin-lib.c's spin_in_lib() (argv[1] iterations each), for t7400 and t7401 */
#include <stdio.h>
#include <stdlib.h>
unsigned long spin_in_lib(unsigned long n);
__attribute__((noinline)) unsigned long spin_in_prog(unsigned long n)
{
	unsigned long x = 3;

	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005UL ^ i;
	return x;
}
int main(int argc, char **argv)
{
	unsigned long n = strtoul(argv[1], NULL, 10);

	printf("%lu\n", spin_in_prog(n) + spin_in_lib(n));
	return 0;
}
