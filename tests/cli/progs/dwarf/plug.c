/* plug.c - libplug.so, the library dl.c opens late, for t7101 and bench/run-dwarf.sh */
volatile unsigned long psink;
__attribute__((noinline)) unsigned long plug_leaf(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * 3;
	return s;
}
__attribute__((noinline)) unsigned long plug_work(unsigned long n)
{
	unsigned long r = plug_leaf(n);
	psink = r;
	return r + 1;
}
