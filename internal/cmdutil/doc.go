// Package cmdutil is the plumbing gctune's commands share, as cli/cli's pkg/cmdutil and
// pkg/iostreams are gh's: what every command does alike, so that package main holds only the
// commands themselves (options, one package call, print).
//
// One idea a file:
//   - usage.go, interrupt.go, exitcode.go: the error kinds a command returns and the exit code
//     each one gives (2 for the user's error, 130 for a signal, 1 for anything else);
//   - message.go, hint.go: the one line main prints for an error, in the user's terms (no
//     package prefixes, a file's problem in a few words, how to give what was missing);
//   - flagerror.go, args.go, counts.go: flag and argument errors in gctune's words;
//   - boundflag.go: the flags that set a configuration key (config.Load reads them);
//   - enumflags.go, declare.go, outputs.go, outputdir.go, completion.go: what a command
//     declares of its flags, arguments and outputs, checked before it runs and completed in a
//     shell;
//   - jsonout.go, terminal.go: writing a JSON document, and telling a terminal from a file or
//     a pipe;
//   - storeerror.go: a study database that cannot be opened, worded for the user.
//
// It holds no state: every function works on what it is given.
package cmdutil
