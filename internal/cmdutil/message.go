package cmdutil

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// PackagePrefixes are the "pkg: " prefixes gctune's packages start their errors with. They say
// where in the code an error arose, which is nothing to the user: UserMessage drops them.
// TestPackagePrefixesComplete holds the list to every package that writes such a prefix
// (config's stays: "config: search.tolerance = 2" names the configuration, the user's).
func PackagePrefixes() []string {
	return []string{"profile: ", "filip: ", "spec: ", "gcprof: ", "source: ", "lifetimes: ",
		"trialstore: ", "objective: ", "heapsim: ", "tunable: ", "search: ", "recommend: ", "export: ", "diagnose: ", "report: ",
		"costfit: ", "verify: ", "study: ", "session: ", "uncertainty: ", "pretenure: ", "units: ",
		// the steps that name the file anyway, and the parsers' own names
		"load spec: ", "load profile: ", "While parsing config: ", "yaml: "}
}

// UserMessage is the one line main prints for err, in the user's terms: the input named, not
// the package that read it. A file that cannot be opened reads "missing.csv: no such file"
// (not "filip: open missing.csv: no such file or directory").
func UserMessage(err error) string {
	var ie *InterruptedError
	if !errors.As(err, &ie) && errors.Is(err, context.Canceled) {
		return "interrupted: stopped before the work was done"
	}
	msg := OneLine(err)
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

// OneLine flattens a (possibly multi-line, as mapstructure's) error message to one line and
// drops a leading "gctune: ", which main adds itself.
func OneLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.TrimPrefix(strings.Join(parts, " "), "gctune: ")
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
	for _, p := range PackagePrefixes() {
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
