package lifetimes

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
)

// SummaryText is what WriteSummary states besides the Summary: rows a caller computed with
// other packages (the wall clock is simulated, the second hypothesis is a second reading of
// the profile).
type SummaryText struct {
	// Wall, when set, adds the long-lived share on the simulated wall clock.
	Wall *BucketShare
	// Stored, when set, are the containers under the second hypothesis a sampled export is
	// searched under; the containers row then states both, each with its words.
	Stored *ContainerStats
	// EstimateWords and StoredWords say each hypothesis in words (with Stored).
	EstimateWords, StoredWords string
}

// WriteSummary writes the summary table of `gctune lifetimes`: objects, bytes, the long-lived
// shares, the average lifetime, what is alive at the end, the live bytes, the bytes allocated
// directly in old space and the containers, one aligned row each.
func WriteSummary(w io.Writer, s *Summary, t SummaryText) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	ew := errwriter.New(tw)
	row := func(label, format string, args ...any) { ew.Printf("  "+label+"\t"+format+"\n", args...) }
	count := units.FormatCount
	row("objects", "%s (%s records, sampling rate %g)", count(s.Objects), count(uint64(s.Records)), s.SamplingRate)
	row("allocated", "%s (%s bytes); run length %s on the bytes clock", units.FormatBytes(s.Bytes), count(s.Bytes), units.FormatBytes(s.EndBytes))
	row("long-lived", "%s of objects, %s of bytes (lifetime ≥ %s of the run)",
		numfmt.PercentText(s.LongLivedObjectShare), numfmt.PercentText(s.LongLivedByteShare), numfmt.PercentText(s.LongLivedThreshold))
	if wl := t.Wall; wl != nil {
		row("long-lived (wall)", "%s of objects, %s of bytes (lifetime ≥ %g s on the default run's simulated wall clock, %.1f s with GC pauses; %s of the run)",
			numfmt.PercentText(wl.LongLivedObjectShare), numfmt.PercentText(wl.LongLivedByteShare), wl.BucketSeconds, wl.RunSeconds, numfmt.PercentText(wl.ThresholdShare))
	}
	row("average lifetime", "%s of the run", numfmt.PercentText(s.AverageLifetime))
	row("alive at end", "%s objects, %s", count(s.AliveAtEndObjects), units.FormatBytes(s.AliveAtEndBytes))
	peakAt := 0.0
	if s.EndBytes > 0 {
		peakAt = float64(s.PeakLiveAtBytes) / float64(s.EndBytes)
	}
	row("live bytes", "peak %s (first at %s of the run), final %s", units.FormatBytes(s.PeakLiveBytes), numfmt.PercentText(peakAt), units.FormatBytes(s.FinalLiveBytes))
	row("direct to old space", "%s objects, %s (%s of bytes)", count(s.DirectToOld.Objects), units.FormatBytes(s.DirectToOld.Bytes), numfmt.PercentText(s.DirectToOld.ByteShare))
	if t.Stored != nil {
		row("containers", "%s %s (this analysis);", ContainersText(s.Containers), t.EstimateWords)
		row("", "%s %s (optimize weighs both)", ContainersText(*t.Stored), t.StoredWords)
	} else {
		row("containers", "%s", ContainersText(s.Containers))
	}
	if ew.Err() != nil {
		return ew.Err()
	}
	return tw.Flush()
}

// ContainersText writes a profile's containers: "304 (526,167,649 slots, 3.9 GiB)".
func ContainersText(c ContainerStats) string {
	return fmt.Sprintf("%s (%s slots, %s)", units.FormatCount(uint64(c.Count)), units.FormatCount(c.TotalSlots), units.FormatBytes(c.TotalBytes))
}

