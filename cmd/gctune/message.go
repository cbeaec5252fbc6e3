package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/profile/filip"
)

// packagePrefixes are the "pkg: " prefixes gctune's packages start their errors with. They say
// where in the code an error arose, which is nothing to the user: userMessage drops them.
// TestPackagePrefixesComplete holds the list to every package that writes such a prefix
// (config's stays: "config: search.tolerance = 2" names the configuration, the user's).
var packagePrefixes = []string{"profile: ", "filip: ", "spec: ", "gcprof: ", "source: ", "lifetimes: ",
	"trialstore: ", "objective: ", "heapsim: ", "tunable: ", "search: ", "recommend: ", "export: ", "diagnose: ", "report: ",
	"costfit: ", "verify: ", "study: ", "session: ", "uncertainty: ", "pretenure: ", "units: ",
	// the steps that name the file anyway, and the parsers' own names
	"load spec: ", "load profile: ", "While parsing config: ", "yaml: "}

// userMessage is the one line main prints for err, in the user's terms: the input named, not
// the package that read it. A file that cannot be opened reads "missing.csv: no such file"
// (not "filip: open missing.csv: no such file or directory").
func userMessage(err error) string {
	var ie *InterruptedError
	if !errors.As(err, &ie) && errors.Is(err, context.Canceled) {
		return "interrupted: stopped before the work was done"
	}
	msg := oneLine(err)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if raw := pe.Error(); strings.Contains(msg, raw) {
			msg = strings.Replace(msg, raw, pe.Path+": "+pathProblem(pe.Err), 1)
			// "config x.yaml: x.yaml: no such file" names the file once.
			msg = strings.Replace(msg, pe.Path+": "+pe.Path+": ", pe.Path+": ", 1)
			msg = strings.Replace(msg, pe.Path+" "+pe.Path+": ", pe.Path+": ", 1)
		}
	}
	return dropPackagePrefixes(msg)
}

// pathProblem says what is wrong with a file in a few words.
func pathProblem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.EISDIR):
		return "is a folder, not a file"
	case errors.Is(err, syscall.ENOTDIR):
		return "a part of the path is not a folder"
	}
	return err.Error()
}

// dropPackagePrefixes removes each package prefix at the start of msg or after ": ", "(" or
// "; " (where a wrapped error's text begins).
func dropPackagePrefixes(msg string) string {
	for _, p := range packagePrefixes {
		for _, before := range []string{"", ": ", "(", "; "} {
			if before == "" {
				for strings.HasPrefix(msg, p) {
					msg = msg[len(p):]
				}
				continue
			}
			msg = strings.ReplaceAll(msg, before+p, before)
		}
	}
	return msg
}

// errorHint is what to add to err's message for the command that failed: how to give what was
// missing, when that command can take it ("" otherwise).
func errorHint(cmd *cobra.Command, err error) string {
	if cmd == nil || !errors.Is(err, filip.ErrUnknownSamplingRate) {
		return ""
	}
	for _, name := range []string{"rate", "input-rate"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Annotations[inputRateAnnotation] != nil {
			return fmt.Sprintf("; give it with --%s 1/N, or the metadata with --meta FILE", name)
		}
	}
	return ""
}
