package main

import (
	"context"
	"errors"
	"math"
	"os"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
)

// openProfile is source.OpenContext: given up at once when ctx is done while it waits on a
// FIFO or pipe (the first SIGINT stops the command instead of a second one), standard input
// for "-", a profile whose name does not say its kind read by its content. A sampling rate or
// metadata file given for a profile that is not a FiLiP export is refused (refuseExportFlags).
func openProfile(ctx context.Context, ref string, opts source.Options) (*profile.Profile, *source.Info, error) {
	p, info, err := source.OpenContext(ctx, ref, opts, source.StreamOptions{Stdin: os.Stdin, Check: refuseExportFlags})
	if ri := (*source.ReadInterruptedError)(nil); errors.As(err, &ri) {
		return nil, nil, cmdutil.Interruptedf("while reading %s", termtext.Quote(ri.Ref))
	}
	return p, info, err
}

// refuseExportFlags refuses --rate and --meta for a profile that is not a FiLiP export (a
// bundled workload, a spec, a binary profile): they say how an export was sampled and where
// its metadata is, and such a profile has neither, so they would be silently ignored (issue
// 31: `lifetimes --rate 1/7 dataframe-3.1gb` read the whole workload). Refused rather than
// applied: applying a rate is sampling the profile, which gctune sample does and says so.
func refuseExportFlags(info *source.Info, opts source.Options) error {
	if info == nil || info.Kind == source.KindFiLiP {
		return nil
	}
	switch {
	case opts.SamplingRate != 0:
		return cmdutil.Usagef("%s is a %s, not a FiLiP export: a sampling rate (1/%.0f) says how an export was recorded, and this profile has every object (to sample it: gctune sample %s --rate 1/%.0f -o out.csv)",
			termtext.Quote(info.Ref), kindWords(info.Kind), math.Round(1/opts.SamplingRate), export.ShellQuote(info.Ref), math.Round(1/opts.SamplingRate))
	case opts.FiLiPJSONPath != "":
		return cmdutil.Usagef("%s is a %s, not a FiLiP export: it has no metadata file (--meta %s)", termtext.Quote(info.Ref), kindWords(info.Kind), export.ShellQuote(opts.FiLiPJSONPath))
	}
	return nil
}

// kindWords names a profile's kind for a message.
func kindWords(kind string) string {
	switch kind {
	case source.KindWorkload:
		return "bundled workload"
	case source.KindSpec:
		return "workload spec"
	case source.KindGCProf:
		return "binary profile"
	}
	return kind + " profile"
}

// inputError is a reader's error as the command returns it: an interrupt while waiting for an
// input's writer an *cmdutil.InterruptedError naming the input (exit 130), anything else the input's
// fault (a usage error, exit 2).
func inputError(err error) error {
	if ie := interruptedInput(err); ie != nil {
		return ie
	}
	return cmdutil.AsUsage(err)
}

// interruptedInput is the *cmdutil.InterruptedError for an interrupt while infile waited for an input's
// writer, nil for any other error.
func interruptedInput(err error) error {
	var ie *infile.InterruptedError
	if errors.As(err, &ie) {
		return cmdutil.Interruptedf("while waiting for %s to be written", termtext.Quote(ie.Path))
	}
	return nil
}

// refuseStreamProfile refuses a profile that is a FIFO or pipe (or whose FiLiP metadata is) for
// a command that creates a study: the profile is read more than once (opened, fingerprinted,
// rebuilt under a second hypothesis) and a study names it by path and content hash for
// resume and workers to read again, none of which a stream allows. One line, exit 2.
func refuseStreamProfile(ref string, opts source.Options) error {
	for _, f := range source.Files(ref, opts) {
		if infile.IsStream(f) {
			return cmdutil.Usagef("%s is a pipe or FIFO: a study reads its profiles again (resume, workers, report), so give a regular file (zcat run.csv.gz > run.csv)", termtext.Quote(f))
		}
	}
	return nil
}
