package filip

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/profile"
)

// SampleMetaPath is the metadata file written beside a sampled export's CSV: csvPath with
// its extension replaced by .json, as FiLiP names it.
func SampleMetaPath(csvPath string) string {
	return strings.TrimSuffix(csvPath, filepath.Ext(csvPath)) + ".json"
}

// WriteSampleFiles writes p as a sampled export (WriteSample) to csvPath and its metadata to
// SampleMetaPath(csvPath), as outfile.WritePair writes two files: each regular file through
// a temporary file renamed only once both are complete, so a failure leaves neither
// half-written; links written through, devices and FIFOs in place, modes kept. A done ctx
// (SIGINT, SIGTERM; nil: never) stops the writing at the next write: neither file is
// replaced, no temporary file is left. Bad options are ErrBadSample, never an output's
// *outfile.Error.
func WriteSampleFiles(ctx context.Context, p *profile.Profile, csvPath string, opts SampleOptions) (rep SampleReport, err error) {
	var bad error
	err = outfile.WritePair([2]string{csvPath, SampleMetaPath(csvPath)}, func(csv, meta io.Writer) error {
		var err error
		rep, err = WriteSample(p, ctxWriter{ctx, csv}, ctxWriter{ctx, meta}, opts)
		if errors.Is(err, ErrBadSample) {
			bad = err // the options' fault, not the output's
		}
		return err
	})
	if bad != nil {
		return rep, bad
	}
	return rep, err
}

// ctxWriter is w that fails every write once ctx is done (never with a nil ctx).
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if c.ctx != nil {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
	}
	return c.w.Write(b)
}
