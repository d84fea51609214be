/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * workload.h - the command perf record runs: forked at once, held before
 * its exec until the events are open (perf's evlist__prepare_workload()
 * and evlist__start_workload()).
 *
 *	err = sampo_workload__prepare(argv, &opts, &w);	// forked, waiting
 *	open the events on sampo_workload__pid(w), enable_on_exec
 *	err = sampo_workload__start(w);		// execs; -errno if exec failed
 *	while (!sampo_workload__reap(w, false)) ... record ...
 *	code = sampo_workload__exit_code(w);
 *	sampo_workload__delete(w);			// kills a command still running
 *
 * The child runs with the default dispositions of SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE and SIGCHLD, whatever the recorder installed.
 */
#ifndef SAMPO_WORKLOAD_H
#define SAMPO_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <sampo/common.h>

struct sampo_workload;

struct sampo_workload_opts {
	size_t sz;
	bool stdout_to_stderr; /* the recorder's stdout carries data (pipe mode) */
};
#define sampo_workload_opts__last_field stdout_to_stderr

/**
 * sampo_workload__prepare() - fork the command, stopped before its exec
 * @argv: the command and its arguments, NULL-terminated; found in $PATH
 * @opts: optional
 * @ret_w: on success, the workload; free with sampo_workload__delete()
 *
 * Return: 0, -EINVAL (no command), or the -errno of pipe2() or fork()
 */
SAMPO_API int sampo_workload__prepare(const char *const *argv,
				      const struct sampo_workload_opts *opts,
				      struct sampo_workload **ret_w);

/** sampo_workload__pid() - the command's process id */
SAMPO_API int sampo_workload__pid(const struct sampo_workload *w);

/**
 * sampo_workload__start() - let the command exec
 *
 * Return: 0 once it has exec'ed (or is about to), or the negative errno of
 * its failed execvp() (-ENOENT: no such command); -EINVAL when started
 * already
 */
SAMPO_API int sampo_workload__start(struct sampo_workload *w);

/**
 * sampo_workload__reap() - whether the command has ended, collecting it
 * @block: wait for it to end
 *
 * Return: true once it has ended (and from then on)
 */
SAMPO_API bool sampo_workload__reap(struct sampo_workload *w, bool block);

/**
 * sampo_workload__kill() - send @sig to the command, unless it was reaped
 * Return: 0, or the -errno of kill(2)
 */
SAMPO_API int sampo_workload__kill(struct sampo_workload *w, int sig);

/**
 * sampo_workload__exit_code() - its exit status as a shell reports it
 * Return: the status it exited with, 128 + the signal that killed it, or 0
 * when it has not been reaped
 */
SAMPO_API int sampo_workload__exit_code(const struct sampo_workload *w);

/**
 * sampo_workload__delete() - free a workload; NULL is fine
 *
 * A command that is still running (or was never started) is killed with
 * SIGKILL and reaped.
 */
SAMPO_API void sampo_workload__delete(struct sampo_workload *w);

#endif /* SAMPO_WORKLOAD_H */
