/* cxx.cc - C++ templates calling each other down to a loop that throws on odd
 * counts (argv[1] rounds), for t7101 and bench/run-dwarf.sh */
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
volatile unsigned long sink;
template <int N> struct Rec {
	__attribute__((noinline)) static unsigned long run(unsigned long n)
	{
		sink += N;
		return Rec<N - 1>::run(n) + 1;
	}
};
template <> struct Rec<0> {
	__attribute__((noinline)) static unsigned long run(unsigned long n)
	{
		unsigned long s = 0;
		for (unsigned long i = 0; i < n; i++)
			s += i ^ (s >> 3);
		if (n % 2)
			throw std::runtime_error("odd");
		return s;
	}
};
__attribute__((noinline)) unsigned long thrower(int i) { return Rec<6>::run(20001 + (i % 2)); }
int main(int argc, char **argv)
{
	for (int i = 0; i < atoi(argv[1]); i++) {
		try {
			sink += thrower(i);
		} catch (const std::exception &e) {
			sink++;
		}
	}
	printf("%lu\n", (unsigned long)sink);
}
