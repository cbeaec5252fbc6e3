package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
)

// openProfile is source.Open, given up at once when ctx is done while it waits on a FIFO or
// pipe (the profile, or a FiLiP export's metadata beside it, given as <(zcat run.csv.gz) or a
// named pipe with no writer yet): the first SIGINT stops the command instead of a second one.
// The readers bound what they read by the format's own limits.
func openProfile(ctx context.Context, ref string, opts source.Options) (*profile.Profile, *source.Info, error) {
	if needsSniffing(ref) { // "-", <(zcat run.csv.gz), an extensionless file: its content says
		return openSniffedProfile(ctx, ref, opts)
	}
	var p *profile.Profile
	var info *source.Info
	err := infile.Do(ctx, func() error {
		var err error
		p, info, err = source.Open(ref, opts)
		return err
	}, profileFiles(ref, opts)...)
	if err != nil {
		return nil, nil, err
	}
	return p, info, nil
}

// profileFiles lists the files Open(ref) reads: ref, and a FiLiP export's metadata.
func profileFiles(ref string, opts source.Options) []string {
	files := []string{ref}
	if strings.EqualFold(filepath.Ext(ref), ".csv") {
		meta := opts.FiLiPJSONPath
		if meta == "" {
			meta = strings.TrimSuffix(ref, filepath.Ext(ref)) + ".json"
		}
		files = append(files, meta)
	}
	return files
}

// inputError is a reader's error as the command returns it: an interrupt while waiting for an
// input's writer an *InterruptedError naming the input (exit 130), anything else the input's
// fault (a usage error, exit 2).
func inputError(err error) error {
	if ie := interruptedInput(err); ie != nil {
		return ie
	}
	return asUsage(err)
}

// interruptedInput is the *InterruptedError for an interrupt while infile waited for an input's
// writer, nil for any other error.
func interruptedInput(err error) error {
	var ie *infile.InterruptedError
	if errors.As(err, &ie) {
		return interruptedf("while waiting for %s to be written", quoteName(ie.Path))
	}
	return nil
}

// refuseStreamProfile refuses a profile that is a FIFO or pipe (or whose FiLiP metadata is) for
// a command that creates a study: the profile is read more than once (opened, fingerprinted,
// rebuilt under a second hypothesis) and a study names it by path and content hash for
// resume and workers to read again, none of which a stream allows. One line, exit 2.
func refuseStreamProfile(ref string, opts source.Options) error {
	for _, f := range profileFiles(ref, opts) {
		if infile.IsStream(f) {
			return usageErrorf("%s is a pipe or FIFO: a study reads its profiles again (resume, workers, report), so give a regular file (zcat run.csv.gz > run.csv)", quoteName(f))
		}
	}
	return nil
}
