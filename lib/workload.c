// SPDX-License-Identifier: LGPL-2.1
/*
 * workload.c - fork the command to record, hold it before its exec, then
 * let it go (perf's evlist__prepare_workload()).
 *
 * Two pipes, both close-on-exec:
 *
 *	go	the child blocks reading it; the parent closes its write end
 *		to start it (EOF: go on)
 *	err	the child writes the errno of a failed execvp() to it; a
 *		successful exec closes it, so the parent reads EOF
 *
 * States: PREPARED (forked, waiting) -> STARTED (released) -> REAPED.
 * The forked child only calls async-signal-safe functions before exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sampo/workload.h>
#include "internal/util.h"
#include "internal/opts.h"

struct sampo_workload {
	pid_t pid;
	int go_fd;  /* write end: the child execs when it closes; -1 once started */
	int err_fd; /* read end: errno of a failed exec */
	int status; /* waitpid() status, once reaped */
	bool reaped;
};

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

/* In the child: wait for the go, then exec; only async-signal-safe calls. */
static void workload_child(const char *const *argv, int go, int ep, bool stdout_to_stderr)
{
	char c;
	int e;

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	if (stdout_to_stderr)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	if (read(go, &c, 1) < 0)
		_exit(127);
	execvp(argv[0], (char *const *)argv);
	e = errno;
	if (write(ep, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int sampo_workload__prepare(const char *const *argv, const struct sampo_workload_opts *opts,
			    struct sampo_workload **ret_w)
{
	bool to_stderr = OPTS_GET(opts, stdout_to_stderr, false);
	struct sampo_workload *w;
	int go[2], ep[2], err;
	pid_t pid;

	if (!argv || !argv[0] || !ret_w || !OPTS_VALID(opts, sampo_workload_opts))
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	if (pipe2(go, O_CLOEXEC)) {
		err = -errno;
		goto out_free;
	}
	if (pipe2(ep, O_CLOEXEC)) {
		err = -errno;
		goto out_close_go;
	}
	fflush(NULL); /* no buffered output printed twice */
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close_pair(ep);
		goto out_close_go;
	}
	if (pid == 0) {
		close(go[1]);
		close(ep[0]);
		workload_child(argv, go[0], ep[1], to_stderr);
	}
	close(go[0]);
	close(ep[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = ep[0];
	*ret_w = w;
	return 0;

out_close_go:
	close_pair(go);
out_free:
	free(w);
	return err;
}

int sampo_workload__pid(const struct sampo_workload *w)
{
	return w ? (int)w->pid : -1;
}

int sampo_workload__start(struct sampo_workload *w)
{
	int e = 0;
	ssize_t n;

	if (!w || w->go_fd < 0)
		return -EINVAL;
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	return n == (ssize_t)sizeof(e) ? -e : 0;
}

bool sampo_workload__reap(struct sampo_workload *w, bool block)
{
	int status;
	pid_t r;

	if (!w)
		return false;
	if (w->reaped)
		return true;
	do
		r = waitpid(w->pid, &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == w->pid) {
		w->status = status;
		w->reaped = true;
	}
	return w->reaped;
}

int sampo_workload__kill(struct sampo_workload *w, int sig)
{
	if (!w)
		return -EINVAL;
	if (w->reaped)
		return 0;
	return kill(w->pid, sig) ? -errno : 0;
}

int sampo_workload__exit_code(const struct sampo_workload *w)
{
	if (!w || !w->reaped)
		return 0;
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return 0;
}

void sampo_workload__delete(struct sampo_workload *w)
{
	if (!w)
		return;
	/* killed before the go pipe closes: a command never started never runs */
	if (!w->reaped)
		(void)kill(w->pid, SIGKILL);
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	(void)sampo_workload__reap(w, true);
	free(w);
}
