/* a small static program without libc: nested calls with and without a frame pointer */
static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static unsigned long with_alloca(unsigned long n)
{
	volatile char *buf = __builtin_alloca(64 + (n & 63));
	buf[0] = (char)n;
	return leaf(n) + buf[0];
}

__attribute__((noinline)) static unsigned long middle(unsigned long n)
{
	unsigned long a[4] = { n, n + 1, n + 2, n + 3 };
	return with_alloca(a[n & 3]) + leaf(n / 2) + a[1];
}

__attribute__((noinline)) static unsigned long outer(unsigned long n)
{
	return middle(n) + 1;
}

void _start(void)
{
	for (unsigned long k = 0; k < 3000; k++)
		sink += outer(20000 + k);
	__asm__ volatile("mov $60, %eax\n xor %edi, %edi\n syscall");
	__builtin_unreachable();
}