// WriteLargest writes the table of the largest objects (nothing when the summary lists none),
// after a blank line.
func WriteLargest(w io.Writer, s *Summary) error {
	if len(s.Largest) == 0 {
		return nil
	}
	if _, err := io.WriteString(w, "\nlargest objects\n"); err != nil {
		return err
	}
	// Two passes, widths then rows, as tabwriter would align them, without holding a
	// million rows (--top 1000000) in a tabwriter's buffer.
	largestRow := func(l LargeObject) [7]string {
		var notes []string
		if l.OldSpace {
			notes = append(notes, "old space")
		}
		if l.AliveAtEnd {
			notes = append(notes, "alive at end")
		}
		born := 0.0
		if s.EndBytes > 0 {
			born = float64(l.BirthBytes) / float64(s.EndBytes)
		}
		return [7]string{"  " + units.FormatBytes(uint64(l.SizeBytes)), units.FormatCount(uint64(l.Slots)),
			units.FormatCount(uint64(l.Weight)), termtext.Quote(l.Class), numfmt.PercentText(born), numfmt.PercentText(l.Lifetime), strings.Join(notes, ", ")}
	}
	header := [7]string{"  SIZE", "SLOTS", "COUNT", "CLASS", "BORN AT", "LIFETIME", "NOTES"}
	var wid [7]int
	widen := func(r [7]string) {
		for i, c := range r {
			wid[i] = max(wid[i], utf8.RuneCountInString(c))
		}
	}
	widen(header)
	for _, l := range s.Largest {
		widen(largestRow(l))
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	print := func(r [7]string) {
		for i, c := range r[:6] {
			bw.WriteString(termtext.PadRight(c, wid[i]+2))
		}
		bw.WriteString(r[6])
		bw.WriteByte('\n')
	}
	print(header)
	for _, l := range s.Largest {
		print(largestRow(l))
	}
	return bw.Flush()
}

// WriteClasses writes the per-class table, its first n rows (0: all), after a blank line.
func WriteClasses(w io.Writer, s *Summary, n int) error {
	rows := s.Classes
	if n > 0 && len(rows) > n {
		rows = rows[:n]
	}
	if _, err := fmt.Fprintf(w, "\nclasses by allocations (%d of %d)\n", len(rows), len(s.Classes)); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	ew := errwriter.New(tw)
	ew.Printf("  CLASS\tALLOCATIONS\tBYTES\tAVG LIFETIME\tLONG-LIVED\n")
	for _, c := range rows {
		ew.Printf("  %s\t%s\t%s\t%s\t%s\n", termtext.Quote(c.Class), numfmt.PercentText(c.AllocationShare), numfmt.PercentText(c.ByteShare),
			numfmt.PercentText(c.AverageLifetime), numfmt.PercentText(c.LongLivedShare))
	}
	if ew.Err() != nil {
		return ew.Err()
	}
	return tw.Flush()
}

// histBarWidth is the width of the histogram's bars, in cells, for the largest share.
const histBarWidth = 24

// WriteHistogram draws the histogram as two columns of unicode bars, by count and by bytes,
// each scaled to its largest bin.
func WriteHistogram(w io.Writer, h *Histogram) error {
	ew := errwriter.New(w)
	kind := "evenly spaced"
	if h.Scale == LogScale {
		kind = "log-spaced"
	}
	ew.Printf("lifetime histogram (%s bins; lifetime as %% of the run)\n", kind)
	labels := make([]string, h.Bins())
	labelWidth := len("LIFETIME")
	for i := range labels {
		closing := ")"
		if i == h.Bins()-1 {
			closing = "]"
		}
		labels[i] = fmt.Sprintf("[%s, %s%s", numfmt.CompactPercent(h.Edges[i]), numfmt.CompactPercent(h.Edges[i+1]), closing)
		labelWidth = max(labelWidth, len(labels[i]))
	}
	var maxObj, maxBytes float64
	for i := range labels {
		maxObj = max(maxObj, h.ObjectShare[i])
		maxBytes = max(maxBytes, h.ByteShare[i])
	}
	col := histBarWidth + 12
	ew.Printf("  %s  %s%s\n", termtext.PadRight("LIFETIME", labelWidth), termtext.PadRight("OBJECTS", col), "BYTES")
	for i, l := range labels {
		objects := termtext.PadRight(termtext.Bar(h.ObjectShare[i], maxObj, histBarWidth), histBarWidth) + " " + fmt.Sprintf("%9s", numfmt.PercentText(h.ObjectShare[i]))
		bytes := termtext.PadRight(termtext.Bar(h.ByteShare[i], maxBytes, histBarWidth), histBarWidth) + " " + fmt.Sprintf("%9s", numfmt.PercentText(h.ByteShare[i]))
		ew.Printf("  %s  %s  %s\n", termtext.PadRight(l, labelWidth), objects, strings.TrimRight(bytes, " "))
	}
	return ew.Err()
}
