package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
)

// writeJSON writes v as an indented JSON document followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeFileAtomic writes path through write: into a temporary file in the same directory,
// renamed over path only once write and close succeed, so a failure never leaves a
// half-written file behind.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// formatCount writes n with thousands separators: 86002607 → "86,002,607".
func formatCount(n uint64) string { return units.FormatCount(n) }

// formatPercent writes a fraction as a percentage: one decimal from 1 % up ("25.0 %"), two
// significant digits below ("0.06 %", "0.00012 %"), "0 %" for zero.
func formatPercent(f float64) string {
	v := f * 100
	if math.Abs(v) >= 1 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " %"
	}
	return strconv.FormatFloat(numfmt.RoundSig(v, 2), 'f', -1, 64) + " %"
}

// bar draws share/full as a horizontal bar of up to width cells with eighth-cell resolution.
func bar(share, full float64, width int) string {
	if full <= 0 || share <= 0 {
		return ""
	}
	eighths := int(math.Round(share / full * float64(width*8)))
	if eighths == 0 {
		eighths = 1 // visible, however small
	}
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + partial[eighths%8]
}

// padRight pads s with spaces to width runes (tabwriter counts bytes, so bars are padded by
// hand).
func padRight(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}

// errWriter is an io.Writer whose printf keeps the first error, for long runs of output
// lines checked once at the end.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
