// Package eventlog writes heapsim's event log as CSV, the file gctune simulate --events
// writes: one row per scavenge, full GC, growth and shrink, with the columns Header names. It
// sits beside heapsim so that the simulator itself links no CSV code.
package eventlog

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/gctune/gctune/heapsim"
)

// Header is the CSV's header row: the columns of Row, in order.
func Header() []string {
	return []string{"kind", "cause", "clock_bytes", "eden_used_bytes", "survivor_bytes_before", "survivor_bytes_after",
		"rs_entries", "rs_slots", "tenured_bytes", "tenured_by_age_bytes", "threshold_bytes", "old_used_bytes",
		"old_live_bytes", "footprint_bytes", "segment_bytes", "seconds",
		"old_used_before_bytes", "old_reclaimed_bytes", "request_bytes", "tenured_garbage_bytes",
		"rs_seconds", "mark_seconds", "compact_seconds", "rs_kept_entries", "hole_bytes"}
}

// Row is one event's row: bytes and counts as integers, times with 6 significant digits, the
// cause only for a full GC.
func Row(e *heapsim.Event) []string {
	u := func(n uint64) string { return strconv.FormatUint(n, 10) }
	secs := func(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }
	cause := ""
	if e.Kind == heapsim.EventFullGC {
		cause = e.Cause.String()
	}
	return []string{e.Kind.String(), cause, u(e.ClockBytes), u(e.EdenUsedBytes), u(e.SurvivorBytesBefore),
		u(e.SurvivorBytesAfter), strconv.FormatFloat(e.RSEntries, 'f', 0, 64), u(e.RSSlots), u(e.TenuredBytes),
		u(e.TenuredByAgeBytes), strconv.FormatInt(e.ThresholdBytes, 10), u(e.OldUsedBytes), u(e.OldLiveBytes),
		u(e.FootprintBytes), u(e.SegmentBytes), secs(e.Seconds),
		u(e.OldUsedBeforeBytes), u(e.OldReclaimedBytes), u(e.RequestBytes), u(e.TenuredGarbageBytes),
		secs(e.RSSeconds), secs(e.MarkSeconds), secs(e.CompactSeconds),
		strconv.FormatFloat(e.RSRemainingEntries, 'f', 0, 64), u(e.HoleBytes)}
}

// Writer writes an event log: the header, then one row per event given to Add.
type Writer struct {
	cw  *csv.Writer
	err error
}

// NewWriter writes the header to w and returns the Writer of the rows.
func NewWriter(w io.Writer) (*Writer, error) {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header()); err != nil {
		return nil, err
	}
	return &Writer{cw: cw}, nil
}

// Add writes e's row (heapsim.Options.OnEvent); after a write error it writes nothing more,
// and Flush returns the error.
func (w *Writer) Add(e *heapsim.Event) {
	if w.err == nil {
		w.err = w.cw.Write(Row(e))
	}
}

// Flush writes the buffered rows and returns the first error of the log.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	w.cw.Flush()
	return w.cw.Error()
}
