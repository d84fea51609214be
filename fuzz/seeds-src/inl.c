/* inlined calls in two files' worth of code, for line tables and inline scopes */
static inline __attribute__((always_inline)) int sq(int x)
{
	return x * x;
}

static inline __attribute__((always_inline)) int twice_sq(int x)
{
	return sq(x) + sq(x + 1);
}

__attribute__((noinline)) int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += twice_sq(i) ^ (s >> 2);
	return s;
}

int main(int argc, char **argv)
{
	(void)argv;
	return work(argc * 1000) & 1;
}
