package lifetimes

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/profiletest"
)

func TestWriteSummaryRowsAndHypotheses(t *testing.T) {
	s, err := Summarize(profiletest.Small(t), AnalysisOptions{TopObjects: 3})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteSummary(&b, s, SummaryText{}))
	text := b.String()
	assert.Contains(t, text, "  objects              12 (6 records, sampling rate 1)\n")
	assert.Contains(t, text, "  long-lived           33.3 % of objects")
	assert.NotContains(t, text, "long-lived (wall)")
	assert.Contains(t, text, "  containers           "+ContainersText(s.Containers)+"\n")

	b.Reset()
	stored := ContainerStats{Count: 3, TotalSlots: 1234567, TotalBytes: 3 << 20}
	wall := &BucketShare{BucketSeconds: 1, RunSeconds: 12.34, LongLivedObjectShare: 0.25, LongLivedByteShare: 0.5, ThresholdShare: 0.08}
	require.NoError(t, WriteSummary(&b, s, SummaryText{Wall: wall, Stored: &stored, EstimateWords: "as estimated", StoredWords: "to the end"}))
	text = b.String()
	assert.Contains(t, text, "  long-lived (wall)    25 % of objects, 50 % of bytes (lifetime ≥ 1 s on the default run's simulated wall clock, 12.3 s with GC pauses; 8 % of the run)\n")
	assert.Contains(t, text, "  containers           "+ContainersText(s.Containers)+" as estimated (this analysis);\n")
	assert.Contains(t, text, "                       3 (1,234,567 slots, 3 MiB) to the end (optimize weighs both)\n")
}

func TestWriteLargestAndClasses(t *testing.T) {
	s, err := Summarize(profiletest.Small(t), AnalysisOptions{TopObjects: 2})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteLargest(&b, s))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 5, "a blank line, the title, the header and two rows")
	assert.Equal(t, "largest objects", lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "  SIZE "))
	// Columns line up: every row's CLASS column starts where the header's does.
	col := strings.Index(lines[2], "CLASS")
	for _, l := range lines[3:] {
		assert.NotEqual(t, " ", string([]rune(l)[col]), "row %q", l)
		assert.Equal(t, " ", string([]rune(l)[col-1]), "row %q", l)
	}

	b.Reset()
	require.NoError(t, WriteClasses(&b, s, 1))
	assert.Contains(t, b.String(), fmt.Sprintf("\nclasses by allocations (1 of %d)\n", len(s.Classes)))
	assert.Equal(t, 4, strings.Count(b.String(), "\n"), "the title, the header and one row")

	b.Reset()
	none := *s
	none.Largest = nil
	require.NoError(t, WriteLargest(&b, &none))
	assert.Empty(t, b.String())
}

func TestWriteHistogram(t *testing.T) {
	h, err := LifetimeHistogram(profiletest.Small(t), HistogramOptions{Bins: 4, Scale: LinearScale})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteHistogram(&b, h))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 2+h.Bins())
	assert.Equal(t, "lifetime histogram (evenly spaced bins; lifetime as % of the run)", lines[0])
	for i, l := range lines[2:] {
		label := strings.Fields(l)[0] + " " + strings.Fields(l)[1]
		if i == h.Bins()-1 {
			assert.True(t, strings.HasSuffix(label, "]"), "the last bin is closed: %q", label)
		} else {
			assert.True(t, strings.HasSuffix(label, ")"), "bin %d is half-open: %q", i, label)
		}
	}
	// The largest bin by count draws the full bar.
	full := strings.Repeat("█", histBarWidth)
	assert.Contains(t, b.String(), full)
	for _, l := range lines[2:] {
		assert.LessOrEqual(t, utf8.RuneCountInString(l), 2+len("[75 %, 100 %]")+2+histBarWidth+12+histBarWidth+10+2)
	}
}
