/* spin-lib.c - a shared library with one hot function, for the tests that move a
 * profile away from its binaries (t7400, t7401): built with libspin.so as its name */
__attribute__((noinline)) unsigned long spin_in_lib(unsigned long n)
{
	unsigned long x = 7;

	for (unsigned long i = 0; i < n; i++)
		x = x * 2862933555777941757UL + i;
	return x;
}
