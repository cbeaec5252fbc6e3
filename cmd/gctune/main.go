package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/trialstore"
)

// Set with -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234 -X main.date=2025-01-31".
var (
	version = "dev"
	commit  = ""
	date    = ""
)

func main() {
	// SIGINT and SIGTERM cancel the context: optimize and resume finish the trials that are
	// running, record them, and stop.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal asks for a graceful stop; a second takes the default action and ends
	// the process at once (a command that does not watch the context, or one blocked writing
	// to a FIFO nobody reads, would otherwise ignore every Ctrl-C).
	context.AfterFunc(ctx, stop)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes gctune with args and returns the exit code: 0 on success, 2 for a usage error
// (bad flags, arguments, configuration or input: see cmdutil.UsageError), 1 for any other error. The
// error is printed on stderr as one line, "gctune: <message>".
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is run with a context that cancels long commands.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := NewRootCmd(buildinfo.Build{Version: version, Commit: commit, Date: date})
	root.SetArgs(args)
	root.SetOut(stdout)
	ctx, note, noted := withStoreNote(ctx, stderr)
	root.SetErr(noted)
	cmd, err := root.ExecuteContextC(ctx)
	err = note.nameDamaged(err)
	note.finish(err)
	if err != nil {
		// Escaped: a message may quote a name or a line from the input; and any URL's
		// password in it masked, wherever an input is echoed (trialstore.RedactText).
		fmt.Fprintf(stderr, "gctune: %s\n", termtext.Safe(trialstore.RedactText(cmdutil.UserMessage(err)+cmdutil.ErrorHint(cmd, err))))
	}
	return cmdutil.ExitCode(err)
}
