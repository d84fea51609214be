// SPDX-License-Identifier: GPL-2.0
/*
 * pager.c - standard output through a pager on a terminal (see pager.h)
 *
 * The pager is started with "sh -c", so that $PAGER may carry options
 * ("less -S") or be a pipeline, as in git. It reads a pipe that becomes
 * sampo's standard output; sampo's standard error stays on the terminal.
 * When the user quits the pager early, writes fail with EPIPE (main()
 * ignores SIGPIPE) and the command ends quietly with status 0, as it does
 * for "sampo script | head".
 *
 * sampo exits only after the pager has: at the end of main() (pager_wait()),
 * at exit() from anywhere (atexit), and on SIGINT, SIGHUP, SIGTERM and
 * SIGQUIT, after which the signal is raised again with its default action.
 * Ctrl-C in less reaches sampo too (one process group): it then waits for
 * less to end instead of leaving it behind, fighting the shell for the
 * terminal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"

static volatile pid_t pager_pid = -1;

const char *pager_program(void)
{
	const char *p = getenv("SAMPO_PAGER");

	if (!p)
		p = getenv("PAGER");
	if (!p)
		p = "less -FRSX";
	/* git's rule: an empty pager or "cat" is no pager at all */
	if (!*p || !strcmp(p, "cat"))
		return NULL;
	return p;
}

/* only async-signal-safe calls: it also runs in the signal handler */
static void wait_for_pager_raw(void)
{
	pid_t pid = pager_pid;

	if (pid < 0)
		return;
	pager_pid = -1;
	/* EOF for the pager: it shows the rest, then waits for the user */
	close(STDOUT_FILENO);
	/*
	 * Retry while the pager is there (an interrupted wait); errno is not
	 * read here, as this also runs in a signal handler
	 */
	while (waitpid(pid, NULL, 0) != pid && kill(pid, 0) == 0)
		;
}

void pager_wait(void)
{
	if (pager_pid < 0)
		return;
	(void)fflush(stdout);
	wait_for_pager_raw();
}

static void wait_for_pager_signal(int sig)
{
	wait_for_pager_raw();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void wait_for_pager_atexit(void)
{
	pager_wait();
}

bool pager_running(void)
{
	return pager_pid > 0;
}

bool pager_start(void)
{
	static const int sigs[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT };
	const char *pager;
	int fds[2];
	pid_t pid;

	if (pager_pid >= 0 || !isatty(STDOUT_FILENO))
		return false;
	pager = pager_program();
	if (!pager)
		return false;
	/* git's defaults: quit at the end of one screen, colours, no init */
	setenv("LESS", "FRX", 0);
	setenv("LV", "-c", 0);
	if (pipe(fds))
		return false;
	(void)fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* main() ignores SIGPIPE: the pager gets the default back */
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		fprintf(stderr, "sampo: cannot run the pager '%s': %s\n", pager, strerror(errno));
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	atexit(wait_for_pager_atexit);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], wait_for_pager_signal);
	return true;
}
